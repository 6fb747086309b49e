// Each test asserts only about the orders it placed and waits only for its own positions, so
// the suite also passes on an event store that holds other tests' data (a shared EventStoreDB,
// or TEST_SHARED_EVENT_STORE: see .ci/shared-store).
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReadModelStore } from '../../read-side/read-store.js';
import { queuePage, type QueueKey } from '../../read-side/orders/queries.js';
import type { OrderView, QueueChange, QueueEntry } from '../../read-side/orders/views.js';
import type { JobView } from '../../read-side/jobs/views.js';
import { keptResults, openJobs } from '../../read-side/jobs/queries.js';
import { applyBatch, historyFrom } from '../../projections/apply.js';
import { fulfilmentQueue } from '../../projections/orders/fulfilment-queue.js';
import { jobsView } from '../../projections/jobs/jobs.js';
import { orderViews } from '../../projections/orders/order-views.js';
import { BUSY_BATCH, nextBatchDelay, Projector } from '../../projections/projector.js';
import { rebuild, verify, type Difference } from '../../projections/rebuild.js';
import type { EventStore, EventSubscription, Position, RecordedEvent } from '../../write-side/kernel/event-store.js';
import { serviceViewer } from '../../write-side/kernel/access.js';
import { OrderService } from '../../write-side/orders/service.js';
import { ORDER_STREAM_PREFIX, orderStream } from '../../write-side/orders/codec.js';
import { JobService } from '../../write-side/jobs/service.js';
import { encodePosition } from '../../write-side/kernel/position.js';
import { availableStores, type StoreFixture } from '../support/event-stores.js';
import { availableReadStores, type ReadStoreFixture } from '../support/read-stores.js';
import { address, lastPositionOf, ORDERS_ONLY, seedOrders } from '../support/seed.js';

const combos = availableStores.flatMap(([e, openEvents]) => availableReadStores.map(([r, openReads]) => [`${e} → ${r}`, openEvents, openReads] as const));

describe('the batch window', () => {
  it('doubles after a batch of many events, up to its longest, and falls back to its shortest after one of few', () => {
    const windows = [BUSY_BATCH, BUSY_BATCH * 3, 100, 50, BUSY_BATCH - 1, 1, BUSY_BATCH].reduce((seen, batch) => [...seen, nextBatchDelay(seen.at(-1)!, batch, 5, 20)], [5]);
    expect(windows).toEqual([5, 10, 20, 20, 20, 5, 5, 10]);
    // A longest below the shortest keeps the shortest.
    expect(nextBatchDelay(5, 100, 5, 1)).toBe(5);
  });
});

// The projector's waits below resolve as soon as it gets there; their 60 s (were 5 and 10 s) only
// bound one that never does: a loaded 2-core machine may take many times the usual milliseconds.
const PROJECTED_MS = 60_000;

/** Waits until the projector has applied every event of these orders. */
async function settle(projector: Projector<'order-views'> | Projector<'fulfilment-queue'> | Projector<'jobs'>, events: EventStore, ids: readonly string[]) {
  expect(await projector.waitFor(await lastPositionOf(events, ids), PROJECTED_MS)).toBe(true);
}

/** Waits until the projector has applied the whole log (for a test whose store holds its events alone). */
async function settleAll(projector: Projector<'order-views'> | Projector<'fulfilment-queue'> | Projector<'jobs'>, events: EventStore) {
  const head = await events.headPosition();
  if (head) expect(await projector.waitFor(head, PROJECTED_MS)).toBe(true);
}

/** Caught up: other writers to a shared store may need a moment to be applied too. */
async function caughtUp(projector: Projector<'order-views'> | Projector<'fulfilment-queue'>) {
  return vi.waitFor(
    async () => {
      const status = await projector.status();
      expect(status.caughtUp).toBe(true);
      return status;
    },
    { timeout: PROJECTED_MS, interval: 20 },
  );
}

