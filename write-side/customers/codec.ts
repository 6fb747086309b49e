// How customer events are stored: the stream of a customer and the mapping between the domain's
// events and the event store's records.
import type { EventMetadata, JsonObject, NewEvent, RecordedEvent } from '../kernel/event-store.js';
import type { CustomerEvent, CustomerEventType } from './types.js';

export const CUSTOMER_STREAM_PREFIX = 'customer-';

export const customerStream = (customerId: string): string => CUSTOMER_STREAM_PREFIX + customerId;

const CURRENT_VERSIONS: { readonly [T in CustomerEventType]: number } = {
  CustomerRegistered: 1,
  CustomerChanged: 1,
  CustomerErased: 1,
  // unique-values.ts's CLAIM_FENCED (customer-service.ts ties the two at compile time).
  UniqueValueClaimFenced: 1,
};

export function isCustomerEventType(type: string): type is CustomerEventType {
  return Object.hasOwn(CURRENT_VERSIONS, type);
}

export function encodeCustomerEvent(event: CustomerEvent, metadata: Omit<EventMetadata, 'schemaVersion'>): NewEvent {
  return { type: event.type, data: event.data as unknown as JsonObject, metadata: { ...metadata, schemaVersion: event.schemaVersion } };
}

export function decodeCustomerEvent(recorded: Pick<RecordedEvent, 'type' | 'data' | 'metadata'>): CustomerEvent {
  const { type } = recorded;
  if (!isCustomerEventType(type)) throw new TypeError(`not a customer event: ${type}`);
  // The fence marker is written by unique-values.ts with its own metadata version.
  const version = type === 'UniqueValueClaimFenced' ? 1 : recorded.metadata.schemaVersion;
  if (version !== CURRENT_VERSIONS[type]) throw new TypeError(`${type} has schema version ${version}, which this build cannot read`);
  return { type, schemaVersion: 1, data: recorded.data } as unknown as CustomerEvent;
}
