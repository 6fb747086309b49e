// The returns projection: one view per return from its order's stream (an order holds several),
// as the order's own fold has it; the requested ones paged oldest first on an index; a batch
// applied twice changing nothing; agreement with a fresh fold, and a view that is not the fold found.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyBatch, historyFrom } from '../../../projections/apply.js';
import { returnsView } from '../../../projections/orders/returns.js';
import { rebuild, verify, type Difference } from '../../../projections/rebuild.js';
import { returnPage, type ReturnView } from '../../../read-side/orders/returns.js';
import { serviceViewer } from '../../../write-side/kernel/access.js';
import { ORDER_STREAM_PREFIX } from '../../../write-side/orders/codec.js';
import { OrderService } from '../../../write-side/orders/service.js';
import type { PlacedOrder } from '../../../write-side/orders/types.js';
import { openEmbedded, type StoreFixture } from '../../support/event-stores.js';
import { openEmbeddedReadStore, type ReadStoreFixture } from '../../support/read-stores.js';
import { seedOrdersAfterPayment } from '../../support/seed.js';

const staff = serviceViewer('returns-projection-test');
const ctx = (key = randomUUID()) => ({ correlationId: 'c', idempotency: { key, fingerprint: key } });

describe('the returns projection', () => {
  let events: StoreFixture;
  let reads: ReadStoreFixture;
  let order: PlacedOrder;
  beforeEach(async () => {
    events = await openEmbedded();
    reads = await openEmbeddedReadStore();
    // One order shipped with a return received (seedOrdersAfterPayment), then two more returns of it: one waits, one is cancelled.
    const [, returned] = await seedOrdersAfterPayment(events.store);
    const orders = new OrderService(events.store);
    await orders.requestReturn(staff, returned!, { lines: [{ sku: 'SEED-1', quantity: 1 }], reason: 'scratched' }, ctx());
    const second = await orders.requestReturn(staff, returned!, { lines: [{ sku: 'SEED-1', quantity: 1 }], reason: 'changed my mind' }, ctx());
    await orders.cancelReturn(staff, returned!, (second.state as PlacedOrder).returns.at(-1)!.id, { correlationId: 'c' });
    order = (await orders.get(staff, returned!))!.order;
  });
  afterEach(async () => {
    await reads.dispose();
    await events.dispose();
  });

  it("keeps every return of an order as the order's fold has it, pages the requested ones oldest first, and agrees with a fresh fold", async () => {
    await rebuild(events.store, reads.store, returnsView);
    expect(order.returns.map((r) => r.status)).toEqual(['received', 'requested', 'cancelled']);
    const stored = await reads.store.find<ReturnView>('returns', order.returns.map((r) => r.id));
    for (const ret of order.returns) expect(stored.get(ret.id)).toEqual({ ...ret, orderId: order.id, revision: expect.any(Number) });

    const page = async (status?: 'requested' | 'received' | 'cancelled') => (await reads.store.page<ReturnView>('returns', returnPage(status, null, 10))).map((v) => v.id);
    expect(await page('requested')).toEqual([order.returns[1]!.id]);
    expect(await page('received')).toEqual([order.returns[0]!.id]);
    expect(await page()).toEqual(order.returns.map((r) => r.id));
    expect(await reads.store.count('returns', [{ field: 'status', op: '=', value: 'requested' }])).toBe(1);
    expect(await verify(events.store, reads.store, returnsView, () => {})).toEqual({ checked: 3, differences: 0 });

    // The whole log applied again (a replay after a crash) changes nothing.
    const generation = reads.store.views<ReturnView>('returns', await reads.store.activeGeneration('returns'));
    const log = await events.store.readAll({ after: null, maxCount: 10_000, streamPrefixes: [ORDER_STREAM_PREFIX] });
    await applyBatch(returnsView, generation, log, historyFrom(events.store));
    expect(await reads.store.find<ReturnView>('returns', order.returns.map((r) => r.id))).toEqual(stored);
    expect(await verify(events.store, reads.store, returnsView, () => {})).toEqual({ checked: 3, differences: 0 });
  });

  it('is found to differ where a stored view is not the fold of its events', async () => {
    await rebuild(events.store, reads.store, returnsView);
    const views = reads.store.views<ReturnView>('returns', await reads.store.activeGeneration('returns'));
    const requested = order.returns[1];
    const view = (await views.load([requested!.id])).get(requested!.id)!;
    await views.commit([{ key: requested!.id, view: { ...view, status: 'received', revision: view.revision + 1 } }], (await views.checkpoint())!);
    const found: Difference[] = [];
    expect(await verify(events.store, reads.store, returnsView, (d) => found.push(d))).toEqual({ checked: 3, differences: 1 });
    expect(found[0]).toMatchObject({ key: requested!.id, expected: { status: 'requested' }, actual: { status: 'received' } });
  });
});
