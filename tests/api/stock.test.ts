// Stock through real HTTP: adjustments, levels, the collection, and the reservations that
// placing, cancelling and shipping an order make, under races too.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineProducts } from '../support/catalogue.js';
import { client, newOrder, startService, type TestService } from '../support/http.js';

let service: TestService;
let staff: ReturnType<typeof client>;

beforeAll(async () => {
  service = await startService();
  staff = client(service, await service.token({ sub: 'stock-staff' }));
});
afterAll(() => service.stop());

const sku = () => `T-${randomUUID().slice(0, 8)}`;
const key = () => ({ 'Idempotency-Key': randomUUID() });

/** Every SKU these tests order is a product at 1.00 EUR. */
const product = (s: string) => defineProducts(service.events, { [s]: { name: `Product ${s}`, description: null, prices: { EUR: 100 }, status: 'active' } });

async function receive(s: string, delta: number) {
  await product(s);
  const response = await staff('POST', `/stock/${s}/adjustments`, { body: { delta, reason: 'received' }, headers: key() });
  expect(response.status).toBe(201);
  return response;
}

function order(lines: Array<{ sku: string; quantity: number }>) {
  return { ...newOrder(), lines: lines.map((line) => ({ ...line, unitPrice: 100 })) };
}

const place = (lines: Array<{ sku: string; quantity: number }>, as = staff) => as('POST', '/orders', { body: order(lines), headers: key() });
const levels = async (s: string) => (await staff('GET', `/stock/${s}`)).body;

