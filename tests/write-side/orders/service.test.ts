import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteEventStore } from '../../../write-side/adapters/sqlite-event-store.js';
import { CommandHandler } from '../../../write-side/kernel/command-handler.js';
import { RevisionConflict, type EventStore } from '../../../write-side/kernel/event-store.js';
import { serviceViewer } from '../../../write-side/kernel/access.js';
import { keyId, keyStream, takeKey } from '../../../write-side/kernel/idempotency.js';
import { JobService } from '../../../write-side/jobs/service.js';
import { exportSlotsStream, jobStream } from '../../../write-side/jobs/codec.js';
import { OrderService } from '../../../write-side/orders/service.js';
import { encodeOrderEvent, orderStream } from '../../../write-side/orders/codec.js';
import { orderDecider } from '../../../write-side/orders/decider.js';
import { ConcurrencyExhausted, Forbidden, IdempotencyKeyReused, OrderNotFound, PreconditionFailed, StateConflict, UnknownCustomer } from '../../../write-side/kernel/errors.js';
import type { Address, OrderEvent } from '../../../write-side/orders/types.js';
import { defineProducts } from '../../support/catalogue.js';
import { availableStores, tempDir, type StoreFixture } from '../../support/event-stores.js';
import { ORDERS_ONLY } from '../../support/seed.js';

