// The expected failures of the layers below the API: typed values whose `code` is one of a
// closed union. api/problem.ts maps every code to problem details with an exhaustive switch, so
// a code added here without its answer there does not compile. No HTTP status lives here.
// Anything else that is thrown is a bug and answers 500.

export type ErrorCode =
  | 'not-found'
  | 'forbidden'
  | 'state-conflict'
  | 'validation-failed'
  | 'precondition-failed'
  | 'idempotency-key-reused'
  | 'concurrency-exhausted'
  | 'store-unavailable'
  | 'invalid-cursor'
  | 'invalid-position'
  | 'export-limit-reached'
  | 'views-behind'
  | 'insufficient-stock'
  | 'product-unavailable'
  | 'price-changed'
  | 'email-in-use'
  | 'unknown-customer'
  | 'invalid-credentials'
  | 'sign-in-throttled'
  | 'area-rule';

/** The one base of every expected error; its subclasses are the members of `KnownError`. */
export abstract class DomainError extends Error {
  abstract readonly code: ErrorCode;
}

/** The resource's current state forbids the change; `currentStatus` is its status (each area's own union). */
export class StateConflict extends DomainError {
  readonly code = 'state-conflict';
  constructor(
    message: string,
    readonly currentStatus: string,
  ) {
    super(message);
  }
}

/**
 * Unknown, or not the viewer's: the two read alike, so that nobody learns what exists. `kind`
 * names the resource (an area's own noun, `order`, `refund`), and the message says it unless given.
 */
export class NotFound extends DomainError {
  readonly code = 'not-found';
  constructor(
    readonly kind: string,
    readonly id: string,
    message = `${kind.charAt(0).toUpperCase()}${kind.slice(1)} ${id} does not exist.`,
  ) {
    super(message);
  }
}

export class StockNotFound extends NotFound {
  constructor(readonly sku: string) {
    super('stock', sku, `SKU ${sku} has no stock.`);
  }
}

export class CustomerNotFound extends NotFound {
  constructor(readonly customerId: string) {
    super('customer', customerId);
  }
}

export class OrderNotFound extends NotFound {
  constructor(readonly orderId: string) {
    super('order', orderId);
  }
}

/** Unknown, or retired: a retired product reads as one that never was. */
export class ProductNotFound extends NotFound {
  constructor(readonly sku: string) {
    super('product', sku);
  }
}

export class JobNotFound extends NotFound {
  constructor(readonly jobId: string) {
    super('job', jobId);
  }
}

export class AccountNotFound extends NotFound {
  constructor(readonly accountId: string) {
    super('account', accountId);
  }
}

export interface FieldError {
  /** JSON Pointer into the command's input, e.g. /lines/0/quantity. */
  readonly pointer: string;
  readonly message: string;
}

/** The command's input breaks a business rule that a schema cannot state. */
export class ValidationFailed extends DomainError {
  readonly code = 'validation-failed';
  constructor(
    readonly errors: readonly FieldError[],
    readonly summary = 'The request breaks a business rule.',
  ) {
    super(errors.map((e) => `${e.pointer}: ${e.message}`).join('; '));
  }
}

/**
 * The caller pinned a revision (If-Match) and the resource has moved on, or asked for the
 * resource to be absent (If-None-Match: *, `expectedRevision` 'absent') and it exists.
 */
export class PreconditionFailed extends DomainError {
  readonly code = 'precondition-failed';
  constructor(
    readonly expectedRevision: number | 'absent',
    readonly actualRevision: number | null,
  ) {
    super(
      expectedRevision === 'absent'
        ? 'The resource exists already (If-None-Match: *).'
        : `Expected revision ${expectedRevision}, the resource is at revision ${actualRevision ?? 'none'}.`,
    );
  }
}

/** An order line whose product cannot be ordered: `errors` point at each such line's sku. */
export class ProductUnavailable extends DomainError {
  readonly code = 'product-unavailable';
  constructor(readonly errors: readonly FieldError[]) {
    super(errors.map((e) => `${e.pointer}: ${e.message}`).join('; '));
  }
}

/** A line's price as the catalogue has it now, for a client that sent another. */
export interface CurrentPrice extends FieldError {
  readonly unitPrice: number;
}

/** An order line sent a unitPrice that is not the catalogue's: `errors` give the current ones. */
export class PriceChanged extends DomainError {
  readonly code = 'price-changed';
  constructor(readonly errors: readonly CurrentPrice[]) {
    super(errors.map((e) => `${e.pointer}: ${e.message}`).join('; '));
  }
}

/** The idempotency key was used before, by the same principal, for a different request. */
export class IdempotencyKeyReused extends DomainError {
  readonly code = 'idempotency-key-reused';
  constructor() {
    super('This Idempotency-Key was already used for a different request.');
  }
}

/** Too many concurrent writers kept moving the stream; the caller may retry. */
export class ConcurrencyExhausted extends DomainError {
  readonly code = 'concurrency-exhausted';
  constructor(stream: string, attempts: number) {
    super(`Gave up on ${stream} after ${attempts} revision conflicts.`);
  }
}

