// What the projected reads show of orders after payment, per Api-Version (HTTP-CONTRACT "Orders
// after payment"): the collection and its status filter, exports, and the fulfilment queue and
// its feed. Partial shipments are made on the write side (the HTTP operations for them are
// another change's); everything is read through real HTTP.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceViewer } from '../../write-side/kernel/access.js';
import { OrderService } from '../../write-side/orders/service.js';
import type { SkuQuantity } from '../../write-side/orders/types.js';
import { client, newOrder, startService, type TestService } from '../support/http.js';
import { receiveStock, TEST_SKUS } from '../support/seed.js';
import { until } from '../support/until.js';

const CURRENT = { 'Api-Version': '2027-01-01' };
const PREVIOUS = { 'Api-Version': '2026-12-01' };

let service: TestService;
let api: ReturnType<typeof client>;
let orders: OrderService;
let keys = 0;
const key = () => `after-payment-reads-${Date.now()}-${keys++}`;
const shipper = serviceViewer('warehouse');

beforeAll(async () => {
  service = await startService({}, { leaseMs: 2000 });
  await receiveStock(service.events, TEST_SKUS);
  api = client(service, await service.token({ sub: 'reader' }));
  orders = new OrderService(service.events);
});
afterAll(() => service.stop());

/** Places an order of 2 × SKU-1 for the customer (as a guest, under 2026-11-01), and pays it unless `pay` is false. */
async function order(customer: string, pay = true): Promise<{ id: string; token: string }> {
  const placed = await api('POST', '/orders', { body: newOrder(customer), headers: { 'Idempotency-Key': key() } });
  expect(placed.status).toBe(201);
  if (!pay) return { id: placed.body.id, token: placed.headers.get('consistency-token')! };
  const paid = await api('POST', `/orders/${placed.body.id}/payments`, { body: { amount: placed.body.total, reference: 'psp' }, headers: { 'Idempotency-Key': key() } });
  expect(paid.status).toBe(201);
  return { id: placed.body.id, token: paid.headers.get('consistency-token')! };
}

/** Ships what `lines` names (everything that remains without them), and answers the write's Consistency-Token. */
async function ship(id: string, lines?: SkuQuantity[]): Promise<string> {
  const k = key();
  const shipped = await orders.createShipment(shipper, id, { carrier: 'DHL', trackingNumber: k, ...(lines ? { lines } : {}) }, { correlationId: 'c', idempotency: { key: k, fingerprint: k } });
  return shipped.position!;
}

/** Every order of the customer, as the version reads them (status filter optional), following the cursors. */
async function list(customer: string, headers: Record<string, string>, status?: string, limit = 100): Promise<Array<{ id: string; status: string }>> {
  const items = [];
  let path = `/orders?customerId=${customer}&sort=createdAt&limit=${limit}${status ? `&status=${status}` : ''}`;
  for (;;) {
    const page = await api('GET', path, { headers });
    expect(page.status).toBe(200);
    items.push(...page.body.items);
    if (!page.body.nextCursor) return items;
    path = page.headers.get('link')!.match(/<([^>]+)>/)![1]!;
  }
}

