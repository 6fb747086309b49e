// Races over real HTTP: duplicate placements, ship against address change, paging while others write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, newOrder, startService, type TestService } from '../support/http.js';
import { receiveStock, TEST_SKUS } from '../support/seed.js';

let service: TestService;
let api: ReturnType<typeof client>;
beforeAll(async () => {
  service = await startService();
  await receiveStock(service.events, TEST_SKUS);
  api = client(service, await service.token());
});
afterAll(() => service.stop());

async function inBatches<T>(count: number, width: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < count; start += width) {
    results.push(...(await Promise.all(Array.from({ length: Math.min(width, count - start) }, (_, j) => work(start + j)))));
  }
  return results;
}

describe('races over HTTP', () => {
  it('turns 100 concurrent placements with 10 keys into 10 orders, each key answered with one order', async () => {
    const keys = Array.from({ length: 10 }, (_, i) => `race-${Date.now()}-${i}`);
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => api('POST', '/orders', { body: newOrder('cus_race'), headers: { 'Idempotency-Key': keys[i % 10]! } })),
    );
    const idsByKey = new Map<string, Set<string>>();
    responses.forEach((response, i) => {
      expect(response.status).toBe(201);
      const ids = idsByKey.get(keys[i % 10]!) ?? new Set<string>();
      ids.add(response.body.id);
      idsByKey.set(keys[i % 10]!, ids);
    });
    expect([...idsByKey.values()].map((ids) => ids.size)).toEqual(Array(10).fill(1));
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') !== 'true')).toHaveLength(10);
    for (const ids of idsByKey.values()) expect(await service.events.readStream(`order-${[...ids][0]}`)).toHaveLength(1);
  });

  it('never lands an address change after the shipment when both race (100 rounds)', async () => {
    const ids = await inBatches(100, 20, async (i) => {
      const { body } = await api('POST', '/orders', { body: newOrder(), headers: { 'Idempotency-Key': `ship-race-${Date.now()}-${i}` } });
      await api('POST', `/orders/${body.id}/payments`, { body: { amount: body.total, reference: 'psp' }, headers: { 'Idempotency-Key': `pay-${body.id}` } });
      return body.id as string;
    });
    const outcomes = await Promise.all(
      ids.map(async (id, round) => {
        const ship = () => api('POST', `/orders/${id}/shipments`, { body: { carrier: 'DHL', trackingNumber: id }, headers: { 'Idempotency-Key': `ship-${id}` } });
        const change = () => api('PATCH', `/orders/${id}`, { raw: JSON.stringify({ address: { city: 'Paris' } }), headers: { 'Content-Type': 'application/merge-patch+json' } });
        // Both in flight together, the second sent 0 to 3 ms after the first: the rounds spread over
        // the interleavings (sent at the same instant, the shorter address change can win every round).
        const later = <T>(send: () => Promise<T>) => new Promise((resolve) => setTimeout(resolve, round % 4)).then(send);
        if (round % 2 === 0) return Promise.all([ship(), later(change)]);
        const [c, s] = await Promise.all([change(), later(ship)]);
        return [s, c] as const;
      }),
    );
    let refused = 0;
    for (const [ship, change] of outcomes) {
      expect(ship.status).toBe(201);
      if (change.status !== 200) {
        expect(change.status).toBe(409);
        expect(change.body).toMatchObject({ type: 'https://errors.orders.example/state-conflict', currentStatus: 'shipped' });
        refused++;
      }
    }
    for (const id of ids) {
      const types = (await service.events.readStream(`order-${id}`)).map((e) => e.type);
      expect(types.slice(types.indexOf('ShipmentCreated') + 1)).not.toContain('OrderAddressChanged');
    }
    expect(refused).toBeGreaterThan(0);
    expect(refused).toBeLessThan(100);
  });

  it('walks 1,000 orders by cursor while other clients keep creating orders: each existing order seen exactly once', async () => {
    const customer = `cus_walk_${Date.now()}`;
    const existing = await inBatches(1000, 25, async (i) => {
      const response = await api('POST', '/orders', { body: newOrder(customer), headers: { 'Idempotency-Key': `walk-${customer}-${i}` } });
      return { id: response.body.id as string, token: response.headers.get('consistency-token')! };
    });
    const last = existing.reduce((a, b) => (a.token > b.token ? a : b)).token;

    let writing = true;
    let written = 0;
    const writers = Array.from({ length: 3 }, async (_, w) => {
      while (writing) {
        await api('POST', '/orders', { body: newOrder(customer), headers: { 'Idempotency-Key': `walk-new-${customer}-${w}-${written++}` } });
      }
    });

    const seen: string[] = [];
    let path = `/orders?customerId=${customer}&limit=37`;
    let first = true;
    for (;;) {
      const page = await api('GET', path, first ? { headers: { 'Consistency-Token': last } } : {});
      first = false;
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map((o: { id: string }) => o.id));
      if (!page.body.nextCursor) break;
      path = `/orders?customerId=${customer}&limit=37&cursor=${encodeURIComponent(page.body.nextCursor)}`;
    }
    writing = false;
    await Promise.all(writers);

    expect(written).toBeGreaterThan(0);
    const seenSet = new Set(seen);
    expect(seenSet.size).toBe(seen.length);
    for (const { id } of existing) expect(seenSet.has(id)).toBe(true);
  });
});
