// webhook-subscriptions: one document per subscription, its HTTP representation; a deleted one
// keeps its document with status `deleted`, which the collection leaves out. Folded by the
// domain's evolveDetails, which reads no secret: no secret ever reaches a read model.
import { decodeWebhookEvent, WEBHOOK_SUBSCRIPTION_STREAM_PREFIX } from '../../write-side/webhooks/codec.js';
import { evolveDetails } from '../../write-side/webhooks/decider.js';
import type { SubscriptionDetails, WebhookEvent } from '../../write-side/webhooks/types.js';
import { subscriptionRepresentation, type SubscriptionView } from '../../read-side/webhooks/views.js';
import type { EventContext, Projection } from '../projection.js';

export const webhookSubscriptionsView: Projection<'webhook-subscriptions', SubscriptionView, WebhookEvent> = {
  name: 'webhook-subscriptions',
  storage: {
    fields: [
      { name: 'status', type: 'text', value: (v) => v.status },
      { name: 'createdAt', type: 'text', value: (v) => v.createdAt },
    ],
    // Newest first, of the three statuses that are not deleted (an IN, which SQL reads in the
    // order of the creation alone, filtering the status).
    indexes: [['status', 'createdAt'], { fields: ['createdAt'], embeddedOnly: true }],
  },
  streamPrefix: WEBHOOK_SUBSCRIPTION_STREAM_PREFIX,
  decode: decodeWebhookEvent,
  handles: new Set(['WebhookSubscriptionCreated', 'WebhookSubscriptionChanged', 'WebhookSecretRotated', 'WebhookSubscriptionDisabled', 'WebhookSubscriptionDeleted']),
  keyOf: (event) => event.data.subscriptionId,
  evolve(view: SubscriptionView | null, event, { revision }: EventContext): SubscriptionView {
    if (event.type === 'WebhookSubscriptionDeleted') {
      if (!view) throw new TypeError(`WebhookSubscriptionDeleted of ${event.data.subscriptionId}, which was never created`);
      return { ...view, status: 'deleted', updatedAt: event.data.deletedAt, revision };
    }
    return subscriptionRepresentation(evolveDetails(view && detailsOf(view), event), revision);
  },
};

/** What the view shows, as the domain's evolveDetails takes it. */
function detailsOf(view: SubscriptionView): SubscriptionDetails {
  if (view.status === 'deleted') throw new TypeError(`an event after the deletion of webhook subscription ${view.id}`);
  const { revision: _revision, ...details } = view;
  return { ...details, status: view.status };
}
