// The catalogue's view and representation.
import type { LiveProduct } from '../../write-side/catalogue/types.js';

/** A product's HTTP representation (HTTP-CONTRACT "Catalogue"). */
export interface ProductRepresentation {
  readonly sku: string;
  readonly name: string;
  readonly description: string | null;
  readonly prices: { readonly [currency: string]: number };
  readonly status: 'draft' | 'active';
  /** Since 2027-01-01 (additive, under every version): stock.low fires when the SKU's available falls below it; 0 for none. */
  readonly lowStockThreshold: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly revision: number;
}

/**
 * A product as the `products` projection keeps it: its representation, or, once retired, the
 * last one with status `retired` (views are never deleted; the collection leaves them out).
 */
export type ProductView = Omit<ProductRepresentation, 'status'> & { readonly status: 'draft' | 'active' | 'retired' };

export function productRepresentation(product: LiveProduct, revision: number): ProductRepresentation {
  const { sku, name, description, prices, status, createdAt, updatedAt } = product;
  return { sku, name, description, prices, status, lowStockThreshold: product.lowStockThreshold ?? 0, createdAt, updatedAt, revision };
}
