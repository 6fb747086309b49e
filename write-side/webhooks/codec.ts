// How webhook events are stored: a subscription's own in `webhook-subscription-<id>` (the creation
// and each rotation hold a signing secret: the only place it is kept, docs/webhooks.md), and its
// delivery log in `webhook-deliveries-<id>` (below).
import type { EventMetadata, JsonObject, NewEvent, RecordedEvent } from '../kernel/event-store.js';
import type { WebhookDeliveryEvent, WebhookDeliveryEventName, WebhookEvent, WebhookEventName } from './types.js';

export const WEBHOOK_SUBSCRIPTION_STREAM_PREFIX = 'webhook-subscription-';

export const subscriptionStream = (subscriptionId: string): string => WEBHOOK_SUBSCRIPTION_STREAM_PREFIX + subscriptionId;

const CURRENT_VERSIONS: { readonly [T in WebhookEventName]: number } = {
  WebhookSubscriptionCreated: 1,
  WebhookSubscriptionChanged: 1,
  WebhookSecretRotated: 1,
  WebhookSubscriptionDisabled: 1,
  WebhookSubscriptionDeleted: 1,
};

/** A codec for a family of events, all at the versions `versions` names (none is upcast yet): the subscriptions' and the delivery log's. */
function versionedCodec<N extends string, E extends { readonly type: N; readonly schemaVersion: number; readonly data: unknown }>(versions: { readonly [T in N]: number }, noun: string) {
  const is = (type: string): type is N => Object.hasOwn(versions, type);
  return {
    is,
    encode: (event: E, metadata: Omit<EventMetadata, 'schemaVersion'>): NewEvent => ({ type: event.type, data: event.data as unknown as JsonObject, metadata: { ...metadata, schemaVersion: event.schemaVersion } }),
    decode(recorded: Pick<RecordedEvent, 'type' | 'data' | 'metadata'>): E {
      const { type, metadata } = recorded;
      if (!is(type)) throw new TypeError(`not a ${noun} event: ${type}`);
      if (metadata.schemaVersion !== versions[type]) throw new TypeError(`${type} has schema version ${metadata.schemaVersion}, which this build cannot read`);
      return { type, schemaVersion: versions[type], data: recorded.data } as unknown as E;
    },
  };
}

const subscriptions = versionedCodec<WebhookEventName, WebhookEvent>(CURRENT_VERSIONS, 'webhook subscription');
export const isWebhookEventType = subscriptions.is;
export const encodeWebhookEvent = subscriptions.encode;
export const decodeWebhookEvent = subscriptions.decode;

// The delivery log: one stream per subscription, `webhook-deliveries-<subscriptionId>`, of what
// the delivery worker's attempts came to and of admins' retry requests (docs/webhooks.md).
export const WEBHOOK_DELIVERY_STREAM_PREFIX = 'webhook-deliveries-';

export const deliveryStream = (subscriptionId: string): string => WEBHOOK_DELIVERY_STREAM_PREFIX + subscriptionId;

const DELIVERY_VERSIONS: { readonly [T in WebhookDeliveryEventName]: number } = {
  WebhookAttemptsRecorded: 1,
  WebhookDeliveryRetryRequested: 1,
};

const deliveries = versionedCodec<WebhookDeliveryEventName, WebhookDeliveryEvent>(DELIVERY_VERSIONS, 'webhook delivery');
export const isWebhookDeliveryEventType = deliveries.is;
export const encodeDeliveryEvent = deliveries.encode;
export const decodeDeliveryEvent = deliveries.decode;
