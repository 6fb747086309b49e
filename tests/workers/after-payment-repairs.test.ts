// Orders after payment, after a crash: a process that died between an order's event and its
// stock step (a shipment's commit, a cancellation's release, an edit's release or raise, a
// receipt's restock) is repaired by the stock reconciler once the event is orphanAfter old; and
// a shipment, return, refund or edit retried under its key is replayed, finishing what its first
// run left undone and changing nothing else.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serviceViewer } from '../../write-side/kernel/access.js';
import { StoreUnavailable } from '../../write-side/kernel/errors.js';
import type { EventStore } from '../../write-side/kernel/event-store.js';
import { orderStream } from '../../write-side/orders/codec.js';
import { stockStream } from '../../write-side/stock/codec.js';
import { OrderService, type OrderServiceOptions } from '../../write-side/orders/service.js';
import type { PlacedOrder, SkuQuantity } from '../../write-side/orders/types.js';
import { StockService, type Reservations } from '../../write-side/stock/service.js';
import { StockReconciler } from '../../workers/stock-reconciler.js';
import { defineProducts } from '../support/catalogue.js';
import { delegating, openEmbedded, type StoreFixture } from '../support/event-stores.js';
import { openEmbeddedReadStore, type ReadStoreFixture } from '../support/read-stores.js';
import { address } from '../support/seed.js';
import { until } from '../support/until.js';

let events: StoreFixture;
let reads: ReadStoreFixture;
let store: EventStore;
let stock: StockService;
let orders: OrderService;
const staff = serviceViewer('staff');
const keyed = (key: string) => ({ correlationId: 'c', idempotency: { key, fingerprint: key } });
const plain = { correlationId: 'c' };

beforeEach(async () => {
  events = await openEmbedded();
  reads = await openEmbeddedReadStore();
  store = events.store;
  stock = new StockService(store);
  orders = new OrderService(store, { reservations: stock, restocking: stock });
});
afterEach(async () => {
  await reads.dispose();
  await events.dispose();
});

/** A process that dies right after each order event: none of its stock steps happen. */
const crashing: Reservations = { reserve: async () => {}, release: async () => {}, settle: async () => {} };
const dying = (options: OrderServiceOptions = {}) => new OrderService(store, { reservations: crashing, restocking: { restock: async () => {} }, ...options });

const started = new Date(Date.now() - 60_000);
/** A reconciler whose clock is past orphanAfter (30 s) for every event written so far. */
const reconciler = (readModels = reads.store) => new StockReconciler(store, readModels, orders, stock, { clock: () => new Date(Date.now() + 31_000), startedAt: started });

/** Products at 1.00 EUR with `units` received of each. */
async function stocked(units: number, ...skus: string[]): Promise<void> {
  await defineProducts(store, Object.fromEntries(skus.map((sku) => [sku, { name: sku, description: null, prices: { EUR: 100 }, status: 'active' as const }])));
  for (const sku of skus) await stock.adjust(staff, sku, { delta: units, reason: 'received', note: null }, keyed(randomUUID()));
}
const levels = async (sku: string) => {
  const { onHand, reserved } = (await stock.get(staff, sku))!;
  return { onHand, reserved };
};
/** A SKU of this test's own. */
const sku = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;
async function paidOrder(lines: SkuQuantity[]): Promise<PlacedOrder> {
  const placed = (await orders.place(staff, { customerId: 'cus_1', currency: 'EUR', lines, address }, keyed(randomUUID()))).state as PlacedOrder;
  return (await orders.recordPayment(staff, placed.id, { amount: placed.total, reference: 'psp' }, keyed(randomUUID()))).state as PlacedOrder;
}

