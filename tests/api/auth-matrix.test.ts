// Every order route × every credential case, through real HTTP: who is refused (401, 403, 404),
// with which problem, and that a refused request changes nothing; who is let through.
import { randomUUID } from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES, client, newOrder, SECRET, startService, type TestService } from '../support/http.js';

const OTHER_SECRET = 'another-secret-that-is-also-at-least-32-bytes-long';
const PROBLEM_BASE = 'https://errors.orders.example/';
const SCOPES = ALL_SCOPES.split(' ');
const OWNER = 'cus_a';
const OTHER = 'cus_b';
/** newOrder's total: 2 × 1999. */
const TOTAL = 3998;

type Response = Awaited<ReturnType<ReturnType<typeof client>>>;
type Target = 'none' | 'pending' | 'paid';

interface Route {
  readonly name: string;
  readonly method: string;
  /** The path; `id` is the order the request is aimed at (unused by collection routes). */
  path(id: string): string;
  readonly scope: string;
  /** Which order the route needs to succeed on. */
  readonly target: Target;
  request(): { body?: unknown; headers: Record<string, string> };
  readonly success: number;
  /** Checks the success response, and the order afterwards (read with a staff token). */
  verify(response: Response, orderId: string): Promise<void>;
}

const idempotent = () => ({ 'Idempotency-Key': `key-${randomUUID()}` });

let service: TestService;
let staff: ReturnType<typeof client>;
/** The last write of the set-up: collection reads wait for it. */
let consistencyToken = '';
/** Orders of cus_a used by the refusal cases: a pending one, and a paid one (for shipments). */
const fixtures: Record<'pending' | 'paid', string> = { pending: '', paid: '' };
let otherCustomersOrder = '';
const tokens = new Map<string, string>();

const ROUTES: readonly Route[] = [
  {
    name: 'POST /orders',
    method: 'POST',
    path: () => '/orders',
    scope: 'orders:write',
    target: 'none',
    request: () => ({ body: newOrder(OWNER), headers: idempotent() }),
    success: 201,
    async verify(response) {
      expect(response.body.customerId).toBe(OWNER);
      expect(response.body.status).toBe('pending');
      expect(response.headers.get('location')).toBe(`/orders/${response.body.id}`);
      expect((await staff('GET', `/orders/${response.body.id}`)).status).toBe(200);
    },
  },
  {
    name: 'GET /orders',
    method: 'GET',
    path: () => '/orders?limit=100',
    scope: 'orders:read',
    target: 'none',
    request: () => ({ headers: { 'Consistency-Token': consistencyToken } }),
    success: 200,
    async verify(response) {
      expect(Array.isArray(response.body.items)).toBe(true);
      const ids = (response.body.items as Array<{ id: string }>).map((o) => o.id);
      expect(ids).toContain(fixtures.pending);
    },
  },
  {
    name: 'GET /orders/{id}',
    method: 'GET',
    path: (id) => `/orders/${id}`,
    scope: 'orders:read',
    target: 'pending',
    request: () => ({ headers: {} }),
    success: 200,
    async verify(response, id) {
      expect(response.body).toMatchObject({ id, customerId: OWNER, status: 'pending', revision: 0 });
      expect(response.headers.get('etag')).toBe('"0"');
    },
  },
  {
    name: 'PATCH /orders/{id}',
    method: 'PATCH',
    path: (id) => `/orders/${id}`,
    scope: 'orders:write',
    target: 'pending',
    request: () => ({ body: { address: { city: 'Paris' } }, headers: { 'Content-Type': 'application/merge-patch+json' } }),
    success: 200,
    async verify(response, id) {
      expect(response.body).toMatchObject({ id, address: { city: 'Paris' } });
      expect((await staff('GET', `/orders/${id}`)).body.address.city).toBe('Paris');
    },
  },
  {
    name: 'POST /orders/{id}/payments',
    method: 'POST',
    path: (id) => `/orders/${id}/payments`,
    scope: 'payments:write',
    target: 'pending',
    request: () => ({ body: { amount: TOTAL, reference: `pay-${randomUUID()}` }, headers: idempotent() }),
    success: 201,
    async verify(response, id) {
      expect(response.body).toMatchObject({ orderId: id, amount: TOTAL });
      expect((await staff('GET', `/orders/${id}`)).body.status).toBe('paid');
    },
  },
  {
    name: 'POST /orders/{id}/shipments',
    method: 'POST',
    path: (id) => `/orders/${id}/shipments`,
    scope: 'shipments:write',
    target: 'paid',
    request: () => ({ body: { carrier: 'DHL', trackingNumber: `TN-${randomUUID()}` }, headers: idempotent() }),
    success: 201,
    async verify(response, id) {
      expect(response.body).toMatchObject({ orderId: id, carrier: 'DHL' });
      expect((await staff('GET', `/orders/${id}`)).body.status).toBe('shipped');
    },
  },
  {
    name: 'POST /orders/{id}/cancellation',
    method: 'POST',
    path: (id) => `/orders/${id}/cancellation`,
    scope: 'orders:write',
    target: 'pending',
    request: () => ({ body: { reason: 'changed my mind' }, headers: {} }),
    success: 200,
    async verify(response, id) {
      expect(response.body).toMatchObject({ id, status: 'cancelled' });
      expect((await staff('GET', `/orders/${id}`)).body.status).toBe('cancelled');
    },
  },
];

