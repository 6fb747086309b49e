// The webhook-subscriptions projection: what the collection is served from, folded from the
// subscription streams, checked against a fresh fold, and holding no secret anywhere.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { webhookSubscriptionsView } from '../../../projections/webhooks/subscriptions.js';
import { rebuild, verify } from '../../../projections/rebuild.js';
import { subscriptionPage } from '../../../read-side/webhooks/queries.js';
import type { SubscriptionView } from '../../../read-side/webhooks/views.js';
import { serviceViewer } from '../../../write-side/kernel/access.js';
import { WebhookService } from '../../../write-side/webhooks/service.js';
import { openEmbedded } from '../../support/event-stores.js';
import { openEmbeddedReadStore } from '../../support/read-stores.js';

describe('the webhook-subscriptions projection', () => {
  it('keeps each subscription as its representation without its secret, a deleted one with status deleted, and agrees with a fresh fold', async () => {
    const events = await openEmbedded();
    const reads = await openEmbeddedReadStore();
    try {
      let minute = 0;
      const webhooks = new WebhookService(events.store, {
        checkUrl: () => ({ ok: true }),
        apiVersions: { current: '2027-01-01', supported: ['2027-01-01'] },
        clock: () => new Date(Date.UTC(2027, 0, 2, 10, minute++)),
      });
      const admin = serviceViewer('webhooks-admin');
      const context = { correlationId: 'c' };
      const create = async (url: string) => (await webhooks.create(admin, { url, events: ['*'] }, { correlationId: 'c', idempotency: { key: randomUUID(), fingerprint: 'fp' } })).subscription.id;
      const kept = await create('https://kept.example/');
      const changed = await create('https://changed.example/');
      const disabled = await create('https://disabled.example/');
      const deleted = await create('https://deleted.example/');
      await webhooks.change(admin, changed, { status: 'paused', description: 'Paused for now', events: ['order.paid'] }, context);
      await webhooks.rotateSecret(admin, changed, context);
      await webhooks.disable(serviceViewer('webhook-delivery'), disabled, 'every delivery failed for 3 days', context);
      await webhooks.delete(admin, deleted, context);

      await rebuild(events.store, reads.store, webhookSubscriptionsView);
      const generation = await reads.store.activeGeneration('webhook-subscriptions');
      const views = await reads.store.views<SubscriptionView>('webhook-subscriptions', generation).load([kept, changed, disabled, deleted]);
      expect(views.get(kept)).toEqual({
        id: kept, url: 'https://kept.example/', events: ['*'], apiVersion: '2027-01-01', status: 'active', description: null,
        disabledReason: null, disabledAt: null, createdAt: '2027-01-02T10:00:00.000Z', updatedAt: '2027-01-02T10:00:00.000Z', revision: 0,
      });
      expect(views.get(changed)).toMatchObject({ status: 'paused', description: 'Paused for now', events: ['order.paid'], revision: 2 });
      expect(views.get(disabled)).toMatchObject({ status: 'disabled', disabledReason: 'every delivery failed for 3 days', revision: 1 });
      expect(views.get(deleted)).toMatchObject({ status: 'deleted', revision: 1 });
      const stored = JSON.stringify(await reads.store.views<SubscriptionView>('webhook-subscriptions', generation).scan(null, 100));
      expect(stored).not.toContain('whsec_');
      expect(stored).not.toContain('secret');
      // Newest first, the deleted one left out.
      expect((await reads.store.page<SubscriptionView>('webhook-subscriptions', subscriptionPage(null, 100))).map((s) => s.id)).toEqual([disabled, changed, kept]);
      expect(await verify(events.store, reads.store, webhookSubscriptionsView, () => {})).toMatchObject({ differences: 0 });
    } finally {
      await reads.dispose();
      await events.dispose();
    }
  });
});
