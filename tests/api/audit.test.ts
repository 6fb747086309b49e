// Auditors: an order's history, and the order as it stood at a revision or an instant.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, newOrder, startService, type TestService } from '../support/http.js';
import { receiveStock, TEST_SKUS } from '../support/seed.js';

let service: TestService;
let staff: ReturnType<typeof client>;
let auditor: ReturnType<typeof client>;
beforeAll(async () => {
  service = await startService();
  await receiveStock(service.events, TEST_SKUS);
  staff = client(service, await service.token({ sub: 'clerk', scope: 'orders:read orders:write payments:write shipments:write' }));
  auditor = client(service, await service.token({ sub: 'auditor', scope: 'orders:read audit:read' }));
});
afterAll(() => service.stop());

async function lifecycle() {
  const placed = await staff('POST', '/orders', { body: newOrder(), headers: { 'Idempotency-Key': `a-${Date.now()}-${Math.random()}`, 'X-Correlation-Id': 'corr-place' } });
  const id = placed.body.id as string;
  await new Promise((r) => setTimeout(r, 20));
  const between = new Date().toISOString();
  await new Promise((r) => setTimeout(r, 20));
  await staff('PATCH', `/orders/${id}`, { raw: JSON.stringify({ address: { city: 'Paris' } }), headers: { 'Content-Type': 'application/merge-patch+json', 'X-Correlation-Id': 'corr-patch' } });
  await staff('POST', `/orders/${id}/payments`, { body: { amount: 3998, reference: 'psp' }, headers: { 'Idempotency-Key': `p-${id}` } });
  await staff('POST', `/orders/${id}/shipments`, { body: { carrier: 'DHL', trackingNumber: 'T' }, headers: { 'Idempotency-Key': `s-${id}` } });
  return { id, createdAt: placed.body.createdAt as string, between };
}

