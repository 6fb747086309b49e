// Stock of one SKU: events, commands and state. A SKU's stream holds its adjustments and the
// reservations of the orders that buy it, each reservation keyed by its order.
import type { Reservations } from './reservations.js';

export type AdjustmentReason = 'received' | 'count' | 'damaged' | 'returned' | 'other';
export const ADJUSTMENT_REASONS: readonly AdjustmentReason[] = ['received', 'count', 'damaged', 'returned', 'other'];

/** Why a reservation ended without a shipment. */
export type ReleaseReason = 'order-cancelled' | 'placement-failed' | 'order-abandoned' | 'not-in-order' | 'order-edited';

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
  /** `orderRevision`: the order revision of the settle that made it (none for a placement's). */
  readonly data: { readonly sku: string; readonly orderId: string; readonly quantity: number; readonly reservedAt: string; readonly orderRevision?: number };
};

export type ReservationReleased = {
  readonly type: 'ReservationReleased';
  readonly schemaVersion: 1;
  readonly data: { readonly sku: string; readonly orderId: string; readonly quantity: number; readonly reason: ReleaseReason; readonly releasedAt: string; readonly orderRevision?: number };
};

/** The order shipped (all of its reservation, or part of it): that quantity leaves the stock on hand. */
export type ReservationCommitted = {
  readonly type: 'ReservationCommitted';
  readonly schemaVersion: 1;
  readonly data: { readonly sku: string; readonly orderId: string; readonly quantity: number; readonly committedAt: string; readonly orderRevision?: number };
};

/**
 * The command recorded before it in the same append took the SKU's available units from at least
 * its low-stock threshold to below it (rules.ts, fellBelow): the webhook event stock.low. Decided
 * where the levels are known, and a log event, so that every send and replay of it has one id.
 * It changes no level. It records the levels right after (as StockAdjusted does), so that its
 * message reads them from this one event rather than folding a hot SKU's long stream.
 */
export type StockFellLow = {
  readonly type: 'StockFellLow';
  readonly schemaVersion: 1;
  readonly data: { readonly sku: string; readonly onHand: number; readonly reserved: number; readonly available: number; readonly threshold: number; readonly at: string };
};

export type StockEvent = StockAdjusted | StockReserved | ReservationReleased | ReservationCommitted | StockFellLow;
export type StockEventType = StockEvent['type'];

export interface StockCommandMetadata {
  readonly now: string;
}

/**
 * Every command that can lower the SKU's available units carries the SKU's low-stock threshold
 * (the catalogue's, 0 for none), so that the decider, which stays pure, decides stock.low with it.
 */
interface LowStockThreshold {
  readonly lowStockThreshold: number;
}

export type StockCommand =
  | {
      readonly type: 'AdjustStock';
      readonly data: { readonly sku: string; readonly adjustmentId: string; readonly delta: number; readonly reason: AdjustmentReason; readonly note: string | null } & LowStockThreshold;
      readonly metadata: StockCommandMetadata;
    }
  | { readonly type: 'ReserveStock'; readonly data: { readonly sku: string; readonly orderId: string; readonly quantity: number } & LowStockThreshold; readonly metadata: StockCommandMetadata }
  | { readonly type: 'ReleaseReservation'; readonly data: { readonly sku: string; readonly orderId: string; readonly reason: ReleaseReason }; readonly metadata: StockCommandMetadata }
  /**
   * Brings the order's reservation of the SKU to what the order says (orders/rules.ts,
   * stockTargets): `shipped` deducted from stock on hand in all, `reserved` still held.
   */
  | { readonly type: 'SettleReservation'; readonly data: SettleReservation; readonly metadata: StockCommandMetadata };

/**
 * A settle's targets came from the order at `orderRevision`: a settle of an older revision than
 * one applied before is stale and changes nothing (the reconciler's read of an order that an edit
 * is changing). `raise` false: it may only lower and commit (the reconciler's repairs), never
 * reserve more. `force`: applied whatever the fence (a raise whose edit never came, see the reconciler).
 */
export interface SettleReservation extends LowStockThreshold {
  readonly sku: string;
  readonly orderId: string;
  readonly reserved: number;
  readonly shipped: number;
  readonly reason: ReleaseReason;
  readonly orderRevision: number;
  readonly raise: boolean;
  readonly force?: boolean;
}

/**
 * The live reservations (order id → quantity), as a persistent map (reservations.ts): evolve makes
 * the next state's map by copying only the part it changes, and leaves every earlier state's as it
 * was, so that a hot SKU holding many reservations costs each new one no more than a quiet SKU does
 * (copying a map, even now and then, grew with every order still pending).
 */
export type LiveReservations = Reservations;

export interface Stock {
  readonly sku: string;
  readonly onHand: number;
  readonly reserved: number;
  readonly live: LiveReservations;
  /**
   * What each order with a live reservation has had committed of it so far (a partial shipment),
   * for the orders with some: a settle commits only what its order shipped beyond it. Forgotten
   * with the reservation, once nothing of it is left.
   */
  readonly committed: LiveReservations;
  /** The newest order revision a settle of each live reservation came from (its fence), for the orders with one. */
  readonly fences: LiveReservations;
  /** When the last event was recorded by the decider's clock; null before the first. */
  readonly updatedAt: string | null;
}
