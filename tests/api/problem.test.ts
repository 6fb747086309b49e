// The one mapping from the domain's error codes to problem details: every code has its answer.
import { describe, expect, it } from 'vitest';
import { jobErrorProblem, PROBLEM_BASE, toProblem, type AreaProblems } from '../../api/problem.js';
import {
  AreaRuleBroken,
  ConcurrencyExhausted,
  EmailInUse,
  InvalidCredentials,
  SignInThrottled,
  UnknownCustomer,
  ExportLimitReached,
  Forbidden,
  IdempotencyKeyReused,
  InsufficientStock,
  InvalidCursor,
  InvalidPosition,
  JobNotFound,
  OrderNotFound,
  PreconditionFailed,
  PriceChanged,
  ProductUnavailable,
  StateConflict,
  StoreUnavailable,
  ValidationFailed,
  ViewsBehind,
  type ErrorCode,
  type KnownError,
} from '../../write-side/kernel/errors.js';
import type { JobErrorCode } from '../../write-side/jobs/types.js';

/** An area's own rule, as a new area declares one (its error in its write-side folder, its answer in its API folder). */
class RefundTooLarge extends AreaRuleBroken {
  readonly rule = 'refund-too-large';
  override readonly details: { readonly refundable: number };
  constructor(refundable: number) {
    super(`At most ${refundable} can be refunded.`);
    this.details = { refundable };
  }
}
// A Record over the closed union: a code added to write-side/kernel/errors.ts without a case here does not compile.
const CASES: Record<ErrorCode, { error: KnownError; status: number; code: string; extra?: object; headers?: object }> = {
  'not-found': { error: new OrderNotFound('o-1'), status: 404, code: 'not-found' },
  forbidden: { error: new Forbidden('A customer token cannot do this.'), status: 403, code: 'forbidden' },
  'state-conflict': { error: new StateConflict('Order o-1 is shipped.', 'shipped'), status: 409, code: 'state-conflict', extra: { currentStatus: 'shipped' } },
  'validation-failed': {
    error: new ValidationFailed([{ pointer: '/amount', message: 'must equal the total' }]),
    status: 400,
    code: 'validation-failed',
    extra: { errors: [{ pointer: '/amount', message: 'must equal the total' }] },
  },
  'precondition-failed': { error: new PreconditionFailed(1, 3), status: 412, code: 'precondition-failed', extra: { currentRevision: 3 } },
  'idempotency-key-reused': { error: new IdempotencyKeyReused(), status: 422, code: 'idempotency-key-reused' },
  'concurrency-exhausted': { error: new ConcurrencyExhausted('order-1', 8), status: 503, code: 'unavailable', headers: { 'Retry-After': '1' } },
  'store-unavailable': { error: new StoreUnavailable('disk on fire at /var/lib/x'), status: 503, code: 'unavailable', headers: { 'Retry-After': '2' } },
  'invalid-cursor': { error: new InvalidCursor('tampered'), status: 400, code: 'invalid-cursor' },
  'product-unavailable': {
    error: new ProductUnavailable([{ pointer: '/lines/0/sku', message: 'there is no product X' }]),
    status: 422,
    code: 'product-unavailable',
    extra: { errors: [{ pointer: '/lines/0/sku', message: 'there is no product X' }] },
  },
  'price-changed': {
    error: new PriceChanged([{ pointer: '/lines/0/unitPrice', message: 'is 1999', unitPrice: 1999 }]),
    status: 409,
    code: 'price-changed',
    extra: { errors: [{ pointer: '/lines/0/unitPrice', message: 'is 1999', unitPrice: 1999 }] },
  },
  'views-behind': { error: new ViewsBehind('collections'), status: 503, code: 'unavailable', headers: { 'Retry-After': '1' } },
  'invalid-position': { error: new InvalidPosition('00000000000000070000000000000007'), status: 400, code: 'invalid-cursor' },
  'insufficient-stock': {
    error: new InsufficientStock([{ pointer: '/lines/0/quantity', message: 'SKU-1: 3 asked, 1 available', available: 1 }]),
    status: 409,
    code: 'insufficient-stock',
    extra: { errors: [{ pointer: '/lines/0/quantity', message: 'SKU-1: 3 asked, 1 available', available: 1 }] },
  },
  'email-in-use': { error: new EmailInUse(), status: 409, code: 'email-in-use' },
  'invalid-credentials': { error: new InvalidCredentials(), status: 401, code: 'invalid-credentials', headers: { 'WWW-Authenticate': 'Bearer realm="orders"' } },
  'sign-in-throttled': { error: new SignInThrottled(840), status: 429, code: 'rate-limited', headers: { 'Retry-After': '840' } },
  'unknown-customer': {
    error: new UnknownCustomer('cus_gone', 'erased'),
    status: 422,
    code: 'unknown-customer',
    extra: { errors: [{ pointer: '/customerId', message: 'names an erased customer' }] },
  },
  'export-limit-reached': { error: new ExportLimitReached(5), status: 429, code: 'rate-limited', extra: { limit: 5 }, headers: { 'Retry-After': expect.stringMatching(/^[1-9]\d*$/) } },
  'area-rule': { error: new RefundTooLarge(300), status: 409, code: 'refund-too-large', extra: { refundable: 300 }, headers: { 'Retry-After': '0' } },
};