describe('stock levels and adjustments', () => {
  it('answers a SKU whose stock never changed with zeros', async () => {
    const s = sku();
    const response = await staff('GET', `/stock/${s}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ sku: s, onHand: 0, reserved: 0, available: 0, updatedAt: null, revision: null });
  });

  it('records an adjustment with the levels after it, and replays it for the same key', async () => {
    const s = sku();
    const headers = key();
    const first = await staff('POST', `/stock/${s}/adjustments`, { body: { delta: 7, reason: 'received', note: 'pallet 4' }, headers });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ sku: s, delta: 7, reason: 'received', note: 'pallet 4', onHand: 7, reserved: 0, available: 7 });
    const again = await staff('POST', `/stock/${s}/adjustments`, { body: { delta: 7, reason: 'received', note: 'pallet 4' }, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await levels(s)).toMatchObject({ onHand: 7, reserved: 0, available: 7, revision: 0 });
    const reused = await staff('POST', `/stock/${s}/adjustments`, { body: { delta: 8, reason: 'received' }, headers });
    expect(reused.status).toBe(422);
  });

  it('refuses a delta that would take on hand below what is reserved, changing nothing', async () => {
    const s = sku();
    await receive(s, 5);
    expect((await place([{ sku: s, quantity: 3 }])).status).toBe(201);
    const refused = await staff('POST', `/stock/${s}/adjustments`, { body: { delta: -3, reason: 'damaged' }, headers: key() });
    expect(refused.status).toBe(409);
    expect(refused.body.type).toMatch(/insufficient-stock$/);
    expect(refused.body.errors).toEqual([expect.objectContaining({ pointer: '/delta', available: 2 })]);
    expect(await levels(s)).toMatchObject({ onHand: 5, reserved: 3, available: 2 });
    expect((await staff('POST', `/stock/${s}/adjustments`, { body: { delta: -2, reason: 'damaged' }, headers: key() })).body).toMatchObject({ onHand: 3, reserved: 3, available: 0 });
  });

  it('refuses a zero delta and an unknown reason', async () => {
    for (const body of [{ delta: 0, reason: 'received' }, { delta: 1, reason: 'gift' }]) {
      expect((await staff('POST', `/stock/${sku()}/adjustments`, { body, headers: key() })).status).toBe(400);
    }
  });

  it('refuses a customer token and a token without the stock scopes', async () => {
    const customer = client(service, await service.token({ sub: 'cus-user', customerId: 'cus_42' }));
    expect((await customer('GET', `/stock/${sku()}`)).status).toBe(403);
    expect((await customer('GET', '/stock')).status).toBe(403);
    expect((await customer('POST', `/stock/${sku()}/adjustments`, { body: { delta: 1, reason: 'received' }, headers: key() })).status).toBe(403);
    const reader = client(service, await service.token({ sub: 'reader', scope: 'stock:read' }));
    expect((await reader('POST', `/stock/${sku()}/adjustments`, { body: { delta: 1, reason: 'received' }, headers: key() })).status).toBe(403);
  });

  it('lists stock by SKU, with below and a cursor', async () => {
    const prefix = `L${randomUUID().slice(0, 6)}`;
    const skus = [`${prefix}-a`, `${prefix}-b`, `${prefix}-c`];
    let token = '';
    for (const [i, s] of skus.entries()) token = (await receive(s, i + 1)).headers.get('consistency-token')!;
    const all: Array<{ sku: string; available: number }> = [];
    let cursor: string | null = null;
    do {
      const query: string = `/stock?below=3&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await staff('GET', query, { headers: { 'Consistency-Token': token } });
      expect(page.status).toBe(200);
      all.push(...page.body.items);
      cursor = page.body.nextCursor;
    } while (cursor);
    const mine = all.filter((item) => item.sku.startsWith(prefix));
    expect(mine.map((item) => [item.sku, item.available])).toEqual([[skus[0], 1], [skus[1], 2]]);
  });

  it('lists each SKU with its product\'s name and threshold, by a SKU\'s prefix or a name\'s (any case), paged, and refuses a combination no index serves', async () => {
    const prefix = `N${randomUUID().slice(0, 6).toUpperCase()}`;
    const names = { [`${prefix}-1`]: `${prefix} Blue mug`, [`${prefix}-2`]: `${prefix.toLowerCase()} blue bowl`, [`${prefix}-3`]: `${prefix} Red cup` };
    await defineProducts(service.events, Object.fromEntries(Object.entries(names).map(([s, name], i) => [s, { name, description: null, prices: { EUR: 100 }, status: 'active' as const, lowStockThreshold: i }])));
    const token = (await staff('POST', `/stock/${prefix}-3/adjustments`, { body: { delta: 5, reason: 'received' }, headers: key() })).headers.get('consistency-token')!;
    const list = async (query: string) => {
      const items: Array<Record<string, unknown>> = [];
      let page = await staff('GET', `/stock?${query}&limit=1`, { headers: { 'Consistency-Token': token } });
      for (;;) {
        expect(page.status, JSON.stringify(page.body)).toBe(200);
        items.push(...page.body.items);
        const link = page.headers.get('link');
        if (!link) return items;
        page = await staff('GET', link.slice(1, link.indexOf('>')));
      }
    };
    const bySku = await list(`skuPrefix=${prefix}-`);
    expect(bySku).toEqual([
      { sku: `${prefix}-1`, name: `${prefix} Blue mug`, lowStockThreshold: 0, onHand: 0, reserved: 0, available: 0, updatedAt: null, revision: null },
      { sku: `${prefix}-2`, name: `${prefix.toLowerCase()} blue bowl`, lowStockThreshold: 1, onHand: 0, reserved: 0, available: 0, updatedAt: null, revision: null },
      { sku: `${prefix}-3`, name: `${prefix} Red cup`, lowStockThreshold: 2, onHand: 5, reserved: 0, available: 5, updatedAt: expect.any(String), revision: 0 },
    ]);
    expect((await list(`skuPrefix=${prefix}-&belowThreshold=true`)).map((item) => item.sku)).toEqual([`${prefix}-2`]);
    expect((await list(`namePrefix=${encodeURIComponent(`${prefix.toLowerCase()} BLUE`)}`)).map((item) => item.name)).toEqual([`${prefix.toLowerCase()} blue bowl`, `${prefix} Blue mug`]);
    expect(await list(`namePrefix=${prefix}%20Green`)).toEqual([]);
    const first = await staff('GET', `/stock?namePrefix=${prefix}&limit=1`, { headers: { 'Consistency-Token': token } });
    expect(first.headers.get('link')).toContain(`namePrefix=${prefix}&limit=1&cursor=`);
    const refused = async (query: string, pointers: string[]) => {
      const response = await staff('GET', `/stock?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.type).toBe('https://errors.orders.example/validation-failed');
      expect(response.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(pointers);
    };
    await refused(`namePrefix=a&skuPrefix=${prefix}`, ['/skuPrefix']);
    await refused('namePrefix=a&belowThreshold=true', ['/belowThreshold']);
    await refused('skuPrefix=a&below=3', ['/skuPrefix']);
    const otherPrefix = await staff('GET', `/stock?namePrefix=a&limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(otherPrefix.body.type).toBe('https://errors.orders.example/invalid-cursor');
  });
});

describe('reservations', () => {
  it('reserves on placement, releases on cancellation', async () => {
    const s = sku();
    await receive(s, 4);
    const placed = await place([{ sku: s, quantity: 3 }]);
    expect(placed.status).toBe(201);
    expect(await levels(s)).toMatchObject({ onHand: 4, reserved: 3, available: 1 });
    expect((await staff('POST', `/orders/${placed.body.id}/cancellation`, { body: { reason: 'changed mind' } })).status).toBe(200);
    expect(await levels(s)).toMatchObject({ onHand: 4, reserved: 0, available: 4 });
  });

  it('turns a reservation into a deduction on shipment', async () => {
    const s = sku();
    await receive(s, 4);
    const placed = await place([{ sku: s, quantity: 3 }]);
    await staff('POST', `/orders/${placed.body.id}/payments`, { body: { amount: 300, reference: 'psp' }, headers: key() });
    expect((await staff('POST', `/orders/${placed.body.id}/shipments`, { body: { carrier: 'DHL', trackingNumber: 'T1' }, headers: key() })).status).toBe(201);
    expect(await levels(s)).toMatchObject({ onHand: 1, reserved: 0, available: 1 });
  });

  it('reserves all lines or none, naming each short line with what is available', async () => {
    const [a, b, c] = [sku(), sku(), sku()];
    await receive(a, 5);
    await receive(b, 1);
    await product(c);
    const refused = await place([{ sku: a, quantity: 2 }, { sku: b, quantity: 2 }, { sku: c, quantity: 1 }]);
    expect(refused.status).toBe(409);
    expect(refused.body.type).toMatch(/insufficient-stock$/);
    expect(refused.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ pointer: '/lines/1/quantity', available: 1 }),
        expect.objectContaining({ pointer: '/lines/2/quantity', available: 0 }),
      ]),
    );
    expect(refused.body.errors).toHaveLength(2);
    expect(await levels(a)).toMatchObject({ reserved: 0, available: 5 });
    expect(await levels(b)).toMatchObject({ reserved: 0, available: 1 });
  });

  it('reserves once however often the placement is retried', async () => {
    const s = sku();
    await receive(s, 10);
    const headers = key();
    const body = order([{ sku: s, quantity: 4 }]);
    const results = await Promise.all(Array.from({ length: 5 }, () => staff('POST', '/orders', { body, headers })));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(await levels(s)).toMatchObject({ reserved: 4, available: 6 });
  });

  it('sells 10 units to exactly 10 of 200 concurrent buyers', async () => {
    const s = sku();
    await receive(s, 10);
    const results = await Promise.all(Array.from({ length: 200 }, () => place([{ sku: s, quantity: 1 }])));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 409)).toHaveLength(190);
    for (const refused of results.filter((r) => r.status === 409)) expect(refused.body.errors).toEqual([expect.objectContaining({ pointer: '/lines/0/quantity', available: 0 })]);
    expect(await levels(s)).toMatchObject({ onHand: 10, reserved: 10, available: 0 });
  });

  it('never deadlocks nor leaves a partial reservation when orders take the same SKUs in opposite line orders', async () => {
    const [a, b] = [sku(), sku()];
    await receive(a, 20);
    await receive(b, 20);
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => place(i % 2 === 0 ? [{ sku: a, quantity: 1 }, { sku: b, quantity: 1 }] : [{ sku: b, quantity: 1 }, { sku: a, quantity: 1 }])),
    );
    const placed = results.filter((r) => r.status === 201).length;
    expect(placed).toBe(20);
    expect(results.filter((r) => r.status === 409)).toHaveLength(40);
    expect(await levels(a)).toMatchObject({ reserved: 20 });
    expect(await levels(b)).toMatchObject({ reserved: 20 });
  });
});