describe('order history', () => {
  it('lists the events in order, with type, schema version, data, revision, position, time and metadata', async () => {
    const { id } = await lifecycle();
    const history = await auditor('GET', `/orders/${id}/history`);
    expect(history.status).toBe(200);
    expect(history.body.items.map((e: { type: string }) => e.type)).toEqual(['OrderPlaced', 'OrderAddressChanged', 'PaymentRecorded', 'ShipmentCreated']);
    expect(history.body.items.map((e: { revision: number }) => e.revision)).toEqual([0, 1, 2, 3]);
    const positions = history.body.items.map((e: { position: string }) => e.position);
    expect(positions).toEqual([...positions].sort());
    expect(history.body.items[0]).toMatchObject({
      schemaVersion: 2, recordedSchemaVersion: 2, recordedAt: expect.any(String),
      data: { orderId: id, total: 3998, address: { city: 'Berlin' } },
      metadata: { principal: 'clerk', correlationId: 'corr-place', causationId: 'corr-place' },
    });
    expect(history.body.items[1]).toMatchObject({ data: { address: { city: 'Paris' } }, metadata: { correlationId: 'corr-patch' } });
    expect(history.body.nextCursor).toBeNull();
  });

  it('pages the history with a cursor bound to the order', async () => {
    const { id } = await lifecycle();
    const first = await auditor('GET', `/orders/${id}/history?limit=3`);
    expect(first.body.items).toHaveLength(3);
    expect(first.headers.get('link')).toContain('rel="next"');
    const rest = await auditor('GET', `/orders/${id}/history?limit=3&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(rest.body.items.map((e: { revision: number }) => e.revision)).toEqual([3]);
    expect(rest.body.nextCursor).toBeNull();
    const other = await lifecycle();
    expect((await auditor('GET', `/orders/${other.id}/history?cursor=${encodeURIComponent(first.body.nextCursor)}`)).body.type).toBe('https://errors.orders.example/invalid-cursor');
  });

  it('needs audit:read, and answers 404 for an unknown order', async () => {
    const { id } = await lifecycle();
    expect((await staff('GET', `/orders/${id}/history`)).status).toBe(403);
    expect((await auditor('GET', '/orders/00000000-0000-4000-8000-000000000000/history')).status).toBe(404);
  });
});

describe('point-in-time reads', () => {
  it('folds the order as it stood at a revision or an instant', async () => {
    const { id, createdAt, between } = await lifecycle();
    const atZero = await auditor('GET', `/orders/${id}?revision=0`);
    expect(atZero.body).toMatchObject({ status: 'pending', revision: 0, address: { city: 'Berlin' } });
    expect(atZero.headers.get('etag')).toBe('"0"');
    expect((await auditor('GET', `/orders/${id}?revision=2`)).body).toMatchObject({ status: 'paid', address: { city: 'Paris' } });
    expect((await auditor('GET', `/orders/${id}?asOf=${between}`)).body).toMatchObject({ status: 'pending', revision: 0, address: { city: 'Berlin' } });
    expect((await auditor('GET', `/orders/${id}?asOf=${new Date().toISOString()}`)).body).toMatchObject({ status: 'shipped', revision: 3 });
    const before = new Date(Date.parse(createdAt) - 60_000).toISOString();
    expect((await auditor('GET', `/orders/${id}?asOf=${before}`)).status).toBe(404);
  });

  it('needs audit:read and a well-formed time or revision', async () => {
    const { id } = await lifecycle();
    expect((await staff('GET', `/orders/${id}?revision=0`)).status).toBe(403);
    expect((await auditor('GET', `/orders/${id}?revision=-1`)).status).toBe(400);
    expect((await auditor('GET', `/orders/${id}?asOf=yesterday`)).status).toBe(400);
    expect((await auditor('GET', `/orders/${id}?colour=red`)).status).toBe(400);
  });

  it('refuses an instant that does not exist on the calendar: 400 validation-failed naming asOf', async () => {
    const { id } = await lifecycle();
    for (const asOf of ['2026-13-45T99:99:99Z', '2026-02-30T10:00:00Z', '2025-02-29T10:00:00Z', '2026-11-22T24:00:00Z', '2026-11-22T10:60:00Z', '2026-11-22T10:00:00+25:00']) {
      const response = await auditor('GET', `/orders/${id}?asOf=${encodeURIComponent(asOf)}`);
      expect({ asOf, status: response.status, type: response.body.type }).toEqual({ asOf, status: 400, type: 'https://errors.orders.example/validation-failed' });
      expect(response.body.errors).toEqual([{ pointer: '/asOf', message: expect.any(String) }]);
    }
    // A leap day that exists, and an offset, are fine.
    expect((await auditor('GET', `/orders/${id}?asOf=${encodeURIComponent('2028-02-29T10:00:00+01:00')}`)).status).toBe(200);
  });

  it('answers 404 for a revision the order has not reached, as for an unknown order', async () => {
    const { id } = await lifecycle(); // at revision 3
    expect((await auditor('GET', `/orders/${id}?revision=3`)).body).toMatchObject({ revision: 3, status: 'shipped' });
    for (const revision of [4, 99]) {
      const response = await auditor('GET', `/orders/${id}?revision=${revision}`);
      expect(response.status).toBe(404);
      expect(response.body.type).toBe('https://errors.orders.example/not-found');
      expect(response.headers.get('etag')).toBeNull();
    }
  });

  it('refuses revision and asOf together: 400, instead of silently using one', async () => {
    const { id } = await lifecycle();
    const response = await auditor('GET', `/orders/${id}?revision=1&asOf=${encodeURIComponent(new Date().toISOString())}`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ type: 'https://errors.orders.example/validation-failed', errors: [{ pointer: '/revision' }] });
  });

  it("confines point-in-time reads and history to the customer's own orders, whatever the scopes", async () => {
    const { id } = await lifecycle(); // cus_42's order
    const other = client(service, await service.token({ sub: 'cus-7-auditor', customerId: 'cus_7', scope: 'orders:read audit:read' }));
    const own = client(service, await service.token({ sub: 'cus-42-auditor', customerId: 'cus_42', scope: 'orders:read audit:read' }));
    for (const path of [`/orders/${id}?revision=0`, `/orders/${id}?asOf=${encodeURIComponent(new Date().toISOString())}`, `/orders/${id}/history`]) {
      expect((await other('GET', path)).status).toBe(404);
      expect((await own('GET', path)).status).toBe(200);
    }
  });
});
