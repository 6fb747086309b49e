// GET /stock: the stock projection's SKUs in sku order, keyset-paged with opaque cursors, with an
// optional `below` (available below n). Stock belongs to no single customer: staff only.
import { isStaff, type Viewer } from '../../write-side/kernel/access.js';
import { Forbidden } from '../../write-side/kernel/errors.js';
import type { KeysetCollection, KeysetPages } from '../kernel/keyset-page.js';
import type { ViewPage } from '../kernel/page.js';
import type { PageQuery, ReadModelStore } from '../read-store.js';
import type { StockView } from './views.js';

/** SKUs by sku ascending, strictly after `afterSku`, at most `limit`; with `below`, only those whose available stock is below it. */
export function stockPage(below: number | null, afterSku: string | null, limit: number): PageQuery {
  return { where: below === null ? [] : [{ field: 'available', op: '<', value: below }], after: afterSku === null ? null : { values: [], key: afterSku }, limit };
}

export interface StockListRequest {
  readonly below?: number;
  readonly limit: number;
  readonly cursor?: string;
  readonly consistencyToken?: string;
}

export class StockQueries {
  constructor(
    private readonly store: ReadModelStore,
    private readonly pages: KeysetPages,
  ) {}

  async list(viewer: Viewer, request: StockListRequest): Promise<ViewPage<StockView>> {
    if (!isStaff(viewer)) throw new Forbidden('Stock belongs to no single customer: a customer token cannot read it.');
    const collection: KeysetCollection<StockView, { sku: string }> = {
      scope: { collection: 'stock', below: request.below },
      readKey: (decoded) => (typeof decoded.sku === 'string' ? { sku: decoded.sku } : null),
      keyOf: (row) => ({ sku: row.sku }),
      fetch: (after, count) => this.store.page<StockView>('stock', stockPage(request.below ?? null, after?.sku ?? null, count)),
    };
    return this.pages.page(request, collection, (view) => view);
  }
}
