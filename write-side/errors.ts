// The write side's expected failures: typed values with stable codes that the HTTP layer
// maps to problem details. Anything else that is thrown is a bug and answers 500.
import type { OrderStatus } from './orders/types.js';
import type { JobStatus } from './jobs/types.js';

export abstract class DomainError extends Error {
  abstract readonly code: string;
}

/** The order's current state forbids the change. */
export class StateConflict extends DomainError {
  readonly code = 'state-conflict';
  constructor(
    message: string,
    readonly currentStatus: OrderStatus | JobStatus,
  ) {
    super(message);
  }
}

export class OrderNotFound extends DomainError {
  readonly code = 'not-found';
  constructor(readonly orderId: string) {
    super(`Order ${orderId} does not exist.`);
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
  constructor(readonly errors: readonly FieldError[]) {
    super(errors.map((e) => `${e.pointer}: ${e.message}`).join('; '));
  }
}

/** The caller pinned a revision (If-Match) and the order has moved on. */
export class PreconditionFailed extends DomainError {
  readonly code = 'precondition-failed';
  constructor(
    readonly expectedRevision: number,
    readonly actualRevision: number | null,
  ) {
    super(`Expected revision ${expectedRevision}, the order is at revision ${actualRevision ?? 'none'}.`);
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
  readonly code = 'unavailable';
  constructor(stream: string, attempts: number) {
    super(`Gave up on ${stream} after ${attempts} revision conflicts.`);
  }
}

/** The viewer may not do this whatever the resource (a customer token and what belongs to no single customer). */
export class Forbidden extends DomainError {
  readonly code = 'forbidden';
}