const AREA_PROBLEMS: AreaProblems = new Map([['refund-too-large', { status: 409, title: 'Refund too large', headers: { 'Retry-After': '0' } }]]);

describe('problem details from domain errors', () => {
  for (const [domainCode, expected] of Object.entries(CASES)) {
    it(`answers ${domainCode} with ${expected.status} ${expected.code}`, () => {
      expect(expected.error.code).toBe(domainCode);
      const problem = toProblem(expected.error, AREA_PROBLEMS);
      expect(problem).toMatchObject({ status: expected.status, code: expected.code, extra: expected.extra ?? {}, headers: expected.headers ?? {} });
    });
  }

  it("answers an area's rule with the problem its area declares, type and title included, and leaves one no area answers to the 500 answer", () => {
    expect(toProblem(new RefundTooLarge(300), AREA_PROBLEMS)).toMatchObject({ type: PROBLEM_BASE + 'refund-too-large', title: 'Refund too large', detail: 'At most 300 can be refunded.' });
    expect(toProblem(new RefundTooLarge(300))).toBeNull();
  });

  it('answers an unknown job as an unknown order is answered', () => {
    expect(toProblem(new JobNotFound('j-1'))).toMatchObject({ status: 404, code: 'not-found', detail: 'Job j-1 does not exist.' });
  });

  it('never shows an internal message of a store failure', () => {
    expect(toProblem(new StoreUnavailable('disk on fire at /var/lib/x'))?.detail).not.toContain('disk');
  });

  it('leaves anything unexpected to the 500 answer', () => {
    expect(toProblem(new Error('bug'))).toBeNull();
    expect(toProblem({ code: 'not-found' })).toBeNull();
  });
});

describe('problem details from a failed job’s domain code', () => {
  const JOB_CASES: Record<JobErrorCode, { status: number; code: string }> = {
    'export-failed': { status: 500, code: 'internal' },
    'attempts-exhausted': { status: 500, code: 'internal' },
    'store-unavailable': { status: 503, code: 'unavailable' },
    'subscription-deleted': { status: 404, code: 'not-found' },
  };
  for (const [code, expected] of Object.entries(JOB_CASES) as Array<[JobErrorCode, { status: number; code: string }]>) {
    it(`says ${code} as ${expected.status} ${expected.code}`, () => {
      expect(jobErrorProblem({ code, detail: 'Start a new export.' })).toEqual({
        type: PROBLEM_BASE + expected.code,
        title: expect.any(String),
        status: expected.status,
        detail: 'Start a new export.',
      });
    });
  }
});
