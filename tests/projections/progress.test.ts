// How far a projection is, known without scanning the log: its checkpoint moves on past other
// streams' events (so a start reads on from near the head), and its status reads at most the one
// event after its position (so readiness and /metrics cost the same on any log).
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { productsView } from '../../projections/catalogue/products.js';
import { orderViews } from '../../projections/orders/order-views.js';
import { Projector } from '../../projections/projector.js';
import type { OrderView } from '../../read-side/orders/views.js';
import type { NewEvent, ReadAllOptions } from '../../write-side/kernel/event-store.js';
import { comparePositions } from '../../write-side/kernel/position.js';
import { serviceViewer } from '../../write-side/kernel/access.js';
import { OrderService } from '../../write-side/orders/service.js';
import { orderStream } from '../../write-side/orders/codec.js';
import { lastPositionOf, ORDERS_ONLY, seedOrders } from '../support/seed.js';
import { availableStores, delegating } from '../support/event-stores.js';
import { availableReadStores } from '../support/read-stores.js';

const combos = availableStores.flatMap(([e, openEvents]) => availableReadStores.map(([r, openReads]) => [`${e} → ${r}`, openEvents, openReads] as const));

const other = (n: number): NewEvent => ({ type: 'Tested', data: { n }, metadata: { schemaVersion: 1, correlationId: 'c', causationId: null, principal: 'test' } });

for (const [name, openEvents, openReads] of combos) {
  describe(`projection progress on ${name}`, () => {
    it("stores its checkpoint past other streams' events after its own last one, so that a start reads on from near the head", async () => {
      const events = await openEvents();
      const reads = await openReads();
      try {
        // The products' own last event, then a long stretch of other streams' (orders, here of a type no projection handles).
        const own = await events.store.appendToStream(`product-${randomUUID()}`, [other(0)], 'no_stream');
        let last = own.position;
        for (let i = 0; i < 60; i++) last = (await events.store.appendToStream(`order-${randomUUID()}`, Array.from({ length: 20 }, (_, k) => other(k)), 'no_stream')).position;
        const projector = new Projector(events.store, reads.store, productsView, { checkpointEveryMs: 10 });
        projector.start();
        try {
          await vi.waitFor(() => expect(projector.position !== null && comparePositions(projector.position, last) >= 0).toBe(true), { timeout: 30_000, interval: 20 });
        } finally {
          await projector.stop();
        }
        const stored = await reads.store.views('products', await reads.store.activeGeneration('products')).checkpoint();
        expect(stored).not.toBeNull();
        expect(comparePositions(stored!, last)).toBeGreaterThanOrEqual(0);
        expect(comparePositions(stored!, own.position)).toBeGreaterThan(0);
      } finally {
        await reads.dispose();
        await events.dispose();
      }
    });

    it('fills views with nothing yet as a rebuild does (a new generation, indexed once at its end), then follows the log live', async () => {
      const events = await openEvents();
      const reads = await openReads();
      try {
        const ids = await seedOrders(events.store, 30, `fill-${randomUUID().slice(0, 8)}`);
        const before = await reads.store.activeGeneration('order-views');
        const projector = new Projector(events.store, reads.store, orderViews, { batchSize: 10, fillFromNothing: true });
        projector.start();
        try {
          expect(await projector.waitFor(await lastPositionOf(events.store, ids), 30_000)).toBe(true);
          expect(await reads.store.activeGeneration('order-views')).toBeGreaterThan(before);
          for (const id of ids) {
            const last = await events.store.readLastEvent(orderStream(id));
            expect((await reads.store.find<OrderView>('order-views', [id])).get(id)?.revision).toBe(last!.revision);
          }
          const written = await new OrderService(events.store, ORDERS_ONLY).cancel(serviceViewer('p'), ids[0]!, 'after the fill', { correlationId: 'c' });
          expect(await projector.waitFor(written.position!, 30_000)).toBe(true);
          expect((await reads.store.find<OrderView>('order-views', [ids[0]!])).get(ids[0]!)!.status).toBe('cancelled');
        } finally {
          await projector.stop();
        }
      } finally {
        await reads.dispose();
        await events.dispose();
      }
    });

    it('answers its status from what it knows: nothing read once caught up, else the one event after its position', async () => {
      const events = await openEvents();
      const reads = await openReads();
      const asked: ReadAllOptions[] = [];
      const counted = delegating(events.store, {
        readAll: (options) => {
          asked.push(options);
          return events.store.readAll(options);
        },
      });
      try {
        const written = await events.store.appendToStream(`order-${randomUUID()}`, [other(1)], 'no_stream');
        const projector = new Projector(counted, reads.store, orderViews);
        const behind = await projector.status();
        expect(behind.caughtUp).toBe(false);
        expect(behind.lagMs).toBeGreaterThanOrEqual(0);
        expect(asked).toEqual([{ after: null, maxCount: 1 }]);
        projector.start();
        try {
          await vi.waitFor(() => expect(projector.caughtUp).toBe(true), { timeout: 30_000, interval: 20 });
          expect(comparePositions(projector.position!, written.position)).toBeGreaterThanOrEqual(0);
          asked.length = 0;
          for (let i = 0; i < 3; i++) expect(await projector.status()).toMatchObject({ caughtUp: true, lagMs: 0 });
          expect(asked).toEqual([]);
        } finally {
          await projector.stop();
        }
      } finally {
        await reads.dispose();
        await events.dispose();
      }
    });
  });
}
