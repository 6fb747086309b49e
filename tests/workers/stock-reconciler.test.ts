// The stock's background repairs: reservations whose order was never placed, cancellations and
// shipments whose stock step a crash cut off, and the payment timeout of pending orders.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { orderViews } from '../../projections/orders/order-views.js';
import { rebuild } from '../../projections/rebuild.js';
import type { ReadModelStore } from '../../read-side/read-store.js';
import { serviceViewer } from '../../write-side/kernel/access.js';
import { StateConflict } from '../../write-side/kernel/errors.js';
import type { EventStore, Position } from '../../write-side/kernel/event-store.js';
import { keyId } from '../../write-side/kernel/idempotency.js';
import { OrderService } from '../../write-side/orders/service.js';
import { orderStream } from '../../write-side/orders/codec.js';
import { StockService, type Reservations } from '../../write-side/stock/service.js';
import { PendingOrderExpiry } from '../../workers/pending-expiry.js';
import { StockReconciler } from '../../workers/stock-reconciler.js';
import { delegating, openEmbedded, type StoreFixture } from '../support/event-stores.js';
import { openEmbeddedReadStore, type ReadStoreFixture } from '../support/read-stores.js';
import { defineProducts } from '../support/catalogue.js';
import { address } from '../support/seed.js';

let events: StoreFixture;
let reads: ReadStoreFixture;
let store: EventStore;
let readModels: ReadModelStore;
let stock: StockService;
let orders: OrderService;
const later = (ms: number) => () => new Date(Date.now() + ms);
const user = () => serviceViewer(`user-${randomUUID()}`);
const keyed = (key: string) => ({ correlationId: 'c', idempotency: { key, fingerprint: key } });
const staff = serviceViewer('staff');

beforeEach(async () => {
  events = await openEmbedded();
  reads = await openEmbeddedReadStore();
  store = events.store;
  readModels = reads.store;
  stock = new StockService(store);
  orders = new OrderService(store, { reservations: stock });
});
afterEach(async () => {
  await reads.dispose();
  await events.dispose();
});

/** Every SKU these tests order is a product at 0.01 EUR, whose stock is received here. */
async function received(sku: string, quantity: number) {
  await defineProducts(store, { [sku]: { name: `Product ${sku}`, description: null, prices: { EUR: 1 }, status: 'active' } });
  const key = randomUUID();
  await stock.adjust(staff, sku, { delta: quantity, reason: 'received', note: null }, keyed(key));
}
const levels = (sku: string) => stock.get(staff, sku);
const started = new Date(Date.now() - 60_000);
const reconciler = (clock = later(31_000)) => new StockReconciler(store, readModels, orders, stock, { clock, startedAt: started });
/** Reservations whose order-side steps never ran: a process that died right after the order's event. */
const crashing: Reservations = { reserve: async () => {}, release: async () => {}, settle: async () => {} };

