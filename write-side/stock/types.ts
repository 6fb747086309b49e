// Stock of one SKU: events, commands and state. A SKU's stream holds its adjustments and the
// reservations of the orders that buy it, each reservation keyed by its order.
import type { Map as ImmutableMap } from 'immutable';

export type AdjustmentReason = 'received' | 'count' | 'damaged' | 'returned' | 'other';
export const ADJUSTMENT_REASONS: readonly AdjustmentReason[] = ['received', 'count', 'damaged', 'returned', 'other'];

/** Why a reservation ended without a shipment. */
export type ReleaseReason = 'order-cancelled' | 'placement-failed' | 'order-abandoned' | 'not-in-order';

export type StockAdjusted = {
  readonly type: 'StockAdjusted';
  readonly schemaVersion: 1;
  readonly data: {
    readonly sku: string;
    readonly adjustmentId: string;
    readonly delta: number;
    readonly reason: AdjustmentReason;
    readonly note: string | null;
    /** The levels right after it: what the adjustment's answer (and its replay) reports. */
    readonly onHand: number;
    readonly reserved: number;
    readonly adjustedAt: string;
  };
};

export type StockReserved = {
  readonly type: 'StockReserved';
  readonly schemaVersion: 1;
  readonly data: { readonly sku: string; readonly orderId: string; readonly quantity: number; readonly reservedAt: string };
};

export type ReservationReleased = {
  readonly type: 'ReservationReleased';
  readonly schemaVersion: 1;
  readonly data: { readonly sku: string; readonly orderId: string; readonly quantity: number; readonly reason: ReleaseReason; readonly releasedAt: string };
};

/** The order shipped: its reserved quantity leaves the stock on hand. */
export type ReservationCommitted = {
  readonly type: 'ReservationCommitted';
  readonly schemaVersion: 1;
  readonly data: { readonly sku: string; readonly orderId: string; readonly quantity: number; readonly committedAt: string };
};

export type StockEvent = StockAdjusted | StockReserved | ReservationReleased | ReservationCommitted;
export type StockEventType = StockEvent['type'];

export interface StockCommandMetadata {
  readonly now: string;
}

export type StockCommand =
  | { readonly type: 'AdjustStock'; readonly data: { readonly sku: string; readonly adjustmentId: string; readonly delta: number; readonly reason: AdjustmentReason; readonly note: string | null }; readonly metadata: StockCommandMetadata }
  | { readonly type: 'ReserveStock'; readonly data: { readonly sku: string; readonly orderId: string; readonly quantity: number }; readonly metadata: StockCommandMetadata }
  | { readonly type: 'ReleaseReservation'; readonly data: { readonly sku: string; readonly orderId: string; readonly reason: ReleaseReason }; readonly metadata: StockCommandMetadata }
  | { readonly type: 'CommitReservation'; readonly data: { readonly sku: string; readonly orderId: string }; readonly metadata: StockCommandMetadata };

/**
 * The live reservations (order id → quantity), as a persistent map (immutable's, a hash array
 * mapped trie): evolve makes the next state's map in O(log n) and leaves every earlier state's as
 * it was, so that a hot SKU holding many reservations costs each new one no more than a quiet
 * SKU does (copying a map, even now and then, grew with every order still pending).
 */
export type LiveReservations = ImmutableMap<string, number>;

export interface Stock {
  readonly sku: string;
  readonly onHand: number;
  readonly reserved: number;
  readonly live: LiveReservations;
  /** When the last event was recorded by the decider's clock; null before the first. */
  readonly updatedAt: string | null;
}