describe('the stock reconciler, after payment', () => {
  it('commits what a partial shipment shipped when the process died before its stock step', async () => {
    const [a, b] = [sku('A'), sku('B')];
    await stocked(5, a, b);
    const order = await paidOrder([{ sku: a, quantity: 3 }, { sku: b, quantity: 1 }]);
    await dying().createShipment(staff, order.id, { carrier: 'DHL', trackingNumber: 'T', lines: [{ sku: a, quantity: 2 }] }, keyed('ship'));
    expect(await levels(a)).toEqual({ onHand: 5, reserved: 3 });

    await reconciler().runOnce();
    expect(await levels(a)).toEqual({ onHand: 3, reserved: 1 });
    expect(await levels(b)).toEqual({ onHand: 5, reserved: 1 });
  });

  it('releases what remained of a partially shipped order cancelled by a process that died before its stock step', async () => {
    const [a, b] = [sku('A'), sku('B')];
    await stocked(5, a, b);
    const order = await paidOrder([{ sku: a, quantity: 3 }, { sku: b, quantity: 1 }]);
    await orders.createShipment(staff, order.id, { carrier: 'DHL', trackingNumber: 'T', lines: [{ sku: a, quantity: 1 }] }, keyed('ship'));
    const cancelled = await dying().cancel(staff, order.id, null, plain);
    expect(cancelled.state).toMatchObject({ status: 'shipped' });
    expect([await levels(a), await levels(b)]).toEqual([{ onHand: 4, reserved: 2 }, { onHand: 5, reserved: 1 }]);

    await reconciler().runOnce();
    expect([await levels(a), await levels(b)]).toEqual([{ onHand: 4, reserved: 0 }, { onHand: 5, reserved: 0 }]);
    // Released as a cancellation's, as the service's own step would have said.
    const released = (await store.readStream(stockStream(b))).filter((e) => e.type === 'ReservationReleased');
    expect(released.map((e) => e.data['reason'])).toEqual(['order-cancelled']);
  });

  it('releases what an edit decreased or removed when the process died after the edit was recorded', async () => {
    const [a, b] = [sku('A'), sku('B')];
    await stocked(5, a, b);
    const order = await paidOrder([{ sku: a, quantity: 3 }, { sku: b, quantity: 2 }]);
    await dying().edit(staff, order.id, { lines: [{ sku: a, quantity: 1 }], dryRun: false }, keyed('edit'));
    expect([await levels(a), await levels(b)]).toEqual([{ onHand: 5, reserved: 3 }, { onHand: 5, reserved: 2 }]);

    await reconciler().runOnce();
    expect([await levels(a), await levels(b)]).toEqual([{ onHand: 5, reserved: 1 }, { onHand: 5, reserved: 0 }]);
  });

  it('releases, past its fence, an edit’s raise whose edit was never recorded, and not before it is orphanAfter old', async () => {
    const [a, c] = [sku('A'), sku('C')];
    await stocked(5, a, c);
    const order = await paidOrder([{ sku: a, quantity: 1 }]);
    // The store takes the raise, then fails the edit's append: whether it was written is unknown,
    // so the service leaves it to the reconciler, as after a crash.
    const failing = delegating(store, {
      appendToStream: (stream, evs, expected, options) => (stream === orderStream(order.id) ? Promise.reject(new StoreUnavailable('the store went away')) : store.appendToStream(stream, evs, expected, options)),
    });
    const cutOff = new OrderService(failing, { reservations: new StockService(failing) });
    await expect(cutOff.edit(staff, order.id, { lines: [{ sku: a, quantity: 3 }, { sku: c, quantity: 2 }], dryRun: false }, plain)).rejects.toBeInstanceOf(StoreUnavailable);
    expect([await levels(a), await levels(c)]).toEqual([{ onHand: 5, reserved: 3 }, { onHand: 5, reserved: 2 }]);

    const early = new StockReconciler(store, reads.store, orders, stock, { clock: () => new Date(), startedAt: started });
    await early.runOnce();
    expect([await levels(a), await levels(c)]).toEqual([{ onHand: 5, reserved: 3 }, { onHand: 5, reserved: 2 }]);

    await reconciler().runOnce();
    expect([await levels(a), await levels(c)]).toEqual([{ onHand: 5, reserved: 1 }, { onHand: 5, reserved: 0 }]);
    expect((await orders.get(staff, order.id))!.order.lines.map((l) => [l.sku, l.quantity])).toEqual([[a, 1]]);
  });

  it('lets an edit that stalled past orphanAfter between its raise and its append raise again on its own settle once it lands (the residual race, with stock to spare)', async () => {
    const a = sku('A');
    await stocked(5, a);
    const order = await paidOrder([{ sku: a, quantity: 1 }]);
    let land!: () => void;
    const stalled = new Promise<void>((resolve) => (land = resolve));
    const stalling = delegating(store, {
      appendToStream: async (stream, evs, expected, options) => (stream === orderStream(order.id) && (await stalled), store.appendToStream(stream, evs, expected, options)),
    });
    const slow = new OrderService(stalling, { reservations: stock });
    const editing = slow.edit(staff, order.id, { lines: [{ sku: a, quantity: 3 }], dryRun: false }, plain);
    await until(() => levels(a), (l) => l.reserved === 3);

    await reconciler().runOnce();
    expect(await levels(a)).toEqual({ onHand: 5, reserved: 1 });
    land();
    await editing;
    expect((await orders.get(staff, order.id))!.order.lines.map((l) => l.quantity)).toEqual([3]);
    expect(await levels(a)).toEqual({ onHand: 5, reserved: 3 });
  });

  it('puts a receipt’s restocked units back on hand once, however often it runs', async () => {
    const a = sku('A');
    await stocked(5, a);
    const order = await paidOrder([{ sku: a, quantity: 3 }]);
    await orders.createShipment(staff, order.id, { carrier: 'DHL', trackingNumber: 'T' }, keyed('ship'));
    const requested = await orders.requestReturn(staff, order.id, { lines: [{ sku: a, quantity: 3 }], reason: 'wrong colour' }, keyed('return'));
    const returnId = (requested.state as PlacedOrder).returns[0]!.id;
    const received = await dying().receiveReturn(staff, order.id, returnId, [{ sku: a, quantity: 2, restock: true }, { sku: a, quantity: 1, restock: false }], plain);
    expect(await levels(a)).toEqual({ onHand: 2, reserved: 0 });

    await reconciler().runOnce();
    expect(await levels(a)).toEqual({ onHand: 4, reserved: 0 });
    // Again over the same log (a lost checkpoint), and the receipt's own step once more.
    const fresh = await openEmbeddedReadStore();
    try {
      await reconciler(fresh.store).runOnce();
    } finally {
      await fresh.dispose();
    }
    await orders.restock(staff, received.state, returnId, plain);
    expect(await levels(a)).toEqual({ onHand: 4, reserved: 0 });
  });
});

