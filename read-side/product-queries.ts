// The product collection, over the `products` read model: keyset paging with opaque cursors, and
// consistent with a write when its Consistency-Token is given. Every token that may read the
// catalogue sees every product that is not retired.
import type { Viewer } from '../write-side/access.js';
import type { Consistency } from './consistency.js';
import { CursorCodec, InvalidCursor } from './cursor.js';
import { assertLimit, type ViewPage } from './order-queries.js';
import type { ProductKey, ProductSort, ReadModelStore } from './read-store.js';
import type { ProductRepresentation, ProductView } from './views.js';

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
    private readonly cursors: CursorCodec,
    private readonly consistency: Consistency,
  ) {}

  async list(_viewer: Viewer, request: ProductListRequest): Promise<ViewPage<ProductRepresentation>> {
    const { status, sort, limit } = request;
    assertLimit(limit);
    const reflects = await this.consistency.reflect(request.consistencyToken);
    const scope = { collection: 'products', status, sort };
    let after: ProductKey | null = null;
    if (request.cursor !== undefined) {
      const key = this.cursors.decode(request.cursor, scope);
      if (typeof key.sku !== 'string' || (sort === '-updatedAt' && typeof key.updatedAt !== 'string')) throw new InvalidCursor('undecodable');
      after = sort === 'sku' ? { sku: key.sku } : { sku: key.sku, updatedAt: key.updatedAt as string };
    }
    const rows = await this.store.listProducts(status === undefined ? {} : { status }, sort, after, limit + 1);
    const items = rows.slice(0, limit).map(representation);
    const last = items.at(-1);
    const nextCursor =
      rows.length > limit && last ? this.cursors.encode(scope, sort === 'sku' ? { sku: last.sku } : { sku: last.sku, updatedAt: last.updatedAt }) : null;
    return { items, nextCursor, reflects };
  }
}

/** The collection holds no retired product, so every view it answers is one a client may see. */
function representation(view: ProductView): ProductRepresentation {
  if (view.status === 'retired') throw new TypeError(`the collection answered retired product ${view.sku}`);
  return { ...view, status: view.status };
}