describe('the orders collection, per Api-Version', () => {
  let customer: string;
  let paid: string;
  let partly: string;
  let shipped: string;
  let pending: string;

  beforeAll(async () => {
    customer = `cus_partly_${Date.now()}`;
    paid = (await order(customer)).id;
    partly = (await order(customer)).id;
    shipped = (await order(customer)).id;
    pending = (await order(customer, false)).id;
    await ship(partly, [{ sku: 'SKU-1', quantity: 1 }]);
    await ship(shipped, [{ sku: 'SKU-1', quantity: 1 }]);
    expect(await service.projector.waitFor((await ship(shipped)) as never, 60_000)).toBe(true);
  });

  it('shows partially_shipped, with the lines and the balance, under 2027-01-01; status=paid leaves it out and status=partially_shipped selects it', async () => {
    const all = await list(customer, CURRENT);
    expect(all.map((o) => [o.id, o.status])).toEqual([[paid, 'paid'], [partly, 'partially_shipped'], [shipped, 'shipped'], [pending, 'pending']]);
    expect(all[1]).toMatchObject({
      lines: [{ sku: 'SKU-1', quantity: 2, shipped: 1, cancelled: 0, returned: 0 }],
      balance: { charged: 3998, paid: 3998, refunded: 0, due: 0 },
    });
    expect((await list(customer, CURRENT, 'paid')).map((o) => o.id)).toEqual([paid]);
    expect((await list(customer, CURRENT, 'partially_shipped')).map((o) => o.id)).toEqual([partly]);
    expect((await list(customer, CURRENT, 'shipped')).map((o) => o.id)).toEqual([shipped]);
  });

  it('shows it as paid under 2026-12-01 and 2026-11-01, where status=paid takes it in, page by page', async () => {
    for (const headers of [PREVIOUS, {}]) {
      const all = await list(customer, headers);
      expect(all.map((o) => [o.id, o.status])).toEqual([[paid, 'paid'], [partly, 'paid'], [shipped, 'shipped'], [pending, 'pending']]);
      // Its lines and balance are additive: every version shows them.
      expect(all[1]).toMatchObject({ lines: [{ shipped: 1 }], balance: { due: 0 } });
      const paidOnes = await list(customer, headers, 'paid', 1);
      expect(paidOnes.map((o) => [o.id, o.status])).toEqual([[paid, 'paid'], [partly, 'paid']]);
      expect((await list(customer, headers, 'shipped')).map((o) => o.id)).toEqual([shipped]);
      expect((await list(customer, headers, 'pending')).map((o) => o.id)).toEqual([pending]);
    }
  });

  it('refuses status=partially_shipped under the versions that do not know it, and a cursor of another reading', async () => {
    for (const headers of [PREVIOUS, {}]) {
      const refused = await api('GET', `/orders?status=partially_shipped&customerId=${customer}`, { headers });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ type: 'https://errors.orders.example/validation-failed', errors: [{ pointer: '/status' }] });
    }
    const current = await api('GET', `/orders?status=paid&customerId=${customer}&limit=1`, { headers: CURRENT });
    expect(current.body.nextCursor).toBeNull();
    const previous = await api('GET', `/orders?status=paid&customerId=${customer}&sort=createdAt&limit=1`, { headers: PREVIOUS });
    const cursor = encodeURIComponent(previous.body.nextCursor);
    // status=paid selects another set under 2027-01-01: the cursor does not continue there.
    const crossed = await api('GET', `/orders?status=paid&customerId=${customer}&sort=createdAt&limit=1&cursor=${cursor}`, { headers: CURRENT });
    expect(crossed.status).toBe(400);
    expect((await api('GET', `/orders?status=paid&customerId=${customer}&sort=createdAt&limit=1&cursor=${cursor}`)).body.items.map((o: { id: string }) => o.id)).toEqual([partly]);
  });
});

describe('exports, per the Api-Version they were asked under', () => {
  let customer: string;
  let paid: string;
  let partly: string;
  let exporter: ReturnType<typeof client>;

  beforeAll(async () => {
    customer = `cus_export_partly_${Date.now()}`;
    exporter = client(service, await service.token({ sub: 'partly-exporter', customerId: customer }));
    paid = (await order(customer)).id;
    partly = (await order(customer)).id;
    expect(await service.projector.waitFor((await ship(partly, [{ sku: 'SKU-1', quantity: 1 }])) as never, 60_000)).toBe(true);
  });

  async function exported(format: 'csv' | 'ndjson', headers: Record<string, string>, status?: string): Promise<string> {
    const started = await exporter('POST', '/exports', { body: { format, ...(status ? { filter: { status } } : {}) }, headers: { ...headers, 'Idempotency-Key': key() } });
    expect(started.status).toBe(202);
    const done = await until(() => exporter('GET', `/jobs/${started.body.id}`), (job) => job.body.status === 'succeeded' || job.body.status === 'failed');
    expect(done.body.status).toBe('succeeded');
    const file = await fetch(`${service.url}${done.body.result.href}`, { headers: { Authorization: `Bearer ${await service.token({ sub: 'partly-exporter', customerId: customer })}` } });
    return file.text();
  }
  const ndjson = (text: string) => text.trimEnd().split('\n').map((line) => JSON.parse(line) as { id: string; status: string });

  it('writes partially_shipped under 2027-01-01, where status=paid leaves it out', async () => {
    expect(ndjson(await exported('ndjson', CURRENT)).map((o) => [o.id, o.status])).toEqual([[paid, 'paid'], [partly, 'partially_shipped']]);
    expect(ndjson(await exported('ndjson', CURRENT, 'paid')).map((o) => o.id)).toEqual([paid]);
    const rows = parse(await exported('csv', CURRENT, 'partially_shipped'), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((row) => [row['id'], row['status']])).toEqual([[partly, 'partially_shipped']]);
  });

  it('writes it as paid under the versions before, where status=paid takes it in and partially_shipped is refused', async () => {
    const rows = parse(await exported('csv', PREVIOUS, 'paid'), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((row) => [row['id'], row['status']])).toEqual([[paid, 'paid'], [partly, 'paid']]);
    expect(ndjson(await exported('ndjson', {})).map((o) => [o.id, o.status])).toEqual([[paid, 'paid'], [partly, 'paid']]);
    const refused = await exporter('POST', '/exports', { body: { format: 'csv', filter: { status: 'partially_shipped' } }, headers: { ...PREVIOUS, 'Idempotency-Key': key() } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ errors: [{ pointer: '/filter/status' }] });
  });
});