/** The viewer may not do this whatever the resource (a customer token and what belongs to no single customer). */
export class Forbidden extends DomainError {
  readonly code = 'forbidden';
}

/**
 * A store (or a service the stores need) cannot be reached or cannot write; nothing of the failed
 * call was written, unless it is an AppendOutcomeUnknown.
 */
export class StoreUnavailable extends DomainError {
  override readonly name: string = 'StoreUnavailable';
  readonly code = 'store-unavailable';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * An append that the store did not confirm in time (EventStoreDB's commit timeout, the client's
 * deadline): it may have been written or not. A keyed command retried with the same idempotency
 * key finds its events if they were written (and replays them), and appends them once if not.
 */
export class AppendOutcomeUnknown extends StoreUnavailable {
  override readonly name = 'AppendOutcomeUnknown';
  readonly outcome = 'unknown';
}

/** A position given from outside (a client's `after` or Last-Event-ID) that is no place in the event log. */
export class InvalidPosition extends DomainError {
  override readonly name = 'InvalidPosition';
  readonly code = 'invalid-position';
  constructor(
    readonly position: string,
    options?: { cause?: unknown },
  ) {
    super(`${position} is not a position in the event log`, options);
  }
}

/** A cursor that was tampered with, cannot be decoded, or belongs to another query. */
export class InvalidCursor extends DomainError {
  readonly code = 'invalid-cursor';
  constructor(reason: string) {
    super(`The cursor is not valid for this request: ${reason}.`);
  }
}

/** The principal already has as many exports queued or running as it may. */
export class ExportLimitReached extends DomainError {
  readonly code = 'export-limit-reached';
  constructor(readonly limit: number) {
    super(`At most ${limit} exports may be queued or running at once for one principal; wait for one to finish.`);
  }
}

/** The projected views did not reach a Consistency-Token's position in time; the caller may retry. */
export class ViewsBehind extends DomainError {
  readonly code = 'views-behind';
  constructor(readonly views: string) {
    super(`The ${views} have not caught up with that write yet; retry shortly.`);
  }
}

/** A line of the request that needs more stock than is available, and what is available. */
export interface ShortLine extends FieldError {
  readonly available: number;
}

/** An order line or a stock adjustment needs more than is available; nothing was reserved or changed. */
export class InsufficientStock extends DomainError {
  readonly code = 'insufficient-stock';
  constructor(readonly errors: readonly ShortLine[]) {
    super(errors.map((e) => `${e.pointer}: ${e.message}`).join('; '));
  }
}

/** A customer or account with this email exists (unique-values.ts keeps one owner per email). */
export class EmailInUse extends DomainError {
  readonly code = 'email-in-use';
  constructor() {
    super('Another record already uses this email.');
  }
}

/** An order names a customer that has no record (where one is required) or was erased. */
export class UnknownCustomer extends DomainError {
  readonly code = 'unknown-customer';
  constructor(
    readonly customerId: string,
    readonly reason: 'absent' | 'erased',
  ) {
    super(reason === 'erased' ? `Customer ${customerId} was erased and cannot order.` : `Customer ${customerId} does not exist; create it first (POST /customers).`);
  }
}

/** A sign-in with an unknown email, a wrong password or a disabled account: one answer for all, so nobody learns which. */
export class InvalidCredentials extends DomainError {
  readonly code = 'invalid-credentials';
  constructor() {
    super('The email or the password is not right.');
  }
}

/** Too many failed sign-ins for one email lately: none is tried until the oldest of them leaves the window. */
export class SignInThrottled extends DomainError {
  readonly code = 'sign-in-throttled';
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many failed sign-ins for this email; try again in ${retryAfterSeconds} s.`);
  }
}

/**
 * A rule of one area's own that a request broke (a refund over what was paid): `rule` is its
 * stable code, `details` the members its answer carries. The area declares how the API answers
 * it (api/<area>/, its `problems`), so that a new area adds its errors in its own folders.
 */
export abstract class AreaRuleBroken extends DomainError {
  readonly code = 'area-rule';
  abstract readonly rule: string;
  readonly details: Readonly<Record<string, unknown>> = {};
}

/** Every expected error: `code` tells them apart, so a switch on it narrows to the class. */
export type KnownError =
  | StateConflict
  | NotFound
  | ValidationFailed
  | PreconditionFailed
  | IdempotencyKeyReused
  | ConcurrencyExhausted
  | Forbidden
  | StoreUnavailable
  | InvalidCursor
  | InvalidPosition
  | ExportLimitReached
  | ViewsBehind
  | InsufficientStock
  | ProductUnavailable
  | PriceChanged
  | EmailInUse
  | UnknownCustomer
  | InvalidCredentials
  | SignInThrottled
  | AreaRuleBroken;

// Every code has its class in the union: a code added above without one fails to compile here.
const everyCodeHasAClass: Record<Exclude<ErrorCode, KnownError['code']>, never> = {};
void everyCodeHasAClass;

export function isKnownError(error: unknown): error is KnownError {
  return error instanceof DomainError;
}