describe('the stock reconciler', () => {
  it('releases a reservation whose order was never placed, and the late placement then fails and holds nothing', async () => {
    const sku = `R-${randomUUID()}`;
    await received(sku, 5);
    const viewer = user();
    const orderId = keyId(viewer.sub, 'k1');
    await stock.reserve(orderId, [{ sku, quantity: 2 }], { principal: viewer.sub, correlationId: 'c', causationId: null });
    expect(await reconciler(later(0)).runOnce()).toBe(0);
    expect(await levels(sku)).toMatchObject({ reserved: 2 });

    await reconciler().runOnce();
    expect(await levels(sku)).toMatchObject({ reserved: 0, available: 5 });
    expect((await store.readStream(orderStream(orderId))).map((e) => e.type)).toEqual(['OrderPlacementAbandoned']);
    await expect(orders.place(viewer, { customerId: 'cus_1', currency: 'EUR', lines: [{ sku, quantity: 2, unitPrice: 1 }], address }, keyed('k1'))).rejects.toBeInstanceOf(StateConflict);
    expect(await levels(sku)).toMatchObject({ reserved: 0 });
  });

  it('gives a placement cut off by a restart the time to be retried before it counts as never placed', async () => {
    const sku = `R-${randomUUID()}`;
    await received(sku, 5);
    const viewer = user();
    await stock.reserve(keyId(viewer.sub, 'k3'), [{ sku, quantity: 1 }], { principal: viewer.sub, correlationId: 'c', causationId: null });
    const justStarted = new StockReconciler(store, readModels, orders, stock, { clock: later(31_000), startedAt: new Date(Date.now() + 10_000) });
    expect(await justStarted.runOnce()).toBe(0);
    await orders.place(viewer, { customerId: 'cus_1', currency: 'EUR', lines: [{ sku, quantity: 1, unitPrice: 1 }], address }, keyed('k3'));
    await reconciler().runOnce();
    expect(await levels(sku)).toMatchObject({ reserved: 1 });
  });

  it('leaves the reservations of placed orders alone, and resumes from its checkpoint after a restart', async () => {
    const sku = `R-${randomUUID()}`;
    await received(sku, 5);
    await orders.place(user(), { customerId: 'cus_1', currency: 'EUR', lines: [{ sku, quantity: 2, unitPrice: 1 }], address }, keyed('k2'));
    expect(await reconciler().runOnce()).toBeGreaterThan(0);
    expect(await levels(sku)).toMatchObject({ reserved: 2 });
    const restarted = new StockReconciler(store, await reads.reopen(), orders, stock, { clock: later(31_000), startedAt: started });
    expect(await restarted.runOnce()).toBe(0);
  });

  it('releases a cancelled order’s and commits a shipped order’s reservations when a crash cut the stock step off', async () => {
    const [a, b] = [`R-${randomUUID()}`, `R-${randomUUID()}`];
    await received(a, 5);
    await received(b, 5);
    const viewer = user();
    const cancelled = await orders.place(viewer, { customerId: 'cus_1', currency: 'EUR', lines: [{ sku: a, quantity: 2, unitPrice: 1 }], address }, keyed('c1'));
    const shipped = await orders.place(viewer, { customerId: 'cus_1', currency: 'EUR', lines: [{ sku: b, quantity: 3, unitPrice: 1 }], address }, keyed('s1'));
    const dying = new OrderService(store, { reservations: crashing });
    const id = (r: typeof cancelled) => (r.state as { id: string }).id;
    await dying.cancel(viewer, id(cancelled), null, { correlationId: 'c' });
    await dying.recordPayment(viewer, id(shipped), { amount: 3, reference: 'p' }, keyed('p1'));
    await dying.createShipment(viewer, id(shipped), { carrier: 'DHL', trackingNumber: 'T' }, keyed('sh1'));
    expect(await levels(a)).toMatchObject({ reserved: 2 });
    expect(await levels(b)).toMatchObject({ onHand: 5, reserved: 3 });

    await reconciler().runOnce();
    expect(await levels(a)).toMatchObject({ onHand: 5, reserved: 0 });
    expect(await levels(b)).toMatchObject({ onHand: 2, reserved: 0 });
    // Run over the same log again (a lost checkpoint): nothing changes twice.
    await new StockReconciler(store, (await openEmbeddedReadStore()).store, orders, stock, { clock: later(31_000), startedAt: started }).runOnce();
    expect(await levels(b)).toMatchObject({ onHand: 2, reserved: 0 });
  });

  it('reads no order whose OrderPlaced, naming the reserved SKU, follows its reservations, and still releases a SKU its order does not name', async () => {
    const [a, b] = [`R-${randomUUID()}`, `R-${randomUUID()}`];
    await received(a, 10);
    await received(b, 10);
    for (let i = 0; i < 3; i++) await orders.place(user(), { customerId: 'cus_1', currency: 'EUR', lines: [{ sku: a, quantity: 1, unitPrice: 1 }, { sku: b, quantity: 1, unitPrice: 1 }], address }, keyed(`p${i}`));
    // Two requests under one key: the first reserved `a` and died; the second, for `b`, placed the order.
    const viewer = user();
    await stock.reserve(keyId(viewer.sub, 'raced'), [{ sku: a, quantity: 2 }], { principal: viewer.sub, correlationId: 'c', causationId: null });
    await orders.place(viewer, { customerId: 'cus_1', currency: 'EUR', lines: [{ sku: b, quantity: 1, unitPrice: 1 }], address }, keyed('raced'));
    expect(await levels(a)).toMatchObject({ reserved: 5 });

    const read: string[] = [];
    const counted = delegating(store, { readStream: (stream, options) => (read.push(stream), store.readStream(stream, options)) });
    await new StockReconciler(store, readModels, new OrderService(counted, { reservations: stock }), stock, { clock: later(31_000), startedAt: started }).runOnce();
    expect(read).toEqual([orderStream(keyId(viewer.sub, 'raced'))]);
    expect(await levels(a)).toMatchObject({ reserved: 3 });
    expect(await levels(b)).toMatchObject({ reserved: 4 });
  });

  it('stores how far it got at most once a second in a pass, and at its end, the last event it handled', async () => {
    const sku = `R-${randomUUID()}`;
    await received(sku, 10);
    for (let i = 0; i < 6; i++) await orders.place(user(), { customerId: 'cus_1', currency: 'EUR', lines: [{ sku, quantity: 1, unitPrice: 1 }], address }, keyed(`c${i}`));
    const saved: Position[] = [];
    /** The store, with each checkpoint it is asked to store noted in `saved`. */
    const noting = (models: ReadModelStore, overrides: Partial<ReadModelStore> = {}) =>
      Object.assign(Object.create(models) as ReadModelStore, {
        saveProcessCheckpoint: (name: string, position: Position) => (saved.push(position), models.saveProcessCheckpoint(name, position)),
        ...overrides,
      });
    const last = (await store.readAll({ maxCount: 10_000, streamPrefixes: ['stock-', 'order-'] })).at(-1)!.position;
    // A clock that stands still: the whole pass (several batches of 3) within one second.
    const still = new Date(Date.now() + 31_000);
    let batches = 0;
    const watched = delegating(store, { readAll: (options) => (batches++, store.readAll(options)) });
    await new StockReconciler(watched, noting(readModels), orders, stock, { clock: () => still, startedAt: started, batchSize: 3 }).runOnce();
    expect(batches).toBeGreaterThan(3);
    expect(saved).toEqual([last]);
    expect(await readModels.processCheckpoint('stock-reconciler')).toBe(last);
    // A clock a second on at each look, from the start of the log: stored after every batch that handled something.
    let tick = Date.now() + 31_000;
    saved.length = 0;
    const fromStart = noting(await reads.reopen(), { processCheckpoint: async () => null });
    await new StockReconciler(watched, fromStart, orders, stock, { clock: () => new Date((tick += 1_000)), startedAt: started, batchSize: 3 }).runOnce();
    expect(saved.length).toBeGreaterThan(3);
    expect(saved.at(-1)).toBe(last);
  });

  it('lets the thread serve other work between its batches', async () => {
    const sku = `R-${randomUUID()}`;
    await received(sku, 10);
    for (let i = 0; i < 6; i++) await orders.place(user(), { customerId: 'cus_1', currency: 'EUR', lines: [{ sku, quantity: 1, unitPrice: 1 }], address }, keyed(`y${i}`));
    let served = false;
    const servedAtRead: boolean[] = [];
    const watched = delegating(store, { readAll: (options) => (servedAtRead.push(served), store.readAll(options)) });
    setImmediate(() => (served = true));
    await new StockReconciler(watched, readModels, orders, stock, { clock: later(31_000), startedAt: started, batchSize: 3 }).runOnce();
    expect(servedAtRead.length).toBeGreaterThan(2);
    expect(servedAtRead[0]).toBe(false);
    expect(servedAtRead.at(-1)).toBe(true);
  });
});

