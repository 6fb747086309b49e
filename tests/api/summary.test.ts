// GET /summary, the store at a glance, through real HTTP against the embedded default: each figure
// follows the writes it is about (placed, paid, shipped in part and whole, returned, refunded, stock
// below a product's threshold, a webhook delivery failed for good), each with its Consistency-Token;
// the lists behind the figures (GET /returns, GET /stock?belowThreshold=true); who may read which
// figures; the ETag and its 304; the long-poll answered when a figure changes, and not before.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_SCOPES, serviceViewer } from '../../write-side/kernel/access.js';
import { WebhookDeliveryService } from '../../write-side/webhooks/deliveries.js';
import { ALL_SCOPES, client, newOrder, startService, type TestService } from '../support/http.js';
import { receiveStock, TEST_SKUS } from '../support/seed.js';

type Response = Awaited<ReturnType<ReturnType<typeof client>>>;
type Call = (method: string, path: string, options?: { body?: unknown; headers?: Record<string, string> }) => Promise<Response>;

const PROBLEM_BASE = 'https://errors.orders.example/';
/** newOrder's total: 2 × 1999 EUR. */
const TOTAL = 3998;

let service: TestService;
/** Every scope, webhooks:admin included, under 2027-01-01. */
let admin: Call;
/** A customer of the store (2027-01-01 places orders for existing customers only). */
let customerId = '';
const order = (lines?: Array<{ sku: string; quantity: number }>) => ({ ...newOrder(customerId), ...(lines ? { lines } : {}) });
const key = () => ({ 'Idempotency-Key': randomUUID() });
const at = (call: ReturnType<typeof client>): Call => (method, path, options = {}) => call(method, path, { ...options, headers: { 'Api-Version': '2027-01-01', ...options.headers } });
const tokenOf = (response: Response) => response.headers.get('consistency-token') ?? '';

beforeAll(async () => {
  service = await startService();
  await receiveStock(service.events, TEST_SKUS);
  admin = at(client(service, await service.token({ sub: 'summary-admin', scope: `${ALL_SCOPES} webhooks:admin accounts:admin` })));
  const customer = await admin('POST', '/customers', { body: { email: `summary-${randomUUID()}@example.org`, name: 'Summary' }, headers: key() });
  expect(customer.status).toBe(201);
  customerId = customer.body.id as string;
});
afterAll(() => service.stop());

/** The summary once it includes the write of `token`. */
async function summary(token: string, as = admin): Promise<Record<string, any>> {
  const response = await as('GET', '/summary', { headers: token === '' ? {} : { 'Consistency-Token': token } });
  expect(response.status).toBe(200);
  expect(response.headers.get('etag')).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
  expect(response.headers.get('consistency-token')).toMatch(/^[0-9a-f]{32}$/);
  return response.body;
}

const today = (body: Record<string, any>) => body.sales.days.at(-1);

