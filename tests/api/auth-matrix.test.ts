// Every order route × every credential case, through real HTTP: who is refused (401, 403, 404),
// with which problem, and that a refused request changes nothing; who is let through.
import type Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';
import type Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredRoutes } from '../../api/areas.js';
import { serviceViewer } from '../../write-side/kernel/access.js';
import { WebhookDeliveryService } from '../../write-side/webhooks/deliveries.js';
import { deliveryIdOf } from '../../write-side/webhooks/delivery-log.js';
import { adminScriptPath } from '../support/admin-build.js';
import { ALL_SCOPES, client, newOrder, SECRET, startService, type TestService } from '../support/http.js';
import { receiveStock, TEST_SKUS } from '../support/seed.js';
import { until } from '../support/until.js';

const OTHER_SECRET = 'another-secret-that-is-also-at-least-32-bytes-long';
const PROBLEM_BASE = 'https://errors.orders.example/';
const SCOPES = ALL_SCOPES.split(' ');
const OWNER = 'cus_a';
const OTHER = 'cus_b';
/** newOrder's total: 2 × 1999. */
const TOTAL = 3998;

type Response = Awaited<ReturnType<ReturnType<typeof client>>>;
/** The order a route acts on: none, pending, paid, shipped (all of it), or shipped with a return of one unit requested. */
type Target = 'none' | 'pending' | 'paid' | 'shipped' | 'returning';

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
  /**
   * What belongs to no single customer (catalogue writes), or what a customer's token may never do
   * (a shipment, a receipt, a refund, an edit): a customer token is refused whatever its scopes.
   */
  readonly staffOnly?: true;
  /** The scope that serves a customer's own token instead (returns: orders:write); staff still need `scope`. */
  readonly customerScope?: string;
}

const PRODUCT = { name: 'Matrix mug', prices: { EUR: 999 }, status: 'active' };
const WEBHOOK_SUBSCRIPTION = { url: 'https://hooks.partner.example/matrix', events: ['order.paid'] };
/** Products the catalogue rows act on, defined by staff in the set-up. */
const products = { patched: 'AM-PATCHED', retired: 'AM-RETIRED' };

const idempotent = () => ({ 'Idempotency-Key': `key-${randomUUID()}` });
/** The return requested of each 'returning' order; an order with none names a return that does not exist. */
const returnIds = new Map<string, string>();
const NO_RETURN = '00000000-0000-4000-8000-00000000000f';
const returnOf = (orderId: string) => returnIds.get(orderId) ?? NO_RETURN;
/**
 * A problem without its correlation id, and with `id` and every UUID in it (an order's, a return's)
 * replaced: two 404s for different ids compare.
 */
const UUIDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const withoutIds = (body: Record<string, unknown>, id = '') => {
  const { correlationId: _ignored, ...rest } = body;
  const text = JSON.stringify(rest);
  return JSON.parse((id === '' ? text : text.split(id).join('{id}')).replace(UUIDS, '{id}')) as unknown;
};

let service: TestService;
let staff: ReturnType<typeof client>;
/** The last write of the set-up: collection reads wait for it. */
let consistencyToken = '';
/** Orders of cus_a used by the refusal cases: one in each state a route needs. */
const fixtures: Record<Exclude<Target, 'none'>, string> = { pending: '', paid: '', shipped: '', returning: '' };
let otherCustomersOrder = '';
const tokens = new Map<string, string>();

/** Each row's scope is the one its operation declares (api/areas.ts); a row naming no declared operation fails here. */
const withDeclaredScope = (rows: ReadonlyArray<Omit<Route, 'scope'>>): readonly Route[] =>
  rows.map((row) => {
    const declared = declaredRoutes().find(({ method, path }) => `${method} ${path.replace(/:(\w+)/g, '{$1}')}` === row.name);
    if (!declared?.scope) throw new Error(`${row.name} is not a declared operation that needs a scope`);
    return { ...row, scope: declared.scope };
  });

