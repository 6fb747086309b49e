// The stock's views.
import type { Position } from '../../write-side/kernel/event-store.js';

/** A SKU's stock levels as GET /stock/{sku} and the stock webhooks show them; `revision` is the SKU stream's. */
export interface StockLevels {
  readonly sku: string;
  readonly onHand: number;
  readonly reserved: number;
  /** onHand − reserved, never below 0. */
  readonly available: number;
  readonly updatedAt: string | null;
  readonly revision: number;
}

/**
 * A SKU as the `stock` projection keeps it from its two streams (its product's and its stock's):
 * its levels, and its product's name, status and threshold; `low` is 1 while the product (not
 * retired) has fewer units available than its threshold, which a threshold of 0 never is.
 */
export interface StockView {
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
export function isLow(view: Pick<StockView, 'status' | 'available' | 'lowStockThreshold'>): boolean {
  return view.status !== null && view.status !== 'retired' && view.available < view.lowStockThreshold;
}

/** A name as a prefix of it is matched (GET /stock?namePrefix): case folded, locale-independently. */
export function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/** A SKU as GET /stock lists it: its levels (revision and updatedAt null before its first stock event) and its product's name and threshold. */
export type ListedStock = Omit<StockLevels, 'revision'> & { readonly revision: number | null; readonly name: string | null; readonly lowStockThreshold: number };

/** The SKU as GET /stock lists it. */
export function listedStock(view: StockView): ListedStock {
  const { sku, name, lowStockThreshold, onHand, reserved, available, stockUpdatedAt, stockRevision } = view;
  return { sku, name, lowStockThreshold, onHand, reserved, available, updatedAt: stockUpdatedAt, revision: stockRevision };
}