const home: Address = { name: 'Ada', line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' };
const work: Address = { ...home, line1: '2 Work Rd' };
const newOrder = { customerId: 'cus_1', currency: 'EUR', lines: [{ sku: 'A', name: 'Product A', quantity: 2, unitPrice: 500 }], address: home };
const ctx = () => ({ correlationId: 'corr-1', causationId: 'req-1' });
const keyed = (key: string, fingerprint = 'fp-1') => ({ ...ctx(), idempotency: { key, fingerprint } });
const unique = () => Math.random().toString(36).slice(2);
// Keys are scoped to the principal, and a shared EventStoreDB keeps every earlier run's orders:
// each test on a store of the run's choosing writes as a principal of its own.
let user = serviceViewer('user-1');

for (const [name, open] of availableStores) {
  describe(`order service on ${name}`, () => {
    let fixture: StoreFixture;
    let service: OrderService;
    beforeEach(async () => {
      fixture = await open();
      await defineProducts(fixture.store);
      service = new OrderService(fixture.store, ORDERS_ONLY);
      user = serviceViewer(`user-${randomUUID()}`);
    });
    afterEach(() => fixture.dispose());

    async function placedId() {
      return ((await service.place(user, newOrder, keyed(unique()))).state as { id: string }).id;
    }

    async function paidOrder() {
      const placed = await service.place(user, newOrder, keyed(unique()));
      const id = (placed.state as { id: string }).id;
      await service.recordPayment(user, id, { amount: 1000, reference: 'psp' }, keyed(unique()));
      return id;
    }

    it("gives a placement up, its stock released, when the customer's erasure is recorded while its stock is reserved", async () => {
      const released: string[] = [];
      const standings = ['active', 'erased'] as const;
      let asked = 0;
      const racing = new OrderService(fixture.store, {
        reservations: { ...ORDERS_ONLY.reservations, release: async (orderId) => void released.push(orderId) },
        // Active when the placement begins, erased by the time its stock is reserved.
        customers: { standing: async () => standings[Math.min(asked++, 1)]! },
      });
      const placing = racing.place(user, { ...newOrder, apiVersion: '2026-12-01' }, keyed(unique()));
      await expect(placing).rejects.toBeInstanceOf(UnknownCustomer);
      const orderId = released[0]!;
      expect((await fixture.store.readStream(orderStream(orderId))).map((e) => e.type)).toEqual(['OrderPlacementAbandoned']);
      expect(released).toEqual([orderId]);
    });

    it('places an order at revision 0 and records who asked, and why', async () => {
      const result = await service.place(user, newOrder, keyed('k1'));
      expect(result).toMatchObject({ revision: 0, replayed: false, state: { status: 'pending', total: 1000, lines: [{ sku: 'A', name: 'Product A', unitPrice: 500 }] } });
      const [event] = await fixture.store.readStream(orderStream((result.state as { id: string }).id));
      expect(event!.metadata).toEqual({
        schemaVersion: 2, principal: user.sub, correlationId: 'corr-1', causationId: 'req-1', idempotency: { key: 'k1', fingerprint: 'fp-1' },
      });
    });

    it('replays a repeated placement with the same key and body, appending nothing', async () => {
      const first = await service.place(user, newOrder, keyed('k1'));
      const again = await service.place(user, newOrder, keyed('k1'));
      expect(again.replayed).toBe(true);
      expect(again.state).toEqual(first.state);
      expect(again.events).toEqual(first.events);
      expect(await fixture.store.readStream(orderStream((first.state as { id: string }).id))).toHaveLength(1);
    });

    it('reserves nothing for the retry of a placement given up before its key was taken', async () => {
      // The reconciler's fence: the order's stream holds only OrderPlacementAbandoned, and the key
      // was never claimed (the placement died before its key and order were appended). A free key
      // does not mean an absent order: the order's stream is read before any stock is reserved.
      const reserved: string[] = [];
      const orders = new OrderService(fixture.store, { reservations: { ...ORDERS_ONLY.reservations, reserve: async (orderId) => void reserved.push(orderId) } });
      const key = unique();
      const orderId = keyId(user.sub, key);
      const fence: OrderEvent = { type: 'OrderPlacementAbandoned', schemaVersion: 1, data: { orderId, abandonedAt: new Date().toISOString() } };
      await fixture.store.appendToStream(orderStream(orderId), [encodeOrderEvent(fence, { principal: 'stock-reconciler', correlationId: 'fence', causationId: null })], 'no_stream');
      expect(await fixture.store.readStream(keyStream(user.sub, key))).toEqual([]);
      await expect(orders.place(user, newOrder, keyed(key))).rejects.toBeInstanceOf(StateConflict);
      expect(reserved).toEqual([]);
    });

    it('refuses a key reused with a different body', async () => {
      await service.place(user, newOrder, keyed('k1', 'fp-1'));
      await expect(service.place(user, { ...newOrder, currency: 'USD' }, keyed('k1', 'fp-2'))).rejects.toBeInstanceOf(IdempotencyKeyReused);
    });

    it('scopes keys to the principal', async () => {
      const a = await service.place(serviceViewer(`alice-${user.sub}`), newOrder, keyed('same', 'fp'));
      const b = await service.place(serviceViewer(`bob-${user.sub}`), newOrder, keyed('same', 'fp'));
      expect((a.state as { id: string }).id).not.toBe((b.state as { id: string }).id);
      expect(b.replayed).toBe(false);
    });

    it('replays a repeated payment with its first outcome instead of a state conflict', async () => {
      const placed = await service.place(user, newOrder, keyed(unique()));
      const id = (placed.state as { id: string }).id;
      const first = await service.recordPayment(user, id, { amount: 1000, reference: 'psp' }, keyed('pay-key'));
      const again = await service.recordPayment(user, id, { amount: 1000, reference: 'psp' }, keyed('pay-key'));
      expect(again).toMatchObject({ replayed: true, revision: first.revision, events: first.events });
      await expect(service.recordPayment(user, id, { amount: 1000, reference: 'other' }, keyed('pay-key', 'fp-other'))).rejects.toBeInstanceOf(IdempotencyKeyReused);
      await expect(service.recordPayment(user, id, { amount: 1000, reference: 'psp' }, keyed('new-key'))).rejects.toBeInstanceOf(StateConflict);
    });

    it('refuses a key that paid one order when it pays another, and leaves the other unpaid', async () => {
      const [x, y] = await Promise.all([placedId(), placedId()]);
      await service.recordPayment(user, x, { amount: 1000, reference: 'psp' }, keyed('one-key', `POST /orders/${x}/payments`));
      await expect(service.recordPayment(user, y, { amount: 1000, reference: 'psp' }, keyed('one-key', `POST /orders/${y}/payments`))).rejects.toBeInstanceOf(IdempotencyKeyReused);
      expect((await fixture.store.readStream(orderStream(y))).map((e) => e.type)).toEqual(['OrderPlaced']);
      expect((await service.get(user, y))!.order.status).toBe('pending');
      expect((await service.get(user, x))!.order.status).toBe('paid');
    });

    it('refuses a key across operations: one used to place an order cannot pay, ship or export, one used to export cannot place', async () => {
      const jobs = new JobService(fixture.store);
      const placed = await service.place(user, newOrder, keyed('placed-with', 'POST /orders'));
      const [pending, paid] = await Promise.all([placedId(), paidOrder()]);
      await expect(service.recordPayment(user, pending, { amount: 1000, reference: 'psp' }, keyed('placed-with', 'pay'))).rejects.toBeInstanceOf(IdempotencyKeyReused);
      await expect(service.createShipment(user, paid, { carrier: 'DHL', trackingNumber: 'T' }, keyed('placed-with', 'ship'))).rejects.toBeInstanceOf(IdempotencyKeyReused);
      await expect(jobs.requestExport(user, { format: 'csv', filter: {} }, keyed('placed-with', 'POST /exports'))).rejects.toBeInstanceOf(IdempotencyKeyReused);
      expect((await fixture.store.readStream(orderStream(pending))).map((e) => e.type)).toEqual(['OrderPlaced']);
      expect((await fixture.store.readStream(orderStream(paid))).map((e) => e.type)).toEqual(['OrderPlaced', 'PaymentRecorded']);
      expect(await fixture.store.readStream(jobStream(keyId(user.sub, 'placed-with')))).toEqual([]);
      // The refused export took no slot among the principal's exports either.
      expect(await fixture.store.readStream(exportSlotsStream(user.sub, null))).toEqual([]);
      expect((await service.place(user, newOrder, keyed('placed-with', 'POST /orders'))).replayed).toBe(true);

      const exported = await jobs.requestExport(user, { format: 'csv', filter: {} }, keyed('exported-with', 'POST /exports'));
      await expect(service.place(user, newOrder, keyed('exported-with', 'POST /orders'))).rejects.toBeInstanceOf(IdempotencyKeyReused);
      expect(await fixture.store.readStream(orderStream(keyId(user.sub, 'exported-with')))).toEqual([]);
      expect(await jobs.requestExport(user, { format: 'csv', filter: {} }, keyed('exported-with', 'POST /exports'))).toMatchObject({ replayed: true, state: exported.state });
      // One id per (principal, key): the key's, the order's and the job's.
      expect([placed.state, exported.state].map((state) => (state as { id: string }).id)).toEqual([keyId(user.sub, 'placed-with'), keyId(user.sub, 'exported-with')]);
      expect(placed.replayed).toBe(false);
    });

    it('leaves a key untaken by a request that was refused, so that the corrected request can use it', async () => {
      const id = await placedId();
      await expect(service.createShipment(user, id, { carrier: 'DHL', trackingNumber: 'T' }, keyed('early', 'ship'))).rejects.toBeInstanceOf(StateConflict);
      expect(await fixture.store.readStream(keyStream(user.sub, 'early'))).toEqual([]);
      expect((await service.recordPayment(user, id, { amount: 1000, reference: 'psp' }, keyed('early', 'pay'))).replayed).toBe(false);
    });

    it('finishes, once, a payment and a placement whose first run died after taking its key', async () => {
      const id = await placedId();
      const died = (key: string, fingerprint: string, target: string) =>
        takeKey(fixture.store, { principal: user.sub, correlationId: 'died', causationId: null, idempotency: { key, fingerprint }, target });
      expect(await died('pay-died', 'fp-1', orderStream(id))).toBe('first');

      const finished = await service.recordPayment(user, id, { amount: 1000, reference: 'psp' }, keyed('pay-died'));
      expect(finished).toMatchObject({ replayed: false, state: { status: 'paid' } });
      const again = await service.recordPayment(user, id, { amount: 1000, reference: 'psp' }, keyed('pay-died'));
      expect(again).toMatchObject({ replayed: true, revision: finished.revision, events: finished.events });
      expect((await fixture.store.readStream(orderStream(id))).filter((e) => e.type === 'PaymentRecorded')).toHaveLength(1);

      const orderId = keyId(user.sub, 'place-died');
      await died('place-died', 'fp-1', orderStream(orderId));
      const retried = await Promise.all([service.place(user, newOrder, keyed('place-died')), service.place(user, newOrder, keyed('place-died'))]);
      expect(retried.map((r) => r.replayed).sort()).toEqual([false, true]);
      expect(await fixture.store.readStream(orderStream(orderId))).toHaveLength(1);
      await expect(service.place(user, newOrder, keyed('place-died', 'fp-other'))).rejects.toBeInstanceOf(IdempotencyKeyReused);
    });

    it('fails a pinned revision that is stale instead of retrying', async () => {
      const placed = await service.place(user, newOrder, keyed(unique()));
      const id = (placed.state as { id: string }).id;
      await service.changeAddress(user, id, work, { ...ctx(), expectedRevision: 0 });
      await expect(service.changeAddress(user, id, home, { ...ctx(), expectedRevision: 0 })).rejects.toBeInstanceOf(PreconditionFailed);
      const current = await service.get(user, id);
      expect(current).toMatchObject({ revision: 1, order: { address: work } });
    });

    it('lets one of two writers pinned to the same revision win', async () => {
      const placed = await service.place(user, newOrder, keyed(unique()));
      const id = (placed.state as { id: string }).id;
      const outcomes = await Promise.allSettled([
        service.changeAddress(user, id, work, { ...ctx(), expectedRevision: 0 }),
        service.changeAddress(user, id, { ...work, city: 'Paris' }, { ...ctx(), expectedRevision: 0 }),
      ]);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const failed = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
      expect(failed.reason).toBeInstanceOf(PreconditionFailed);
    });

    it('reads an order as of an earlier revision', async () => {
      const id = await paidOrder();
      expect((await service.get(user, id, { toRevision: 0 }))!.order.status).toBe('pending');
      expect((await service.get(user, id))!.order.status).toBe('paid');
      expect(await service.get(user, 'no-such-order')).toBeNull();
    });

    it('never records an address change after the shipment (200 concurrent rounds)', async () => {
      const ids = await Promise.all(Array.from({ length: 200 }, () => paidOrder()));
      // A shipment takes its key (a commit of its own) just before it appends; in the rounds where
      // it goes first, the address change is started once that commit is answered.
      const keyTaken = new Map(ids.map((id) => {
        let resolve = () => {};
        const promise = new Promise<void>((r) => (resolve = r));
        return [keyStream(user.sub, `ship-${id}`), { promise, resolve }] as const;
      }));
      const store = fixture.store;
      const watched = new OrderService({
        appendToStream: (stream, events, expected, options) => store.appendToStream(stream, events, expected, options).finally(() => keyTaken.get(stream)?.resolve()),
        readStream: (stream, options) => store.readStream(stream, options),
        readLastEvent: (stream) => store.readLastEvent(stream),
        setMaxCount: (stream, maxCount) => store.setMaxCount(stream, maxCount),
        readAll: (options) => store.readAll(options),
        subscribeToAll: (options) => store.subscribeToAll(options),
        headPosition: () => store.headPosition(),
        close: () => store.close(),
      }, ORDERS_ONLY);
      // Alternate which request goes first, and start the other from 0 to 15 microtask turns
      // later, so that the two meet at every step of each other's way and each side wins some rounds.
      const turns = async (n: number) => {
        for (let i = 0; i < n; i++) await Promise.resolve();
      };
      const outcomes = await Promise.all(
        ids.map(async (id, round) => {
          const ship = () => watched.createShipment(user, id, { carrier: 'DHL', trackingNumber: id }, keyed(`ship-${id}`));
          const change = () => watched.changeAddress(user, id, work, ctx());
          const later = <T,>(start: () => Promise<T>) => turns(Math.floor(round / 2) % 16).then(start);
          if (round % 2 === 0) return Promise.allSettled([ship(), keyTaken.get(keyStream(user.sub, `ship-${id}`))!.promise.then(() => later(change))]);
          const [c, s] = await Promise.allSettled([change(), later(ship)]);
          return [s, c] as const;
        }),
      );
      let addressRefused = 0;
      for (const [ship, change] of outcomes) {
        expect(ship.status).toBe('fulfilled');
        if (change!.status === 'rejected') {
          expect(change.reason).toBeInstanceOf(StateConflict);
          expect((change.reason as StateConflict).currentStatus).toBe('shipped');
          addressRefused++;
        }
      }
      for (const id of ids) {
        const types = (await fixture.store.readStream(orderStream(id))).map((e) => e.type);
        const shippedAt = types.indexOf('ShipmentCreated');
        expect(shippedAt).toBeGreaterThan(-1);
        expect(types.slice(shippedAt + 1)).not.toContain('OrderAddressChanged');
      }
      // Both interleavings must have happened, or the race was never run.
      expect(addressRefused).toBeGreaterThan(0);
      expect(addressRefused).toBeLessThan(200);
    });

    it('turns 100 concurrent placements with 10 keys into exactly 10 orders', async () => {
      const keys = Array.from({ length: 10 }, () => `race-${unique()}`);
      const results = await Promise.all(Array.from({ length: 100 }, (_, i) => service.place(user, newOrder, keyed(keys[i % 10]!))));
      const idsByKey = new Map<string, Set<string>>();
      results.forEach((r, i) => {
        const set = idsByKey.get(keys[i % 10]!) ?? new Set();
        set.add((r.state as { id: string }).id);
        idsByKey.set(keys[i % 10]!, set);
      });
      expect([...idsByKey.values()].map((s) => s.size)).toEqual(Array(10).fill(1));
      expect(results.filter((r) => !r.replayed)).toHaveLength(10);
      for (const set of idsByKey.values()) {
        expect(await fixture.store.readStream(orderStream([...set][0]!))).toHaveLength(1);
      }
    });
  });
}

describe('command handling on the embedded store', () => {
  /** Runs `test` on an embedded store of its own, closed and removed afterwards. */
  async function onStore(prefix: string, test: (store: SqliteEventStore) => Promise<void>): Promise<void> {
    const dir = tempDir(prefix);
    const store = new SqliteEventStore({ file: join(dir.path, 'events.sqlite3') });
    try {
      await defineProducts(store);
      await test(store);
    } finally {
      await store.close();
      dir.remove();
    }
  }

  it('keeps idempotency across a restart', async () => {
    const dir = tempDir('restart-');
    const file = join(dir.path, 'events.sqlite3');
    const first = new SqliteEventStore({ file });
    await defineProducts(first);
    const placed = await new OrderService(first, ORDERS_ONLY).place(user, newOrder, keyed('k-restart'));
    await first.close();

    const second = new SqliteEventStore({ file });
    const service = new OrderService(second, ORDERS_ONLY);
    const again = await service.place(user, newOrder, keyed('k-restart'));
    expect(again.replayed).toBe(true);
    expect(again.state).toEqual(placed.state);
    await expect(service.place(user, newOrder, keyed('k-restart', 'fp-other'))).rejects.toBeInstanceOf(IdempotencyKeyReused);
    await second.close();
    dir.remove();
  });

  it('lets a key reused at once from two processes (two stores on the file) pay one of two orders, never both', async () => {
    const dir = tempDir('key-race-');
    const file = join(dir.path, 'events.sqlite3');
    const mine = new SqliteEventStore({ file });
    const theirs = new SqliteEventStore({ file });
    try {
      await defineProducts(mine);
      const [a, b] = [new OrderService(mine, ORDERS_ONLY), new OrderService(theirs, ORDERS_ONLY)];
      for (let round = 0; round < 20; round++) {
        const [x, y] = await Promise.all([a, b].map(async (s) => ((await s.place(user, newOrder, keyed(unique()))).state as { id: string }).id));
        const key = `race-${round}`;
        const outcomes = await Promise.allSettled([
          a.recordPayment(user, x!, { amount: 1000, reference: 'psp' }, keyed(key, `pay ${x}`)),
          b.recordPayment(user, y!, { amount: 1000, reference: 'psp' }, keyed(key, `pay ${y}`)),
        ]);
        expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
        expect((outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(IdempotencyKeyReused);
        const payments = await Promise.all([x!, y!].map(async (id) => (await mine.readStream(orderStream(id))).filter((e) => e.type === 'PaymentRecorded').length));
        expect(payments.sort()).toEqual([0, 1]);
      }
    } finally {
      await Promise.all([mine.close(), theirs.close()]);
      dir.remove();
    }
  });

  it('reads an order as current when another process (another store on the file) changed it since the last read', async () => {
    const dir = tempDir('folded-');
    const file = join(dir.path, 'events.sqlite3');
    const mine = new SqliteEventStore({ file });
    const theirs = new SqliteEventStore({ file });
    try {
      await defineProducts(mine);
      const service = new OrderService(mine, ORDERS_ONLY);
      const other = new OrderService(theirs, ORDERS_ONLY);
      const id = (((await service.place(user, newOrder, keyed('k-folded'))).state) as { id: string }).id;
      expect(await service.get(user, id)).toMatchObject({ revision: 0, order: { address: home } });
      expect(await service.get(user, id)).toMatchObject({ revision: 0 });
      await other.changeAddress(user, id, work, ctx());
      expect(await service.get(user, id)).toMatchObject({ revision: 1, order: { address: work } });
      await other.recordPayment(user, id, { amount: 1000, reference: 'psp' }, keyed('k-pay'));
      await service.changeAddress(user, id, home, ctx());
      expect(await service.get(user, id)).toMatchObject({ revision: 3, order: { status: 'paid', address: home } });
      // Points in time still fold the history up to then.
      expect(await service.get(user, id, { toRevision: 1 })).toMatchObject({ revision: 1, order: { status: 'pending', address: work } });
    } finally {
      await mine.close();
      await theirs.close();
      dir.remove();
    }
  });

  it('keeps folded orders within a budget of orders and lines, dropping the least recently read, and reads the others again', async () => {
    await onStore('folded-kept-', async (store) => {
      const service = new OrderService(store, { ...ORDERS_ONLY, foldedBudget: 10 });
      const lines = (n: number) => Array.from({ length: n }, () => ({ sku: 'A', quantity: 1 }));
      const place = async (key: string, n: number) => ((await service.place(user, { ...newOrder, lines: lines(n) }, keyed(key))).state as { id: string }).id;
      const small = [await place('a', 1), await place('b', 1), await place('c', 1)]; // 2 units each
      for (const id of small) await service.get(user, id);
      expect(service.foldedKept).toEqual({ orders: 3, weight: 6 });
      const large = await place('d', 5); // 6 units: the least recently read small one makes room
      expect(await service.get(user, large)).toMatchObject({ order: { id: large } });
      expect(service.foldedKept).toEqual({ orders: 3, weight: 10 });
      const larger = await place('e', 7); // 8 units: all but itself go
      await service.get(user, larger);
      expect(service.foldedKept).toEqual({ orders: 1, weight: 8 });
      await service.get(user, small[0]!); // read again from the store, and kept once more
      expect(service.foldedKept.weight).toBeLessThanOrEqual(10);
      for (const id of [...small, large, larger]) expect(await service.get(user, id)).toMatchObject({ revision: 0, order: { id } });
      expect(service.foldedKept.weight).toBeLessThanOrEqual(10);
      expect(await service.get(user, '00000000-0000-4000-8000-000000000000')).toBeNull();
    });
  });

  /** The store, counting its stream reads, and running `beforeAppend` (once) before the next append. */
  function watchedStore(store: EventStore) {
    const watch = { reads: 0, beforeAppend: null as (() => Promise<unknown>) | null };
    const watched: EventStore = {
      appendToStream: async (stream, events, expected, options) => {
        const hook = watch.beforeAppend;
        watch.beforeAppend = null;
        await hook?.();
        return store.appendToStream(stream, events, expected, options);
      },
      readStream: (stream, options) => {
        watch.reads++;
        return store.readStream(stream, options);
      },
      readLastEvent: (stream) => store.readLastEvent(stream),
      setMaxCount: (stream, maxCount) => store.setMaxCount(stream, maxCount),
      readAll: (options) => store.readAll(options),
      subscribeToAll: (options) => store.subscribeToAll(options),
      headPosition: () => store.headPosition(),
      changeStamp: () => store.changeStamp!(),
      close: () => store.close(),
    };
    return { watched, watch };
  }

  it('decides a command without a key on the order the request just read, without reading its stream again', async () => {
    await onStore('known-', async (store) => {
      const { watched, watch } = watchedStore(store);
      const service = new OrderService(watched, ORDERS_ONLY);
      const id = ((await service.place(user, newOrder, keyed('k-known'))).state as { id: string }).id;
      const read = await service.get(user, id); // what PATCH does before it merges the address
      watch.reads = 0;
      const changed = await service.changeAddress(user, id, work, { ...ctx(), expectedRevision: read!.revision });
      expect(changed).toMatchObject({ revision: 1, state: { address: work } });
      expect(watch.reads).toBe(0);
      // A keyed command still reads the stream: its replays are found in the history.
      await service.recordPayment(user, id, { amount: 1000, reference: 'psp' }, keyed('k-known-pay'));
      expect(watch.reads).toBeGreaterThan(0);
      expect((await store.readStream(orderStream(id))).map((e) => e.type)).toEqual(['OrderPlaced', 'OrderAddressChanged', 'PaymentRecorded']);
    });
  });

  it('costs a keyed request one append of its key when it acts, and nothing more when it replays or is refused on its merits', async () => {
    await onStore('key-cost-', async (store) => {
      const calls: string[] = [];
      const kind = (stream: string) => stream.slice(0, stream.indexOf('-'));
      const logged: EventStore = {
        appendToStream: (stream, events, expected, options) =>
          store.appendToStream(stream, events, expected, options).then(
            (r) => (calls.push(`append ${kind(stream)}`), r),
            (e: unknown) => (calls.push(`conflict ${kind(stream)}`), Promise.reject(e)),
          ),
        readStream: (stream, options) => (calls.push(`read ${kind(stream)}`), store.readStream(stream, options)),
        readLastEvent: (stream) => store.readLastEvent(stream),
        setMaxCount: (stream, maxCount) => store.setMaxCount(stream, maxCount),
        readAll: (options) => store.readAll(options),
        subscribeToAll: (options) => store.subscribeToAll(options),
        headPosition: () => store.headPosition(),
        close: () => store.close(),
      };
      const service = new OrderService(logged, ORDERS_ONLY);
      const calling = async (run: () => Promise<unknown>) => {
        calls.length = 0;
        await run().catch(() => {});
        return [...calls];
      };
      let id = '';
      // A placement also looks whether its order exists and who holds its key (before it reserves
      // stock); the order it saw absent then is not read again for its append.
      expect(await calling(async () => (id = ((await service.place(user, newOrder, keyed('cost-place'))).state as { id: string }).id))).toEqual(['read product', 'read order', 'read idempotency', 'append idempotency', 'append order']);
      expect(await calling(() => service.recordPayment(user, id, { amount: 1000, reference: 'psp' }, keyed('cost-pay')))).toEqual(['read order', 'append idempotency', 'append order']);
      // A replay is found in the stream's history, without a write: the key's stream is not touched.
      expect(await calling(() => service.recordPayment(user, id, { amount: 1000, reference: 'psp' }, keyed('cost-pay')))).toEqual(['read order']);
      // (A placement prices its lines from the catalogue first: this store tells no change stamp, so the product is read.)
      expect(await calling(() => service.place(user, newOrder, keyed('cost-place')))).toEqual(['read product', 'read order', 'read order']);
      // Refused on its merits (already paid): the key stays untaken.
      expect(await calling(() => service.recordPayment(user, id, { amount: 1000, reference: 'psp' }, keyed('cost-refused')))).toEqual(['read order']);
      // A key reused for another request: refused when it would act, its stream not written. The
      // order's append goes to the store with the key's claim, to follow it, and is refused with it.
      const other = ((await service.place(user, newOrder, keyed('cost-other'))).state as { id: string }).id;
      expect(await calling(() => service.recordPayment(user, other, { amount: 1000, reference: 'psp' }, keyed('cost-pay', 'fp-2')))).toEqual(['read order', 'conflict idempotency', 'conflict order', 'read idempotency']);
      expect((await store.readStream(orderStream(other))).map((e) => e.type)).toEqual(['OrderPlaced']);
    });
  });

  it('answers a placement as a replay when its retry, in another process, placed the order after it saw none', async () => {
    await onStore('unplaced-', async (store) => {
      const { watched, watch } = watchedStore(store);
      const service = new OrderService(watched, ORDERS_ONLY);
      const other = new OrderService(store, ORDERS_ONLY);
      let first: Awaited<ReturnType<OrderService['place']>> | null = null;
      // The retry runs to its end before this placement's first append (its key's).
      watch.beforeAppend = async () => (first = await other.place(user, newOrder, keyed('k-unplaced')));
      const placed = await service.place(user, newOrder, keyed('k-unplaced'));
      expect(first).toMatchObject({ replayed: false });
      expect(placed).toMatchObject({ replayed: true, revision: 0, state: (first as unknown as { state: unknown }).state });
      const id = keyId(user.sub, 'k-unplaced');
      expect((await store.readStream(orderStream(id))).map((e) => e.type)).toEqual(['OrderPlaced']);
    });
  });

  it('decides again on the stream when the order it knew went stale before its append, losing no change', async () => {
    await onStore('stale-', async (store) => {
      const { watched, watch } = watchedStore(store);
      const service = new OrderService(watched, ORDERS_ONLY);
      const other = new OrderService(store, ORDERS_ONLY);
      const id = ((await service.place(user, newOrder, keyed('k-stale'))).state as { id: string }).id;
      await service.get(user, id);
      // Another writer changes the address between this command's decision and its append.
      watch.beforeAppend = () => other.changeAddress(user, id, work, ctx());
      const cancelled = await service.cancel(user, id, 'changed my mind', ctx());
      expect(cancelled).toMatchObject({ revision: 2, state: { status: 'cancelled', address: work } });
      expect((await store.readStream(orderStream(id))).map((e) => e.type)).toEqual(['OrderPlaced', 'OrderAddressChanged', 'OrderCancelled']);

      // Pinned to the revision it read (If-Match), it fails instead of deciding again.
      const id2 = ((await service.place(user, newOrder, keyed('k-stale-2'))).state as { id: string }).id;
      const read = await service.get(user, id2);
      watch.beforeAppend = () => other.changeAddress(user, id2, work, ctx());
      const third = { ...home, line1: '3 Third Way' };
      await expect(service.changeAddress(user, id2, third, { ...ctx(), expectedRevision: read!.revision })).rejects.toBeInstanceOf(PreconditionFailed);
      expect(await service.get(user, id2)).toMatchObject({ revision: 1, order: { address: work } });
    });
  });

  it('applies a merge patch to the address as it is when decided: a concurrent change of another member is kept', async () => {
    await onStore('patch-retry-', async (store) => {
      const { watched, watch } = watchedStore(store);
      const service = new OrderService(watched, ORDERS_ONLY);
      const other = new OrderService(store, ORDERS_ONLY);
      const id = ((await service.place(user, newOrder, keyed('k-patch'))).state as { id: string }).id;
      await service.get(user, id);
      // Between this command's decision and its append, another request changes line1.
      watch.beforeAppend = () => other.changeAddress(user, id, { line1: '9 Other St' }, ctx());
      const changed = await service.changeAddress(user, id, { city: 'Paris', line2: 'Apt 4' }, ctx());
      expect(changed).toMatchObject({ revision: 2, state: { address: { ...home, line1: '9 Other St', city: 'Paris', line2: 'Apt 4' } } });
      // A member set to null is removed; a required one cannot be.
      expect((await service.changeAddress(user, id, { line2: null }, ctx())).state).toMatchObject({ address: { line2: null, city: 'Paris' } });
      await expect(service.changeAddress(user, id, { name: null }, ctx())).rejects.toMatchObject({ code: 'validation-failed', errors: [{ pointer: '/address/name' }] });
    });
  });

  it("confines every command and read to the viewer: another customer's order is unknown, and nobody places for another customer", async () => {
    await onStore('confined-', async (store) => {
      const service = new OrderService(store, ORDERS_ONLY);
      const own = { sub: 'cus-1-user', scopes: new Set<string>(), customerId: 'cus_1' };
      const stranger = { sub: 'cus-2-user', scopes: new Set<string>(), customerId: 'cus_2' };
      const id = ((await service.place(own, newOrder, keyed('k-own'))).state as { id: string }).id;
      await expect(service.place(stranger, newOrder, keyed('k-stranger'))).rejects.toBeInstanceOf(Forbidden);
      expect(await service.get(stranger, id)).toBeNull();
      expect(await service.get(stranger, id, { toRevision: 0 })).toBeNull();
      for (const attempt of [
        () => service.changeAddress(stranger, id, { city: 'Paris' }, ctx()),
        () => service.recordPayment(stranger, id, { amount: 1000, reference: 'psp' }, keyed('k-pay')),
        () => service.requestReturn(stranger, id, { lines: [{ sku: 'A', quantity: 1 }], reason: 'broken' }, keyed('k-return')),
        () => service.cancel(stranger, id, null, ctx()),
      ]) {
        await expect(attempt()).rejects.toBeInstanceOf(OrderNotFound);
      }
      expect(await store.readStream(orderStream(id))).toHaveLength(1);
      expect(await service.get(own, id)).toMatchObject({ revision: 0 });
      expect(await service.get(user, id)).toMatchObject({ revision: 0 }); // staff
      // A revision the order has not reached is not the order as it stood then.
      expect(await service.get(user, id, { toRevision: 1 })).toBeNull();
    });
  });

  it("refuses a customer's token a shipment, a receipt, a refund and an edit, on its own order too, whatever its scopes: nothing written", async () => {
    await onStore('staff-only-', async (store) => {
      const service = new OrderService(store, ORDERS_ONLY);
      const own = { sub: 'cus-1-user', scopes: new Set(['orders:write', 'shipments:write', 'refunds:write', 'returns:write']), customerId: 'cus_1' };
      const id = ((await service.place(user, newOrder, keyed('k-staff-place'))).state as { id: string }).id;
      await service.recordPayment(user, id, { amount: 1000, reference: 'psp' }, keyed('k-staff-pay'));
      for (const orderId of [id, randomUUID()]) {
        for (const attempt of [
          () => service.createShipment(own, orderId, { carrier: 'DHL', trackingNumber: 'T' }, keyed('k-ship')),
          () => service.receiveReturn(own, orderId, randomUUID(), [{ sku: 'A', quantity: 1, restock: true }], ctx()),
          () => service.recordRefund(own, orderId, { amount: 100, reason: 'goodwill', note: null }, keyed('k-refund')),
          () => service.edit(own, orderId, { lines: [{ sku: 'A', quantity: 1 }], dryRun: false }, keyed('k-edit')),
          () => service.edit(own, orderId, { lines: [{ sku: 'A', quantity: 1 }], dryRun: true }, ctx()),
        ]) {
          await expect(attempt()).rejects.toBeInstanceOf(Forbidden);
        }
      }
      expect((await store.readStream(orderStream(id))).map((e) => e.type)).toEqual(['OrderPlaced', 'PaymentRecorded']);
    });
  });

  it('refuses an edit whose If-Match names another revision before it reserves anything, and replays a retry of one that was made', async () => {
    await onStore('edit-if-match-', async (store) => {
      const settled: number[] = [];
      const service = new OrderService(store, { reservations: { ...ORDERS_ONLY.reservations, settle: async (_id, targets) => void settled.push(targets.size) } });
      const id = ((await service.place(user, newOrder, keyed('k-edit-place'))).state as { id: string }).id;
      const lines = [{ sku: 'A', quantity: 3 }];
      await expect(service.edit(user, id, { lines, dryRun: false }, { ...keyed('k-edit-stale'), expectedRevision: 1 })).rejects.toBeInstanceOf(PreconditionFailed);
      await expect(service.edit(user, id, { lines, dryRun: true }, { ...ctx(), expectedRevision: 1 })).rejects.toBeInstanceOf(PreconditionFailed);
      expect(settled).toEqual([]);
      const made = await service.edit(user, id, { lines, dryRun: false }, { ...keyed('k-edit'), expectedRevision: 0 });
      expect(made).toMatchObject({ revision: 1, replayed: false });
      const again = await service.edit(user, id, { lines, dryRun: false }, { ...keyed('k-edit'), expectedRevision: 0 });
      expect(again).toMatchObject({ revision: 1, replayed: true, events: made.events });
      expect((await store.readStream(orderStream(id))).map((e) => e.type)).toEqual(['OrderPlaced', 'OrderEdited']);
    });
  });

  it('gives up after a bounded number of revision conflicts', async () => {
    let appends = 0;
    const store = {
      readStream: async () => [],
      appendToStream: async () => {
        appends++;
        throw new RevisionConflict('order-x', 'no_stream', 0);
      },
    } as unknown as EventStore;
    const handler = new CommandHandler(store, orderDecider, { encode: () => ({}) as never, decode: () => ({}) as never }, 4);
    const place = { type: 'PlaceOrder', data: { orderId: 'x', ...newOrder }, metadata: { now: '2026-01-01T00:00:00Z', principal: 'p' } } as const;
    await expect(handler.handle('order-x', place, { ...ctx(), principal: 'p' })).rejects.toBeInstanceOf(ConcurrencyExhausted);
    expect(appends).toBe(4);
  });
});