const now = () => Math.floor(Date.now() / 1000);
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function signWith(secret: string, payload: JWTPayload, alg = 'HS256'): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg, typ: 'JWT' }).sign(new TextEncoder().encode(secret));
}

/** Credentials that must be refused with 401: name → the Authorization header (null: none). */
const UNAUTHENTICATED: ReadonlyArray<{ name: string; authorization: () => string | null }> = [
  { name: 'no Authorization header', authorization: () => null },
  { name: 'token signed with another secret', authorization: () => `Bearer ${tokens.get('other-secret')}` },
  { name: 'expired token', authorization: () => `Bearer ${tokens.get('expired')}` },
  { name: 'alg:none token', authorization: () => `Bearer ${tokens.get('alg-none')}` },
  { name: 'HS512 token signed with the right secret', authorization: () => `Bearer ${tokens.get('hs512')}` },
  { name: 'token without exp', authorization: () => `Bearer ${tokens.get('no-exp')}` },
  { name: 'Basic credentials', authorization: () => `Basic ${Buffer.from('admin:admin').toString('base64')}` },
  { name: 'Bearer with garbage', authorization: () => 'Bearer this-is.not-a.jwt' },
  { name: 'Bearer with characters no token has', authorization: () => 'Bearer {"sub":"admin"}' },
  { name: 'Bearer without a token', authorization: () => 'Bearer' },
];

let sequence = 0;

/** Sends the route's valid request with the given Authorization header and a fresh correlation id. */
async function send(route: Route, orderId: string, authorization: string | null): Promise<Response & { sentCorrelationId: string }> {
  const { body, headers } = route.request();
  const sentCorrelationId = `auth-matrix-${++sequence}`;
  const all: Record<string, string> = { ...headers, 'X-Correlation-Id': sentCorrelationId };
  if (authorization !== null) all.Authorization = authorization;
  const response = await client(service, null)(route.method, route.path(orderId), { ...(body !== undefined ? { body } : {}), headers: all });
  return { ...response, sentCorrelationId };
}

function expectProblem(response: Response & { sentCorrelationId: string }, status: number, code: string): void {
  expect({ status: response.status, body: response.body }).toMatchObject({ status, body: { type: PROBLEM_BASE + code, status } });
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json(;|$)/);
  expect(typeof response.body.title).toBe('string');
  expect(response.headers.get('x-correlation-id')).toBe(response.sentCorrelationId);
  expect(response.body.correlationId).toBe(response.sentCorrelationId);
  expect(response.headers.get('api-version')).toBe('2026-11-01');
}

async function revisionOf(orderId: string): Promise<number> {
  const response = await staff('GET', `/orders/${orderId}`);
  expect(response.status).toBe(200);
  return response.body.revision as number;
}

/** Runs a request that must be refused, and checks that it appended nothing and left its order as it was. */
async function refused(route: Route, authorization: string | null) {
  const orderId = route.target === 'none' ? fixtures.pending : fixtures[route.target];
  const revision = await revisionOf(orderId);
  const head = await service.events.headPosition();
  const response = await send(route, orderId, authorization);
  expect(await service.events.headPosition()).toEqual(head);
  expect(await revisionOf(orderId)).toBe(revision);
  return response;
}

async function place(customerId: string): Promise<{ id: string; consistency: string }> {
  const response = await staff('POST', '/orders', { body: newOrder(customerId), headers: idempotent() });
  expect(response.status).toBe(201);
  return { id: response.body.id as string, consistency: response.headers.get('consistency-token') ?? '' };
}