describe('the fulfilment queue and its feed', () => {
  type Change = { orderId: string; change: string; reason: string };
  const changesOf = async (ids: readonly string[], token: string): Promise<Array<[string, string, string]>> => {
    const feed = await api('GET', '/fulfilment-queue/changes?limit=1000', { headers: { 'Consistency-Token': token } });
    expect(feed.status).toBe(200);
    return (feed.body.changes as Change[]).filter((c) => ids.includes(c.orderId)).map((c) => [c.orderId, c.change, c.reason]);
  };
  const queued = async (id: string, token: string) => {
    const page = await api('GET', '/fulfilment-queue?limit=100', { headers: { 'Consistency-Token': token } });
    expect(page.status).toBe(200);
    return (page.body.items as Array<{ orderId: string; lines: unknown[] }>).find((entry) => entry.orderId === id) ?? null;
  };

  it('keeps a partially shipped order queued with what shipped, and lets it leave (shipped) once nothing remains', async () => {
    const { id, token } = await order(`cus_queue_${Date.now()}`);
    expect(await queued(id, token)).toMatchObject({ lines: [{ sku: 'SKU-1', quantity: 2, shipped: 0 }] });
    const partly = await ship(id, [{ sku: 'SKU-1', quantity: 1 }]);
    const entry = await queued(id, partly);
    expect(entry).toMatchObject({ lines: [{ sku: 'SKU-1', quantity: 2, shipped: 1, cancelled: 0, returned: 0 }] });
    expect(entry).not.toHaveProperty('status');
    expect(await changesOf([id], partly)).toEqual([[id, 'entered', 'paid']]);
    const rest = await ship(id);
    expect(await queued(id, rest)).toBeNull();
    expect(await changesOf([id], rest)).toEqual([[id, 'entered', 'paid'], [id, 'left', 'shipped']]);
  });

  it('lets a partially shipped order leave when it is cancelled, and the order then reads shipped', async () => {
    const { id } = await order(`cus_queue_${Date.now()}`);
    await ship(id, [{ sku: 'SKU-1', quantity: 1 }]);
    const cancelled = await api('POST', `/orders/${id}/cancellation`, { body: { reason: 'rest out of stock' } });
    expect(cancelled.status).toBe(200);
    const token = cancelled.headers.get('consistency-token')!;
    expect(await queued(id, token)).toBeNull();
    expect(await changesOf([id], token)).toEqual([[id, 'entered', 'paid'], [id, 'left', 'cancelled']]);
    const [view] = (await api('GET', `/orders?customerId=${cancelled.body.customerId}`, { headers: { ...CURRENT, 'Consistency-Token': token } })).body.items;
    expect(view).toMatchObject({ status: 'shipped', lines: [{ quantity: 2, shipped: 1, cancelled: 1 }], balance: { charged: 1999, paid: 3998, due: -1999 } });
  });
});
