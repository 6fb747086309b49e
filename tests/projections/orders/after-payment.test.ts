// The orders' projections after payment: the view with what shipped, was cancelled and came back,
// its balance and the status older API versions read; the fulfilment queue keeping a partially
// shipped order until nothing remains to ship, and its changes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fulfilmentQueue } from '../../../projections/orders/fulfilment-queue.js';
import { orderViews } from '../../../projections/orders/order-views.js';
import { rebuild, verify } from '../../../projections/rebuild.js';
import type { OrderView, QueueChange, QueueEntry } from '../../../read-side/orders/views.js';
import { openEmbedded, type StoreFixture } from '../../support/event-stores.js';
import { openEmbeddedReadStore, type ReadStoreFixture } from '../../support/read-stores.js';
import { seedOrdersAfterPayment } from '../../support/seed.js';

describe('the orders projections after payment', () => {
  let events: StoreFixture;
  let reads: ReadStoreFixture;
  let ids: { partly: string; returned: string; cancelled: string; pending: string };
  beforeEach(async () => {
    events = await openEmbedded();
    reads = await openEmbeddedReadStore();
    const [partly, returned, cancelled, pending] = await seedOrdersAfterPayment(events.store);
    ids = { partly: partly!, returned: returned!, cancelled: cancelled!, pending: pending! };
    await rebuild(events.store, reads.store, orderViews);
    await rebuild(events.store, reads.store, fulfilmentQueue);
  });
  afterEach(async () => {
    await reads.dispose();
    await events.dispose();
  });

  it('keeps each order with its lines as they stand, its balance, and the status older versions read beside it', async () => {
    const views = await reads.store.find<OrderView>('order-views', Object.values(ids));
    expect(views.get(ids.partly)).toMatchObject({ status: 'partially_shipped', lines: [{ sku: 'SEED-1', quantity: 3, shipped: 2 }, { sku: 'SEED-2', quantity: 1, shipped: 0 }] });
    expect(views.get(ids.returned)).toMatchObject({ status: 'shipped', lines: [{ shipped: 2, returned: 0 }, { sku: 'SEED-3', shipped: 2, returned: 2 }], balance: { charged: 202, paid: 202, refunded: 50, due: 50 } });
    expect(views.get(ids.cancelled)).toMatchObject({ status: 'shipped', lines: [{ quantity: 4, shipped: 1, cancelled: 3 }], balance: { charged: 102, refunded: 306, due: 0 } });
    expect(views.get(ids.pending)).toMatchObject({ status: 'pending', lines: [{ sku: 'SEED-2', quantity: 5, shipped: 0 }], total: 510, balance: { charged: 510, paid: 0, due: 510 } });
    const stored = await reads.store.views('order-views', await reads.store.activeGeneration('order-views')).fields(Object.values(ids));
    expect([...stored].map(([id, fields]) => [id, fields['status'], fields['legacyStatus']])).toEqual(expect.arrayContaining([
      [ids.partly, 'partially_shipped', 'paid'], [ids.returned, 'shipped', 'shipped'], [ids.cancelled, 'shipped', 'shipped'], [ids.pending, 'pending', 'pending'],
    ]));
    expect((await verify(events.store, reads.store, orderViews, () => {})).differences).toBe(0);
  });

  it('keeps a partially shipped order queued with what shipped; it leaves once nothing remains to ship, or when cancelled', async () => {
    const entries = await reads.store.find<QueueEntry>('fulfilment-queue', Object.values(ids));
    expect(entries.get(ids.partly)).toMatchObject({ state: 'queued', lines: [{ sku: 'SEED-1', shipped: 2 }, { sku: 'SEED-2', shipped: 0 }] });
    expect(entries.get(ids.returned)).toMatchObject({ state: 'left' });
    expect(entries.get(ids.cancelled)).toMatchObject({ state: 'left', lines: [{ quantity: 4, shipped: 1 }] });
    expect(entries.get(ids.pending)).toMatchObject({ state: 'awaiting-payment', lines: [{ sku: 'SEED-2', quantity: 5 }] });
    const { changes } = await reads.store.changesAfter<QueueChange>('fulfilment-queue', null, 100);
    const of = (id: string) => changes.filter((c) => c.orderId === id).map((c) => [c.change, c.reason]);
    expect(of(ids.partly)).toEqual([['entered', 'paid']]);
    expect(of(ids.returned)).toEqual([['entered', 'paid'], ['left', 'shipped']]);
    expect(of(ids.cancelled)).toEqual([['entered', 'paid'], ['left', 'cancelled']]);
    expect(of(ids.pending)).toEqual([]);
    expect((await verify(events.store, reads.store, fulfilmentQueue, () => {})).differences).toBe(0);
  });
});