async function pay(orderId: string): Promise<string> {
  const response = await staff('POST', `/orders/${orderId}/payments`, { body: { amount: TOTAL, reference: 'set-up' }, headers: idempotent() });
  expect(response.status).toBe(201);
  return response.headers.get('consistency-token') ?? '';
}

/** A fresh order of cus_a in the state the route needs. */
async function freshTarget(target: Target): Promise<string> {
  if (target === 'none') return '';
  const { id } = await place(OWNER);
  if (target === 'paid') await pay(id);
  return id;
}

beforeAll(async () => {
  service = await startService();
  staff = client(service, await service.token({ sub: 'staff-1', scope: ALL_SCOPES }));
  const claims = { sub: 'intruder', scope: ALL_SCOPES };
  tokens.set('other-secret', await signWith(OTHER_SECRET, { ...claims, exp: now() + 600 }));
  tokens.set('expired', await signWith(SECRET, { ...claims, iat: now() - 720, exp: now() - 120 }));
  tokens.set('alg-none', `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ ...claims, exp: now() + 600 })}.`);
  tokens.set('hs512', await signWith(SECRET, { ...claims, exp: now() + 600 }, 'HS512'));
  tokens.set('no-exp', await signWith(SECRET, { ...claims }));
  for (const scope of new Set(ROUTES.map((r) => r.scope))) {
    tokens.set(`without ${scope}`, await service.token({ sub: 'staff-2', scope: SCOPES.filter((s) => s !== scope).join(' ') }));
    tokens.set(`owner without ${scope}`, await service.token({ sub: 'cus-a-user', customerId: OWNER, scope: SCOPES.filter((s) => s !== scope).join(' ') }));
  }
  tokens.set('owner', await service.token({ sub: 'cus-a-user', customerId: OWNER, scope: ALL_SCOPES }));
  tokens.set('other customer', await service.token({ sub: 'cus-b-user', customerId: OTHER, scope: ALL_SCOPES }));
  tokens.set('staff', await service.token({ sub: 'staff-3', scope: ALL_SCOPES }));

  fixtures.pending = (await place(OWNER)).id;
  fixtures.paid = (await place(OWNER)).id;
  await pay(fixtures.paid);
  const other = await place(OTHER);
  otherCustomersOrder = other.id;
  consistencyToken = other.consistency;
  expect(consistencyToken).not.toBe('');
});

afterAll(async () => {
  await service?.stop();
});

describe('refused with 401 unauthenticated', () => {
  for (const route of ROUTES) {
    for (const credential of UNAUTHENTICATED) {
      it(`${route.name}: ${credential.name} → 401`, async () => {
        const authorization = credential.authorization();
        const response = await refused(route, authorization);
        expectProblem(response, 401, 'unauthenticated');
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer(\s|$)/);
        const token = authorization?.split(' ')[1];
        if (token) expect(JSON.stringify(response.body)).not.toContain(token);
      });
    }
  }
});

describe('refused with 403 forbidden: a valid token without the scope', () => {
  for (const route of ROUTES) {
    it(`${route.name}: staff token with every scope but ${route.scope} → 403`, async () => {
      const response = await refused(route, `Bearer ${tokens.get(`without ${route.scope}`)}`);
      expectProblem(response, 403, 'forbidden');
    });
    it(`${route.name}: owner's customer token with every scope but ${route.scope} → 403`, async () => {
      const response = await refused(route, `Bearer ${tokens.get(`owner without ${route.scope}`)}`);
      expectProblem(response, 403, 'forbidden');
    });
  }
});

