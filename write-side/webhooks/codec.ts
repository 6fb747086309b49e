// How webhook subscription events are stored: one stream per subscription,
// `webhook-subscription-<id>`. The creation and each rotation hold a signing secret: the only
// place it is kept (docs/webhooks.md).
import type { EventMetadata, JsonObject, NewEvent, RecordedEvent } from '../kernel/event-store.js';
import type { WebhookEvent, WebhookEventName } from './types.js';

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
