import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serviceViewer } from '../../../write-side/kernel/access.js';
import { InsufficientStock } from '../../../write-side/kernel/errors.js';
import type { AppendResult, EventStore } from '../../../write-side/kernel/event-store.js';
import { keyId } from '../../../write-side/kernel/idempotency.js';
import { comparePositions } from '../../../write-side/kernel/position.js';
import { SqliteEventStore } from '../../../write-side/adapters/sqlite-event-store.js';
import { StockService } from '../../../write-side/stock/service.js';
import { stockStream } from '../../../write-side/stock/codec.js';
import { ProductService } from '../../../write-side/catalogue/service.js';
import { orderStream } from '../../../write-side/orders/codec.js';
import { OrderService } from '../../../write-side/orders/service.js';
import { address } from '../../support/seed.js';
import { availableStores, delegating, type StoreFixture } from '../../support/event-stores.js';

const context = { principal: 'test', correlationId: 'corr', causationId: null };
const staff = serviceViewer('stock-test');

/** The store, with every stock append held back until the test lets them through (and the later ones go straight on). */
function holding(store: EventStore) {
  const held: Array<{ stream: string; release: () => void }> = [];
  let holdingBack = true;
  let before: ((stream: string) => Promise<void>) | null = null;
  const wrapped: EventStore = {
    appendToStream: (stream, events, expected, options) =>
      new Promise<AppendResult>((resolve, reject) => {
        const release = () => void (before?.(stream) ?? Promise.resolve()).then(() => store.appendToStream(stream, events, expected, options)).then(resolve, reject);
        if (holdingBack && stream.startsWith('stock-')) held.push({ stream, release });
        else release();
      }),
    readStream: (stream, options) => store.readStream(stream, options),
    readLastEvent: (stream) => store.readLastEvent(stream),
    setMaxCount: (stream, maxCount) => store.setMaxCount(stream, maxCount),
    readAll: (options) => store.readAll(options),
    subscribeToAll: (options) => store.subscribeToAll(options),
    headPosition: () => store.headPosition(),
    close: () => store.close(),
  };
  return {
    store: wrapped,
    held,
    /** Runs `act` before the append of `stream` goes to the store (another process writing first). */
    beforeAppend: (act: (stream: string) => Promise<void>) => (before = act),
    releaseAll: () => {
      holdingBack = false;
      held.splice(0).forEach(({ release }) => release());
    },
  };
}

/** The store, counting the reads of stock streams. */
function counting(store: EventStore) {
  const reads = { count: 0 };
  const wrapped = delegating(store, {
    readStream: (stream, options) => {
      if (stream.startsWith('stock-')) reads.count++;
      return store.readStream(stream, options);
    },
    readLastEvent: (stream) => {
      if (stream.startsWith('snapshot-stock-')) reads.count++;
      return store.readLastEvent(stream);
    },
  });
  return { store: wrapped, reads };
}

