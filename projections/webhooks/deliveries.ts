// webhook-deliveries: one document per delivery (one event sent to one subscription), keyed by
// its id, from the subscription's delivery log. A worker's flush records attempts of several
// deliveries in one event: it is split by delivery (deliveryParts) and each part folded by the
// domain's evolveDelivery, which keeps a delivery's latest attempts alone (MAX_ATTEMPTS_KEPT).
import { decodeDeliveryEvent, WEBHOOK_DELIVERY_STREAM_PREFIX } from '../../write-side/webhooks/codec.js';
import { deliveryOfPart, deliveryParts, evolveDelivery } from '../../write-side/webhooks/delivery-log.js';
import type { WebhookDeliveryEvent } from '../../write-side/webhooks/types.js';
import type { DeliveryView } from '../../read-side/webhooks/views.js';
import type { EventContext, Projection } from '../projection.js';

export const webhookDeliveriesView: Projection<'webhook-deliveries', DeliveryView, WebhookDeliveryEvent> = {
  name: 'webhook-deliveries',
  storage: {
    // 2: the replay a delivery belongs to (jobId), which the list may filter by.
    version: 2,
    fields: [
      { name: 'subscriptionId', type: 'text', value: (v) => v.subscriptionId },
      { name: 'jobId', type: 'text', nullable: true, value: (v) => v.jobId },
      { name: 'status', type: 'text', value: (v) => v.status },
      { name: 'createdAt', type: 'text', value: (v) => v.createdAt },
    ],
    // A subscription's deliveries newest first, of every status or of one, of every replay or of one.
    indexes: [
      ['subscriptionId', 'createdAt'],
      ['subscriptionId', 'status', 'createdAt'],
      ['subscriptionId', 'jobId', 'createdAt'],
    ],
  },
  streamPrefix: WEBHOOK_DELIVERY_STREAM_PREFIX,
  decode: decodeDeliveryEvent,
  handles: new Set(['WebhookAttemptsRecorded', 'WebhookDeliveryRetryRequested']),
  parts: deliveryParts,
  keyOf: deliveryOfPart,
  evolve(view: DeliveryView | null, event, { revision }: EventContext): DeliveryView {
    // The view is the delivery and the revision it reflects, which the next one replaces.
    return { ...evolveDelivery(view, event), revision };
  },
};
