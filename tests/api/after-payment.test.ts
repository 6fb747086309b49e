// Every row of HTTP-CONTRACT.md "Orders after payment (2027-01-01)" through real HTTP against the
// embedded default: shipments by line, returns and their receipts, refunds and edits, with each
// error answered as a problem and nothing written by a refused request (the order and the stock
// read again and shown unchanged), replays of keyed requests, races, and the representation of a
// partially shipped order under each API version.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stockStream } from '../../write-side/stock/codec.js';
import { defineProducts } from '../support/catalogue.js';
import { client, newOrder, startService, type TestService } from '../support/http.js';

type Response = Awaited<ReturnType<ReturnType<typeof client>>>;
type Call = (method: string, path: string, options?: { body?: unknown; headers?: Record<string, string> }) => Promise<Response>;
type Line = { sku: string; quantity: number };

const CURRENT = '2027-01-01';
const PROBLEM_BASE = 'https://errors.orders.example/';

let service: TestService;
/** Staff with every scope, under 2027-01-01 unless a request names another version. */
let staff: Call;
/** The customer's own token (orders:read orders:write), and another customer's. */
let own: Call;
let other: Call;
/** The customer's own token with every scope: still refused what only staff may do. */
let ownWithEveryScope: Call;
let customerId = '';

/** A client that sends Api-Version 2027-01-01 unless the request names another. */
const at = (call: ReturnType<typeof client>): Call => (method, path, options = {}) => call(method, path, { ...options, headers: { 'Api-Version': CURRENT, ...options.headers } });
const key = () => ({ 'Idempotency-Key': randomUUID() });

beforeAll(async () => {
  service = await startService();
  staff = at(client(service, await service.token({ sub: 'after-payment-staff' })));
  const customer = async (name: string) => {
    const created = await staff('POST', '/customers', { body: { email: `${name}-${randomUUID()}@example.org`, name }, headers: key() });
    expect(created.status).toBe(201);
    return created.body.id as string;
  };
  customerId = await customer('Owner');
  const otherId = await customer('Other');
  own = at(client(service, await service.token({ sub: 'ap-owner', scope: 'orders:read orders:write', customerId })));
  other = at(client(service, await service.token({ sub: 'ap-other', scope: 'orders:read orders:write', customerId: otherId })));
  ownWithEveryScope = at(client(service, await service.token({ sub: 'ap-owner-all', customerId })));
});
afterAll(() => service.stop());

function expectProblem(response: Response, status: number, code: string): void {
  expect({ status: response.status, type: response.body?.type }).toEqual({ status, type: PROBLEM_BASE + code });
  expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  expect(response.body).toMatchObject({ status, title: expect.any(String), correlationId: response.headers.get('x-correlation-id') });
}

/** A product of its own at `price` EUR cents, with `stock` units received. */
async function product(price: number, stock = 100): Promise<string> {
  const sku = `AP-${randomUUID().slice(0, 8)}`;
  await reprice(sku, price);
  if (stock > 0) expect((await staff('POST', `/stock/${sku}/adjustments`, { body: { delta: stock, reason: 'received' }, headers: key() })).status).toBe(201);
  return sku;
}
const reprice = (sku: string, price: number) => defineProducts(service.events, { [sku]: { name: `Product ${sku}`, description: null, prices: { EUR: price }, status: 'active' } });

const levels = async (sku: string) => {
  const { body } = await staff('GET', `/stock/${sku}`);
  return { onHand: body.onHand as number, reserved: body.reserved as number, available: body.available as number };
};
const order = async (id: string, version = CURRENT) => (await staff('GET', `/orders/${id}`, { headers: { 'Api-Version': version } })).body;
const eventTypes = async (id: string) => (await service.events.readStream(`order-${id}`)).map((event) => event.type);

/** An order of the customer, paid unless said. */
async function placed(lines: Line[], { paid = true } = {}): Promise<string> {
  const response = await staff('POST', '/orders', { body: { customerId, currency: 'EUR', lines, address: newOrder().address }, headers: key() });
  expect(response.status).toBe(201);
  const id = response.body.id as string;
  if (paid) expect((await staff('POST', `/orders/${id}/payments`, { body: { amount: response.body.total, reference: 'psp' }, headers: key() })).status).toBe(201);
  return id;
}
const ship = (id: string, lines?: Line[], headers = key(), as = staff) =>
  as('POST', `/orders/${id}/shipments`, { body: { carrier: 'DHL', trackingNumber: 'T-1', ...(lines ? { lines } : {}) }, headers });
