// Collection reads over the read models: keyset paging with opaque cursors.
import type { OrderStatus } from '../write-side/orders/types.js';
import { CursorCodec, InvalidCursor } from './cursor.js';
import type { OrderJson, ReadModelStore } from './read-store.js';
import type { OrderView, QueueEntry } from './views.js';

export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 20;

export type OrderSort = 'createdAt' | '-createdAt';

export interface OrderListRequest {
  readonly status?: OrderStatus;
  readonly customerId?: string;
  readonly sort: OrderSort;
  readonly limit: number;
  readonly cursor?: string;
}

export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | null;
}

export class OrderQueries {
  constructor(
    private readonly store: ReadModelStore,
    /** Public so that other collections (an order's history) sign their cursors alike. */
    readonly cursors: CursorCodec,
  ) {}

  getOrder(id: string): Promise<OrderView | null> {
    return this.store.getOrder(id);
  }

  async listOrders(request: OrderListRequest): Promise<Page<OrderView>> {
    const page = await this.listOrderJson(request);
    return { items: page.items.map((row) => JSON.parse(row.json) as OrderView), nextCursor: page.nextCursor };
  }

  /** A page of orders as their stored JSON text, for writing straight into a response. */
  async listOrderJson(request: OrderListRequest): Promise<Page<OrderJson>> {
    const { status, customerId, sort, limit } = request;
    assertLimit(limit);
    const scope = { collection: 'orders', status, customerId, sort };
    let after = null;
    if (request.cursor !== undefined) {
      const key = this.cursors.decode(request.cursor, scope);
      if (typeof key.createdAt !== 'string' || typeof key.id !== 'string') throw new InvalidCursor('undecodable');
      after = { createdAt: key.createdAt, id: key.id };
    }
    const filter = { ...(status === undefined ? {} : { status }), ...(customerId === undefined ? {} : { customerId }) };
    const rows = await this.store.listOrderJson(filter, sort === 'createdAt' ? 'asc' : 'desc', after, limit + 1);
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    const nextCursor = rows.length > limit && last ? this.cursors.encode(scope, { createdAt: last.createdAt, id: last.id }) : null;
    return { items, nextCursor };
  }

  async listQueue(request: { limit: number; cursor?: string }): Promise<Page<QueueEntry>> {
    assertLimit(request.limit);
    const scope = { collection: 'fulfilment-queue' };
    let after = null;
    if (request.cursor !== undefined) {
      const key = this.cursors.decode(request.cursor, scope);
      if (typeof key.paidAt !== 'string' || typeof key.orderId !== 'string') throw new InvalidCursor('undecodable');
      after = { paidAt: key.paidAt, orderId: key.orderId };
    }
    const rows = await this.store.listQueue(after, request.limit + 1);
    const items = rows.slice(0, request.limit);
    const last = items.at(-1);
    const nextCursor = rows.length > request.limit && last?.paidAt ? this.cursors.encode(scope, { paidAt: last.paidAt, orderId: last.orderId }) : null;
    return { items, nextCursor };
  }
}

function assertLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new RangeError(`limit must be an integer from 1 to ${MAX_LIMIT}`);
}