describe("another customer's token (customer_id cus_b, every scope)", () => {
  /** The body without its correlation id, and with the order id replaced, so two 404s compare. */
  const normalised = (body: Record<string, unknown>, orderId: string) => {
    const { correlationId: _ignored, ...rest } = body;
    return JSON.parse(JSON.stringify(rest).split(orderId).join('{id}')) as unknown;
  };
  const headerNames = (response: Response) =>
    [...response.headers.keys()].filter((name) => !['date', 'content-length', 'ratelimit', 'keep-alive', 'connection'].includes(name)).sort();

  for (const route of ROUTES.filter((r) => r.target !== 'none')) {
    it(`${route.name}: cus_a's order → 404 not-found, exactly as an unknown order`, async () => {
      const authorization = `Bearer ${tokens.get('other customer')}`;
      const response = await refused(route, authorization);
      expectProblem(response, 404, 'not-found');
      const orderId = route.target === 'paid' ? fixtures.paid : fixtures.pending;

      const unknownId = randomUUID();
      const unknown = await send(route, unknownId, authorization);
      expectProblem(unknown, 404, 'not-found');
      expect(normalised(response.body, orderId)).toEqual(normalised(unknown.body, unknownId));
      expect(headerNames(response)).toEqual(headerNames(unknown));
      expect(response.headers.get('etag')).toBeNull();
    });
  }

  const placeOrders = ROUTES.find((r) => r.name === 'POST /orders')!;
  it('POST /orders: an order for cus_a → 403 forbidden', async () => {
    const response = await refused(placeOrders, `Bearer ${tokens.get('other customer')}`);
    expectProblem(response, 403, 'forbidden');
  });

  it("GET /orders: lists only cus_b's orders", async () => {
    const list = client(service, tokens.get('other customer')!);
    const response = await list('GET', '/orders?limit=100', { headers: { 'Consistency-Token': consistencyToken } });
    expect(response.status).toBe(200);
    const items = response.body.items as Array<{ id: string; customerId: string }>;
    expect(items.map((o) => o.id)).toContain(otherCustomersOrder);
    expect(items.every((o) => o.customerId === OTHER)).toBe(true);
    expect(items.map((o) => o.id)).not.toContain(fixtures.pending);
    expect(items.map((o) => o.id)).not.toContain(fixtures.paid);
  });

  it("GET /orders?status=pending: still only cus_b's orders", async () => {
    const list = client(service, tokens.get('other customer')!);
    const response = await list('GET', '/orders?status=pending&limit=100', { headers: { 'Consistency-Token': consistencyToken } });
    expect(response.status).toBe(200);
    const items = response.body.items as Array<{ id: string; customerId: string }>;
    expect(items.map((o) => o.id)).toContain(otherCustomersOrder);
    expect(items.every((o) => o.customerId === OTHER)).toBe(true);
  });

  it('GET /orders?customerId=cus_a → 403 forbidden', async () => {
    const route: Route = { ...ROUTES.find((r) => r.name === 'GET /orders')!, path: () => `/orders?customerId=${OWNER}` };
    const response = await refused(route, `Bearer ${tokens.get('other customer')}`);
    expectProblem(response, 403, 'forbidden');
  });

  it('GET /orders?customerId=cus_b → 200, its own orders', async () => {
    const list = client(service, tokens.get('other customer')!);
    const response = await list('GET', `/orders?customerId=${OTHER}&limit=100`, { headers: { 'Consistency-Token': consistencyToken } });
    expect(response.status).toBe(200);
    const items = response.body.items as Array<{ id: string; customerId: string }>;
    expect(items.map((o) => o.id)).toContain(otherCustomersOrder);
    expect(items.every((o) => o.customerId === OTHER)).toBe(true);
  });
});

describe('allowed', () => {
  const principals = [
    { name: "the owning customer's token (cus_a, every scope)", token: 'owner' },
    { name: 'a staff token (no customer_id, every scope)', token: 'staff' },
  ];
  for (const route of ROUTES) {
    for (const principal of principals) {
      it(`${route.name}: ${principal.name} → ${route.success}`, async () => {
        const orderId = await freshTarget(route.target);
        const response = await send(route, orderId, `Bearer ${tokens.get(principal.token)}`);
        expect({ status: response.status, body: response.body }).toMatchObject({ status: route.success });
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        expect(response.headers.get('x-correlation-id')).toBe(response.sentCorrelationId);
        expect(response.headers.get('api-version')).toBe('2026-11-01');
        await route.verify(response, orderId);
      });
    }
  }

  it("GET /orders: the owner's token lists only cus_a's orders", async () => {
    const list = client(service, tokens.get('owner')!);
    const response = await list('GET', '/orders?limit=100', { headers: { 'Consistency-Token': consistencyToken } });
    expect(response.status).toBe(200);
    const items = response.body.items as Array<{ id: string; customerId: string }>;
    expect(items.map((o) => o.id)).toEqual(expect.arrayContaining([fixtures.pending, fixtures.paid]));
    expect(items.every((o) => o.customerId === OWNER)).toBe(true);
  });

  it("GET /orders: a staff token lists every customer's orders", async () => {
    const response = await staff('GET', '/orders?limit=100', { headers: { 'Consistency-Token': consistencyToken } });
    expect(response.status).toBe(200);
    const ids = (response.body.items as Array<{ id: string }>).map((o) => o.id);
    expect(ids).toEqual(expect.arrayContaining([fixtures.pending, fixtures.paid, otherCustomersOrder]));
  });
});