const requestReturn = (id: string, lines: Line[], headers = key(), as = staff) => as('POST', `/orders/${id}/returns`, { body: { lines, reason: 'does not fit' }, headers });
const receive = (id: string, returnId: string, lines: Array<Line & { restock: boolean }>, as = staff) => as('POST', `/orders/${id}/returns/${returnId}/receipt`, { body: { lines } });
const refund = (id: string, amount: number, headers = key(), as = staff, reason = 'goodwill') => as('POST', `/orders/${id}/refunds`, { body: { amount, reason }, headers });
const edit = (id: string, lines: Line[], options: { dryRun?: boolean; headers?: Record<string, string>; as?: Call } = {}) =>
  (options.as ?? staff)('POST', `/orders/${id}/edits`, { body: { lines, ...(options.dryRun === undefined ? {} : { dryRun: options.dryRun }) }, headers: { ...key(), ...options.headers } });

/** What a refused request must leave as it was: the order's events, its representation and the stock of its SKUs. */
async function state(id: string, skus: readonly string[]) {
  return { events: await eventTypes(id), order: await order(id), stock: await Promise.all(skus.map(levels)) };
}

describe('POST /orders/{id}/shipments', () => {
  it('ships the lines named: 201 with what it shipped; the order is partially_shipped, and only the shipped part leaves stock on hand', async () => {
    const [a, b] = [await product(1000), await product(500)];
    const id = await placed([{ sku: a, quantity: 3 }, { sku: b, quantity: 1 }]);
    expect(await levels(a)).toEqual({ onHand: 100, reserved: 3, available: 97 });
    const response = await ship(id, [{ sku: a, quantity: 2 }]);
    expect(response.status).toBe(201);
    expect(response.headers.get('consistency-token')).toMatch(/^[0-9a-f]{32}$/);
    expect(response.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), orderId: id, carrier: 'DHL', trackingNumber: 'T-1', lines: [{ sku: a, quantity: 2 }], createdAt: expect.any(String) });
    const after = await order(id);
    expect(after.status).toBe('partially_shipped');
    expect(after.lines).toEqual([
      expect.objectContaining({ sku: a, quantity: 3, shipped: 2, cancelled: 0, returned: 0 }),
      expect.objectContaining({ sku: b, quantity: 1, shipped: 0, cancelled: 0, returned: 0 }),
    ]);
    expect(await levels(a)).toEqual({ onHand: 98, reserved: 1, available: 97 });
    expect(await levels(b)).toEqual({ onHand: 100, reserved: 1, available: 99 });
  });

  it('ships everything that remains without lines: the order is shipped, and GET lists the shipments oldest first', async () => {
    const [a, b] = [await product(1000), await product(500)];
    const id = await placed([{ sku: a, quantity: 3 }, { sku: b, quantity: 1 }]);
    const first = await ship(id, [{ sku: a, quantity: 2 }]);
    const rest = await ship(id);
    expect(rest.status).toBe(201);
    expect(rest.body.lines).toEqual([{ sku: a, quantity: 1 }, { sku: b, quantity: 1 }]);
    expect((await order(id)).status).toBe('shipped');
    expect(await levels(a)).toEqual({ onHand: 97, reserved: 0, available: 97 });
    expect(await levels(b)).toEqual({ onHand: 99, reserved: 0, available: 99 });
    const listed = await staff('GET', `/orders/${id}/shipments`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ items: [first.body, rest.body] });
  });

  it('refuses more than remains of a line, or a SKU not on the order: 409 quantity-unavailable with what remains, nothing shipped', async () => {
    const [a, b] = [await product(1000), await product(500)];
    const id = await placed([{ sku: a, quantity: 2 }, { sku: b, quantity: 1 }]);
    expect((await ship(id, [{ sku: a, quantity: 1 }])).status).toBe(201);
    const before = await state(id, [a, b]);
    const tooMany = await ship(id, [{ sku: b, quantity: 1 }, { sku: a, quantity: 2 }]);
    expectProblem(tooMany, 409, 'quantity-unavailable');
    expect(tooMany.body.errors).toEqual([{ pointer: '/lines/1/quantity', message: expect.any(String), remaining: 1 }]);
    const notOnOrder = await ship(id, [{ sku: a, quantity: 1 }, { sku: 'NOT-ON-ORDER', quantity: 1 }]);
    expectProblem(notOnOrder, 409, 'quantity-unavailable');
    expect(notOnOrder.body.errors).toEqual([{ pointer: '/lines/1/sku', message: expect.any(String), remaining: 0 }]);
    expect(await state(id, [a, b])).toEqual(before);
  });

  it('refuses a pending or a cancelled order: 409 state-conflict with currentStatus, nothing shipped', async () => {
    const a = await product(1000);
    const pending = await placed([{ sku: a, quantity: 1 }], { paid: false });
    const cancelled = await placed([{ sku: a, quantity: 1 }]);
    expect((await staff('POST', `/orders/${cancelled}/cancellation`)).status).toBe(200);
    for (const [id, status] of [[pending, 'pending'], [cancelled, 'cancelled']] as const) {
      const before = await state(id, [a]);
      const refused = await ship(id, [{ sku: a, quantity: 1 }]);
      expectProblem(refused, 409, 'state-conflict');
      expect(refused.body.currentStatus).toBe(status);
      expect(await state(id, [a])).toEqual(before);
    }
  });

  it('replays a retry with the same key: Idempotent-Replayed, the same shipment, nothing shipped twice', async () => {
    const a = await product(1000);
    const id = await placed([{ sku: a, quantity: 3 }]);
    const headers = key();
    const first = await ship(id, [{ sku: a, quantity: 1 }], headers);
    const again = await ship(id, [{ sku: a, quantity: 1 }], headers);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await eventTypes(id)).filter((type) => type === 'ShipmentCreated')).toHaveLength(1);
    expect(await levels(a)).toEqual({ onHand: 99, reserved: 2, available: 97 });
    expectProblem(await ship(id, [{ sku: a, quantity: 2 }], headers), 422, 'idempotency-key-reused');
  });

  it('gives exactly one of two racing shipments of the last remaining unit a 201', async () => {
    const [a, b] = [await product(1000), await product(500)];
    const id = await placed([{ sku: a, quantity: 2 }, { sku: b, quantity: 1 }]);
    expect((await ship(id, [{ sku: a, quantity: 1 }])).status).toBe(201);
    const racing = await Promise.all([ship(id, [{ sku: a, quantity: 1 }]), ship(id, [{ sku: a, quantity: 1 }])]);
    expect(racing.map((response) => response.status).sort()).toEqual([201, 409]);
    expectProblem(racing.find((response) => response.status === 409)!, 409, 'quantity-unavailable');
    expect((await order(id)).lines[0]).toMatchObject({ sku: a, quantity: 2, shipped: 2 });
    expect(await levels(a)).toEqual({ onHand: 98, reserved: 0, available: 98 });
  });
});

