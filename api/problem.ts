// RFC 9457 problem details: the one error format of the API, with stable `type` codes. The
// layers below throw errors with domain codes (write-side/kernel/errors.ts); this module alone says
// each one over HTTP, with a switch the compiler checks for every code.
import type { JobError } from '../write-side/jobs/types.js';
import { AppendOutcomeUnknown, AreaRuleBroken, isKnownError, type FieldError, type KnownError } from '../write-side/kernel/errors.js';
import { KeySetUnavailable } from './auth.js';

export const PROBLEM_BASE = 'https://errors.orders.example/';

export const PROBLEM_TITLES = {
  'malformed-json': 'Malformed JSON',
  'malformed-request': 'Malformed request',
  'headers-too-large': 'Request headers too large',
  'request-timeout': 'Request timeout',
  'validation-failed': 'Validation failed',
  'invalid-cursor': 'Invalid cursor',
  'idempotency-key-missing': 'Idempotency-Key missing',
  'token-in-query': 'Token in query string',
  'unsupported-api-version': 'Unsupported API version',
  unauthenticated: 'Unauthenticated',
  forbidden: 'Forbidden',
  'not-found': 'Not found',
  'method-not-allowed': 'Method not allowed',
  'state-conflict': 'Order state conflict',
  'idempotency-key-in-use': 'Idempotency-Key in use',
  'insufficient-stock': 'Insufficient stock',
  'email-in-use': 'Email in use',
  'precondition-failed': 'Precondition failed',
  'payload-too-large': 'Payload too large',
  'unsupported-media-type': 'Unsupported media type',
  'not-acceptable': 'Not acceptable',
  'idempotency-key-reused': 'Idempotency-Key reused',
  'product-unavailable': 'Product unavailable',
  'price-changed': 'Price changed',
  'unknown-customer': 'Unknown customer',
  'result-expired': 'Result expired',
  'rate-limited': 'Too many requests',
  'invalid-credentials': 'Invalid credentials',
  internal: 'Internal server error',
  unavailable: 'Service unavailable',
} as const;

export type ProblemCode = keyof typeof PROBLEM_TITLES;

/** How an area answers one of its own rules (AreaRuleBroken): the rule's code is the problem's. */
export interface AreaProblem {
  readonly status: number;
  readonly title: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The areas' own problems by their codes (api/areas.ts gathers them). */
export type AreaProblems = ReadonlyMap<string, AreaProblem>;

/** An error the API answers with as it is: status, code, a message fit for clients, extra members and headers. */
export class HttpProblem extends Error {
  /** The problem's stable code: one of PROBLEM_TITLES, or an area's own (AreaProblem). */
  readonly code: string;
  readonly title: string;

  constructor(
    readonly status: number,
    code: ProblemCode | { readonly code: string; readonly title: string },
    readonly detail: string,
    readonly extra: Readonly<Record<string, unknown>> = {},
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(detail);
    this.code = typeof code === 'string' ? code : code.code;
    this.title = typeof code === 'string' ? PROBLEM_TITLES[code] : code.title;
  }

