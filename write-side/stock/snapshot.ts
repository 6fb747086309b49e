// Snapshots of a SKU's folded stock, in a stream of their own (`snapshot-stock-<sku>`, outside the
// `stock-` prefix, so that the projection, the reconciler and the auditor never see them). A
// snapshot is only a shortcut for a fold: it names the stream revision it covers, and whatever
// cannot be read as such is no snapshot (the caller folds from the start).
import type { EventMetadata, NewEvent, RecordedEvent } from '../kernel/event-store.js';
import type { Stock, StockEvent } from './types.js';
import { liveReservations } from './decider.js';
import { Reservations } from './reservations.js';

export const STOCK_SNAPSHOT_PREFIX = 'snapshot-stock-';

export const stockSnapshotStream = (sku: string): string => STOCK_SNAPSHOT_PREFIX + sku;

export const STOCK_SNAPSHOT_TYPE = 'StockSnapshotted';

/**
 * The shape of the state and the fold that made it. Raise it whenever `Stock` or `evolveStock`
 * changes what a fold gives: snapshots of another version are then ignored, never trusted.
 */
export const STOCK_SNAPSHOT_VERSION = 2;

export interface StockSnapshot {
  /** The fold of the SKU's events 0 … revision. */
  readonly stock: Stock;
  readonly revision: number;
}

/**
 * The most one event of a snapshot holds, in characters of its reservations' JSON: half the event
 * store's append limit (MAX_APPEND_BYTES, EventStoreDB's 1 MiB), which leaves room for the rest of
 * the event. A SKU with more live reservations than fit (some 12,000 of them) is snapshotted in
 * parts, each appended alone.
 */
export const STOCK_SNAPSHOT_PART_CHARS = 512 * 1024;

/** The snapshot as one event, whatever its size. */
export function encodeStockSnapshot(snapshot: StockSnapshot, metadata: Omit<EventMetadata, 'schemaVersion'>): NewEvent {
  return snapshotEvent(snapshot, entries(snapshot.stock), null, metadata);
}

/**
 * Each live reservation as [orderId, quantity], or [orderId, quantity, committed, fence] when part
 * of it was committed already or a settle fenced it (-1: no fence). Version 2: version 1
 * snapshots, without them, are ignored.
 */
type Entry = readonly [string, number] | readonly [string, number, number, number];

function entries(stock: Stock): Entry[] {
  return [...liveReservations(stock.live)].map(([orderId, quantity]): Entry => {
    const committed = stock.committed.get(orderId);
    const fence = stock.fences.get(orderId);
    return committed === undefined && fence === undefined ? [orderId, quantity] : [orderId, quantity, committed ?? 0, fence ?? -1];
  });
}

/**
 * The snapshot as the events to append, in order: one, or as many parts as its reservations need,
 * each naming its place (`part` of `parts`); the last part ends the snapshot. A snapshot is read
 * back from its last part (decodeStockSnapshotParts); a write cut short leaves no last part, and
 * no snapshot.
 */
export function encodeStockSnapshotParts(snapshot: StockSnapshot, metadata: Omit<EventMetadata, 'schemaVersion'>, partChars = STOCK_SNAPSHOT_PART_CHARS): NewEvent[] {
  const chunks: Entry[][] = [[]];
  let size = 0;
  for (const entry of entries(snapshot.stock)) {
    // Order ids are ASCII (UUIDs): a character is a byte.
    const chars = JSON.stringify(entry).length + 1;
    if (size + chars > partChars && chunks.at(-1)!.length > 0) chunks.push([]), (size = 0);
    chunks.at(-1)!.push(entry);
    size += chars;
  }
  if (chunks.length === 1) return [snapshotEvent(snapshot, chunks[0]!, null, metadata)];
  return chunks.map((reservations, part) => snapshotEvent(snapshot, reservations, { part, parts: chunks.length }, metadata));
}

function snapshotEvent(
  { stock, revision }: StockSnapshot,
  reservations: readonly Entry[],
  place: { readonly part: number; readonly parts: number } | null,
  metadata: Omit<EventMetadata, 'schemaVersion'>,
): NewEvent {
  const { sku, onHand, reserved, updatedAt } = stock;
  return {
    type: STOCK_SNAPSHOT_TYPE,
    data: { sku, revision, onHand, reserved, updatedAt, ...place, reservations: reservations.map((entry) => [...entry]) },
    metadata: { ...metadata, schemaVersion: STOCK_SNAPSHOT_VERSION },
  };
}

