// The delivery log's use cases on every available event store: the worker's flush recorded as one
// event (an empty one refused), an admin's retry recorded with the delivery's event, and 404 for
// an unknown or deleted subscription or an unknown delivery, with nothing written.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serviceViewer, type Viewer } from '../../../write-side/kernel/access.js';
import { Forbidden, ValidationFailed } from '../../../write-side/kernel/errors.js';
import { deliveryStream } from '../../../write-side/webhooks/codec.js';
import { WebhookDeliveryService } from '../../../write-side/webhooks/deliveries.js';
import { deliveryIdOf, type AttemptReport, type DeliveredEvent } from '../../../write-side/webhooks/delivery-log.js';
import { DeliveryNotFound, SubscriptionNotFound } from '../../../write-side/webhooks/rules.js';
import { WebhookService } from '../../../write-side/webhooks/service.js';
import { availableStores, type StoreFixture } from '../../support/event-stores.js';

const worker = serviceViewer('webhook-delivery');
const admin = serviceViewer('webhooks-admin');
const customer: Viewer = { sub: 'cus-user', scopes: new Set(['webhooks:admin']), customerId: 'cus_1' };
const context = { correlationId: 'c' };
const attempt = (eventId: string): AttemptReport => ({
  eventId, eventPosition: `pos-${eventId}`, type: 'order.paid', resource: 'order-1', at: '2027-01-02T10:00:00.000Z', statusCode: 503, durationMs: 80, outcome: 'retrying', nextAttemptAt: '2027-01-02T10:00:05.000Z',
});