  get type(): string {
    return PROBLEM_BASE + this.code;
  }
}

export const validationFailed = (errors: readonly FieldError[], detail = 'The request does not match the schema.') =>
  new HttpProblem(400, 'validation-failed', detail, { errors });

/** Maps the errors of the layers below to problems; anything unknown (an area rule no area answers, too) is null (a 500). */
export function toProblem(error: unknown, areaProblems: AreaProblems = new Map()): HttpProblem | null {
  if (error instanceof HttpProblem) return error;
  if (error instanceof AreaRuleBroken) {
    const answer = areaProblems.get(error.rule);
    return answer ? new HttpProblem(answer.status, { code: error.rule, title: answer.title }, error.message, error.details, answer.headers ?? {}) : null;
  }
  if (isKnownError(error)) return knownProblem(error);
  if (error instanceof KeySetUnavailable) return new HttpProblem(503, 'unavailable', 'A dependency is unavailable; retry shortly.', {}, { 'Retry-After': '2' });
  return null;
}

function knownProblem(error: KnownError): HttpProblem {
  switch (error.code) {
    case 'not-found':
      return new HttpProblem(404, 'not-found', error.message);
    case 'forbidden':
      return new HttpProblem(403, 'forbidden', error.message);
    case 'state-conflict':
      return new HttpProblem(409, 'state-conflict', error.message, { currentStatus: error.currentStatus });
    case 'validation-failed':
      return validationFailed(error.errors, error.summary);
    case 'precondition-failed':
      return new HttpProblem(412, 'precondition-failed', error.message, error.actualRevision === null ? {} : { currentRevision: error.actualRevision });
    case 'idempotency-key-reused':
      return new HttpProblem(422, 'idempotency-key-reused', error.message);
    case 'invalid-cursor':
      return new HttpProblem(400, 'invalid-cursor', error.message);
    case 'concurrency-exhausted':
      return new HttpProblem(503, 'unavailable', 'The order is changing too fast; retry shortly.', {}, { 'Retry-After': '1' });
    case 'store-unavailable':
      if (error instanceof AppendOutcomeUnknown) {
        return new HttpProblem(
          503,
          'unavailable',
          'The event store did not confirm the write in time: it may or may not have taken effect. Retrying with the same Idempotency-Key is safe: ' +
            'it returns the first outcome if the write took effect, and makes it once if not. Without a key, read the order again before retrying.',
          { outcome: error.outcome },
          { 'Retry-After': '2' },
        );
      }
      return new HttpProblem(503, 'unavailable', 'A store is unavailable; retry shortly.', {}, { 'Retry-After': '2' });
    case 'insufficient-stock':
      return new HttpProblem(409, 'insufficient-stock', 'Not enough stock is available; nothing was reserved or changed.', { errors: error.errors });
    case 'unknown-customer':
      return new HttpProblem(422, 'unknown-customer', error.message, { errors: [{ pointer: '/customerId', message: error.reason === 'erased' ? 'names an erased customer' : 'names no customer' }] });
    case 'email-in-use':
      return new HttpProblem(409, 'email-in-use', error.message);
    case 'views-behind':
      return new HttpProblem(503, 'unavailable', error.message, {}, { 'Retry-After': '1' });
    case 'invalid-position':
      return new HttpProblem(400, 'invalid-cursor', 'The position given (after or Last-Event-ID) is not a place in the event log; start again without it.');
    case 'product-unavailable':
      return new HttpProblem(422, 'product-unavailable', 'Some order lines name a product that cannot be ordered: unknown, retired, not active, or without a price in the order\'s currency.', { errors: error.errors });
    case 'price-changed':
      return new HttpProblem(409, 'price-changed', 'Some order lines sent a unitPrice that is not the catalogue\'s; errors give the current prices. Send them, or leave unitPrice out.', { errors: error.errors });
    case 'export-limit-reached':
      return new HttpProblem(429, 'rate-limited', error.message, { limit: error.limit }, { 'Retry-After': String(EXPORT_LIMIT_RETRY_AFTER_SECONDS) });
    case 'invalid-credentials':
      return new HttpProblem(401, 'invalid-credentials', error.message, {}, { 'WWW-Authenticate': 'Bearer realm="orders"' });
    case 'sign-in-throttled':
      return new HttpProblem(429, 'rate-limited', error.message, {}, { 'Retry-After': String(error.retryAfterSeconds) });
    case 'area-rule':
      throw new TypeError('an area rule is answered by its area (toProblem)');
    default: {
      const unhandled: never = error;
      throw new TypeError(`no problem for error code ${(unhandled as KnownError).code}`);
    }
  }
}

/** How long a principal at its export limit is told to wait: about how long a small export takes. */
export const EXPORT_LIMIT_RETRY_AFTER_SECONDS = 5;

/** A failed job's domain code, as the problem details its representation carries. */
export function jobErrorProblem(error: JobError): { type: string; title: string; status: number; detail: string } {
  const as = (status: number, code: ProblemCode) => ({ type: PROBLEM_BASE + code, title: PROBLEM_TITLES[code], status, detail: error.detail });
  switch (error.code) {
    case 'store-unavailable':
      return as(503, 'unavailable');
    case 'export-failed':
    case 'attempts-exhausted':
      return as(500, 'internal');
    case 'subscription-deleted':
      return as(404, 'not-found');
    default: {
      const unhandled: never = error.code;
      throw new TypeError(`no problem for job error ${String(unhandled)}`);
    }
  }
}
