// The webhook-deliveries projection: one view per delivery from the subscriptions' delivery logs,
// a worker's flush split by delivery, statuses and the bounded attempts, the page newest first of
// one status or all, a batch applied twice changing nothing, and agreement with a fresh fold.
import { describe, expect, it } from 'vitest';
import { applyBatch, historyFrom } from '../../../projections/apply.js';
import { rebuild, verify } from '../../../projections/rebuild.js';
import { webhookDeliveriesView } from '../../../projections/webhooks/deliveries.js';
import { deliveryPage } from '../../../read-side/webhooks/queries.js';
import type { DeliveryView } from '../../../read-side/webhooks/views.js';
import { serviceViewer } from '../../../write-side/kernel/access.js';
import { WEBHOOK_DELIVERY_STREAM_PREFIX } from '../../../write-side/webhooks/codec.js';
import { WebhookDeliveryService } from '../../../write-side/webhooks/deliveries.js';
import { deliveryIdOf, MAX_ATTEMPTS_KEPT, type AttemptReport } from '../../../write-side/webhooks/delivery-log.js';
import { openEmbedded } from '../../support/event-stores.js';
import { openEmbeddedReadStore } from '../../support/read-stores.js';

const worker = serviceViewer('webhook-delivery');
const context = { correlationId: 'c' };
const at = (minute: number) => new Date(Date.UTC(2027, 0, 2, 10, minute)).toISOString();
const attempt = (eventId: string, minute: number, outcome: AttemptReport['outcome'] = 'retrying'): AttemptReport => ({
  eventId, eventPosition: `pos-${eventId}`, type: 'order.shipped', resource: 'order-1', at: at(minute), statusCode: outcome === 'succeeded' ? 200 : 500, durationMs: 40, outcome,
  nextAttemptAt: outcome === 'retrying' ? at(minute + 1) : null,
});

describe('the webhook-deliveries projection', () => {
  it('keeps one view per delivery, pages a subscription\'s newest first by status, bounds the attempts, and agrees with a fresh fold', async () => {
    const events = await openEmbedded();
    const reads = await openEmbeddedReadStore();
    try {
      const a = 'a0000000-0000-4000-8000-000000000001';
      const b = 'b0000000-0000-4000-8000-000000000002';
      const deliveries = new WebhookDeliveryService(events.store, { deliveries: { find: async () => null } });
      // Three deliveries of a in one flush, then their outcomes; one of b.
      await deliveries.recordAttempts(worker, a, [attempt('e1', 0), attempt('e2', 1), attempt('e3', 2)], context);
      await deliveries.recordAttempts(worker, a, [attempt('e1', 3, 'succeeded'), attempt('e2', 4, 'failed')], context);
      await deliveries.recordAttempts(worker, b, [attempt('e1', 5, 'succeeded')], context);
      // e3 retried past the bound.
      for (let i = 0; i < MAX_ATTEMPTS_KEPT + 3; i++) await deliveries.recordAttempts(worker, a, [attempt('e3', 10 + i)], context);
      // e1 sent again by a replay: a delivery of its own, with the replay's job.
      await deliveries.recordAttempts(worker, a, [{ ...attempt('e1', 70, 'succeeded'), jobId: 'job-1' }], context);

      await rebuild(events.store, reads.store, webhookDeliveriesView);
      const generation = await reads.store.activeGeneration('webhook-deliveries');
      const store = reads.store.views<DeliveryView>('webhook-deliveries', generation);
      const [d1, d2, d3] = ['e1', 'e2', 'e3'].map((e) => deliveryIdOf(a, e));
      const views = await store.load([d1!, d2!, d3!, deliveryIdOf(b, 'e1')]);
      expect(views.get(d1!)).toEqual({
        id: d1, subscriptionId: a, eventId: 'e1', eventPosition: 'pos-e1', type: 'order.shipped', resource: 'order-1', jobId: null, status: 'succeeded',
        attempts: [{ at: at(0), statusCode: 500, durationMs: 40 }, { at: at(3), statusCode: 200, durationMs: 40 }], attemptCount: 2,
        nextAttemptAt: null, createdAt: at(0), updatedAt: at(3), revision: 1,
      });
      expect(views.get(d2!)).toMatchObject({ status: 'failed', attemptCount: 2 });
      expect(views.get(d3!)).toMatchObject({ status: 'pending', attemptCount: MAX_ATTEMPTS_KEPT + 4, nextAttemptAt: at(10 + MAX_ATTEMPTS_KEPT + 3) });
      expect(views.get(d3!)!.attempts).toHaveLength(MAX_ATTEMPTS_KEPT);
      expect(views.get(deliveryIdOf(b, 'e1'))).toMatchObject({ subscriptionId: b, status: 'succeeded' });

      const replayed = deliveryIdOf(a, 'e1', 'job-1');
      expect((await store.load([replayed])).get(replayed)).toMatchObject({ eventId: 'e1', jobId: 'job-1', status: 'succeeded', attemptCount: 1 });

      const page = async (status?: 'pending' | 'succeeded' | 'failed', jobId?: string) =>
        (await reads.store.page<DeliveryView>('webhook-deliveries', deliveryPage(a, { status, jobId }, null, 10))).map((v) => v.id);
      expect(await page()).toEqual([replayed, d3, d2, d1]);
      expect(await page('succeeded')).toEqual([replayed, d1]);
      expect(await page('pending')).toEqual([d3]);
      expect(await page(undefined, 'job-1')).toEqual([replayed]);
      expect(await verify(events.store, reads.store, webhookDeliveriesView, () => {})).toEqual({ checked: 5, differences: 0 });

      // The whole log applied again (a replay after a crash) changes nothing.
      const log = await events.store.readAll({ after: null, maxCount: 1000, streamPrefixes: [WEBHOOK_DELIVERY_STREAM_PREFIX] });
      await applyBatch(webhookDeliveriesView, store, log, historyFrom(events.store));
      expect(await store.load([d1!, d3!])).toEqual(new Map([[d1!, views.get(d1!)], [d3!, views.get(d3!)]]));
    } finally {
      await reads.dispose();
      await events.dispose();
    }
  });
});
