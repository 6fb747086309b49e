// Snapshots of a SKU's folded stock, in a stream of their own (`snapshot-stock-<sku>`, outside the
// `stock-` prefix, so that the projection, the reconciler and the auditor never see them). A
// snapshot is only a shortcut for a fold: it names the stream revision it covers, and whatever
// cannot be read as such is no snapshot (the caller folds from the start).
import { Map as ImmutableMap } from 'immutable';
import type { EventMetadata, NewEvent, RecordedEvent } from '../kernel/event-store.js';
import type { Stock, StockEvent } from './types.js';
import { liveReservations } from './decider.js';

export const STOCK_SNAPSHOT_PREFIX = 'snapshot-stock-';

export const stockSnapshotStream = (sku: string): string => STOCK_SNAPSHOT_PREFIX + sku;

export const STOCK_SNAPSHOT_TYPE = 'StockSnapshotted';

/**
 * The shape of the state and the fold that made it. Raise it whenever `Stock` or `evolveStock`
 * changes what a fold gives: snapshots of another version are then ignored, never trusted.
 */
export const STOCK_SNAPSHOT_VERSION = 1;

export interface StockSnapshot {
  /** The fold of the SKU's events 0 … revision. */
  readonly stock: Stock;
  readonly revision: number;
}

export function encodeStockSnapshot(snapshot: StockSnapshot, metadata: Omit<EventMetadata, 'schemaVersion'>): NewEvent {
  const { stock, revision } = snapshot;
  return {
    type: STOCK_SNAPSHOT_TYPE,
    data: {
      sku: stock.sku,
      revision,
      onHand: stock.onHand,
      reserved: stock.reserved,
      updatedAt: stock.updatedAt,
      reservations: [...liveReservations(stock.live)],
    },
    metadata: { ...metadata, schemaVersion: STOCK_SNAPSHOT_VERSION },
  };
}

/** The snapshot the event holds for `sku`, or null when it holds none this build can trust. */
export function decodeStockSnapshot(recorded: Pick<RecordedEvent, 'type' | 'data' | 'metadata'>, sku: string): StockSnapshot | null {
  if (recorded.type !== STOCK_SNAPSHOT_TYPE || recorded.metadata.schemaVersion !== STOCK_SNAPSHOT_VERSION) return null;
  const { data } = recorded;
  const count = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
  if (data.sku !== sku || !count(data.revision) || !Array.isArray(data.reservations)) return null;
  const { onHand, reserved, updatedAt } = data;
  if (!count(onHand) || !count(reserved) || reserved > onHand || typeof updatedAt !== 'string') return null;
  const base = new Map<string, number>();
  let sum = 0;
  for (const entry of data.reservations as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 2) return null;
    const [orderId, quantity] = entry as unknown[];
    if (typeof orderId !== 'string' || !count(quantity) || quantity === 0 || base.has(orderId)) return null;
    base.set(orderId, quantity);
    sum += quantity;
  }
  // The counters are the reservations' sum in every fold; a snapshot where they differ is damaged.
  if (sum !== reserved) return null;
  return { stock: { sku, onHand, reserved, updatedAt, live: ImmutableMap(base) }, revision: data.revision };
}

/**
 * Whether the snapshot was taken of the stream that holds `atRevision` at its revision: every
 * stock event sets `updatedAt` to its own time, so the state's is the time of the event it ends
 * on. A stream written anew since (or another store's) does not hold that event there.
 */
export function snapshotFits(snapshot: StockSnapshot, atRevision: StockEvent): boolean {
  return eventTime(atRevision) === snapshot.stock.updatedAt;
}

function eventTime(event: StockEvent): string {
  switch (event.type) {
    case 'StockAdjusted':
      return event.data.adjustedAt;
    case 'StockReserved':
      return event.data.reservedAt;
    case 'ReservationReleased':
      return event.data.releasedAt;
    case 'ReservationCommitted':
      return event.data.committedAt;
    default: {
      const unknown: never = event;
      throw new TypeError(`unhandled event ${(unknown as StockEvent).type}`);
    }
  }
}
