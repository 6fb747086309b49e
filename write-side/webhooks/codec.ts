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

export function isWebhookEventType(type: string): type is WebhookEventName {
  return Object.hasOwn(CURRENT_VERSIONS, type);
}

export function encodeWebhookEvent(event: WebhookEvent, metadata: Omit<EventMetadata, 'schemaVersion'>): NewEvent {
  return { type: event.type, data: event.data as unknown as JsonObject, metadata: { ...metadata, schemaVersion: event.schemaVersion } };
}

export function decodeWebhookEvent(recorded: Pick<RecordedEvent, 'type' | 'data' | 'metadata'>): WebhookEvent {
  const { type, metadata } = recorded;
  if (!isWebhookEventType(type)) throw new TypeError(`not a webhook subscription event: ${type}`);
  if (metadata.schemaVersion !== CURRENT_VERSIONS[type]) throw new TypeError(`${type} has schema version ${metadata.schemaVersion}, which this build cannot read`);
  return { type, schemaVersion: CURRENT_VERSIONS[type], data: recorded.data } as unknown as WebhookEvent;
}

// The delivery log: one stream per subscription, `webhook-deliveries-<subscriptionId>`, of what
// the delivery worker's attempts came to and of admins' retry requests (docs/webhooks.md).
export const WEBHOOK_DELIVERY_STREAM_PREFIX = 'webhook-deliveries-';

export const deliveryStream = (subscriptionId: string): string => WEBHOOK_DELIVERY_STREAM_PREFIX + subscriptionId;

const DELIVERY_VERSIONS: { readonly [T in WebhookDeliveryEventName]: number } = {
  WebhookAttemptsRecorded: 1,
  WebhookDeliveryRetryRequested: 1,
};

export function isWebhookDeliveryEventType(type: string): type is WebhookDeliveryEventName {
  return Object.hasOwn(DELIVERY_VERSIONS, type);
}

export function encodeDeliveryEvent(event: WebhookDeliveryEvent, metadata: Omit<EventMetadata, 'schemaVersion'>): NewEvent {
  return { type: event.type, data: event.data as unknown as JsonObject, metadata: { ...metadata, schemaVersion: event.schemaVersion } };
}

export function decodeDeliveryEvent(recorded: Pick<RecordedEvent, 'type' | 'data' | 'metadata'>): WebhookDeliveryEvent {
  const { type, metadata } = recorded;
  if (!isWebhookDeliveryEventType(type)) throw new TypeError(`not a webhook delivery event: ${type}`);
  if (metadata.schemaVersion !== DELIVERY_VERSIONS[type]) throw new TypeError(`${type} has schema version ${metadata.schemaVersion}, which this build cannot read`);
  return { type, schemaVersion: DELIVERY_VERSIONS[type], data: recorded.data } as unknown as WebhookDeliveryEvent;
}
