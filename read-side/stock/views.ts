// The stock's views.
import type { Position } from '../../write-side/kernel/event-store.js';

/** A SKU's stock levels as GET /stock lists them; `revision` is the SKU stream's. */
export interface StockView {
  readonly sku: string;
  readonly onHand: number;
  readonly reserved: number;
  /** onHand − reserved, never below 0. */
  readonly available: number;
  readonly updatedAt: string | null;
  readonly revision: number;
}

/**
 * A SKU's stock held against its product's lowStockThreshold, as the `low-stock` projection keeps
 * it from the SKU's two streams (its product's and its stock's): `low` is 1 while the product (not
 * retired) has fewer units available than its threshold, which a threshold of 0 never is.
 */
export interface LowStockView {
  readonly sku: string;
  /** The product's name and status; null while no product was ever defined under the SKU. */
  readonly name: string | null;
  readonly status: 'draft' | 'active' | 'retired' | null;
  /** 0 for none. */
  readonly lowStockThreshold: number;
  readonly onHand: number;
  readonly reserved: number;
  readonly available: number;
  /** When its stock last changed, and its stock stream's revision (as GET /stock/{sku} answers it); null before its first stock event. */
  readonly stockUpdatedAt: string | null;
  readonly stockRevision: number | null;
  readonly low: 0 | 1;
  /** The last log position folded in, and how many events were (a view gathered across streams). */
  readonly position: Position;
  readonly revision: number;
}

/** Whether a SKU is below its product's threshold: the one rule of the low-stock figure and list. */
export function isLow(view: Pick<LowStockView, 'status' | 'available' | 'lowStockThreshold'>): boolean {
  return view.status !== null && view.status !== 'retired' && view.available < view.lowStockThreshold;
}

/** A SKU's levels as GET /stock lists them: a SKU below its threshold may never have had stock (its updatedAt and revision null). */
export type ListedStock = Omit<StockView, 'revision'> & { readonly revision: number | null };

/** The SKU's levels as GET /stock lists them. */
export function stockOfLowStock(view: LowStockView): ListedStock {
  const { sku, onHand, reserved, available, stockUpdatedAt, stockRevision } = view;
  return { sku, onHand, reserved, available, updatedAt: stockUpdatedAt, revision: stockRevision };
}
