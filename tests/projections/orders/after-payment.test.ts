// The orders' projections after payment: the view with what shipped, was cancelled and came back,
// its balance and the status older API versions read; the fulfilment queue keeping a partially
// shipped order until nothing remains to ship, and its changes; and keeping nothing for an order
// until it is paid, its entry then made from the order's stream, whatever the batches.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyBatch, historyFrom } from '../../../projections/apply.js';
import { fulfilmentQueue } from '../../../projections/orders/fulfilment-queue.js';
import { orderViews } from '../../../projections/orders/order-views.js';
import { rebuild, verify } from '../../../projections/rebuild.js';
import type { OrderView, QueueChange, QueueEntry } from '../../../read-side/orders/views.js';
import { serviceViewer } from '../../../write-side/kernel/access.js';
import { ORDER_STREAM_PREFIX } from '../../../write-side/orders/codec.js';
import { OrderService } from '../../../write-side/orders/service.js';
import { openEmbedded, type StoreFixture } from '../../support/event-stores.js';
import { openEmbeddedReadStore, type ReadStoreFixture } from '../../support/read-stores.js';
import { address, seedOrdersAfterPayment } from '../../support/seed.js';

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
    // Placed and edited, never paid: nothing kept.
    expect(entries.has(ids.pending)).toBe(false);
    const { changes } = await reads.store.changesAfter<QueueChange>('fulfilment-queue', null, 100);
    const of = (id: string) => changes.filter((c) => c.orderId === id).map((c) => [c.change, c.reason]);
    expect(of(ids.partly)).toEqual([['entered', 'paid']]);
    expect(of(ids.returned)).toEqual([['entered', 'paid'], ['left', 'shipped']]);
    expect(of(ids.cancelled)).toEqual([['entered', 'paid'], ['left', 'cancelled']]);
    expect(of(ids.pending)).toEqual([]);
    expect((await verify(events.store, reads.store, fulfilmentQueue, () => {})).differences).toBe(0);
  });

  it('keeps nothing for an order until it is paid; its entry is then made from its stream, in batches of any size, each applied twice', async () => {
    const log = async (after: Awaited<ReturnType<typeof events.store.headPosition>>) => events.store.readAll({ after, maxCount: 1000, streamPrefixes: [ORDER_STREAM_PREFIX] });
    const before = await events.store.headPosition();
    // The pending order (placed, then edited) gets a new address, then its payment: events the
    // queue never kept an entry for, folded again from the stream when the payment comes.
    const service = new OrderService(events.store);
    const staff = serviceViewer('queue-history-test');
    const moved = { ...address, city: 'Utrecht' };
    await service.changeAddress(staff, ids.pending, moved, { correlationId: 'c' });
    await service.recordPayment(staff, ids.pending, { amount: 510, reference: 'psp-late' }, { correlationId: 'c', idempotency: { key: 'late-payment', fingerprint: 'late' } });
    const later = await log(before);
    expect(later.map((e) => e.type)).toEqual(['OrderAddressChanged', 'PaymentRecorded']);
    const whole = await log(null);
    await rebuild(events.store, reads.store, fulfilmentQueue);
    const rebuilt = await reads.store.views<QueueEntry>('fulfilment-queue', await reads.store.activeGeneration('fulfilment-queue')).scan(null, 100);
    const entry = rebuilt.find(({ key }) => key === ids.pending)?.view;
    expect(entry).toMatchObject({ state: 'queued', lines: [{ sku: 'SEED-2', quantity: 5 }], total: 510, revision: 3 });
    expect(entry?.address).toEqual(moved);
    for (const size of [1, 2, 5, whole.length]) {
      const views = reads.store.views<QueueEntry, QueueChange>('fulfilment-queue', await reads.store.createGeneration('fulfilment-queue'));
      for (let i = 0; i < whole.length; i += size) {
        await applyBatch(fulfilmentQueue, views, whole.slice(i, i + size), historyFrom(events.store));
        await applyBatch(fulfilmentQueue, views, whole.slice(Math.max(0, i - size), i + size), historyFrom(events.store));
      }
      expect(await views.scan(null, 100), `batches of ${size}`).toEqual(rebuilt);
    }
    const { changes } = await reads.store.changesAfter<QueueChange>('fulfilment-queue', null, 100);
    expect(changes.filter((c) => c.orderId === ids.pending).map((c) => [c.change, c.reason])).toEqual([['entered', 'paid']]);
    expect((await verify(events.store, reads.store, fulfilmentQueue, () => {})).differences).toBe(0);
  });

  it('finds a kept entry for an order not paid to differ from its stream', async () => {
    const views = reads.store.views<QueueEntry>('fulfilment-queue', await reads.store.activeGeneration('fulfilment-queue'));
    const [partly] = (await views.load([ids.partly])).values();
    await views.commit([{ key: ids.pending, view: { ...partly!, orderId: ids.pending, state: 'awaiting-payment', paidAt: null } }], (await views.checkpoint())!);
    const found: Array<{ key: string; expected: unknown }> = [];
    expect((await verify(events.store, reads.store, fulfilmentQueue, (d) => found.push(d))).differences).toBe(1);
    expect(found).toEqual([{ key: ids.pending, expected: null, actual: expect.objectContaining({ orderId: ids.pending, state: 'awaiting-payment' }) }]);
  });

  it('refuses to drop an entry it kept', async () => {
    const views = reads.store.views<QueueEntry, QueueChange>('fulfilment-queue', await reads.store.createGeneration('fulfilment-queue'));
    const log = await events.store.readAll({ after: null, maxCount: 1000, streamPrefixes: [ORDER_STREAM_PREFIX] });
    // Kept while queued, dropped once left: an order shipped whole would lose the entry that tells a replay it left.
    const dropsLeavers = { ...fulfilmentQueue, keeps: (entry: QueueEntry) => entry.paidAt !== null && entry.state !== 'left' };
    await expect(applyBatch(dropsLeavers, views, log, historyFrom(events.store))).rejects.toThrow(/a kept view is never dropped/);
  });
});
