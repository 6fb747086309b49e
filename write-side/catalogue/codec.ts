// How product events are stored: one stream per SKU, `product-<sku>`, and the mapping between the
// domain's events and the event store's records, old versions upcast on read.
import type { EventMetadata, JsonObject, NewEvent, RecordedEvent } from '../kernel/event-store.js';
import type { ProductEvent, ProductEventType } from './types.js';

export const PRODUCT_STREAM_PREFIX = 'product-';

export const productStream = (sku: string): string => PRODUCT_STREAM_PREFIX + sku;

/**
 * Version 2 of a definition and a change may carry `lowStockThreshold` (2027-01-01): a build
 * before it, which would fold such an event and drop the threshold (and write it away with its
 * next change), refuses it instead.
 */
const CURRENT_VERSIONS: { readonly [T in ProductEventType]: number } = { ProductDefined: 2, ProductChanged: 2, ProductRetired: 1 };

type Upcaster = (data: JsonObject) => JsonObject;

/** Before thresholds, no product had one: version 1 reads as version 2 without the member (no threshold). */
const noThreshold: Upcaster = (v1) => v1;

/** UPCASTERS[type][v - 1] turns version v into version v + 1; stored events are never rewritten. */
const UPCASTERS: { readonly [T in ProductEventType]?: readonly Upcaster[] } = {
  ProductDefined: [noThreshold],
  ProductChanged: [noThreshold],
};

export function isProductEventType(type: string): type is ProductEventType {
  return Object.hasOwn(CURRENT_VERSIONS, type);
}

export function encodeProductEvent(event: ProductEvent, metadata: Omit<EventMetadata, 'schemaVersion'>): NewEvent {
  return { type: event.type, data: event.data as unknown as JsonObject, metadata: { ...metadata, schemaVersion: event.schemaVersion } };
}

export function decodeProductEvent(recorded: Pick<RecordedEvent, 'type' | 'data' | 'metadata'>): ProductEvent {
  const { type, metadata } = recorded;
  if (!isProductEventType(type)) throw new TypeError(`not a product event: ${type}`);
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
  return { type, schemaVersion: current, data } as unknown as ProductEvent;
}