for (const [name, open] of availableStores) {
  describe(`the webhook delivery log on ${name}`, () => {
    let fixture: StoreFixture;
    let subscriptionId: string;
    let known: Map<string, DeliveredEvent>;
    let deliveries: WebhookDeliveryService;
    let webhooks: WebhookService;
    beforeEach(async () => {
      fixture = await open();
      webhooks = new WebhookService(fixture.store, { checkUrl: () => ({ ok: true }), apiVersions: { current: '2027-01-01', supported: ['2027-01-01'] } });
      subscriptionId = (await webhooks.create(admin, { url: 'https://hooks.example/', events: ['*'] }, { ...context, idempotency: { key: randomUUID(), fingerprint: 'fp' } })).subscription.id;
      known = new Map();
      deliveries = new WebhookDeliveryService(fixture.store, { deliveries: { find: async (id) => known.get(id) ?? null }, clock: () => new Date('2027-01-03T09:00:00.000Z') });
    });
    afterEach(() => fixture.dispose());

    const log = async (id = subscriptionId) => (await fixture.store.readStream(deliveryStream(id))).map((e) => ({ type: e.type, data: e.data, principal: e.metadata.principal }));

    it('records a flush of attempts as one event, whatever the log held before', async () => {
      await deliveries.recordAttempts(worker, subscriptionId, [attempt('evt-1'), attempt('evt-2')], context);
      const second = await deliveries.recordAttempts(worker, subscriptionId, [attempt('evt-1')], context);
      expect(second.revision).toBe(1);
      const recorded = await log();
      expect(recorded.map((e) => e.type)).toEqual(['WebhookAttemptsRecorded', 'WebhookAttemptsRecorded']);
      expect(recorded[0]).toMatchObject({ principal: 'webhook-delivery', data: { subscriptionId, attempts: [{ deliveryId: deliveryIdOf(subscriptionId, 'evt-1') }, { deliveryId: deliveryIdOf(subscriptionId, 'evt-2') }] } });
    });

    it('keeps since when the subscription has failed in the live flushes, for the worker\'s next start', async () => {
      expect(await deliveries.failingSince(subscriptionId)).toBeNull();
      await deliveries.recordAttempts(worker, subscriptionId, [attempt('evt-1')], context, '2027-01-02T10:00:00.000Z');
      expect(await deliveries.failingSince(subscriptionId)).toEqual(new Date('2027-01-02T10:00:00.000Z'));
      // A replay's flush says nothing of it; a success clears it.
      await deliveries.recordAttempts(worker, subscriptionId, [{ ...attempt('evt-2'), jobId: 'job-1' }], context);
      expect(await deliveries.failingSince(subscriptionId)).toBeNull();
      await deliveries.recordAttempts(worker, subscriptionId, [attempt('evt-3')], context, '2027-01-02T10:00:00.000Z');
      await deliveries.recordAttempts(worker, subscriptionId, [attempt('evt-3')], context, null);
      expect(await deliveries.failingSince(subscriptionId)).toBeNull();
    });

    it('refuses an empty flush and a customer token, writing nothing', async () => {
      await expect(deliveries.recordAttempts(worker, subscriptionId, [], context)).rejects.toBeInstanceOf(ValidationFailed);
      await expect(deliveries.recordAttempts(customer, subscriptionId, [attempt('evt-1')], context)).rejects.toBeInstanceOf(Forbidden);
      expect(await log()).toEqual([]);
    });

    it('records a retry request with the delivery\'s event', async () => {
      const id = deliveryIdOf(subscriptionId, 'evt-1');
      known.set(id, { id, subscriptionId, eventId: 'evt-1', eventPosition: 'pos-evt-1', type: 'order.paid', resource: 'order-1', jobId: null });
      await deliveries.requestRetry(admin, subscriptionId, id, context);
      expect(await log()).toEqual([{
        type: 'WebhookDeliveryRetryRequested', principal: 'webhooks-admin',
        data: { subscriptionId, deliveryId: id, eventId: 'evt-1', eventPosition: 'pos-evt-1', type: 'order.paid', resource: 'order-1', requestedAt: '2027-01-03T09:00:00.000Z' },
      }]);
    });

    it('records a retry of a replay\'s delivery with its job, whose attempts keep the replay\'s delivery id', async () => {
      const id = deliveryIdOf(subscriptionId, 'evt-1', 'job-1');
      expect(id).not.toBe(deliveryIdOf(subscriptionId, 'evt-1'));
      known.set(id, { id, subscriptionId, eventId: 'evt-1', eventPosition: 'pos-evt-1', type: 'order.paid', resource: 'order-1', jobId: 'job-1' });
      await deliveries.requestRetry(admin, subscriptionId, id, context);
      await deliveries.recordAttempts(worker, subscriptionId, [{ ...attempt('evt-1'), jobId: 'job-1' }], context);
      const [retry, attempts] = await log();
      expect(retry!.data).toMatchObject({ deliveryId: id, jobId: 'job-1' });
      expect((attempts!.data as { attempts: { deliveryId: string }[] }).attempts.map((a) => a.deliveryId)).toEqual([id]);
    });

    it('refuses a retry of an unknown delivery, another subscription\'s, or of an unknown or deleted subscription, writing nothing', async () => {
      const id = deliveryIdOf('other', 'evt-1');
      known.set(id, { id, subscriptionId: 'other', eventId: 'evt-1', eventPosition: 'p', type: 'order.paid', resource: 'order-1', jobId: null });
      await expect(deliveries.requestRetry(admin, subscriptionId, randomUUID(), context)).rejects.toBeInstanceOf(DeliveryNotFound);
      await expect(deliveries.requestRetry(admin, subscriptionId, id, context)).rejects.toBeInstanceOf(DeliveryNotFound);
      await expect(deliveries.requestRetry(admin, randomUUID(), id, context)).rejects.toBeInstanceOf(SubscriptionNotFound);
      await expect(deliveries.requestRetry(customer, subscriptionId, id, context)).rejects.toBeInstanceOf(Forbidden);
      await webhooks.delete(admin, subscriptionId, context);
      expect(await deliveries.isLive(subscriptionId)).toBe(false);
      await expect(deliveries.requestRetry(admin, subscriptionId, id, context)).rejects.toBeInstanceOf(SubscriptionNotFound);
      expect(await log()).toEqual([]);
    });
  });
}