describe('a partially shipped order', () => {
  async function partiallyShipped(): Promise<{ id: string; a: string }> {
    const a = await product(1000);
    const id = await placed([{ sku: a, quantity: 3 }]);
    expect((await ship(id, [{ sku: a, quantity: 1 }])).status).toBe(201);
    return { id, a };
  }

  it.each([
    ['2027-01-01', 'partially_shipped'],
    ['2026-12-01', 'paid'],
    ['2026-11-01', 'paid'],
  ])('reads under %s as %s, in single reads and reads at a point in time, with its lines\' shipped and its balance', async (version, status) => {
    const { id, a } = await partiallyShipped();
    const headers = { 'Api-Version': version };
    const current = await staff('GET', `/orders/${id}`, { headers });
    expect(current.body).toMatchObject({
      status,
      lines: [{ sku: a, quantity: 3, shipped: 1, cancelled: 0, returned: 0 }],
      balance: { charged: 3000, paid: 3000, refunded: 0, due: 0 },
    });
    expect((await staff('GET', `/orders/${id}?revision=2`, { headers })).body.status).toBe(status);
    expect((await staff('GET', `/orders/${id}?asOf=${encodeURIComponent(new Date(Date.now() + 1000).toISOString())}`, { headers })).body.status).toBe(status);
    // Before the shipment it was paid under every version.
    expect((await staff('GET', `/orders/${id}?revision=1`, { headers })).body.status).toBe('paid');
  });

  it('reads as each version reads it when clients of every version read the one order in turn (its body is kept per version)', async () => {
    const { id } = await partiallyShipped();
    const read = async (version: string) => (await staff('GET', `/orders/${id}`, { headers: { 'Api-Version': version } })).body.status;
    for (let round = 0; round < 2; round++) {
      expect(await read('2027-01-01')).toBe('partially_shipped');
      expect(await read('2026-12-01')).toBe('paid');
      expect(await read('2027-01-01')).toBe('partially_shipped');
      expect(await read('2026-11-01')).toBe('paid');
    }
  });

  it('reads as paid to a client that names no version (2026-11-01)', async () => {
    const { id } = await partiallyShipped();
    const read = await staff('GET', `/orders/${id}`, { headers: { 'Api-Version': '' } });
    expect(read.headers.get('api-version')).toBe('2026-11-01');
    expect(read.body.status).toBe('paid');
  });

  it('refuses an address change once anything shipped: 409 state-conflict, nothing changed', async () => {
    const { id, a } = await partiallyShipped();
    const before = await state(id, [a]);
    const refused = await staff('PATCH', `/orders/${id}`, { body: { address: { city: 'Paris' } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
    expectProblem(refused, 409, 'state-conflict');
    expect(refused.body.currentStatus).toBe('partially_shipped');
    expect(await state(id, [a])).toEqual(before);
  });

  it('is shipped once cancelled: what had not shipped is cancelled and its stock released, and the balance owes the rest back', async () => {
    const { id, a } = await partiallyShipped();
    const cancelled = await staff('POST', `/orders/${id}/cancellation`, { body: { reason: 'out of patience' } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      status: 'shipped',
      lines: [{ sku: a, quantity: 3, shipped: 1, cancelled: 2, returned: 0 }],
      balance: { charged: 1000, paid: 3000, refunded: 0, due: -2000 },
    });
    expect(await levels(a)).toEqual({ onHand: 99, reserved: 0, available: 99 });
    const refused = await ship(id);
    expectProblem(refused, 409, 'state-conflict');
    expect(refused.body.currentStatus).toBe('shipped');
  });
});

describe('returns and their receipts', () => {
  async function shipped(quantity = 3, price = 1000): Promise<{ id: string; a: string }> {
    const a = await product(price);
    const id = await placed([{ sku: a, quantity }]);
    expect((await ship(id)).status).toBe(201);
    return { id, a };
  }

  it('requests a return of shipped lines: 201 requested, listed by GET, the order unchanged until it is received', async () => {
    const { id, a } = await shipped();
    const requested = await requestReturn(id, [{ sku: a, quantity: 1 }]);
    expect(requested.status).toBe(201);
    expect(requested.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/), orderId: id, status: 'requested', lines: [{ sku: a, quantity: 1 }], reason: 'does not fit',
      received: null, createdAt: expect.any(String), updatedAt: requested.body.createdAt,
    });
    expect((await staff('GET', `/orders/${id}/returns`)).body).toEqual({ items: [requested.body] });
    expect((await order(id)).lines[0]).toMatchObject({ shipped: 3, returned: 0 });
  });

  it('refuses more than was shipped and is not in a return already: 409 quantity-unavailable, nothing requested', async () => {
    const { id, a } = await shipped();
    expect((await requestReturn(id, [{ sku: a, quantity: 2 }])).status).toBe(201);
    const unshipped = await placed([{ sku: a, quantity: 1 }]);
    const before = [await state(id, [a]), await state(unshipped, [a])];
    const refused = await requestReturn(id, [{ sku: a, quantity: 2 }]);
    expectProblem(refused, 409, 'quantity-unavailable');
    expect(refused.body.errors).toEqual([{ pointer: '/lines/0/quantity', message: expect.any(String), remaining: 1 }]);
    const nothingShipped = await requestReturn(unshipped, [{ sku: a, quantity: 1 }]);
    expectProblem(nothingShipped, 409, 'quantity-unavailable');
    expect(nothingShipped.body.errors).toEqual([expect.objectContaining({ remaining: 0 })]);
    expect([await state(id, [a]), await state(unshipped, [a])]).toEqual(before);
  });

  it('refuses a return on a cancelled order: 409 state-conflict', async () => {
    const a = await product(1000);
    const id = await placed([{ sku: a, quantity: 1 }]);
    expect((await staff('POST', `/orders/${id}/cancellation`)).status).toBe(200);
    const refused = await requestReturn(id, [{ sku: a, quantity: 1 }]);
    expectProblem(refused, 409, 'state-conflict');
    expect(refused.body.currentStatus).toBe('cancelled');
    expect(await eventTypes(id)).toEqual(['OrderPlaced', 'PaymentRecorded', 'OrderCancelled']);
  });

  it('replays a return requested again with the same key: the same return, requested once', async () => {
    const { id, a } = await shipped();
    const headers = key();
    const first = await requestReturn(id, [{ sku: a, quantity: 1 }], headers);
    const again = await requestReturn(id, [{ sku: a, quantity: 1 }], headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await staff('GET', `/orders/${id}/returns`)).body.items).toHaveLength(1);
  });

  it('receives a return: every unit counts in returned and the balance; restocked units go back on hand (reason returned), damaged ones do not', async () => {
    const { id, a } = await shipped(3, 1000);
    expect(await levels(a)).toEqual({ onHand: 97, reserved: 0, available: 97 });
    const ret = (await requestReturn(id, [{ sku: a, quantity: 3 }])).body;
    const received = await receive(id, ret.id, [{ sku: a, quantity: 2, restock: true }, { sku: a, quantity: 1, restock: false }]);
    expect(received.status).toBe(200);
    expect(received.body).toEqual({
      ...ret, status: 'received', received: [{ sku: a, quantity: 2, restock: true }, { sku: a, quantity: 1, restock: false }], updatedAt: expect.any(String),
    });
    expect(await order(id)).toMatchObject({ lines: [{ sku: a, quantity: 3, shipped: 3, returned: 3 }], balance: { charged: 0, paid: 3000, refunded: 0, due: -3000 } });
    expect(await levels(a)).toEqual({ onHand: 99, reserved: 0, available: 99 });
    const adjustments = (await service.events.readStream(stockStream(a))).filter((event) => event.type === 'StockAdjusted').map((event) => event.data);
    expect(adjustments.at(-1)).toMatchObject({ delta: 2, reason: 'returned' });
  });

  it('refuses a second receipt (409 state-conflict), more than the return asked (409 quantity-unavailable) and an unknown return (404), nothing changed', async () => {
    const { id, a } = await shipped();
    const ret = (await requestReturn(id, [{ sku: a, quantity: 2 }])).body;
    const before = await state(id, [a]);
    const tooMany = await receive(id, ret.id, [{ sku: a, quantity: 3, restock: true }]);
    expectProblem(tooMany, 409, 'quantity-unavailable');
    expect(tooMany.body.errors).toEqual([{ pointer: '/lines/0/quantity', message: expect.any(String), remaining: 2 }]);
    expectProblem(await receive(id, randomUUID(), [{ sku: a, quantity: 1, restock: true }]), 404, 'not-found');
    expect(await state(id, [a])).toEqual(before);
    expect((await receive(id, ret.id, [{ sku: a, quantity: 2, restock: true }])).status).toBe(200);
    const received = await state(id, [a]);
    const twice = await receive(id, ret.id, [{ sku: a, quantity: 2, restock: true }]);
    expectProblem(twice, 409, 'state-conflict');
    expect(twice.body.currentStatus).toBe('received');
    expect(await state(id, [a])).toEqual(received);
  });

  it('cancels only a requested return: 200 cancelled, its lines returnable again; a cancelled or received one is 409 state-conflict', async () => {
    const { id, a } = await shipped(2);
    const ret = (await requestReturn(id, [{ sku: a, quantity: 2 }])).body;
    const cancelled = await staff('POST', `/orders/${id}/returns/${ret.id}/cancellation`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: ret.id, orderId: id, status: 'cancelled', received: null });
    const again = await staff('POST', `/orders/${id}/returns/${ret.id}/cancellation`);
    expectProblem(again, 409, 'state-conflict');
    expect(again.body.currentStatus).toBe('cancelled');
    const second = (await requestReturn(id, [{ sku: a, quantity: 2 }])).body;
    expect((await receive(id, second.id, [{ sku: a, quantity: 2, restock: true }])).status).toBe(200);
    expectProblem(await staff('POST', `/orders/${id}/returns/${second.id}/cancellation`), 409, 'state-conflict');
    expectProblem(await staff('POST', `/orders/${id}/returns/${randomUUID()}/cancellation`), 404, 'not-found');
  });

  it("lets a customer's token request and cancel a return of its own order with orders:write; another customer's order is 404", async () => {
    const { id, a } = await shipped();
    const requested = await requestReturn(id, [{ sku: a, quantity: 1 }], key(), own);
    expect(requested.status).toBe(201);
    expect((await own('GET', `/orders/${id}/returns`)).body.items).toEqual([requested.body]);
    expect((await own('GET', `/orders/${id}/shipments`)).body.items).toHaveLength(1);
    const before = await state(id, [a]);
    expectProblem(await requestReturn(id, [{ sku: a, quantity: 1 }], key(), other), 404, 'not-found');
    expectProblem(await other('POST', `/orders/${id}/returns/${requested.body.id}/cancellation`), 404, 'not-found');
    expectProblem(await other('GET', `/orders/${id}/returns`), 404, 'not-found');
    expectProblem(await other('GET', `/orders/${id}/shipments`), 404, 'not-found');
    expect(await state(id, [a])).toEqual(before);
    expect((await own('POST', `/orders/${id}/returns/${requested.body.id}/cancellation`)).body.status).toBe('cancelled');
  });
});

