// How product events are stored: one stream per SKU, `product-<sku>`.
import type { EventMetadata, JsonObject, NewEvent, RecordedEvent } from '../kernel/event-store.js';
import type { ProductEvent, ProductEventType } from './types.js';

export const PRODUCT_STREAM_PREFIX = 'product-';

export const productStream = (sku: string): string => PRODUCT_STREAM_PREFIX + sku;

const CURRENT_VERSIONS: { readonly [T in ProductEventType]: number } = { ProductDefined: 1, ProductChanged: 1, ProductRetired: 1 };

export function isProductEventType(type: string): type is ProductEventType {
  return Object.hasOwn(CURRENT_VERSIONS, type);
}

export function encodeProductEvent(event: ProductEvent, metadata: Omit<EventMetadata, 'schemaVersion'>): NewEvent {
  return { type: event.type, data: event.data as unknown as JsonObject, metadata: { ...metadata, schemaVersion: event.schemaVersion } };
}

export function decodeProductEvent(recorded: Pick<RecordedEvent, 'type' | 'data' | 'metadata'>): ProductEvent {
  const { type, metadata } = recorded;
  if (!isProductEventType(type)) throw new TypeError(`not a product event: ${type}`);
  if (metadata.schemaVersion !== CURRENT_VERSIONS[type]) throw new TypeError(`${type} has schema version ${metadata.schemaVersion}, which this build cannot read`);
  return { type, schemaVersion: CURRENT_VERSIONS[type], data: recorded.data } as unknown as ProductEvent;
}
