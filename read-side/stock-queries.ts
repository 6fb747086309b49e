// GET /stock: the stock projection's SKUs in sku order, keyset-paged with opaque cursors, with an
// optional `below` (available below n). Stock belongs to no single customer: staff only.
import { isStaff, type Viewer } from '../write-side/access.js';
import { Forbidden } from '../write-side/errors.js';
import type { Consistency } from './consistency.js';
import { CursorCodec, InvalidCursor } from './cursor.js';
import { MAX_LIMIT, type ViewPage } from './order-queries.js';
import type { ReadModelStore } from './read-store.js';
import type { StockView } from './views.js';

export interface StockListRequest {
  readonly below?: number;
  readonly limit: number;
  readonly cursor?: string;
  readonly consistencyToken?: string;
}

export class StockQueries {
  constructor(
    private readonly store: ReadModelStore,
    private readonly cursors: CursorCodec,
    private readonly consistency: Consistency,
  ) {}

  async list(viewer: Viewer, request: StockListRequest): Promise<ViewPage<StockView>> {
    if (!isStaff(viewer)) throw new Forbidden('Stock belongs to no single customer: a customer token cannot read it.');
    const { limit } = request;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new RangeError(`limit must be an integer from 1 to ${MAX_LIMIT}`);
    const reflects = await this.consistency.reflect(request.consistencyToken);
    const scope = { collection: 'stock', below: request.below };
    let after: string | null = null;
    if (request.cursor !== undefined) {
      const key = this.cursors.decode(request.cursor, scope);
      if (typeof key.sku !== 'string') throw new InvalidCursor('undecodable');
      after = key.sku;
    }
    const rows = await this.store.listStock(request.below ?? null, after, limit + 1);
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    const nextCursor = rows.length > limit && last ? this.cursors.encode(scope, { sku: last.sku }) : null;
    return { items, nextCursor, reflects };
  }
}