describe('POST /orders/{id}/refunds', () => {
  it('records a refund: 201, and the balance shows it refunded', async () => {
    const a = await product(1999);
    const id = await placed([{ sku: a, quantity: 2 }]);
    const refunded = await staff('POST', `/orders/${id}/refunds`, { body: { amount: 1000, reason: 'goodwill', note: 'late delivery' }, headers: key() });
    expect(refunded.status).toBe(201);
    expect(refunded.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), orderId: id, amount: 1000, reason: 'goodwill', note: 'late delivery', createdAt: expect.any(String) });
    expect((await order(id)).balance).toEqual({ charged: 3998, paid: 3998, refunded: 1000, due: 1000 });
  });

  it('refuses a refund over what was paid and not refunded: 409 refund-exceeds-payment with refundable, nothing recorded', async () => {
    const a = await product(1999);
    const id = await placed([{ sku: a, quantity: 2 }]);
    expect((await refund(id, 1000)).status).toBe(201);
    const before = await state(id, [a]);
    const refused = await refund(id, 3000);
    expectProblem(refused, 409, 'refund-exceeds-payment');
    expect(refused.body.refundable).toBe(2998);
    expect(await state(id, [a])).toEqual(before);
    expect((await refund(id, 2998)).status).toBe(201);
    expect((await refund(id, 1)).body.refundable).toBe(0);
  });

  it('refuses a refund of an order never paid (409 state-conflict) and takes one of a cancelled paid order', async () => {
    const a = await product(1999);
    const pending = await placed([{ sku: a, quantity: 1 }], { paid: false });
    const refused = await refund(pending, 100);
    expectProblem(refused, 409, 'state-conflict');
    expect(refused.body.currentStatus).toBe('pending');
    const cancelled = await placed([{ sku: a, quantity: 1 }]);
    expect((await staff('POST', `/orders/${cancelled}/cancellation`)).status).toBe(200);
    expect((await order(cancelled)).balance).toEqual({ charged: 0, paid: 1999, refunded: 0, due: -1999 });
    expect((await refund(cancelled, 1999, key(), staff, 'cancellation')).status).toBe(201);
    expect((await order(cancelled)).balance).toEqual({ charged: 0, paid: 1999, refunded: 1999, due: 0 });
  });

  it('replays a refund retried with its key: the same refund, refunded once', async () => {
    const a = await product(1999);
    const id = await placed([{ sku: a, quantity: 1 }]);
    const headers = key();
    const first = await refund(id, 500, headers);
    const again = await refund(id, 500, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await order(id)).balance.refunded).toBe(500);
  });

  it('never refunds past what was paid when two refunds race: one 201, one 409', async () => {
    const a = await product(1999);
    const id = await placed([{ sku: a, quantity: 2 }]);
    const racing = await Promise.all([refund(id, 2500), refund(id, 2500)]);
    expect(racing.map((response) => response.status).sort()).toEqual([201, 409]);
    const refused = racing.find((response) => response.status === 409)!;
    expectProblem(refused, 409, 'refund-exceeds-payment');
    expect(refused.body.refundable).toBe(1498);
    expect((await order(id)).balance).toMatchObject({ paid: 3998, refunded: 2500 });
  });
});

