// GET /stock: the stock projection's SKUs in sku order, keyset-paged with opaque cursors, with an
// optional `below` (available below n); or, with `belowThreshold`, the low-stock projection's SKUs
// below their own product's lowStockThreshold. Stock belongs to no single customer: staff only.
import { isStaff, type Viewer } from '../../write-side/kernel/access.js';
import { Forbidden, ValidationFailed } from '../../write-side/kernel/errors.js';
import type { KeysetCollection, KeysetPages } from '../kernel/keyset-page.js';
import type { ViewPage } from '../kernel/page.js';
import type { Condition, PageQuery, ReadModelStore } from '../read-store.js';
import { stockOfLowStock, type ListedStock, type LowStockView, type StockView } from './views.js';

/** SKUs by sku ascending, strictly after `afterSku`, at most `limit`; with `below`, only those whose available stock is below it. */
export function stockPage(below: number | null, afterSku: string | null, limit: number): PageQuery {
  return { where: below === null ? [] : [{ field: 'available', op: '<', value: below }], after: afterSku === null ? null : { values: [], key: afterSku }, limit };
}

/** The SKUs below their product's threshold (LowStockView.low). */
export const BELOW_THRESHOLD: readonly Condition[] = [{ field: 'low', op: '=', value: 1 }];

/** SKUs below their product's threshold, by sku ascending, strictly after `afterSku`, at most `limit`. */
export function belowThresholdPage(afterSku: string | null, limit: number): PageQuery {
  return { where: BELOW_THRESHOLD, after: afterSku === null ? null : { values: [], key: afterSku }, limit };
}

/** SKUs below their product's threshold, fewest available first (then by sku), at most `limit`: the most pressing. */
export function mostPressingPage(limit: number): PageQuery {
  return { where: BELOW_THRESHOLD, order: { by: ['available'], direction: 'asc' }, limit };
}

export interface StockListRequest {
  readonly below?: number;
  /** Only the SKUs whose available units are below their product's lowStockThreshold. */
  readonly belowThreshold?: boolean;
  readonly limit: number;
  readonly cursor?: string;
  readonly consistencyToken?: string;
}

export class StockQueries {
  constructor(
    private readonly store: ReadModelStore,
    private readonly pages: KeysetPages,
    /** Pages of the low-stock projection, whose Consistency-Token wait is its own. */
    private readonly lowStockPages: KeysetPages,
  ) {}

  async list(viewer: Viewer, request: StockListRequest): Promise<ViewPage<ListedStock>> {
    if (!isStaff(viewer)) throw new Forbidden('Stock belongs to no single customer: a customer token cannot read it.');
    if (request.belowThreshold) {
      if (request.below !== undefined) throw new ValidationFailed([{ pointer: '/below', message: 'cannot be combined with belowThreshold: ask for one bound' }]);
      const collection: KeysetCollection<LowStockView, { sku: string }> = {
        scope: { collection: 'stock', belowThreshold: 'true' },
        readKey: (decoded) => (typeof decoded.sku === 'string' ? { sku: decoded.sku } : null),
        keyOf: (row) => ({ sku: row.sku }),
        fetch: (after, count) => this.store.page<LowStockView>('low-stock', belowThresholdPage(after?.sku ?? null, count)),
      };
      return this.lowStockPages.page(request, collection, stockOfLowStock);
    }
    const collection: KeysetCollection<StockView, { sku: string }> = {
      scope: { collection: 'stock', below: request.below },
      readKey: (decoded) => (typeof decoded.sku === 'string' ? { sku: decoded.sku } : null),
      keyOf: (row) => ({ sku: row.sku }),
      fetch: (after, count) => this.store.page<StockView>('stock', stockPage(request.below ?? null, after?.sku ?? null, count)),
    };
    return this.pages.page(request, collection, (view) => view);
  }
}