describe('GET /summary: the figures follow the store', () => {
  it('counts orders placed, awaiting payment and waiting to ship, the day\'s sales per currency, returns to receive, low stock and failed deliveries', async () => {
    let body = await summary('');
    expect(body).toMatchObject({
      timeZone: 'UTC',
      ordersPlacedToday: { count: 0, href: '/orders?sort=-createdAt' },
      awaitingPayment: { count: 0, oldest: null, href: '/orders?status=pending&sort=createdAt' },
      awaitingShipment: { count: 0, paid: { count: 0 }, partiallyShipped: { count: 0 }, oldest: null, href: '/fulfilment-queue' },
      returnsAwaitingReceipt: { count: 0, oldest: null, href: '/returns?status=requested' },
      lowStock: { count: 0, mostPressing: [], href: '/stock?belowThreshold=true' },
      failedDeliveries: { count: 0, subscriptions: [], href: '/webhook-subscriptions' },
    });
    expect(body.sales.days).toHaveLength(30);
    expect(body.sales).toMatchObject({ to: body.asOf.slice(0, 10), currencies: [] });
    expect(body.sales.days[0].date).toBe(body.sales.from);

    // Three orders placed: all three today, all three awaiting payment, the first the oldest.
    const ids: string[] = [];
    let token = '';
    for (let i = 0; i < 3; i++) {
      const placed = await admin('POST', '/orders', { body: order(), headers: key() });
      expect(placed.status).toBe(201);
      ids.push(placed.body.id as string);
      token = tokenOf(placed);
    }
    const [first, second, third] = ids as [string, string, string];
    body = await summary(token);
    expect(body.ordersPlacedToday.count).toBe(3);
    expect(body.awaitingPayment).toMatchObject({ count: 3, oldest: { orderId: first, ageSeconds: expect.any(Number) } });
    expect(today(body)).toEqual({ date: body.sales.to, ordersPlaced: 3, sales: [] });

    // Two paid: waiting to ship, the day's payments in EUR.
    for (const id of [first, second]) token = tokenOf(await admin('POST', `/orders/${id}/payments`, { body: { amount: TOTAL, reference: `psp-${id}` }, headers: key() }));
    body = await summary(token);
    expect(body.awaitingPayment).toMatchObject({ count: 1, oldest: { orderId: third } });
    expect(body.awaitingShipment).toMatchObject({ count: 2, paid: { count: 2, href: '/orders?status=paid&sort=createdAt' }, partiallyShipped: { count: 0 }, oldest: { orderId: first } });
    expect(today(body).sales).toEqual([{ currency: 'EUR', payments: 2 * TOTAL, refunds: 0, net: 2 * TOTAL }]);
    expect(body.sales.currencies).toEqual(['EUR']);

    // The first shipped whole, the second in part: one order still waits, partially shipped.
    expect((await admin('POST', `/orders/${first}/shipments`, { body: { carrier: 'DHL', trackingNumber: 'T-1' }, headers: key() })).status).toBe(201);
    const part = await admin('POST', `/orders/${second}/shipments`, { body: { carrier: 'DHL', trackingNumber: 'T-2', lines: [{ sku: 'SKU-1', quantity: 1 }] }, headers: key() });
    body = await summary(tokenOf(part));
    expect(body.awaitingShipment).toMatchObject({ count: 1, paid: { count: 0 }, partiallyShipped: { count: 1, href: '/orders?status=partially_shipped&sort=createdAt' }, oldest: { orderId: second } });

    // A return of the first requested: one to receive, listed behind the figure; a refund lowers the day's sales.
    const returned = await admin('POST', `/orders/${first}/returns`, { body: { lines: [{ sku: 'SKU-1', quantity: 1 }], reason: 'chipped' }, headers: key() });
    expect(returned.status).toBe(201);
    const refunded = await admin('POST', `/orders/${first}/refunds`, { body: { amount: 1999, reason: 'return' }, headers: key() });
    body = await summary(tokenOf(refunded));
    expect(body.returnsAwaitingReceipt).toMatchObject({ count: 1, oldest: { returnId: returned.body.id, orderId: first } });
    expect(today(body).sales).toEqual([{ currency: 'EUR', payments: 2 * TOTAL, refunds: 1999, net: 2 * TOTAL - 1999 }]);
    const listed = await admin('GET', body.returnsAwaitingReceipt.href, { headers: { 'Consistency-Token': tokenOf(returned) } });
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([returned.body]);
    const received = await admin('POST', `/orders/${first}/returns/${returned.body.id}/receipt`, { body: { lines: [{ sku: 'SKU-1', quantity: 1, restock: true }] } });
    body = await summary(tokenOf(received));
    expect(body.returnsAwaitingReceipt).toMatchObject({ count: 0, oldest: null });

    // A product with a threshold of 5: 6 received, 2 ordered, 4 available is below it.
    const sku = `LOW-${randomUUID().slice(0, 8)}`;
    expect((await admin('PUT', `/products/${sku}`, { body: { name: 'Low mug', description: null, prices: { EUR: 500 }, status: 'active', lowStockThreshold: 5 } })).status).toBe(201);
    const stocked = await admin('POST', `/stock/${sku}/adjustments`, { body: { delta: 6, reason: 'received' }, headers: key() });
    expect((await summary(tokenOf(stocked))).lowStock.count).toBe(0);
    const sold = await admin('POST', '/orders', { body: order([{ sku, quantity: 2 }]), headers: key() });
    expect(sold.status).toBe(201);
    body = await summary(tokenOf(sold));
    expect(body.lowStock).toEqual({ count: 1, mostPressing: [{ sku, name: 'Low mug', available: 4, lowStockThreshold: 5, href: `/stock/${sku}` }], href: '/stock?belowThreshold=true' });
    const low = await admin('GET', body.lowStock.href, { headers: { 'Consistency-Token': tokenOf(sold) } });
    expect(low.body.items).toEqual([{ sku, name: 'Low mug', lowStockThreshold: 5, onHand: 6, reserved: 2, available: 4, updatedAt: expect.any(String), revision: expect.any(Number) }]);

    // A delivery that failed for good, in a subscription's delivery log as the worker records it.
    const subscription = await admin('POST', '/webhook-subscriptions', { body: { url: 'https://hooks.partner.example/summary', events: ['order.paid'] }, headers: key() });
    expect(subscription.status).toBe(201);
    const log = new WebhookDeliveryService(service.events, { deliveries: { find: async () => null } });
    const failed = await log.recordAttempts(serviceViewer('webhook-delivery'), subscription.body.id, [
      { eventId: randomUUID(), eventPosition: 'p', type: 'order.paid', resource: first, at: new Date().toISOString(), statusCode: 500, durationMs: 10, outcome: 'failed', nextAttemptAt: null },
    ], { correlationId: 'summary-test' });
    body = await summary(failed.position);
    const href = `/webhook-subscriptions/${subscription.body.id}/deliveries?status=failed`;
    expect(body.failedDeliveries).toEqual({ count: 1, subscriptions: [{ subscriptionId: subscription.body.id, url: 'https://hooks.partner.example/summary', status: 'active', count: 1, href }], href: '/webhook-subscriptions' });
    expect((await admin('GET', href, { headers: { 'Consistency-Token': failed.position } })).body.items).toHaveLength(1);
  });

  it('answers 304 to If-None-Match with its ETag while the figures are the same, and a new ETag once they change', async () => {
    const first = await admin('GET', '/summary');
    const etag = first.headers.get('etag')!;
    const again = await admin('GET', '/summary', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('consistency-token')).toMatch(/^[0-9a-f]{32}$/);
    const placed = await admin('POST', '/orders', { body: order(), headers: key() });
    const changed = await admin('GET', '/summary', { headers: { 'If-None-Match': etag, 'Consistency-Token': tokenOf(placed) } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(changed.body.ordersPlacedToday.count).toBe(first.body.ordersPlacedToday.count + 1);
  });
});

describe('GET /summary?wait=: following the store', () => {
  it('holds a long-poll until a figure changes, then answers with the new figures', async () => {
    const before = await admin('GET', '/summary');
    const etag = before.headers.get('etag')!;
    const started = Date.now();
    const polled = admin('GET', '/summary?wait=20', { headers: { 'If-None-Match': etag } });
    // Still waiting a moment later: nothing changed.
    const early = await Promise.race([polled.then(() => 'answered'), new Promise((resolve) => setTimeout(resolve, 500, 'waiting'))]);
    expect(early).toBe('waiting');
    const placed = await admin('POST', '/orders', { body: order(), headers: key() });
    expect(placed.status).toBe(201);
    const answer = await polled;
    expect(answer.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(answer.headers.get('etag')).not.toBe(etag);
    expect(answer.body.ordersPlacedToday.count).toBe(before.body.ordersPlacedToday.count + 1);
    expect(answer.body.awaitingPayment.count).toBe(before.body.awaitingPayment.count + 1);
  });

  it('answers 304 with the same ETag after `wait` when nothing changed, and at once without If-None-Match', async () => {
    const etag = (await admin('GET', '/summary')).headers.get('etag')!;
    const started = Date.now();
    const unchanged = await admin('GET', '/summary?wait=1', { headers: { 'If-None-Match': etag } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get('etag')).toBe(etag);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const at = Date.now();
    expect((await admin('GET', '/summary?wait=20')).status).toBe(200);
    expect(Date.now() - at).toBeLessThan(5_000);
  });

  it('refuses a wait beyond 30 s, and a Consistency-Token that is not one', async () => {
    const tooLong = await admin('GET', '/summary?wait=31');
    expect({ status: tooLong.status, type: tooLong.body.type }).toEqual({ status: 400, type: `${PROBLEM_BASE}validation-failed` });
    const bad = await admin('GET', '/summary', { headers: { 'Consistency-Token': 'not-a-token' } });
    expect({ status: bad.status, type: bad.body.type }).toEqual({ status: 400, type: `${PROBLEM_BASE}validation-failed` });
  });

  it("takes one of the principal's waiting slots while it waits: past the cap the next is 429", async () => {
    const capped = await startService({ waitingPerPrincipal: 1 });
    try {
      const as = client(capped, await capped.token({ sub: 'summary-capped' }));
      const etag = (await as('GET', '/summary')).headers.get('etag')!;
      const waiting = as('GET', '/summary?wait=2', { headers: { 'If-None-Match': etag } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const refused = await as('GET', '/summary?wait=2', { headers: { 'If-None-Match': etag } });
      expect({ status: refused.status, type: refused.body.type }).toEqual({ status: 429, type: `${PROBLEM_BASE}rate-limited` });
      expect((await waiting).status).toBe(304);
    } finally {
      await capped.stop();
    }
  });
});

describe('GET /summary: who may read which figures', () => {
  it('is 401 without a token, 403 for a customer\'s token whatever its scopes, and 403 without orders:read', async () => {
    const none = await client(service, null)('GET', '/summary');
    expect({ status: none.status, type: none.body.type }).toEqual({ status: 401, type: `${PROBLEM_BASE}unauthenticated` });
    const customer = await client(service, await service.token({ sub: 'summary-customer', scope: `${ALL_SCOPES} webhooks:admin`, customerId: 'cus_42' }))('GET', '/summary');
    expect({ status: customer.status, type: customer.body.type }).toEqual({ status: 403, type: `${PROBLEM_BASE}forbidden` });
    const catalogueOnly = await client(service, await service.token({ sub: 'summary-catalogue', scope: 'catalogue:read stock:read' }))('GET', '/summary');
    expect({ status: catalogueOnly.status, type: catalogueOnly.body.type }).toEqual({ status: 403, type: `${PROBLEM_BASE}forbidden` });
    const returns = await client(service, await service.token({ sub: 'summary-customer', scope: ALL_SCOPES, customerId: 'cus_42' }))('GET', '/returns');
    expect({ status: returns.status, type: returns.body.type }).toEqual({ status: 403, type: `${PROBLEM_BASE}forbidden` });
  });

  for (const [role, lowStock, failedDeliveries] of [['admin', true, true], ['staff', true, false], ['fulfilment', true, false], ['auditor', true, false]] as const) {
    it(`${role}: every order figure${lowStock ? ', low stock' : ''}${failedDeliveries ? ', failed deliveries' : ''}; the others null`, async () => {
      const body = await summary('', client(service, await service.token({ sub: `summary-${role}`, scope: ROLE_SCOPES[role].join(' ') })));
      expect(body.awaitingPayment.count).toEqual(expect.any(Number));
      expect(body.lowStock === null).toBe(!lowStock);
      expect(body.failedDeliveries === null).toBe(!failedDeliveries);
    });
  }
});