describe('POST /orders/{id}/edits', () => {
  it('answers a dry run with the order as it would become, and writes and reserves nothing', async () => {
    const [a, b] = [await product(1000), await product(500)];
    const id = await placed([{ sku: a, quantity: 2 }]);
    const before = await state(id, [a, b]);
    const preview = await edit(id, [{ sku: a, quantity: 3 }, { sku: b, quantity: 2 }], { dryRun: true });
    expect(preview.status).toBe(200);
    expect(preview.headers.get('etag')).toBe('"1"');
    expect(preview.body).toMatchObject({
      id, status: 'paid', total: 4000, revision: 1,
      lines: [{ sku: a, quantity: 3, unitPrice: 1000, lineTotal: 3000 }, { sku: b, quantity: 2, unitPrice: 500, lineTotal: 1000 }],
      balance: { charged: 4000, paid: 2000, refunded: 0, due: 2000 },
    });
    expect(await state(id, [a, b])).toEqual(before);
  });

  it('applies an edit: 201 with the lines before and after; kept lines keep their price, new SKUs take today\'s; increases reserved, decreases released', async () => {
    const [a, b] = [await product(1000), await product(500)];
    const id = await placed([{ sku: a, quantity: 2 }]);
    // The catalogue moves on: a kept line keeps the price it was placed at, a new one takes today's.
    await reprice(a, 1200);
    await reprice(b, 700);
    const edited = await edit(id, [{ sku: a, quantity: 3 }, { sku: b, quantity: 2 }]);
    expect(edited.status).toBe(201);
    expect(edited.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/), orderId: id,
      before: [{ sku: a, name: `Product ${a}`, quantity: 2, unitPrice: 1000, lineTotal: 2000 }],
      after: [{ sku: a, name: `Product ${a}`, quantity: 3, unitPrice: 1000, lineTotal: 3000 }, { sku: b, name: `Product ${b}`, quantity: 2, unitPrice: 700, lineTotal: 1400 }],
      createdAt: expect.any(String),
    });
    expect(await order(id)).toMatchObject({ total: 4400, balance: { charged: 4400, paid: 2000, refunded: 0, due: 2400 } });
    expect(await levels(a)).toEqual({ onHand: 100, reserved: 3, available: 97 });
    expect(await levels(b)).toEqual({ onHand: 100, reserved: 2, available: 98 });
    const smaller = await edit(id, [{ sku: a, quantity: 1 }]);
    expect(smaller.status).toBe(201);
    expect(await order(id)).toMatchObject({ total: 1000, lines: [{ sku: a, quantity: 1, unitPrice: 1000 }], balance: { due: -1000 } });
    expect(await levels(a)).toEqual({ onHand: 100, reserved: 1, available: 99 });
    expect(await levels(b)).toEqual({ onHand: 100, reserved: 0, available: 100 });
  });

  it('refuses an increase the stock cannot hold: 409 insufficient-stock, nothing reserved or changed', async () => {
    const [a, scarce] = [await product(1000), await product(500, 1)];
    const id = await placed([{ sku: a, quantity: 2 }]);
    const before = await state(id, [a, scarce]);
    const refused = await edit(id, [{ sku: a, quantity: 5 }, { sku: scarce, quantity: 3 }]);
    expectProblem(refused, 409, 'insufficient-stock');
    expect(refused.body.errors).toEqual([{ pointer: '/lines/1/quantity', message: expect.any(String), available: 1 }]);
    expect(await state(id, [a, scarce])).toEqual(before);
  });

  it('refuses a SKU the catalogue does not offer: 422 product-unavailable, nothing changed', async () => {
    const a = await product(1000);
    const id = await placed([{ sku: a, quantity: 2 }]);
    const before = await state(id, [a]);
    const refused = await edit(id, [{ sku: a, quantity: 3 }, { sku: 'NO-SUCH-PRODUCT', quantity: 1 }]);
    expectProblem(refused, 422, 'product-unavailable');
    expect(refused.body.errors).toEqual([expect.objectContaining({ pointer: '/lines/1/sku' })]);
    expect(await state(id, [a])).toEqual(before);
  });

  it('refuses an edit once anything shipped: 409 state-conflict, nothing changed', async () => {
    const a = await product(1000);
    const id = await placed([{ sku: a, quantity: 2 }]);
    expect((await ship(id, [{ sku: a, quantity: 1 }])).status).toBe(201);
    const before = await state(id, [a]);
    for (const dryRun of [true, false]) {
      const refused = await edit(id, [{ sku: a, quantity: 3 }], { dryRun });
      expectProblem(refused, 409, 'state-conflict');
      expect(refused.body.currentStatus).toBe('partially_shipped');
    }
    expect(await state(id, [a])).toEqual(before);
  });

  it('honours If-Match: 412 for a revision the order left, nothing reserved; the current one applies', async () => {
    const a = await product(1000);
    const id = await placed([{ sku: a, quantity: 2 }]);
    const before = await state(id, [a]);
    for (const dryRun of [true, false]) {
      const stale = await edit(id, [{ sku: a, quantity: 5 }], { dryRun, headers: { 'If-Match': '"0"' } });
      expectProblem(stale, 412, 'precondition-failed');
      expect(stale.body.currentRevision).toBe(1);
    }
    expect(await state(id, [a])).toEqual(before);
    expect((await edit(id, [{ sku: a, quantity: 5 }], { headers: { 'If-Match': '"1"' } })).status).toBe(201);
    expect(await levels(a)).toEqual({ onHand: 100, reserved: 5, available: 95 });
  });

  it('replays an edit retried with its key (If-Match and all): the same edit, reserved once', async () => {
    const a = await product(1000);
    const id = await placed([{ sku: a, quantity: 2 }]);
    const headers = { ...key(), 'If-Match': '"1"' };
    const first = await edit(id, [{ sku: a, quantity: 4 }], { headers });
    const again = await edit(id, [{ sku: a, quantity: 4 }], { headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await eventTypes(id)).toEqual(['OrderPlaced', 'PaymentRecorded', 'OrderEdited']);
    expect(await levels(a)).toEqual({ onHand: 100, reserved: 4, available: 96 });
  });

  it('lets a dry run leave its key untaken: the same key then carries the edit itself', async () => {
    const a = await product(1000);
    const id = await placed([{ sku: a, quantity: 2 }]);
    const headers = key();
    const preview = await edit(id, [{ sku: a, quantity: 3 }], { dryRun: true, headers });
    expect(preview.status).toBe(200);
    expect(preview.headers.get('idempotent-replayed')).toBeNull();
    const made = await edit(id, [{ sku: a, quantity: 3 }], { headers });
    expect(made.status).toBe(201);
    expect(made.headers.get('idempotent-replayed')).toBeNull();
  });

  it('answers an edit that names the lines the order has with the order, unchanged', async () => {
    const a = await product(1000);
    const id = await placed([{ sku: a, quantity: 2 }]);
    const same = await edit(id, [{ sku: a, quantity: 2 }]);
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ id, revision: 1, lines: [{ sku: a, quantity: 2 }] });
    expect(await eventTypes(id)).toEqual(['OrderPlaced', 'PaymentRecorded']);
  });
});

describe("what a customer's token may never do", () => {
  it('refuses it a shipment, a receipt, a refund and an edit (a dry run too) on its own order, whatever its scopes: 403, nothing written', async () => {
    const a = await product(1000);
    const id = await placed([{ sku: a, quantity: 3 }]);
    expect((await ship(id, [{ sku: a, quantity: 2 }])).status).toBe(201);
    const ret = (await requestReturn(id, [{ sku: a, quantity: 1 }])).body;
    const before = await state(id, [a]);
    for (const refused of [
      await ship(id, [{ sku: a, quantity: 1 }], key(), ownWithEveryScope),
      await receive(id, ret.id, [{ sku: a, quantity: 1, restock: true }], ownWithEveryScope),
      await refund(id, 100, key(), ownWithEveryScope),
      await edit(id, [{ sku: a, quantity: 4 }], { as: ownWithEveryScope }),
      await edit(id, [{ sku: a, quantity: 4 }], { as: ownWithEveryScope, dryRun: true }),
    ]) {
      expectProblem(refused, 403, 'forbidden');
    }
    expect(await state(id, [a])).toEqual(before);
  });
});
