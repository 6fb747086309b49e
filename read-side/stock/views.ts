// The stock's view.

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