const ROUTES: readonly Route[] = withDeclaredScope([
  {
    name: 'POST /orders',
    method: 'POST',
    path: () => '/orders',
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
    target: 'paid',
    request: () => ({ body: { carrier: 'DHL', trackingNumber: `TN-${randomUUID()}` }, headers: idempotent() }),
    success: 201,
    staffOnly: true,
    async verify(response, id) {
      expect(response.body).toMatchObject({ orderId: id, carrier: 'DHL', lines: [{ sku: 'SKU-1', quantity: 2 }] });
      expect((await staff('GET', `/orders/${id}`)).body.status).toBe('shipped');
    },
  },
  {
    name: 'GET /orders/{id}/shipments',
    method: 'GET',
    path: (id) => `/orders/${id}/shipments`,
    target: 'shipped',
    request: () => ({ headers: {} }),
    success: 200,
    async verify(response, id) {
      expect(response.body.items).toEqual([expect.objectContaining({ orderId: id, lines: [{ sku: 'SKU-1', quantity: 2 }] })]);
    },
  },
  {
    name: 'POST /orders/{id}/returns',
    method: 'POST',
    path: (id) => `/orders/${id}/returns`,
    target: 'shipped',
    customerScope: 'orders:write',
    request: () => ({ body: { lines: [{ sku: 'SKU-1', quantity: 1 }], reason: 'too small' }, headers: idempotent() }),
    success: 201,
    async verify(response, id) {
      expect(response.body).toMatchObject({ orderId: id, status: 'requested', lines: [{ sku: 'SKU-1', quantity: 1 }] });
      expect((await staff('GET', `/orders/${id}/returns`)).body.items).toEqual([response.body]);
    },
  },
  {
    name: 'GET /orders/{id}/returns',
    method: 'GET',
    path: (id) => `/orders/${id}/returns`,
    target: 'returning',
    request: () => ({ headers: {} }),
    success: 200,
    async verify(response, id) {
      expect(response.body.items).toEqual([expect.objectContaining({ id: returnOf(id), orderId: id, status: 'requested' })]);
    },
  },
  {
    name: 'POST /orders/{id}/returns/{returnId}/receipt',
    method: 'POST',
    path: (id) => `/orders/${id}/returns/${returnOf(id)}/receipt`,
    target: 'returning',
    request: () => ({ body: { lines: [{ sku: 'SKU-1', quantity: 1, restock: true }] }, headers: {} }),
    success: 200,
    staffOnly: true,
    async verify(response, id) {
      expect(response.body).toMatchObject({ id: returnOf(id), orderId: id, status: 'received' });
      expect((await staff('GET', `/orders/${id}`)).body.lines[0].returned).toBe(1);
    },
  },
  {
    name: 'POST /orders/{id}/returns/{returnId}/cancellation',
    method: 'POST',
    path: (id) => `/orders/${id}/returns/${returnOf(id)}/cancellation`,
    target: 'returning',
    customerScope: 'orders:write',
    request: () => ({ headers: {} }),
    success: 200,
    async verify(response, id) {
      expect(response.body).toMatchObject({ id: returnOf(id), orderId: id, status: 'cancelled' });
    },
  },
  {
    name: 'POST /orders/{id}/refunds',
    method: 'POST',
    path: (id) => `/orders/${id}/refunds`,
    target: 'paid',
    request: () => ({ body: { amount: 100, reason: 'goodwill' }, headers: idempotent() }),
    success: 201,
    staffOnly: true,
    async verify(response, id) {
      expect(response.body).toMatchObject({ orderId: id, amount: 100, reason: 'goodwill', note: null });
      expect((await staff('GET', `/orders/${id}`)).body.balance).toMatchObject({ refunded: 100, due: 100 });
    },
  },
  {
    name: 'POST /orders/{id}/edits',
    method: 'POST',
    path: (id) => `/orders/${id}/edits`,
    target: 'pending',
    request: () => ({ body: { lines: [{ sku: 'SKU-1', quantity: 1 }] }, headers: idempotent() }),
    success: 201,
    staffOnly: true,
    async verify(response, id) {
      expect(response.body).toMatchObject({ orderId: id, after: [{ sku: 'SKU-1', quantity: 1 }] });
      expect((await staff('GET', `/orders/${id}`)).body).toMatchObject({ total: 1999, lines: [{ quantity: 1 }] });
    },
  },
  {
    name: 'POST /orders/{id}/cancellation',
    method: 'POST',
    path: (id) => `/orders/${id}/cancellation`,
    target: 'pending',
    request: () => ({ body: { reason: 'changed my mind' }, headers: {} }),
    success: 200,
    async verify(response, id) {
      expect(response.body).toMatchObject({ id, status: 'cancelled' });
      expect((await staff('GET', `/orders/${id}`)).body.status).toBe('cancelled');
    },
  },
  {
    name: 'GET /products',
    method: 'GET',
    path: () => '/products?limit=100',
    target: 'none',
    request: () => ({ headers: { 'Consistency-Token': consistencyToken } }),
    success: 200,
    async verify(response) {
      expect((response.body.items as Array<{ sku: string }>).map((p) => p.sku)).toContain('SKU-1');
    },
  },
  {
    name: 'GET /products/{sku}',
    method: 'GET',
    path: () => '/products/SKU-1',
    target: 'none',
    request: () => ({ headers: {} }),
    success: 200,
    async verify(response) {
      expect(response.body).toMatchObject({ sku: 'SKU-1', prices: { EUR: 1999 } });
    },
  },
  {
    name: 'PUT /products/{sku}',
    method: 'PUT',
    path: () => `/products/AM-${randomUUID().slice(0, 8)}`,
    target: 'none',
    request: () => ({ body: PRODUCT, headers: {} }),
    success: 201,
    staffOnly: true,
    async verify(response) {
      expect(response.body).toMatchObject(PRODUCT);
      expect((await staff('GET', `/products/${response.body.sku}`)).status).toBe(200);
    },
  },
  {
    name: 'PATCH /products/{sku}',
    method: 'PATCH',
    path: () => `/products/${products.patched}`,
    target: 'none',
    request: () => ({ body: { prices: { USD: 1099 } }, headers: { 'Content-Type': 'application/merge-patch+json' } }),
    success: 200,
    staffOnly: true,
    async verify(response) {
      expect(response.body.prices).toEqual({ EUR: 999, USD: 1099 });
    },
  },
  {
    name: 'DELETE /products/{sku}',
    method: 'DELETE',
    path: () => `/products/${products.retired}`,
    target: 'none',
    request: () => ({ headers: {} }),
    success: 204,
    staffOnly: true,
    async verify() {
      expect((await staff('GET', `/products/${products.retired}`)).status).toBe(404);
    },
  },
]);

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
  if (target === 'pending') return id;
  await pay(id);
  if (target === 'paid') return id;
  const shipped = await staff('POST', `/orders/${id}/shipments`, { body: { carrier: 'DHL', trackingNumber: 'set-up' }, headers: idempotent() });
  expect(shipped.status).toBe(201);
  if (target === 'shipped') return id;
  const requested = await staff('POST', `/orders/${id}/returns`, { body: { lines: [{ sku: 'SKU-1', quantity: 1 }], reason: 'set-up' }, headers: idempotent() });
  expect(requested.status).toBe(201);
  returnIds.set(id, requested.body.id as string);
  return id;
}

/** The scopes whose absence refuses the route to a customer's own token: its scope, and the one that serves such a token instead. */
const lacking = (route: Route) => [route.scope, ...(route.customerScope ? [route.customerScope] : [])];