/** The events of these orders after `from`, in log order, however much else the log holds. */
async function eventsOf(events: EventStore, ids: readonly string[], from: Position | null): Promise<RecordedEvent[]> {
  const streams = new Set(ids.map(orderStream));
  const out: RecordedEvent[] = [];
  for (let after = from; ; ) {
    const batch = await events.readAll({ after, maxCount: 1000, streamPrefixes: [ORDER_STREAM_PREFIX] });
    if (batch.length === 0) return out;
    out.push(...batch.filter((e) => streams.has(e.streamName)));
    after = batch.at(-1)!.position;
  }
}

for (const [name, openEvents, openReads] of combos) {
  describe(`projector on ${name}`, () => {
    let events: StoreFixture;
    let reads: ReadStoreFixture;
    let store: EventStore;
    let readModels: ReadModelStore;
    const orderOf = async (id: string) => (await readModels.find<OrderView>('order-views', [id])).get(id) ?? null;
    const running: Array<Projector<'order-views'> | Projector<'fulfilment-queue'> | Projector<'jobs'>> = [];
    const start = <P extends Projector<'order-views'> | Projector<'fulfilment-queue'> | Projector<'jobs'>>(p: P) => {
      running.push(p);
      p.start();
      return p;
    };

    beforeEach(async () => {
      events = await openEvents();
      reads = await openReads();
      store = events.store;
      readModels = reads.store;
    });
    afterEach(async () => {
      await Promise.all(running.splice(0).map((p) => p.stop()));
      await reads.dispose();
      await events.dispose();
    });

    /** The fulfilment queue's entries for these orders, in queue order. */
    async function queueOf(ids: readonly string[]) {
      const own = new Set(ids);
      const entries = [];
      for (let after: QueueKey | null = null; ; ) {
        const page: QueueEntry[] = await readModels.page<QueueEntry>('fulfilment-queue', queuePage(after, 500));
        if (page.length === 0) return entries;
        entries.push(...page.filter((e) => own.has(e.orderId)));
        const last = page.at(-1)!;
        after = { paidAt: last.paidAt!, orderId: last.orderId };
      }
    }

    /** No difference anywhere: for a test whose store holds its events alone. */
    async function noDifferencesAll(projection: typeof orderViews | typeof fulfilmentQueue) {
      const found: Difference[] = [];
      const result = await verify(store, readModels, projection as typeof orderViews, (d) => found.push(d));
      expect(found).toEqual([]);
      return result;
    }

    async function noDifferences(projection: typeof orderViews | typeof fulfilmentQueue, ids: readonly string[]) {
      const found: Difference[] = [];
      const result = await verify(store, readModels, projection as typeof orderViews, (d) => found.push(d), { only: new Set(ids) });
      expect(found).toEqual([]);
      return result;
    }

    it('catches up, then follows live writes, and tells when a write is included', async () => {
      const ids = await seedOrders(store, 40);
      const projector = start(new Projector(store, readModels, orderViews, { batchSize: 16 }));
      await settle(projector, store, ids);
      expect((await orderOf(ids[3]!))!.status).toBe('shipped');

      const service = new OrderService(store, ORDERS_ONLY);
      const written = await service.changeAddress(serviceViewer('p'), ids[1]!, { ...address, city: 'Paris' }, { correlationId: 'c' });
      expect(await projector.waitFor(written.position!, PROJECTED_MS)).toBe(true);
      expect(await orderOf(ids[1]!)).toMatchObject({ address: { city: 'Paris' }, revision: written.revision });
      const status = await caughtUp(projector);
      expect(status).toMatchObject({ caughtUp: true, lagMs: 0 });
      expect(status.position! >= written.position!).toBe(true);
      expect((await noDifferences(orderViews, ids)).checked).toBe(40);
    });

    it('applies a batch at once for a reader held up for a position in it, and gathers again once there', async () => {
      const ids = await seedOrders(store, 3);
      // A batch waits ten minutes for more events after its first: only a hurry applies one within the test.
      const projector = start(new Projector(store, readModels, orderViews, { batchDelayMs: 600_000, maxBatchDelayMs: 600_000 }));
      const position = await lastPositionOf(store, ids);
      // The batch holds it: a second is nothing against its ten minutes.
      expect(await projector.waitFor(position, 1_000)).toBe(false);
      projector.hurry(position, PROJECTED_MS);
      expect(await projector.waitFor(position, PROJECTED_MS)).toBe(true);
      expect((await orderOf(ids[2]!))?.id).toBe(ids[2]);
      // There, the hurry is over: the next write waits for its batch again, until a reader is held up for it.
      const service = new OrderService(store, ORDERS_ONLY);
      const written = await service.changeAddress(serviceViewer('p'), ids[1]!, { ...address, city: 'Paris' }, { correlationId: 'c' });
      expect(await projector.waitFor(written.position!, 1_000)).toBe(false);
      projector.hurry(written.position!, PROJECTED_MS);
      expect(await projector.waitFor(written.position!, PROJECTED_MS)).toBe(true);
      expect(await orderOf(ids[1]!)).toMatchObject({ address: { city: 'Paris' } });
    });

    it('keeps the fulfilment queue: paid orders, oldest payment first, gone once shipped or cancelled', async () => {
      const ids = await seedOrders(store, 20);
      const projector = start(new Projector(store, readModels, fulfilmentQueue));
      await settle(projector, store, ids);
      const queued = await queueOf(ids);
      const expected = ids.filter((_, i) => i % 5 === 1 || i % 5 === 2);
      expect(new Set(queued.map((e) => e.orderId))).toEqual(new Set(expected));
      const paidAts = queued.map((e) => e.paidAt!);
      expect(paidAts).toEqual([...paidAts].sort());

      const service = new OrderService(store, ORDERS_ONLY);
      const shipped = await service.createShipment(serviceViewer(`p-${ids[0]}`), queued[0]!.orderId, { carrier: 'UPS', trackingNumber: '1Z' }, { correlationId: 'c', idempotency: { key: 'k', fingerprint: 'f' } });
      expect(await projector.waitFor(shipped.position!, PROJECTED_MS)).toBe(true);
      expect((await queueOf(ids)).map((e) => e.orderId)).not.toContain(queued[0]!.orderId);
      await noDifferences(fulfilmentQueue, ids);
    });

    it('changes nothing when a batch is applied twice', async () => {
      const before = await store.headPosition();
      const ids = await seedOrders(store, 15);
      const batch = await eventsOf(store, ids, before);
      const views = readModels.views<OrderView>('order-views', 1);
      await applyBatch(orderViews, views, batch, historyFrom(store));
      const once = await views.scan(null, 1000);
      await applyBatch(orderViews, views, batch, historyFrom(store));
      await applyBatch(orderViews, views, batch.slice(0, 10), historyFrom(store));
      expect(await views.scan(null, 1000)).toEqual(once);
      await noDifferences(orderViews, ids);
    });

    it('applies only the events a projection declares, and still moves its checkpoint past the others', async () => {
      const before = await store.headPosition();
      const ids = await seedOrders(store, 6);
      const placedOnly = { ...orderViews, handles: new Set(['OrderPlaced'] as const) };
      const batch = await eventsOf(store, ids, before);
      const views = readModels.views<OrderView>('order-views', 1);
      await applyBatch(placedOnly, views, batch, historyFrom(store));
      const stored = await views.scan(null, 100);
      expect(stored).toHaveLength(6);
      expect(stored.every(({ view }) => view.status === 'pending' && view.revision === 0)).toBe(true);
      expect(await views.checkpoint()).toBe(batch.at(-1)!.position);
    });

    it('reports how far behind it is', async () => {
      const ids = await seedOrders(store, 5);
      const projector = new Projector(store, readModels, orderViews);
      const behind = await projector.status();
      expect(behind.caughtUp).toBe(false);
      expect(behind.position).toBeNull();
      start(projector);
      await settle(projector, store, ids);
      expect((await caughtUp(projector)).caughtUp).toBe(true);
    });

    it('resubscribes from its checkpoint when the subscription drops', async () => {
      const ids = await seedOrders(store, 30);
      let drops = 0;
      const flaky: EventStore = Object.create(store, {
        subscribeToAll: {
          value: (options: Parameters<EventStore['subscribeToAll']>[0]): EventSubscription => {
            const inner = store.subscribeToAll(options);
            let delivered = 0;
            return {
              close: () => inner.close(),
              async *[Symbol.asyncIterator]() {
                for await (const event of inner as AsyncIterable<RecordedEvent>) {
                  if (++delivered > 7 && drops < 5) {
                    drops++;
                    throw new Error('connection dropped');
                  }
                  yield event;
                }
              },
            };
          },
        },
      });
      const errors: unknown[] = [];
      const projector = start(new Projector(flaky, readModels, orderViews, { batchSize: 4, onError: (e) => errors.push(e) }));
      await settle(projector, store, ids);
      expect(drops).toBe(5);
      expect(errors).toHaveLength(5);
      await noDifferences(orderViews, ids);
    });

    it('rebuilds into a new generation, switches, and the live projector follows the switch', async () => {
      const ids = await seedOrders(store, 30);
      const projector = start(new Projector(store, readModels, orderViews, { batchSize: 8 }));
      await settle(projector, store, ids);
      const progress: number[] = [];
      const result = await rebuild(store, readModels, orderViews, { batchSize: 10, onProgress: (p) => progress.push(p.events) });
      expect(result.generation).toBe(2);
      expect(progress.at(-1)).toBe(result.events);
      expect(await readModels.activeGeneration('order-views')).toBe(2);
      await noDifferences(orderViews, ids);

      const service = new OrderService(store, ORDERS_ONLY);
      const written = await service.cancel(serviceViewer('p'), ids[0]!, 'after rebuild', { correlationId: 'c' });
      expect(await projector.waitFor(written.position!, PROJECTED_MS)).toBe(true);
      expect((await orderOf(ids[0]!))!.status).toBe('cancelled');
    });

    it("records the queue's changes with their events' positions; rebuild makes them again and verify checks them", async () => {
      const ids = await seedOrders(store, 20);
      const own = new Set(ids);
      const service = new OrderService(store, ORDERS_ONLY);
      const cancelledPaid = ids[1]!;
      await service.cancel(serviceViewer('p'), cancelledPaid, 'changed my mind', { correlationId: 'c' });
      const projector = start(new Projector(store, readModels, fulfilmentQueue, { batchSize: 7 }));
      await settle(projector, store, ids);
      // From the log alone: entered at each payment; left at a shipment, or at the cancellation of a paid order.
      const expected: Array<[string, string, string, string]> = [];
      for (const recorded of await eventsOf(store, ids, null)) {
        const orderId = recorded.streamName.slice(ORDER_STREAM_PREFIX.length);
        const paid = (await store.readStream(recorded.streamName, { toRevision: recorded.revision })).some((e) => e.type === 'PaymentRecorded');
        if (recorded.type === 'PaymentRecorded') expected.push([recorded.position, orderId, 'entered', 'paid']);
        if (recorded.type === 'ShipmentCreated') expected.push([recorded.position, orderId, 'left', 'shipped']);
        if (recorded.type === 'OrderCancelled' && paid) expected.push([recorded.position, orderId, 'left', 'cancelled']);
      }
      /** The recorded changes of this test's orders, in log order, however much else the log holds. */
      const ownChanges = async () => {
        const out = [];
        for (let after: Position | null = null; ; ) {
          const page: { changes: QueueChange[] } = await readModels.changesAfter<QueueChange>('fulfilment-queue', after, 1000);
          out.push(...page.changes.filter((c) => own.has(c.orderId)));
          if (page.changes.length === 0) return out;
          after = page.changes.at(-1)!.position;
        }
      };
      const recordedChanges = await ownChanges();
      expect(recordedChanges.map((c) => [c.position, c.orderId, c.change, c.reason])).toEqual(expected);
      expect(expected.filter(([, id, change]) => id === cancelledPaid && change === 'left')).toHaveLength(1);
      await noDifferences(fulfilmentQueue, ids);

      // A change the events do not make, and one missing, are both differences.
      const views = readModels.views<QueueEntry, QueueChange>('fulfilment-queue', await readModels.activeGeneration('fulfilment-queue'));
      const made = recordedChanges[0]!;
      await views.commit([], (await store.headPosition())!, [{ key: ids[0]!, change: { ...made, position: encodePosition(0n, 1n), orderId: ids[0]! } }]);
      const found: Difference[] = [];
      await verify(store, readModels, fulfilmentQueue as unknown as typeof orderViews, (d) => found.push(d), { only: own });
      expect(found.map((d) => d.key)).toEqual([`${ids[0]} (changes)`]);

      await rebuild(store, readModels, fulfilmentQueue as unknown as typeof orderViews);
      expect(await ownChanges()).toEqual(recordedChanges);
      await noDifferences(fulfilmentQueue, ids);
    });

    it('keeps the jobs view as the job domain folds each job, from its checkpoint; rebuild and verify cover it', async () => {
      // A principal of its own: the log may hold other tests' jobs, and other runs' (a shared store).
      const viewer = serviceViewer(`p-${randomUUID()}`);
      const service = new JobService(store);
      const request = async (key: string) => {
        const result = await service.requestExport(viewer, { format: 'csv', filter: {} }, { correlationId: 'c', idempotency: { key, fingerprint: key } });
        return (result.state as { id: string }).id;
      };
      const [queued, running, done] = [await request('a'), await request('b'), await request('c')];
      const own = [queued, running, done];
      const mine = <T extends { id: string }>(jobs: readonly T[]) => jobs.filter((j) => own.includes(j.id));
      await service.start(running, 'w1', 60_000);
      await service.start(done, 'w1', 60_000);
      const completed = await service.complete(done, 'w1', { file: 'x.csv', contentType: 'text/csv', count: 3, bytes: 30 });
      const first = new Projector(store, readModels, jobsView);
      first.start();
      expect(await first.waitFor(completed.position!, PROJECTED_MS)).toBe(true);
      await first.stop();
      const generation = await readModels.activeGeneration('jobs');
      for (const id of own) {
        const { job, revision } = (await service.get(viewer, id))!;
        expect((await readModels.views('jobs', generation).load([id])).get(id)).toEqual({ ...job, revision });
      }
      expect(mine<JobView>(await openJobs(readModels, 'order-export', 10_000)).map((j) => [j.id, j.status])).toEqual([[queued, 'queued'], [running, 'running']]);
      expect(mine<JobView>(await keptResults(readModels, 10_000)).map((j) => j.id)).toEqual([done]);
      // A later start resumes from the checkpoint and follows on.
      const started = await service.start(queued, 'w2', 60_000);
      const second = start(new Projector(store, readModels, jobsView));
      expect(await second.waitFor(started.position!, PROJECTED_MS)).toBe(true);
      expect(mine<JobView>(await openJobs(readModels, 'order-export', 10_000)).map((j) => j.status)).toEqual(['running', 'running']);
      await noDifferences(jobsView as unknown as typeof orderViews, own);
      await rebuild(store, readModels, jobsView as unknown as typeof orderViews);
      expect((await noDifferences(jobsView as unknown as typeof orderViews, own)).checked).toBe(3);
    });

    it('verify reports a view that differs from a fresh fold', async () => {
      const ids = await seedOrders(store, 10);
      const projector = start(new Projector(store, readModels, orderViews));
      await settle(projector, store, ids);
      const views = readModels.views<OrderView>('order-views', 1);
      const [view] = (await views.load([ids[2]!])).values();
      await views.commit([{ key: ids[2]!, view: { ...view!, total: 1, revision: view!.revision + 1 } }], await lastPositionOf(store, ids));
      const found: Difference[] = [];
      const result = await verify(store, readModels, orderViews, (d) => found.push(d), { only: new Set(ids) });
      expect(result).toEqual({ checked: 10, differences: 1 });
      expect(found[0]).toMatchObject({ key: ids[2], actual: { total: 1 } });
    });
  });
}
