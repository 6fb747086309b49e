// How stock events are stored: one stream per SKU, `stock-<sku>`.
import type { EventMetadata, JsonObject, NewEvent, RecordedEvent } from '../kernel/event-store.js';
import type { StockEvent, StockEventType } from './types.js';

export const STOCK_STREAM_PREFIX = 'stock-';

export const stockStream = (sku: string): string => STOCK_STREAM_PREFIX + sku;

const TYPES: ReadonlySet<string> = new Set<StockEventType>(['StockAdjusted', 'StockReserved', 'ReservationReleased', 'ReservationCommitted', 'StockFellLow']);

export function isStockEvent(recorded: Pick<RecordedEvent, 'type'>): boolean {
  return TYPES.has(recorded.type);
}

export function encodeStockEvent(event: StockEvent, metadata: Omit<EventMetadata, 'schemaVersion'>): NewEvent {
  return { type: event.type, data: event.data as unknown as JsonObject, metadata: { ...metadata, schemaVersion: event.schemaVersion } };
}

export function decodeStockEvent(recorded: Pick<RecordedEvent, 'type' | 'data' | 'metadata'>): StockEvent {
  if (!TYPES.has(recorded.type)) throw new TypeError(`not a stock event: ${recorded.type}`);
  if (recorded.metadata.schemaVersion !== 1) throw new TypeError(`${recorded.type} has schema version ${recorded.metadata.schemaVersion}, which this build cannot read`);
  return { type: recorded.type, schemaVersion: 1, data: recorded.data } as unknown as StockEvent;
}