describe('a request after payment retried under its key', () => {
  it('replays a shipment, a return and a refund, changing nothing', async () => {
    const a = sku('A');
    await stocked(5, a);
    const order = await paidOrder([{ sku: a, quantity: 3 }]);
    const first = await orders.createShipment(staff, order.id, { carrier: 'DHL', trackingNumber: 'T', lines: [{ sku: a, quantity: 2 }] }, keyed('ship'));
    const returned = await orders.requestReturn(staff, order.id, { lines: [{ sku: a, quantity: 1 }], reason: 'r' }, keyed('return'));
    const refunded = await orders.recordRefund(staff, order.id, { amount: 100, reason: 'return', note: null }, keyed('refund'));
    const length = (await store.readStream(orderStream(order.id))).length;

    const again = [
      await orders.createShipment(staff, order.id, { carrier: 'DHL', trackingNumber: 'T', lines: [{ sku: a, quantity: 2 }] }, keyed('ship')),
      await orders.requestReturn(staff, order.id, { lines: [{ sku: a, quantity: 1 }], reason: 'r' }, keyed('return')),
      await orders.recordRefund(staff, order.id, { amount: 100, reason: 'return', note: null }, keyed('refund')),
    ];
    expect(again.map((r) => r.replayed)).toEqual([true, true, true]);
    expect(again.map((r) => r.events)).toEqual([first.events, returned.events, refunded.events]);
    expect((await store.readStream(orderStream(order.id))).length).toBe(length);
    expect(await levels(a)).toEqual({ onHand: 3, reserved: 1 });
  });

  it('replays a shipment whose first run died before its stock step, and finishes that step', async () => {
    const a = sku('A');
    await stocked(5, a);
    const order = await paidOrder([{ sku: a, quantity: 3 }]);
    const first = await dying().createShipment(staff, order.id, { carrier: 'DHL', trackingNumber: 'T', lines: [{ sku: a, quantity: 1 }] }, keyed('ship'));
    const again = await orders.createShipment(staff, order.id, { carrier: 'DHL', trackingNumber: 'T', lines: [{ sku: a, quantity: 1 }] }, keyed('ship'));
    expect(again).toMatchObject({ replayed: true, events: first.events });
    expect(await levels(a)).toEqual({ onHand: 4, reserved: 2 });
  });

  it('replays an edit, even once the order has moved on, and finishes what its first run left undone', async () => {
    const [a, b] = [sku('A'), sku('B')];
    await stocked(5, a, b);
    const order = await paidOrder([{ sku: a, quantity: 1 }]);
    const edit = { lines: [{ sku: a, quantity: 3 }, { sku: b, quantity: 1 }], dryRun: false };
    const first = await orders.edit(staff, order.id, edit, keyed('edit'));
    await orders.edit(staff, order.id, { lines: [{ sku: a, quantity: 2 }], dryRun: false }, keyed('edit-2'));
    expect([await levels(a), await levels(b)]).toEqual([{ onHand: 5, reserved: 2 }, { onHand: 5, reserved: 0 }]);

    // Not raised again for lines the order no longer has.
    const again = await orders.edit(staff, order.id, edit, keyed('edit'));
    expect(again).toMatchObject({ replayed: true, events: first.events });
    expect([await levels(a), await levels(b)]).toEqual([{ onHand: 5, reserved: 2 }, { onHand: 5, reserved: 0 }]);

    // Nor refused once the order has shipped.
    await orders.createShipment(staff, order.id, { carrier: 'DHL', trackingNumber: 'T' }, keyed('ship'));
    expect(await orders.edit(staff, order.id, edit, keyed('edit'))).toMatchObject({ replayed: true, events: first.events });
    expect([await levels(a), await levels(b)]).toEqual([{ onHand: 3, reserved: 0 }, { onHand: 5, reserved: 0 }]);

    // An edit whose first run died after it was recorded: its retry releases what it decreased.
    const other = await paidOrder([{ sku: b, quantity: 3 }]);
    const died = await dying().edit(staff, other.id, { lines: [{ sku: b, quantity: 1 }], dryRun: false }, keyed('edit-3'));
    expect(await levels(b)).toEqual({ onHand: 5, reserved: 3 });
    const retried = await orders.edit(staff, other.id, { lines: [{ sku: b, quantity: 1 }], dryRun: false }, keyed('edit-3'));
    expect(retried).toMatchObject({ replayed: true, events: died.events });
    expect(await levels(b)).toEqual({ onHand: 5, reserved: 1 });
  });
});