/**
 * How many events, up to and including this one, make the snapshot this event ends: 1 for a
 * whole one, `parts` for the last part of one in parts; null for an event that ends none.
 */
export function snapshotSpan(recorded: Pick<RecordedEvent, 'type' | 'data'>): number | null {
  if (recorded.type !== STOCK_SNAPSHOT_TYPE) return null;
  const { part, parts } = recorded.data;
  if (part === undefined && parts === undefined) return 1;
  if (!Number.isSafeInteger(parts) || (parts as number) < 2 || part !== (parts as number) - 1) return null;
  return parts as number;
}

/** The snapshot the events hold together, its parts in order; null unless they are every part of one snapshot of `sku`. */
export function decodeStockSnapshotParts(recorded: readonly Pick<RecordedEvent, 'type' | 'data' | 'metadata'>[], sku: string): StockSnapshot | null {
  const [first] = recorded;
  if (!first) return null;
  if (recorded.length === 1) return decodeStockSnapshot(first, sku);
  const reservations: unknown[] = [];
  for (const [i, event] of recorded.entries()) {
    const { part, parts, reservations: own, ...rest } = event.data;
    const { part: _p, parts: _n, reservations: _r, ...firstRest } = first.data;
    if (event.type !== STOCK_SNAPSHOT_TYPE || event.metadata.schemaVersion !== STOCK_SNAPSHOT_VERSION) return null;
    if (part !== i || parts !== recorded.length || !Array.isArray(own) || JSON.stringify(rest) !== JSON.stringify(firstRest)) return null;
    reservations.push(...own);
  }
  const { part: _p, parts: _n, ...whole } = first.data;
  return decodeStockSnapshot({ type: first.type, metadata: first.metadata, data: { ...whole, reservations: reservations as never } }, sku);
}

/** The snapshot the event holds for `sku`, or null when it holds none this build can trust. */
export function decodeStockSnapshot(recorded: Pick<RecordedEvent, 'type' | 'data' | 'metadata'>, sku: string): StockSnapshot | null {
  if (recorded.type !== STOCK_SNAPSHOT_TYPE || recorded.metadata.schemaVersion !== STOCK_SNAPSHOT_VERSION) return null;
  const { data } = recorded;
  const count = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
  if (data.sku !== sku || !count(data.revision) || !Array.isArray(data.reservations) || data.parts !== undefined) return null;
  const { onHand, reserved, updatedAt } = data;
  if (!count(onHand) || !count(reserved) || reserved > onHand || typeof updatedAt !== 'string') return null;
  // Written in the map's order, which is the keys' (reservations.ts): read back as they come, with
  // no sorting and no hashing, at every fold that starts from the snapshot.
  const base: [string, number][] = [];
  const committed: [string, number][] = [];
  const fences: [string, number][] = [];
  let sum = 0;
  for (const entry of data.reservations as unknown[]) {
    if (!Array.isArray(entry) || (entry.length !== 2 && entry.length !== 4)) return null;
    const [orderId, quantity, shipped, fence] = entry as unknown[];
    if (typeof orderId !== 'string' || !count(quantity) || quantity === 0) return null;
    if (entry.length === 4) {
      if (!count(shipped) || !Number.isSafeInteger(fence) || (fence as number) < -1) return null;
      if (shipped > 0) committed.push([orderId, shipped]);
      if ((fence as number) >= 0) fences.push([orderId, fence as number]);
    }
    base.push([orderId, quantity]);
    sum += quantity;
  }
  const live = Reservations.of(base);
  // An order named twice, or counters that are not the reservations' sum (as in every fold): damaged.
  if (live.size !== base.length || sum !== reserved) return null;
  return { stock: { sku, onHand, reserved, updatedAt, live, committed: Reservations.of(committed), fences: Reservations.of(fences) }, revision: data.revision };
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
    case 'StockFellLow':
      return event.data.at;
    default: {
      const unknown: never = event;
      throw new TypeError(`unhandled event ${(unknown as StockEvent).type}`);
    }
  }
}
