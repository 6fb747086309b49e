// RFC 9457 problem details: the one error format of the API, with stable `type` codes.
import { InvalidCursor } from '../read-side/cursor.js';
import { ViewsBehind } from '../read-side/errors.js';
import { StoreUnavailable } from '../write-side/event-store.js';
import { JobNotFound } from '../write-side/jobs/decider.js';
import {
  ConcurrencyExhausted,
  Forbidden,
  IdempotencyKeyReused,
  OrderNotFound,
  PreconditionFailed,
  StateConflict,
  ValidationFailed,
  type FieldError,
} from '../write-side/errors.js';

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
  'precondition-failed': 'Precondition failed',
  'payload-too-large': 'Payload too large',
  'unsupported-media-type': 'Unsupported media type',
  'not-acceptable': 'Not acceptable',
  'idempotency-key-reused': 'Idempotency-Key reused',
  'result-expired': 'Result expired',
  'rate-limited': 'Too many requests',
  internal: 'Internal server error',
  unavailable: 'Service unavailable',
} as const;

export type ProblemCode = keyof typeof PROBLEM_TITLES;

/** An error the API answers with as it is: status, code, a message fit for clients, extra members and headers. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: ProblemCode,
    readonly detail: string,
    readonly extra: Readonly<Record<string, unknown>> = {},
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(detail);
  }
}

export const validationFailed = (errors: readonly FieldError[], detail = 'The request does not match the schema.') =>
  new HttpProblem(400, 'validation-failed', detail, { errors });

/** Maps the errors of the layers below to problems; anything unknown is null (a 500). */
export function toProblem(error: unknown): HttpProblem | null {
  if (error instanceof HttpProblem) return error;
  if (error instanceof Forbidden) return new HttpProblem(403, 'forbidden', error.message);
  if (error instanceof StateConflict) return new HttpProblem(409, 'state-conflict', error.message, { currentStatus: error.currentStatus });
  if (error instanceof OrderNotFound || error instanceof JobNotFound) return new HttpProblem(404, 'not-found', error.message);
  if (error instanceof ValidationFailed) return validationFailed(error.errors, 'The request breaks a business rule.');
  if (error instanceof PreconditionFailed) {
    return new HttpProblem(412, 'precondition-failed', error.message, { currentRevision: error.actualRevision });
  }
  if (error instanceof IdempotencyKeyReused) return new HttpProblem(422, 'idempotency-key-reused', error.message);
  if (error instanceof InvalidCursor) return new HttpProblem(400, 'invalid-cursor', error.message);
  if (error instanceof ConcurrencyExhausted) {
    return new HttpProblem(503, 'unavailable', 'The order is changing too fast; retry shortly.', {}, { 'Retry-After': '1' });
  }
  if (error instanceof ViewsBehind) return new HttpProblem(503, 'unavailable', error.message, {}, { 'Retry-After': '1' });
  if (error instanceof StoreUnavailable) {
    return new HttpProblem(503, 'unavailable', 'A store is unavailable; retry shortly.', {}, { 'Retry-After': '2' });
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'unavailable') return new HttpProblem(503, 'unavailable', 'A dependency is unavailable; retry shortly.', {}, { 'Retry-After': '2' });
  return null;
}
