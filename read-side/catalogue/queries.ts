// The product collection, over the `products` read model: keyset paging with opaque cursors, and
// consistent with a write when its Consistency-Token is given. Every token that may read the
// catalogue sees every product that is not retired.
import type { Viewer } from '../../write-side/kernel/access.js';
import type { KeysetCollection, KeysetPages } from '../kernel/keyset-page.js';
import type { ViewPage } from '../kernel/page.js';
import type { PageQuery, ReadModelStore } from '../read-store.js';
import type { ProductRepresentation, ProductView } from './views.js';

export type ProductSort = 'sku' | '-updatedAt';
/** Keyset position in the products: the sku, and for `-updatedAt` the time too. */
export type ProductKey = { readonly sku: string } | { readonly sku: string; readonly updatedAt: string };

/**
 * Products not retired (or of the one status), by sku ascending or by (updatedAt, sku) descending,
 * strictly after `after`, at most `limit`.
 */
export function productPage(status: 'draft' | 'active' | undefined, sort: ProductSort, after: ProductKey | null, limit: number): PageQuery {
  const where = [status === undefined ? { field: 'status', op: 'in' as const, values: ['draft', 'active'] } : { field: 'status', op: '=' as const, value: status }];
  if (sort === 'sku') return { where, after: after && { values: [], key: after.sku }, limit };
  return { where, order: { by: ['updatedAt'], direction: 'desc' }, after: after && { values: ['updatedAt' in after ? after.updatedAt : ''], key: after.sku }, limit };
}

export interface ProductListRequest {
  readonly status?: 'draft' | 'active';
  readonly sort: ProductSort;
  readonly limit: number;
  readonly cursor?: string;
  readonly consistencyToken?: string;
}

export class ProductQueries {
  constructor(
    private readonly store: ReadModelStore,
    private readonly pages: KeysetPages,
  ) {}

  async list(_viewer: Viewer, request: ProductListRequest): Promise<ViewPage<ProductRepresentation>> {
    const { status, sort } = request;
    const collection: KeysetCollection<ProductView, ProductKey> = {
      scope: { collection: 'products', status, sort },
      readKey: (decoded) => {
        if (typeof decoded.sku !== 'string') return null;
        if (sort === 'sku') return { sku: decoded.sku };
        return typeof decoded.updatedAt === 'string' ? { sku: decoded.sku, updatedAt: decoded.updatedAt } : null;
      },
      keyOf: (row) => (sort === 'sku' ? { sku: row.sku } : { sku: row.sku, updatedAt: row.updatedAt }),
      fetch: (after, count) => this.store.page<ProductView>('products', productPage(status, sort, after, count)),
    };
    return this.pages.page(request, collection, representation);
  }
}

/** The collection holds no retired product, so every view it answers is one a client may see. */
function representation(view: ProductView): ProductRepresentation {
  if (view.status === 'retired') throw new TypeError(`the collection answered retired product ${view.sku}`);
  return { ...view, status: view.status };
}
