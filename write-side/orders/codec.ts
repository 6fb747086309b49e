// How order events are stored: the stream name of an order, and the mapping between the
// domain's events and the event store's records (the place where upcasters will live).
import type { EventMetadata, JsonObject, NewEvent, RecordedEvent } from '../kernel/event-store.js';
import type { OrderEvent, OrderEventType } from './types.js';

export const ORDER_STREAM_PREFIX = 'order-';

export const orderStream = (orderId: string): string => ORDER_STREAM_PREFIX + orderId;

const CURRENT_VERSIONS: { readonly [T in OrderEventType]: number } = {
  OrderPlaced: 2,
  OrderAddressChanged: 1,
  PaymentRecorded: 2,
  ShipmentCreated: 2,
  OrderCancelled: 1,
  OrderPlacementAbandoned: 1,
  ReturnRequested: 1,
  ReturnReceived: 1,
  ReturnCancelled: 1,
  RefundRecorded: 1,
  OrderEdited: 1,
};

type Upcaster = (data: JsonObject) => JsonObject;

/**
 * The chain that brings an old event to the current shape: UPCASTERS[type][v - 1] turns
 * version v into version v + 1. Stored events are never rewritten; they are upcast on read,
 * so old history replays through the current code.
 */
const UPCASTERS: { readonly [T in OrderEventType]?: readonly Upcaster[] } = {
  PaymentRecorded: [(v1) => ({ ...v1, method: 'unknown' })],
  // A shipment before shipments by line shipped everything that remained: `lines: null` says so.
  ShipmentCreated: [(v1) => ({ ...v1, lines: null })],
  // Placed before the catalogue: the client named a SKU and a price, never a product name.
  OrderPlaced: [(v1) => ({ ...v1, lines: (v1['lines'] as readonly JsonObject[]).map(({ sku, ...rest }) => ({ sku: sku ?? null, name: null, ...rest })) })],
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
  const current = CURRENT_VERSIONS[type];
  let version = metadata.schemaVersion;
  if (!Number.isInteger(version) || version < 1 || version > current) {
    throw new TypeError(`${type} has schema version ${version}, which this build cannot read`);
  }
  let data = recorded.data;
  for (; version < current; version++) {
    const upcast = UPCASTERS[type]?.[version - 1];
    if (!upcast) throw new TypeError(`no upcaster for ${type} version ${version}`);
    data = upcast(data);
  }
  return { type, schemaVersion: current, data } as unknown as OrderEvent;
}