/** Lets every pending promise job and I/O callback run. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
};

for (const [name, open] of availableStores) {
  describe(`stock reservations on ${name}`, () => {
    let fixture: StoreFixture;
    beforeEach(async () => {
      fixture = await open();
    });
    afterEach(() => fixture.dispose());

    async function receive(sku: string, units: number): Promise<void> {
      await new StockService(fixture.store).adjust(staff, sku, { delta: units, reason: 'received', note: null }, { correlationId: 'corr', idempotency: { key: randomUUID(), fingerprint: 'fp' } });
    }

    it('sends every line\'s reservation to the store before the first is acknowledged (one commit can carry them all), and resolves only once all are', async () => {
      const skus = ['A', 'B', 'C'].map((s) => `${s}-${randomUUID()}`);
      for (const sku of skus) await receive(sku, 5);
      const store = holding(fixture.store);
      let done = false;
      const reserving = new StockService(store.store).reserve(randomUUID(), skus.map((sku) => ({ sku, quantity: 2 })), context).then(() => (done = true));
      await settle();
      expect(store.held.map(({ stream }) => stream)).toEqual(skus.map(stockStream).sort());
      expect(done).toBe(false);
      store.releaseAll();
      await reserving;
      const stock = new StockService(fixture.store);
      for (const sku of skus) expect((await stock.get(staff, sku))!).toMatchObject({ reserved: 2, available: 3 });
    });

    it('decides a reservation on the state its own last append left, without reading the SKU stream again', async () => {
      const sku = `A-${randomUUID()}`;
      await receive(sku, 10);
      const { store, reads } = counting(fixture.store);
      const stock = new StockService(store);
      await stock.reserve(randomUUID(), [{ sku, quantity: 1 }], context);
      const afterFirst = reads.count;
      expect(afterFirst).toBeGreaterThan(0);
      await stock.reserve(randomUUID(), [{ sku, quantity: 2 }], context);
      await stock.reserve(randomUUID(), [{ sku, quantity: 3 }], context);
      expect(reads.count).toBe(afterFirst);
      expect((await new StockService(fixture.store).get(staff, sku))!).toMatchObject({ onHand: 10, reserved: 6 });
    });

    it('decides a refusal again on the stream as read: stock another process received since its own append is sold', async () => {
      const sku = `A-${randomUUID()}`;
      await receive(sku, 1);
      const here = new StockService(fixture.store);
      await here.reserve(randomUUID(), [{ sku, quantity: 1 }], context);
      // Another process receives more; this one's kept state still says none is available.
      await receive(sku, 4);
      const orderId = randomUUID();
      await here.reserve(orderId, [{ sku, quantity: 3 }], context);
      expect(await here.held(orderId, sku)).toBe(3);
      expect((await new StockService(fixture.store).get(staff, sku))!).toMatchObject({ onHand: 5, reserved: 4, available: 1 });
    });

    it('never oversells on the state its own append left: another process\'s reservation since fails the revision check and it decides again', async () => {
      const sku = `A-${randomUUID()}`;
      await receive(sku, 2);
      const here = new StockService(fixture.store);
      await here.reserve(randomUUID(), [{ sku, quantity: 1 }], context);
      // Another process takes the last unit; this one's kept state still says one is available.
      await new StockService(fixture.store).reserve(randomUUID(), [{ sku, quantity: 1 }], context);
      const refused = await here.reserve(randomUUID(), [{ sku, quantity: 1 }], context).then(() => null, (error: unknown) => error);
      expect(refused).toBeInstanceOf(InsufficientStock);
      expect((await new StockService(fixture.store).get(staff, sku))!).toMatchObject({ onHand: 2, reserved: 2, available: 0 });
    });

    it('releases the later lines when an earlier line, decided before them, is refused on deciding again after another process took its stock', async () => {
      const [first, second] = ['A', 'B'].map((s) => `${s}-${randomUUID()}`) as [string, string];
      await receive(first, 1);
      await receive(second, 5);
      const store = holding(fixture.store);
      const orderId = randomUUID();
      const reserving = new StockService(store.store).reserve(orderId, [{ sku: second, quantity: 1 }, { sku: first, quantity: 1 }], context);
      await settle();
      // Both lines were decided (the first SKU held in this process) before either append.
      expect(store.held.map(({ stream }) => stream)).toEqual([stockStream(first), stockStream(second)]);
      // Another process takes the first SKU's only unit before this one's append reaches the store.
      let taken = false;
      store.beforeAppend(async (stream) => {
        if (stream !== stockStream(first) || taken) return;
        taken = true;
        await new StockService(fixture.store).reserve(randomUUID(), [{ sku: first, quantity: 1 }], context);
      });
      store.releaseAll();
      const refused = await reserving.then(() => null, (error: unknown) => error);
      expect(refused).toBeInstanceOf(InsufficientStock);
      expect((refused as InsufficientStock).errors).toEqual([expect.objectContaining({ pointer: '/lines/1/quantity', available: 0 })]);
      const stock = new StockService(fixture.store);
      expect(await stock.held(orderId, first)).toBeUndefined();
      expect(await stock.held(orderId, second)).toBeUndefined();
      expect((await stock.get(staff, first))!).toMatchObject({ onHand: 1, reserved: 1 });
      expect((await stock.get(staff, second))!).toMatchObject({ onHand: 5, reserved: 0 });
    });

    it('settles an order’s SKUs all or none: one short of stock leaves the others as they were, and names it', async () => {
      const [plenty, scarce] = ['A', 'B'].map((s) => `${s}-${randomUUID()}`) as [string, string];
      await receive(plenty, 5);
      await receive(scarce, 1);
      const stock = new StockService(fixture.store);
      const orderId = randomUUID();
      await stock.reserve(orderId, [{ sku: plenty, quantity: 2 }, { sku: scarce, quantity: 1 }], context);
      const before = new Map([[plenty, { reserved: 2, shipped: 0 }], [scarce, { reserved: 1, shipped: 0 }]]);
      const raised = new Map([[plenty, { reserved: 4, shipped: 0 }], [scarce, { reserved: 3, shipped: 0 }]]);
      const how = { reason: 'order-edited' as const, orderRevision: 1, raise: true };

      const refused = await stock.settle(orderId, raised, how, context, before).then(() => null, (error: unknown) => error);
      expect(refused).toBeInstanceOf(InsufficientStock);
      expect((refused as InsufficientStock).errors).toEqual([expect.objectContaining({ pointer: scarce, available: 0 })]);
      const fresh = new StockService(fixture.store);
      expect([await fresh.held(orderId, plenty), await fresh.held(orderId, scarce)]).toEqual([2, 1]);
      expect((await fresh.get(staff, plenty))!).toMatchObject({ onHand: 5, reserved: 2 });

      // Without all-or-none, what could be raised stays raised.
      await expect(stock.settle(orderId, raised, how, context)).rejects.toBeInstanceOf(InsufficientStock);
      expect([await fresh.held(orderId, plenty), await fresh.held(orderId, scarce)]).toEqual([4, 1]);
    });
  });

  describe(`stock.low on the write side, on ${name}`, () => {
    let fixture: StoreFixture;
    beforeEach(async () => {
      fixture = await open();
    });
    afterEach(() => fixture.dispose());

    /** A stock service whose catalogue answers `threshold` for every SKU, noting each SKU asked, and the event types of each stock append. */
    function watched(threshold: number) {
      const asked: string[] = [];
      const appends: string[][] = [];
      const store = delegating(fixture.store, {
        appendToStream: (stream, events, expected, options) => {
          if (stream.startsWith('stock-')) appends.push(events.map((e) => e.type));
          return fixture.store.appendToStream(stream, events, expected, options);
        },
      });
      const thresholds = { lowStockThreshold: async (sku: string) => (asked.push(sku), threshold) };
      return { stock: new StockService(store, { thresholds }), asked, appends };
    }
    const key = () => ({ correlationId: 'corr', idempotency: { key: randomUUID(), fingerprint: 'fp' } });
    const typesOf = async (sku: string) => (await fixture.store.readStream(stockStream(sku))).map((e) => e.type);

    it('appends StockFellLow in the same append as the reservation that takes available below the threshold, and not for one that stays at it or above', async () => {
      const sku = `LOW-${randomUUID()}`;
      const { stock, asked, appends } = watched(5);
      // An increase reads no threshold.
      await stock.adjust(staff, sku, { delta: 10, reason: 'received', note: null }, key());
      expect(asked).toEqual([]);
      await stock.reserve(randomUUID(), [{ sku, quantity: 5 }], context);
      expect(asked).toEqual([sku]);
      await stock.reserve(randomUUID(), [{ sku, quantity: 1 }], context);
      await stock.reserve(randomUUID(), [{ sku, quantity: 1 }], context);
      expect(appends).toEqual([['StockAdjusted'], ['StockReserved'], ['StockReserved', 'StockFellLow'], ['StockReserved']]);
      const [fell] = (await fixture.store.readStream(stockStream(sku))).filter((e) => e.type === 'StockFellLow');
      expect(fell!.data).toEqual({ sku, onHand: 10, reserved: 6, available: 4, threshold: 5, at: expect.any(String) });
      // GET /stock/{sku} answers the stream's revision, StockFellLow counted.
      expect(await stock.get(staff, sku)).toMatchObject({ available: 3, revision: 4 });
    });

    it('takes the threshold a reservation\'s line brings (a placement\'s pricing read it) without asking the catalogue', async () => {
      const sku = `LOW-${randomUUID()}`;
      const { stock, asked, appends } = watched(0);
      await stock.adjust(staff, sku, { delta: 10, reason: 'received', note: null }, key());
      await stock.reserve(randomUUID(), [{ sku, quantity: 4, lowStockThreshold: 7 }], context);
      expect(asked).toEqual([]);
      expect(appends.at(-1)).toEqual(['StockReserved', 'StockFellLow']);
    });

    it('reserves a placement\'s lines with the thresholds its pricing read: the catalogue is not asked again', async () => {
      const [low, high] = ['L', 'H'].map((tag) => `${tag}-${randomUUID()}`) as [string, string];
      const products = new ProductService(fixture.store);
      for (const [sku, lowStockThreshold] of [[low, 6], [high, 2]] as const) {
        await products.put(staff, sku, { name: sku, description: null, prices: { EUR: 100 }, status: 'active', lowStockThreshold }, { correlationId: 'corr' });
      }
      const asked: string[] = [];
      const stock = new StockService(fixture.store, { thresholds: { lowStockThreshold: (sku) => (asked.push(sku), products.lowStockThreshold(sku)) } });
      await stock.adjust(staff, low, { delta: 10, reason: 'received', note: null }, key());
      await stock.adjust(staff, high, { delta: 10, reason: 'received', note: null }, key());
      const orders = new OrderService(fixture.store, { catalogue: products, reservations: stock });
      const placed = await orders.place(staff, { customerId: 'cus_1', currency: 'EUR', lines: [{ sku: low, quantity: 5 }, { sku: high, quantity: 5 }], address }, { correlationId: 'corr', idempotency: { key: randomUUID(), fingerprint: 'fp' } });
      if (placed.state.status === 'absent') throw new Error('not placed');
      expect(asked).toEqual([]);
      expect(await typesOf(low)).toEqual(['StockAdjusted', 'StockReserved', 'StockFellLow']);
      expect(await typesOf(high)).toEqual(['StockAdjusted', 'StockReserved']);
      // Never on the order.
      expect(JSON.stringify((await fixture.store.readStream(orderStream(placed.state.id)))[0]!.data)).not.toContain('lowStockThreshold');
    });

    /** A placement's services over `store`, with `skus` in the catalogue and `units` of each received. */
    async function shop(store: EventStore, skus: readonly string[], units: number) {
      const products = new ProductService(store);
      const stock = new StockService(store, { thresholds: products });
      for (const sku of skus) {
        await products.put(staff, sku, { name: sku, description: null, prices: { EUR: 100 }, status: 'active', lowStockThreshold: 0 }, { correlationId: 'corr' });
        await stock.adjust(staff, sku, { delta: units, reason: 'received', note: null }, key());
      }
      return { stock, orders: new OrderService(store, { catalogue: products, reservations: stock }) };
    }
    const placing = (skus: readonly string[], quantity: number) => ({ customerId: 'cus_1', currency: 'EUR', lines: skus.map((sku) => ({ sku, quantity })), address });

    if (name.startsWith('embedded')) {
      it('writes a placement in one commit: its reservations, its key\'s claim and its order, the order after the others', async () => {
        const skus = ['A', 'B'].map((tag) => `${tag}-${randomUUID()}`);
        const { orders } = await shop(fixture.store, skus, 5);
        const { stats } = fixture.store as SqliteEventStore;
        const before = stats.commits;
        const placed = await orders.place(staff, placing(skus, 2), key());
        if (placed.state.status === 'absent') throw new Error('not placed');
        expect(stats.commits - before).toBe(1);
        const [order] = await fixture.store.readStream(orderStream(placed.state.id));
        for (const sku of skus) {
          const [, reserved] = await fixture.store.readStream(stockStream(sku));
          expect(reserved).toMatchObject({ type: 'StockReserved', data: { orderId: placed.state.id, quantity: 2 } });
          expect(comparePositions(reserved!.position, order!.position)).toBeLessThan(0);
        }
      });
    }

    it('never writes an order whose reservation it followed was not written: decided again on the stream, the line is refused and no order is placed', async () => {
      const sku = `A-${randomUUID()}`;
      const orderAppends: string[] = [];
      const watchedStore = delegating(fixture.store, {
        appendToStream: (stream, events, expected, options) => {
          if (stream.startsWith('order-')) orderAppends.push(options?.after?.length ? 'after its reservation' : 'alone');
          return fixture.store.appendToStream(stream, events, expected, options);
        },
      });
      const { orders } = await shop(watchedStore, [sku], 2);
      await orders.place(staff, placing([sku], 1), key());
      // Another process takes the last unit; this one's kept state still says one is available,
      // so its reservation is decided at once and the order's append follows it to the store.
      await new StockService(fixture.store).reserve(randomUUID(), [{ sku, quantity: 1 }], context);
      const idempotency = key();
      const refused = await orders.place(staff, placing([sku], 1), idempotency).then(() => null, (error: unknown) => error);
      expect(refused).toBeInstanceOf(InsufficientStock);
      expect(orderAppends).toEqual(['after its reservation', 'after its reservation']);
      expect(await fixture.store.readStream(orderStream(keyId(staff.sub, idempotency.idempotency.key)))).toEqual([]);
      expect((await new StockService(fixture.store).get(staff, sku))!).toMatchObject({ onHand: 2, reserved: 2, available: 0 });
    });

    it('appends StockFellLow with the negative adjustment that takes available below the threshold, its answer the levels after it', async () => {
      const sku = `LOW-${randomUUID()}`;
      const { stock, asked, appends } = watched(8);
      await stock.adjust(staff, sku, { delta: 10, reason: 'received', note: null }, key());
      const once = key();
      const counted = await stock.adjust(staff, sku, { delta: -3, reason: 'count', note: null }, once);
      expect(asked).toEqual([sku]);
      expect(appends).toEqual([['StockAdjusted'], ['StockAdjusted', 'StockFellLow']]);
      expect(counted).toMatchObject({ adjustment: { delta: -3, onHand: 7 }, levels: { available: 7, revision: 2 }, replayed: false });
      // A retry of it answers the same adjustment (found past the StockFellLow), and records nothing.
      expect(await stock.adjust(staff, sku, { delta: -3, reason: 'count', note: null }, once)).toMatchObject({ adjustment: counted!.adjustment, replayed: true });
      expect(await typesOf(sku)).toEqual(['StockAdjusted', 'StockAdjusted', 'StockFellLow']);
    });

    it('appends StockFellLow with an edit\'s raise that takes available below the threshold; a settle that may not raise asks no threshold', async () => {
      const sku = `LOW-${randomUUID()}`;
      const { stock, asked, appends } = watched(4);
      await stock.adjust(staff, sku, { delta: 10, reason: 'received', note: null }, key());
      const orderId = randomUUID();
      await stock.reserve(orderId, [{ sku, quantity: 2, lowStockThreshold: 4 }], context);
      await stock.settle(orderId, new Map([[sku, { reserved: 7, shipped: 0 }]]), { reason: 'order-edited', orderRevision: 1, raise: true }, context);
      expect(appends.at(-1)).toEqual(['StockReserved', 'StockFellLow']);
      expect(asked).toEqual([sku]);
      await stock.settle(orderId, new Map([[sku, { reserved: 0, shipped: 7 }]]), { reason: 'order-edited', orderRevision: 2, raise: false }, context);
      expect(asked).toEqual([sku]);
      expect(appends.at(-1)).toEqual(['ReservationCommitted']);
    });
  });
}

describe('the stock service\'s memory', () => {
  it('makes no room for its fold budget when made: the budget bounds the folds it keeps, not what it takes at start', () => {
    // The services live for the process; a cache sized by count up front (lru-cache's `max`)
    // would allocate a slot per unit of the million-unit budget when made (some 35 MB each).
    const store = {} as EventStore; // never called: only the making is measured
    // This thread's heap, collected first: what the services hold, not garbage a collection between the readings would hide.
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const used = () => {
      collect();
      return process.memoryUsage().heapUsed;
    };
    const before = used();
    const kept = Array.from({ length: 4 }, () => new StockService(store));
    const grown = (used() - before) / kept.length;
    // Its two small caches by SKU (100,000 slots each) stay: about 3 MB. A slot per budget unit made it 27.
    expect(grown).toBeLessThan(12 * 1024 * 1024);
  });
});