beforeAll(async () => {
  service = await startService();
  await receiveStock(service.events, TEST_SKUS);
  staff = client(service, await service.token({ sub: 'staff-1', scope: ALL_SCOPES }));
  const claims = { sub: 'intruder', scope: ALL_SCOPES };
  tokens.set('other-secret', await signWith(OTHER_SECRET, { ...claims, exp: now() + 600 }));
  tokens.set('expired', await signWith(SECRET, { ...claims, iat: now() - 720, exp: now() - 120 }));
  tokens.set('alg-none', `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ ...claims, exp: now() + 600 })}.`);
  tokens.set('hs512', await signWith(SECRET, { ...claims, exp: now() + 600 }, 'HS512'));
  tokens.set('no-exp', await signWith(SECRET, { ...claims }));
  for (const scope of new Set(ROUTES.map((r) => r.scope))) {
    tokens.set(`without ${scope}`, await service.token({ sub: 'staff-2', scope: SCOPES.filter((s) => s !== scope).join(' ') }));
  }
  for (const scopes of new Set(ROUTES.map((r) => lacking(r).join(' ')))) {
    tokens.set(`owner without ${scopes}`, await service.token({ sub: 'cus-a-user', customerId: OWNER, scope: SCOPES.filter((s) => !scopes.split(' ').includes(s)).join(' ') }));
  }
  tokens.set('owner', await service.token({ sub: 'cus-a-user', customerId: OWNER, scope: ALL_SCOPES }));
  tokens.set('other customer', await service.token({ sub: 'cus-b-user', customerId: OTHER, scope: ALL_SCOPES }));
  tokens.set('staff', await service.token({ sub: 'staff-3', scope: ALL_SCOPES }));

  for (const sku of Object.values(products)) expect((await staff('PUT', `/products/${sku}`, { body: PRODUCT })).status).toBe(201);
  for (const target of ['pending', 'paid', 'shipped', 'returning'] as const) fixtures[target] = await freshTarget(target);
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

describe('account routes refused with 401 unauthenticated, nothing written', () => {
  const ACCOUNT_ROUTES: ReadonlyArray<{ method: string; path: string; body?: unknown; headers?: Record<string, string> }> = [
    { method: 'POST', path: '/accounts', body: { email: 'x@shop.example', password: 'long enough password', role: 'staff' }, headers: { 'Idempotency-Key': 'k-401' } },
    { method: 'GET', path: '/accounts' },
    { method: 'GET', path: '/accounts/me' },
    { method: 'POST', path: '/accounts/me/password', body: { currentPassword: 'long enough password', newPassword: 'another long password' } },
    { method: 'GET', path: `/accounts/${randomUUID()}` },
    { method: 'PATCH', path: `/accounts/${randomUUID()}`, body: { disabled: true }, headers: { 'Content-Type': 'application/merge-patch+json' } },
  ];
  for (const route of ACCOUNT_ROUTES) {
    for (const credential of UNAUTHENTICATED) {
      it(`${route.method} ${route.path.replace(/[0-9a-f-]{36}/, '{id}')}: ${credential.name} → 401`, async () => {
        const authorization = credential.authorization();
        const head = await service.events.headPosition();
        const response = await client(service, null)(route.method, route.path, {
          ...(route.body ? { body: route.body } : {}),
          headers: { ...route.headers, ...(authorization === null ? {} : { Authorization: authorization }) },
        });
        expect(response.status).toBe(401);
        expect(response.body.type).toBe(`${PROBLEM_BASE}unauthenticated`);
        expect(await service.events.headPosition()).toEqual(head);
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
    it(`${route.name}: owner's customer token with every scope but ${lacking(route).join(' and ')} → 403`, async () => {
      const response = await refused(route, `Bearer ${tokens.get(`owner without ${lacking(route).join(' ')}`)}`);
      expectProblem(response, 403, 'forbidden');
    });
  }
});

describe('refused with 403 forbidden: what belongs to no single customer or is for staff only, to a customer token with every scope', () => {
  for (const route of ROUTES.filter((r) => r.staffOnly)) {
    it(`${route.name}: the owner's customer token → 403`, async () => {
      const response = await refused(route, `Bearer ${tokens.get('owner')}`);
      expectProblem(response, 403, 'forbidden');
    });
    if (route.target === 'none') continue;
    it(`${route.name}: another customer's token on cus_a's order → 403, as on an unknown order`, async () => {
      const response = await refused(route, `Bearer ${tokens.get('other customer')}`);
      expectProblem(response, 403, 'forbidden');
      expectProblem(await send(route, randomUUID(), `Bearer ${tokens.get('other customer')}`), 403, 'forbidden');
    });
  }
});

describe("another customer's token (customer_id cus_b, every scope)", () => {
  const headerNames = (response: Response) =>
    [...response.headers.keys()].filter((name) => !['date', 'content-length', 'ratelimit', 'keep-alive', 'connection'].includes(name)).sort();

  for (const route of ROUTES.filter((r) => r.target !== 'none' && !r.staffOnly)) {
    it(`${route.name}: cus_a's order → 404 not-found, exactly as an unknown order`, async () => {
      const authorization = `Bearer ${tokens.get('other customer')}`;
      const response = await refused(route, authorization);
      expectProblem(response, 404, 'not-found');

      const unknown = await send(route, randomUUID(), authorization);
      expectProblem(unknown, 404, 'not-found');
      expect(withoutIds(response.body)).toEqual(withoutIds(unknown.body));
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
    for (const principal of principals.filter((p) => !route.staffOnly || p.token === 'staff')) {
      it(`${route.name}: ${principal.name} → ${route.success}`, async () => {
        const orderId = await freshTarget(route.target);
        const response = await send(route, orderId, `Bearer ${tokens.get(principal.token)}`);
        expect({ status: response.status, body: response.body }).toMatchObject({ status: route.success });
        if (route.success !== 204) expect(response.headers.get('content-type')).toMatch(/^application\/json/);
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

// ---------------------------------------------------------------------------------------------
// The access matrix, built from the router's own route list: every route × {staff, customer A,
// customer B} × {A's resource, B's resource} gives the contract's answer. A route the app serves
// without a row here fails the first test.

type Who = 'staff' | 'A' | 'B';
type Owner = 'A' | 'B';
/** The customers A and B, created by staff before the matrix runs (their records are what customer tokens may read). */
const CUSTOMER: Record<Owner, string> = { A: '', B: '' };

interface Cell {
  readonly who: Who;
  readonly owner: Owner;
  readonly id: string;
}

interface MatrixRow {
  /**
   * Whose the route's resource is: one customer's (another customer's token gets `othersAnswer`),
   * the caller's own making (everyone succeeds, and sees only what is theirs), no single
   * customer's (customer tokens get 403 whatever their scopes), nobody's (no token needed), or the
   * caller's own account (only a token the service issued names one: the matrix's tokens get 404).
   */
  readonly belongs: 'customer' | 'caller' | 'no-customer' | 'public' | 'own-account';
  /** A fresh resource of `owner`, made by staff (or by the owner's token, for jobs); its id, or '' when the route names none. */
  target?(owner: Owner): Promise<string>;
  request(id: string, owner: Owner): { path: string; body?: unknown; headers?: Record<string, string> };
  readonly success: number;
  /** A customer token on another customer's resource: 404 as for an unknown one, or 403 where the request itself names the customer. */
  readonly othersAnswer?: 403 | 404;
  verify?(response: Response, cell: Cell): Promise<void> | void;
}

const matrixKey = () => ({ 'Idempotency-Key': `matrix-${randomUUID()}` });
const MERGE_PATCH = { 'Content-Type': 'application/merge-patch+json' };

let matrix: TestService;
const as: Partial<Record<Who, ReturnType<typeof client>>> = {};
const call = (who: Who) => as[who]!;

async function matrixOrder(owner: Owner, paid = false): Promise<{ id: string; consistency: string }> {
  const placed = await call('staff')('POST', '/orders', { body: newOrder(CUSTOMER[owner]), headers: matrixKey() });
  expect(placed.status).toBe(201);
  let consistency = placed.headers.get('consistency-token') ?? '';
  if (paid) {
    const payment = await call('staff')('POST', `/orders/${placed.body.id}/payments`, { body: { amount: TOTAL, reference: 'matrix' }, headers: matrixKey() });
    expect(payment.status).toBe(201);
    consistency = payment.headers.get('consistency-token') ?? '';
  }
  return { id: placed.body.id as string, consistency };
}

/** An export started by the owner's own customer token, waited for until it has succeeded. */
async function matrixJob(owner: Owner): Promise<string> {
  await matrixOrder(owner);
  const started = await call(owner)('POST', '/exports', { body: { format: 'ndjson' }, headers: matrixKey() });
  expect(started.status).toBe(202);
  await finished(owner, started.body.id as string);
  return started.body.id as string;
}

/** The job once it succeeded, polled with no deadline but the test's: the export worker runs in the background. */
async function finished(who: Who, jobId: string): Promise<Record<string, any>> {
  const job = await until(async () => {
    const job = await call(who)('GET', `/jobs/${jobId}`);
    expect(job.status).toBe(200);
    expect(job.body.status).not.toBe('failed');
    return job;
  }, (job) => job.body.status === 'succeeded');
  return job.body;
}

async function exportedCustomers(who: Who, jobId: string): Promise<Set<string>> {
  const job = await finished(who, jobId);
  const file = await call(who)('GET', job.result.href as string);
  expect(file.status).toBe(200);
  const text = typeof file.body === 'string' ? file.body : JSON.stringify(file.body);
  return new Set(text.trim().split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { customerId: string }).customerId));
}

const orderTarget = async (owner: Owner) => (await matrixOrder(owner)).id;

/** A paid order of the owner, shipped whole by staff. */
async function matrixShipped(owner: Owner): Promise<string> {
  const { id } = await matrixOrder(owner, true);
  const shipped = await call('staff')('POST', `/orders/${id}/shipments`, { body: { carrier: 'DHL', trackingNumber: 'matrix' }, headers: matrixKey() });
  expect(shipped.status).toBe(201);
  return id;
}

/** A shipped order of the owner with a return of one unit requested by staff (its id in returnIds). */
async function matrixReturning(owner: Owner): Promise<string> {
  const id = await matrixShipped(owner);
  const requested = await call('staff')('POST', `/orders/${id}/returns`, { body: { lines: [{ sku: 'SKU-1', quantity: 1 }], reason: 'matrix' }, headers: matrixKey() });
  expect(requested.status).toBe(201);
  returnIds.set(id, requested.body.id as string);
  return id;
}

const MATRIX_PASSWORD = 'matrix password, long enough';
/** A fresh account of the role, made by the matrix's staff token. */
async function matrixAccount(role: string, extra: Record<string, unknown> = {}): Promise<{ id: string; email: string }> {
  const email = `matrix-${randomUUID()}@shop.example`;
  const created = await call('staff')('POST', '/accounts', { body: { email, password: MATRIX_PASSWORD, role, ...extra }, headers: matrixKey() });
  expect(created.status).toBe(201);
  return { id: created.body.id as string, email };
}

/** A product of its own for a catalogue row, defined by staff; the owner plays no part (the catalogue is no customer's). */
async function matrixProduct(): Promise<string> {
  const sku = `M-${randomUUID().slice(0, 8)}`;
  expect((await call('staff')('PUT', `/products/${sku}`, { body: PRODUCT })).status).toBe(201);
  return sku;
}

/** A webhook subscription of its own for a webhooks row, made by staff (an admin's token); the owner plays no part. */
async function matrixSubscription(): Promise<string> {
  const created = await call('staff')('POST', '/webhook-subscriptions', { body: WEBHOOK_SUBSCRIPTION, headers: matrixKey() });
  expect(created.status).toBe(201);
  return created.body.id as string;
}

/**
 * A delivery of its own for a retry row: attempts recorded in a fresh subscription's delivery log
 * by the worker's use case, waited for in the deliveries' read model (a retry reads it there).
 * Answers "<subscription id>/deliveries/<delivery id>".
 */
async function matrixDelivery(): Promise<string> {
  const subscriptionId = await matrixSubscription();
  const eventId = randomUUID();
  const log = new WebhookDeliveryService(matrix.events, { deliveries: { find: async () => null } });
  const attempt = { eventId, eventPosition: 'matrix', type: 'order.paid', resource: 'matrix-order', at: new Date().toISOString(), statusCode: 500, durationMs: 10, outcome: 'failed', nextAttemptAt: null } as const;
  await log.recordAttempts(serviceViewer('webhook-delivery'), subscriptionId, [attempt], { correlationId: 'matrix' });
  const deliveryId = deliveryIdOf(subscriptionId, eventId);
  await until(async () => (await matrix.reads.find('webhook-deliveries', [deliveryId])).size === 1);
  return `${subscriptionId}/deliveries/${deliveryId}`;
}

async function matrixRevision(orderId: string): Promise<number> {
  const response = await call('staff')('GET', `/orders/${orderId}`);
  expect(response.status).toBe(200);
  return response.body.revision as number;
}
const expectOrderOf = (response: Response, { owner, id }: Cell) => expect(response.body).toMatchObject({ id, customerId: CUSTOMER[owner] });

const MATRIX: Readonly<Record<string, MatrixRow>> = {
  'POST /orders': {
    belongs: 'customer',
    request: (_id, owner) => ({ path: '/orders', body: newOrder(CUSTOMER[owner]), headers: matrixKey() }),
    success: 201,
    othersAnswer: 403,
    verify: (response, { owner }) => expect(response.body.customerId).toBe(CUSTOMER[owner]),
  },
  'GET /orders': {
    belongs: 'customer',
    // The collection asked for one customer's orders, after that customer's newest write.
    target: async (owner) => (await matrixOrder(owner)).consistency,
    request: (consistency, owner) => ({ path: `/orders?customerId=${CUSTOMER[owner]}&limit=100`, headers: { 'Consistency-Token': consistency } }),
    success: 200,
    othersAnswer: 403,
    verify(response, { owner }) {
      const customers = new Set((response.body.items as Array<{ customerId: string }>).map((o) => o.customerId));
      expect([...customers]).toEqual([CUSTOMER[owner]]);
    },
  },
  'GET /orders/:id': { belongs: 'customer', target: orderTarget, request: (id) => ({ path: `/orders/${id}` }), success: 200, verify: expectOrderOf },
  'PATCH /orders/:id': {
    belongs: 'customer',
    target: orderTarget,
    request: (id) => ({ path: `/orders/${id}`, body: { address: { city: 'Paris' } }, headers: MERGE_PATCH }),
    success: 200,
    verify: (response, cell) => {
      expectOrderOf(response, cell);
      expect(response.body.address.city).toBe('Paris');
    },
  },
  'POST /orders/:id/payments': {
    belongs: 'customer',
    target: orderTarget,
    request: (id) => ({ path: `/orders/${id}/payments`, body: { amount: TOTAL, reference: 'matrix' }, headers: matrixKey() }),
    success: 201,
    verify: (response, { id }) => expect(response.body).toMatchObject({ orderId: id, amount: TOTAL }),
  },
  'POST /orders/:id/shipments': {
    // A customer's token never records a shipment, whatever its scopes.
    belongs: 'no-customer',
    target: async (owner) => (await matrixOrder(owner, true)).id,
    request: (id) => ({ path: `/orders/${id}/shipments`, body: { carrier: 'DHL', trackingNumber: 'T-matrix' }, headers: matrixKey() }),
    success: 201,
    verify: (response, { id }) => expect(response.body).toMatchObject({ orderId: id, carrier: 'DHL' }),
  },
  'GET /orders/:id/shipments': {
    belongs: 'customer',
    target: matrixShipped,
    request: (id) => ({ path: `/orders/${id}/shipments` }),
    success: 200,
    verify: (response, { id }) => expect(response.body.items).toEqual([expect.objectContaining({ orderId: id })]),
  },
  'POST /orders/:id/returns': {
    belongs: 'customer',
    target: matrixShipped,
    request: (id) => ({ path: `/orders/${id}/returns`, body: { lines: [{ sku: 'SKU-1', quantity: 1 }], reason: 'matrix' }, headers: matrixKey() }),
    success: 201,
    verify: (response, { id }) => expect(response.body).toMatchObject({ orderId: id, status: 'requested' }),
  },
  'GET /orders/:id/returns': {
    belongs: 'customer',
    target: matrixReturning,
    request: (id) => ({ path: `/orders/${id}/returns` }),
    success: 200,
    verify: (response, { id }) => expect(response.body.items).toEqual([expect.objectContaining({ orderId: id, status: 'requested' })]),
  },
  'POST /orders/:id/returns/:returnId/receipt': {
    belongs: 'no-customer',
    target: matrixReturning,
    request: (id) => ({ path: `/orders/${id}/returns/${returnOf(id)}/receipt`, body: { lines: [{ sku: 'SKU-1', quantity: 1, restock: false }] } }),
    success: 200,
    verify: (response, { id }) => expect(response.body).toMatchObject({ orderId: id, status: 'received' }),
  },
  'POST /orders/:id/returns/:returnId/cancellation': {
    belongs: 'customer',
    target: matrixReturning,
    request: (id) => ({ path: `/orders/${id}/returns/${returnOf(id)}/cancellation` }),
    success: 200,
    verify: (response, { id }) => expect(response.body).toMatchObject({ orderId: id, status: 'cancelled' }),
  },
  'POST /orders/:id/refunds': {
    belongs: 'no-customer',
    target: async (owner) => (await matrixOrder(owner, true)).id,
    request: (id) => ({ path: `/orders/${id}/refunds`, body: { amount: 1, reason: 'other', note: 'matrix' }, headers: matrixKey() }),
    success: 201,
    verify: (response, { id }) => expect(response.body).toMatchObject({ orderId: id, amount: 1 }),
  },
  'POST /orders/:id/edits': {
    belongs: 'no-customer',
    target: orderTarget,
    request: (id) => ({ path: `/orders/${id}/edits`, body: { lines: [{ sku: 'SKU-1', quantity: 3 }] }, headers: matrixKey() }),
    success: 201,
    verify: (response, { id }) => expect(response.body).toMatchObject({ orderId: id, after: [{ sku: 'SKU-1', quantity: 3 }] }),
  },
  'POST /orders/:id/cancellation': {
    belongs: 'customer',
    target: orderTarget,
    request: (id) => ({ path: `/orders/${id}/cancellation`, body: { reason: 'matrix' } }),
    success: 200,
    verify: (response, cell) => {
      expectOrderOf(response, cell);
      expect(response.body.status).toBe('cancelled');
    },
  },
  'GET /orders/:id/history': {
    belongs: 'customer',
    target: orderTarget,
    request: (id) => ({ path: `/orders/${id}/history` }),
    success: 200,
    verify: (response, { id }) => expect(response.body.items[0]).toMatchObject({ type: 'OrderPlaced', data: { orderId: id } }),
  },
  'POST /exports': {
    belongs: 'caller',
    target: async (owner) => (await matrixOrder(owner)).consistency,
    request: () => ({ path: '/exports', body: { format: 'ndjson' }, headers: matrixKey() }),
    success: 202,
    // What the export holds is what the caller sees: a customer's token its own customer's orders only.
    async verify(response, { who }) {
      const customers = await exportedCustomers(who, response.body.id as string);
      if (who === 'staff') expect([...customers]).toEqual(expect.arrayContaining([CUSTOMER.A, CUSTOMER.B]));
      else expect([...customers]).toEqual([CUSTOMER[who]]);
    },
  },
  'GET /jobs/:id': {
    belongs: 'customer',
    target: matrixJob,
    request: (id) => ({ path: `/jobs/${id}` }),
    success: 200,
    verify: (response, { id }) => expect(response.body).toMatchObject({ id, status: 'succeeded' }),
  },
  'GET /jobs/:id/result': {
    belongs: 'customer',
    target: matrixJob,
    request: (id) => ({ path: `/jobs/${id}/result` }),
    success: 200,
    verify: (response, { owner }) => expect(JSON.stringify(response.body)).toContain(CUSTOMER[owner]),
  },
  'GET /products': {
    belongs: 'caller',
    request: () => ({ path: '/products?limit=100' }),
    success: 200,
    verify: (response) => expect((response.body.items as Array<{ sku: string }>).map((p) => p.sku)).toContain('SKU-1'),
  },
  'GET /products/:sku': { belongs: 'caller', request: () => ({ path: '/products/SKU-1' }), success: 200, verify: (response) => expect(response.body.sku).toBe('SKU-1') },
  'PUT /products/:sku': {
    belongs: 'no-customer',
    request: () => ({ path: `/products/M-${randomUUID().slice(0, 8)}`, body: PRODUCT }),
    success: 201,
    verify: (response) => expect(response.body).toMatchObject(PRODUCT),
  },
  'PATCH /products/:sku': {
    belongs: 'no-customer',
    target: matrixProduct,
    request: (sku) => ({ path: `/products/${sku}`, body: { name: 'Patched' }, headers: MERGE_PATCH }),
    success: 200,
    verify: (response, { id }) => expect(response.body).toMatchObject({ sku: id, name: 'Patched' }),
  },
  'DELETE /products/:sku': { belongs: 'no-customer', target: matrixProduct, request: (sku) => ({ path: `/products/${sku}` }), success: 204 },
  'POST /customers': {
    belongs: 'no-customer',
    request: () => ({ path: '/customers', body: { email: `matrix-${randomUUID()}@example.org`, name: 'Matrix' }, headers: matrixKey() }),
    success: 201,
    verify: (response) => expect(response.body).toMatchObject({ status: 'active', name: 'Matrix' }),
  },
  'GET /customers': {
    belongs: 'no-customer',
    request: () => ({ path: '/customers?limit=100' }),
    success: 200,
    verify: (response) => expect(Array.isArray(response.body.items)).toBe(true),
  },
  'GET /customers/:id': {
    belongs: 'customer',
    target: async (owner) => CUSTOMER[owner],
    request: (id) => ({ path: `/customers/${id}` }),
    success: 200,
    verify: (response, { id }) => expect(response.body).toMatchObject({ id, status: 'active' }),
  },
  'PATCH /customers/:id': {
    belongs: 'customer',
    target: async (owner) => CUSTOMER[owner],
    request: (id) => ({ path: `/customers/${id}`, body: { name: `Matrix ${id}` }, headers: MERGE_PATCH }),
    success: 200,
    verify: (response, { id }) => expect(response.body).toMatchObject({ id, name: `Matrix ${id}` }),
  },
  'DELETE /customers/:id': {
    belongs: 'no-customer',
    // A guest customer of its own: erasing A or B would end their part in the other rows.
    target: async () => `guest_${randomUUID().slice(0, 8)}`,
    request: (id) => ({ path: `/customers/${id}` }),
    success: 204,
    verify: async (_response, { id }) => expect((await call('staff')('GET', `/customers/${id}`)).body).toMatchObject({ id, status: 'erased' }),
  },
  'GET /fulfilment-queue': { belongs: 'no-customer', request: () => ({ path: '/fulfilment-queue' }), success: 200 },
  'GET /fulfilment-queue/changes': { belongs: 'no-customer', request: () => ({ path: '/fulfilment-queue/changes?wait=0' }), success: 200 },
  'POST /auth/login': {
    belongs: 'public',
    target: async () => (await matrixAccount('staff')).email,
    request: (email) => ({ path: '/auth/login', body: { email, password: MATRIX_PASSWORD } }),
    success: 200,
    verify: (response) => expect(response.body).toMatchObject({ token_type: 'Bearer', scope: ROLE_TABLE.staff }),
  },
  'POST /accounts': {
    belongs: 'no-customer',
    request: () => ({ path: '/accounts', body: { email: `matrix-${randomUUID()}@shop.example`, password: MATRIX_PASSWORD, role: 'staff' }, headers: matrixKey() }),
    success: 201,
    verify: (response) => expect(response.body).toMatchObject({ role: 'staff', disabled: false }),
  },
  'GET /accounts': { belongs: 'no-customer', request: () => ({ path: '/accounts' }), success: 200 },
  'GET /accounts/me': { belongs: 'own-account', request: () => ({ path: '/accounts/me' }), success: 200 },
  'POST /accounts/me/password': {
    belongs: 'own-account',
    request: () => ({ path: '/accounts/me/password', body: { currentPassword: MATRIX_PASSWORD, newPassword: `${MATRIX_PASSWORD}!` } }),
    success: 204,
  },
  'GET /accounts/:id': {
    belongs: 'no-customer',
    target: async () => (await matrixAccount('auditor')).id,
    request: (id) => ({ path: `/accounts/${id}` }),
    success: 200,
    verify: (response, { id }) => expect(response.body).toMatchObject({ id, role: 'auditor' }),
  },
  'PATCH /accounts/:id': {
    belongs: 'no-customer',
    target: async () => (await matrixAccount('auditor')).id,
    request: (id) => ({ path: `/accounts/${id}`, body: { disabled: true }, headers: MERGE_PATCH }),
    success: 200,
    verify: (response, { id }) => expect(response.body).toMatchObject({ id, disabled: true }),
  },
  'POST /webhook-subscriptions': {
    belongs: 'no-customer',
    request: () => ({ path: '/webhook-subscriptions', body: WEBHOOK_SUBSCRIPTION, headers: matrixKey() }),
    success: 201,
    verify: (response) => expect(response.body).toMatchObject({ ...WEBHOOK_SUBSCRIPTION, status: 'active', secret: expect.stringMatching(/^whsec_/) }),
  },
  'GET /webhook-subscriptions': { belongs: 'no-customer', request: () => ({ path: '/webhook-subscriptions' }), success: 200 },
  'GET /webhook-subscriptions/:id': {
    belongs: 'no-customer',
    target: matrixSubscription,
    request: (id) => ({ path: `/webhook-subscriptions/${id}` }),
    success: 200,
    verify: (response, { id }) => expect(response.body).toMatchObject({ id, status: 'active' }),
  },
  'PATCH /webhook-subscriptions/:id': {
    belongs: 'no-customer',
    target: matrixSubscription,
    request: (id) => ({ path: `/webhook-subscriptions/${id}`, body: { status: 'paused' }, headers: MERGE_PATCH }),
    success: 200,
    verify: (response, { id }) => expect(response.body).toMatchObject({ id, status: 'paused' }),
  },
  'DELETE /webhook-subscriptions/:id': { belongs: 'no-customer', target: matrixSubscription, request: (id) => ({ path: `/webhook-subscriptions/${id}` }), success: 204 },
  'POST /webhook-subscriptions/:id/secret-rotation': {
    belongs: 'no-customer',
    target: matrixSubscription,
    request: (id) => ({ path: `/webhook-subscriptions/${id}/secret-rotation` }),
    success: 200,
    verify: (response, { id }) => expect(response.body).toMatchObject({ id, revision: 1, secret: expect.stringMatching(/^whsec_/) }),
  },
  'GET /webhook-subscriptions/:id/deliveries': {
    belongs: 'no-customer',
    target: matrixSubscription,
    request: (id) => ({ path: `/webhook-subscriptions/${id}/deliveries?status=failed` }),
    success: 200,
    verify: (response) => expect(response.body).toEqual({ items: [], nextCursor: null }),
  },
  'POST /webhook-subscriptions/:id/deliveries/:deliveryId/retry': {
    belongs: 'no-customer',
    target: matrixDelivery,
    request: (path) => ({ path: `/webhook-subscriptions/${path}/retry` }),
    success: 202,
  },
  'POST /webhook-subscriptions/:id/replays': {
    belongs: 'no-customer',
    target: matrixSubscription,
    request: (id) => ({ path: `/webhook-subscriptions/${id}/replays`, body: { from: '2027-01-01T00:00:00Z' }, headers: matrixKey() }),
    success: 202,
    verify: (response) => expect(response.body).toMatchObject({ type: 'webhook-replay', status: 'queued' }),
  },
  'GET /returns': {
    belongs: 'no-customer',
    request: () => ({ path: '/returns?status=requested' }),
    success: 200,
    verify: (response) => expect(response.body).toMatchObject({ items: expect.any(Array), nextCursor: null }),
  },
  'GET /summary': {
    belongs: 'no-customer',
    request: () => ({ path: '/summary' }),
    success: 200,
    // The matrix's staff token holds stock:read and webhooks:admin: every figure is shown.
    verify: (response) => expect(response.body).toMatchObject({ timeZone: 'UTC', lowStock: { count: expect.any(Number) }, failedDeliveries: { count: expect.any(Number) } }),
  },
  'GET /stock': { belongs: 'no-customer', request: () => ({ path: '/stock?below=5' }), success: 200 },
  'GET /stock/:sku': { belongs: 'no-customer', request: () => ({ path: '/stock/MATRIX-SKU' }), success: 200 },
  'POST /stock/:sku/adjustments': {
    belongs: 'no-customer',
    request: () => ({ path: '/stock/MATRIX-SKU/adjustments', body: { delta: 1, reason: 'count' }, headers: matrixKey() }),
    success: 201,
  },
  'GET /health/live': { belongs: 'public', request: () => ({ path: '/health/live' }), success: 200 },
  'GET /health/ready': { belongs: 'public', request: () => ({ path: '/health/ready' }), success: 200 },
  'GET /metrics': { belongs: 'public', request: () => ({ path: '/metrics' }), success: 200 },
  'GET /openapi.json': { belongs: 'public', request: () => ({ path: '/openapi.json' }), success: 200 },
  'GET /admin': { belongs: 'public', request: () => ({ path: '/admin' }), success: 200 },
  'GET /admin/assets/:file': { belongs: 'public', request: () => ({ path: adminScriptPath() }), success: 200 },
};

function expected(row: MatrixRow, who: Who, owner: Owner): number {
  switch (row.belongs) {
    case 'public':
    case 'caller':
      return row.success;
    case 'no-customer':
      return who === 'staff' ? row.success : 403;
    case 'customer':
      return who === 'staff' || who === owner ? row.success : (row.othersAnswer ?? 404);
    case 'own-account':
      return 404;
  }
}

/** Every route the app serves, as `METHOD /path` in the router's own syntax (HEAD answers as its GET does). */
function servedRoutes(app: Koa): string[] {
  const routers = app.middleware.flatMap((middleware) => {
    const router = (middleware as { router?: Router }).router;
    return router ? [router] : [];
  });
  expect(routers.length).toBeGreaterThanOrEqual(2); // the operations' and the API's
  return routers.flatMap((router) =>
    router.stack.flatMap((layer) => layer.methods.filter((method) => method !== 'HEAD').map((method) => `${method} ${String(layer.path)}`)),
  );
}

describe('the access matrix, from the router’s own routes', () => {
  beforeAll(async () => {
    matrix = await startService({}, { leaseMs: 5000 });
    await receiveStock(matrix.events, TEST_SKUS);
    // accounts:admin and webhooks:admin too: a customer's token is refused the accounts and the webhooks whatever its scopes.
    const scope = `${ALL_SCOPES} accounts:admin webhooks:admin`;
    as.staff = client(matrix, await matrix.token({ sub: 'matrix-staff', scope }));
    for (const owner of ['A', 'B'] as const) {
      const created = await call('staff')('POST', '/customers', { body: { email: `matrix-${owner}-${randomUUID()}@example.org`, name: `Customer ${owner}` }, headers: matrixKey() });
      expect(created.status).toBe(201);
      CUSTOMER[owner] = created.body.id as string;
    }
    as.A = client(matrix, await matrix.token({ sub: 'matrix-a', customerId: CUSTOMER.A, scope }));
    as.B = client(matrix, await matrix.token({ sub: 'matrix-b', customerId: CUSTOMER.B, scope }));
    // Readiness is part of the matrix: wait until the projections caught up once (as long as that takes, not 5 s).
    await until(async () => (await call('staff')('GET', '/health/ready')).status === 200);
  });
  afterAll(() => matrix?.stop());

  it('has a row for every route the app serves, and no row for a route it does not serve', () => {
    const served = servedRoutes(matrix.app);
    expect(served.length).toBeGreaterThan(10);
    expect([...new Set(served)].sort()).toEqual(Object.keys(MATRIX).sort());
  });

  for (const [route, row] of Object.entries(MATRIX)) {
    const method = route.split(' ')[0]!;
    for (const who of ['staff', 'A', 'B'] as const) {
      for (const owner of ['A', 'B'] as const) {
        const answer = expected(row, who, owner);
        it(`${route}: ${who === 'staff' ? 'staff' : `customer ${who}`} × ${owner}'s resource → ${answer}`, async () => {
          const id = row.target ? await row.target(owner) : '';
          const before = row.belongs === 'customer' && /^\/orders\/[^/?]+/.test(row.request(id, owner).path) ? await matrixRevision(id) : null;
          const { path, body, headers } = row.request(id, owner);
          const response = await call(who)(method, path, { ...(body !== undefined ? { body } : {}), headers: headers ?? {} });
          expect({ status: response.status, type: response.body?.type }).toMatchObject({ status: answer });
          if (answer === row.success) {
            await row.verify?.(response, { who, owner, id });
            return;
          }
          expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
          expect(response.body.type).toBe(`${PROBLEM_BASE}${answer === 404 ? 'not-found' : 'forbidden'}`);
          if (before !== null) expect(await matrixRevision(id)).toBe(before);
          if (answer === 404 && id !== '') {
            // Exactly as an unknown one: the same problem, with only the id told apart.
            const unknownId = randomUUID();
            const request = row.request(unknownId, owner);
            const unknown = await call(who)(method, request.path, { ...(request.body !== undefined ? { body: request.body } : {}), headers: request.headers ?? {} });
            expect(withoutIds(response.body, id)).toEqual(withoutIds(unknown.body, unknownId));
          }
        });
      }
    }
  }
});

// ---------------------------------------------------------------------------------------------
// Tokens the service issues: each role's scopes are exactly the contract's table, and each role
// meets the account routes as the table says.

/** HTTP-CONTRACT.md "Authentication and permissions", the roles table, as written there. */
const ROLE_TABLE: Readonly<Record<string, string>> = {
  admin: 'orders:read orders:write payments:write shipments:write exports:write audit:read catalogue:read catalogue:write stock:read stock:write customers:read customers:write customers:erase accounts:admin refunds:write returns:write webhooks:admin',
  staff: 'orders:read orders:write payments:write refunds:write returns:write exports:write catalogue:read catalogue:write stock:read stock:write customers:read customers:write',
  fulfilment: 'orders:read shipments:write returns:write stock:read stock:write catalogue:read',
  auditor: 'orders:read audit:read exports:write catalogue:read stock:read customers:read',
  customer: 'orders:read orders:write catalogue:read customers:read customers:write',
};

describe('tokens the service issues, by role', () => {
  const signedIn: Record<string, { id: string; as: ReturnType<typeof client>; claims: Record<string, unknown>; scope: string }> = {};

  beforeAll(async () => {
    // A service of its own: the matrix's is stopped once its block is done.
    matrix = await startService();
    as.staff = client(matrix, await matrix.token({ sub: 'matrix-staff', scope: `${ALL_SCOPES} accounts:admin webhooks:admin` }));
    const customer = await call('staff')('POST', '/customers', { body: { email: `roles-${randomUUID()}@example.org`, name: 'Customer of an account' }, headers: matrixKey() });
    expect(customer.status).toBe(201);
    CUSTOMER.A = customer.body.id as string;
    for (const role of Object.keys(ROLE_TABLE)) {
      const { id, email } = await matrixAccount(role, role === 'customer' ? { customerId: CUSTOMER.A } : {});
      const login = await client(matrix, null)('POST', '/auth/login', { body: { email, password: MATRIX_PASSWORD } });
      expect(login.status).toBe(200);
      const token = login.body.access_token as string;
      signedIn[role] = { id, as: client(matrix, token), claims: JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>, scope: login.body.scope as string };
    }
  });

  afterAll(() => matrix?.stop());

  for (const role of Object.keys(ROLE_TABLE)) {
    it(`${role}: the token's scopes are exactly the contract's, and so is the answer's scope`, () => {
      const { claims, scope } = signedIn[role]!;
      expect(new Set(String(claims.scope).split(' '))).toEqual(new Set(ROLE_TABLE[role]!.split(' ')));
      expect(String(claims.scope).split(' ')).toHaveLength(ROLE_TABLE[role]!.split(' ').length);
      expect(scope).toBe(claims.scope);
      expect(claims.sub).toBe(signedIn[role]!.id);
      if (role === 'customer') expect(claims.customer_id).toBe(CUSTOMER.A);
      else expect(claims).not.toHaveProperty('customer_id');
    });

    it(`${role}: GET /accounts/me → 200, its own account`, async () => {
      const me = await signedIn[role]!.as('GET', '/accounts/me');
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ id: signedIn[role]!.id, role });
    });

    const staffRole = role !== 'customer';
    it(`${role}: GET /summary → ${staffRole ? 200 : 403}, GET /returns → ${staffRole ? 200 : 403}`, async () => {
      const summary = await signedIn[role]!.as('GET', '/summary');
      expect(summary.status).toBe(staffRole ? 200 : 403);
      if (staffRole) expect({ lowStock: summary.body.lowStock !== null, failedDeliveries: summary.body.failedDeliveries !== null }).toEqual({ lowStock: true, failedDeliveries: role === 'admin' });
      expect((await signedIn[role]!.as('GET', '/returns')).status).toBe(staffRole ? 200 : 403);
    });

    const administers = role === 'admin';
    it(`${role}: GET /accounts → ${administers ? 200 : 403}, GET /accounts/{another} → ${administers ? 200 : 403}`, async () => {
      const other = signedIn[role === 'admin' ? 'staff' : 'admin']!.id;
      expect((await signedIn[role]!.as('GET', '/accounts')).status).toBe(administers ? 200 : 403);
      expect((await signedIn[role]!.as('GET', `/accounts/${other}`)).status).toBe(administers ? 200 : 403);
    });
  }

  /** The webhook subscription routes: webhooks:admin is the admin role's alone, so only an admin's token may. */
  const WEBHOOK_ROUTES: ReadonlyArray<{ method: string; name: string; target?: () => Promise<string>; path: (id: string) => string; body?: unknown; headers?: () => Record<string, string>; success: number }> = [
    { method: 'POST', name: '/webhook-subscriptions', path: () => '/webhook-subscriptions', body: WEBHOOK_SUBSCRIPTION, headers: matrixKey, success: 201 },
    { method: 'GET', name: '/webhook-subscriptions', path: () => '/webhook-subscriptions', success: 200 },
    { method: 'GET', name: '/webhook-subscriptions/{id}', path: (id) => `/webhook-subscriptions/${id}`, success: 200 },
    { method: 'PATCH', name: '/webhook-subscriptions/{id}', path: (id) => `/webhook-subscriptions/${id}`, body: { status: 'paused' }, headers: () => MERGE_PATCH, success: 200 },
    { method: 'POST', name: '/webhook-subscriptions/{id}/secret-rotation', path: (id) => `/webhook-subscriptions/${id}/secret-rotation`, success: 200 },
    { method: 'DELETE', name: '/webhook-subscriptions/{id}', path: (id) => `/webhook-subscriptions/${id}`, success: 204 },
    { method: 'GET', name: '/webhook-subscriptions/{id}/deliveries', path: (id) => `/webhook-subscriptions/${id}/deliveries`, success: 200 },
    { method: 'POST', name: '/webhook-subscriptions/{id}/deliveries/{deliveryId}/retry', target: matrixDelivery, path: (path) => `/webhook-subscriptions/${path}/retry`, success: 202 },
  ];
  for (const route of WEBHOOK_ROUTES) {
    for (const who of [...Object.keys(ROLE_TABLE), 'no token']) {
      const answer = who === 'admin' ? route.success : who === 'no token' ? 401 : 403;
      it(`${who}: ${route.method} ${route.name} → ${answer}${answer === route.success ? '' : ', nothing written'}`, async () => {
        const id = await (route.target ?? matrixSubscription)();
        const caller = who === 'no token' ? client(matrix, null) : signedIn[who]!.as;
        const head = await matrix.events.headPosition();
        const response = await caller(route.method, route.path(id), { ...(route.body === undefined ? {} : { body: route.body }), headers: route.headers?.() ?? {} });
        expect({ status: response.status, type: response.body?.type }).toMatchObject({ status: answer });
        if (answer === route.success) return;
        expect(response.body.type).toBe(`${PROBLEM_BASE}${answer === 401 ? 'unauthenticated' : 'forbidden'}`);
        expect(await matrix.events.headPosition()).toEqual(head);
      });
    }
  }

  it('a token refused for its account (disabled) → 401 on every route behind the token check', async () => {
    const { id, email } = await matrixAccount('staff');
    const login = await client(matrix, null)('POST', '/auth/login', { body: { email, password: MATRIX_PASSWORD } });
    const user = client(matrix, login.body.access_token as string);
    expect((await user('GET', '/orders')).status).toBe(200);
    const disabled = await call('staff')('PATCH', `/accounts/${id}`, { body: { disabled: true }, headers: MERGE_PATCH });
    expect(disabled.status).toBe(200);
    for (const path of ['/orders', '/accounts/me', '/fulfilment-queue']) {
      const response = await user('GET', path);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });
});