describe('the payment timeout', () => {
  it('cancels pending orders past the TTL with reason payment-timeout, releases their stock, and never repeats', async () => {
    const sku = `P-${randomUUID()}`;
    await received(sku, 10);
    const viewer = user();
    const old = new OrderService(store, { reservations: stock, clock: () => new Date(Date.now() - 3_600_000) });
    const pending = await old.place(viewer, { customerId: 'cus_1', currency: 'EUR', lines: [{ sku, quantity: 2, unitPrice: 1 }], address }, keyed('old-pending'));
    const paid = await old.place(viewer, { customerId: 'cus_1', currency: 'EUR', lines: [{ sku, quantity: 3, unitPrice: 1 }], address }, keyed('old-paid'));
    await old.recordPayment(viewer, (paid.state as { id: string }).id, { amount: 3, reference: 'p' }, keyed('pay'));
    const fresh = await orders.place(viewer, { customerId: 'cus_1', currency: 'EUR', lines: [{ sku, quantity: 1, unitPrice: 1 }], address }, keyed('fresh'));
    await rebuild(store, readModels, orderViews);
    expect(await levels(sku)).toMatchObject({ reserved: 6 });

    const expiry = new PendingOrderExpiry(readModels, orders, { ttlMs: 60_000 });
    expect(await expiry.runOnce()).toBe(1);
    const cancelled = await orders.get(staff, (pending.state as { id: string }).id);
    expect(cancelled?.order).toMatchObject({ status: 'cancelled', cancellationReason: 'payment-timeout' });
    expect((await orders.get(staff, (paid.state as { id: string }).id))?.order.status).toBe('paid');
    expect((await orders.get(staff, (fresh.state as { id: string }).id))?.order.status).toBe('pending');
    expect(await levels(sku)).toMatchObject({ reserved: 4 });

    // A restart before the views caught up runs it again: the order is cancelled once.
    expect(await new PendingOrderExpiry(readModels, orders, { ttlMs: 60_000 }).runOnce()).toBe(0);
    expect((await store.readStream(orderStream((pending.state as { id: string }).id))).filter((e) => e.type === 'OrderCancelled')).toHaveLength(1);
  });
});
