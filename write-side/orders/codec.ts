// How order events are stored: the stream name of an order, and the mapping between the
// domain's events and the event store's records (the place where upcasters will live).
import type { EventMetadata, JsonObject, NewEvent, RecordedEvent } from '../event-store.js';
import type { OrderEvent, OrderEventType } from './types.js';

export const ORDER_STREAM_PREFIX = 'order-';

export const orderStream = (orderId: string): string => ORDER_STREAM_PREFIX + orderId;

const CURRENT_VERSIONS: { readonly [T in OrderEventType]: number } = {
  OrderPlaced: 1,
  OrderAddressChanged: 1,
  PaymentRecorded: 1,
  ShipmentCreated: 1,
  OrderCancelled: 1,
};

export function isOrderEventType(type: string): type is OrderEventType {
  return Object.hasOwn(CURRENT_VERSIONS, type);
}

export function encodeOrderEvent(event: OrderEvent, metadata: Omit<EventMetadata, 'schemaVersion'>): NewEvent {
  return { type: event.type, data: event.data as unknown as JsonObject, metadata: { ...metadata, schemaVersion: event.schemaVersion } };
}

export function decodeOrderEvent(recorded: Pick<RecordedEvent, 'type' | 'data' | 'metadata'>): OrderEvent {
  const { type, metadata } = recorded;
  if (!isOrderEventType(type)) throw new TypeError(`not an order event: ${type}`);
  if (metadata.schemaVersion !== CURRENT_VERSIONS[type]) {
    throw new TypeError(`${type} has schema version ${metadata.schemaVersion}, which this build cannot read`);
  }
  return { type, schemaVersion: metadata.schemaVersion, data: recorded.data } as unknown as OrderEvent;
}
