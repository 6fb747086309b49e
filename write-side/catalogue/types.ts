// Product events, commands and state: readonly data, unions on `type` and `status`.

/** What a client sets on a product (HTTP-CONTRACT "Catalogue"). */
export interface ProductContent {
  readonly name: string;
  readonly description: string | null;
  /** Integer minor units per ISO 4217 currency, the keys in code order. */
  readonly prices: { readonly [currency: string]: number };
  readonly status: 'draft' | 'active';
  /**
   * Since 2027-01-01: stock.low fires when the SKU's available units fall below it. Absent means
   * 0 (no threshold: available is never below 0); a product's events record it only when above 0.
   */
  readonly lowStockThreshold?: number;
}

/** An RFC 7396 merge patch of a product: a price set to null is removed, a threshold set to null too. */
export interface ProductPatch {
  readonly name?: string;
  readonly description?: string | null;
  readonly prices?: { readonly [currency: string]: number | null };
  readonly status?: 'draft' | 'active';
  readonly lowStockThreshold?: number | null;
}

// ---- events (past tense) ----

/**
 * A SKU begins (again, after a retirement) to name a product. Version 2 may carry the product's
 * lowStockThreshold; a version-1 event has none (codec.ts).
 */
export type ProductDefined = {
  readonly type: 'ProductDefined';
  readonly schemaVersion: 2;
  readonly data: { readonly sku: string; readonly product: ProductContent; readonly definedAt: string };
};

/** The product as it is after a replacement or a merge patch: the whole of it, so a fold needs no earlier state but the creation time. */
export type ProductChanged = {
  readonly type: 'ProductChanged';
  readonly schemaVersion: 2;
  readonly data: { readonly sku: string; readonly product: ProductContent; readonly changedAt: string };
};

export type ProductRetired = {
  readonly type: 'ProductRetired';
  readonly schemaVersion: 1;
  readonly data: { readonly sku: string; readonly retiredAt: string };
};

export type ProductEvent = ProductDefined | ProductChanged | ProductRetired;
export type ProductEventType = ProductEvent['type'];

// ---- commands (the clock arrives inside them) ----

interface ProductCommandMetadata {
  readonly now: string;
}

/**
 * PUT: create, or replace the whole product. `onlyIfAbsent` is If-None-Match: *. `keepThreshold`:
 * a product that leaves lowStockThreshold out keeps the one it has (a client of an API version
 * before 2027-01-01, which does not know the member); otherwise leaving it out removes it.
 */
export type PutProduct = {
  readonly type: 'PutProduct';
  readonly data: { readonly sku: string; readonly product: ProductContent; readonly onlyIfAbsent: boolean; readonly keepThreshold?: boolean };
  readonly metadata: ProductCommandMetadata;
};

export type PatchProduct = {
  readonly type: 'PatchProduct';
  readonly data: { readonly sku: string; readonly patch: ProductPatch };
  readonly metadata: ProductCommandMetadata;
};

export type RetireProduct = {
  readonly type: 'RetireProduct';
  readonly data: { readonly sku: string };
  readonly metadata: ProductCommandMetadata;
};

export type ProductCommand = PutProduct | PatchProduct | RetireProduct;

// ---- state ----

export interface LiveProduct extends ProductContent {
  readonly sku: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** `absent`: the SKU never named a product; `retired`: it did, until it was retired. */
export type Product = { readonly status: 'absent' } | { readonly status: 'retired'; readonly sku: string; readonly retiredAt: string } | LiveProduct;

export function isLive(product: Product): product is LiveProduct {
  return product.status === 'draft' || product.status === 'active';
}
