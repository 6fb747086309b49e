// Collection reads over the read models: keyset paging with opaque cursors, confined to what the
// viewer may see, and consistent with a write when its Consistency-Token is given.
import { isStaff, type Viewer } from '../../write-side/kernel/access.js';
import { Forbidden } from '../../write-side/kernel/errors.js';
import type { Position } from '../../write-side/kernel/event-store.js';
import type { OrderStatus } from '../../write-side/orders/types.js';
import type { Consistency } from '../kernel/consistency.js';
import { CursorCodec, InvalidCursor } from '../kernel/cursor.js';
import { assertLimit, type ViewPage } from '../kernel/page.js';
import type { OpenedViews } from './opened-views.js';
import type { OrderJson, ReadModelStore } from '../read-store.js';
import type { OrderRepresentation, QueueEntryRepresentation } from '../views.js';


export type OrderSort = 'createdAt' | '-createdAt';

export interface OrderListRequest {
  readonly status?: OrderStatus;
  readonly customerId?: string;
  readonly sort: OrderSort;
  readonly limit: number;
  readonly cursor?: string;
  /** A write's Consistency-Token: the page then includes that write. */
  readonly consistencyToken?: string;
}

export class OrderQueries {
  constructor(
    private readonly store: ReadModelStore,
    private readonly cursors: CursorCodec,
    private readonly consistency: { readonly orders: Consistency; readonly queue: Consistency },
    private readonly opened: OpenedViews,
  ) {}

  async listOrders(viewer: Viewer, request: OrderListRequest): Promise<ViewPage<OrderRepresentation>> {
    const page = await this.listOrderJson(viewer, request);
    return { ...page, items: page.items.map((row) => JSON.parse(row.json) as OrderRepresentation) };
  }

  /**
   * A page of orders as JSON text (their addresses opened), for writing straight into a response. A customer
   * token lists its own customer's orders only, and asking for another customer's is forbidden.
   */
  async listOrderJson(viewer: Viewer, request: OrderListRequest): Promise<ViewPage<OrderJson>> {
    const { status, sort, limit } = request;
    assertLimit(limit);
    if (viewer.customerId !== null && request.customerId !== undefined && request.customerId !== viewer.customerId) {
      throw new Forbidden("A customer token can only list its own customer's orders.");
    }
    const customerId = viewer.customerId ?? request.customerId;
    const reflects = await this.consistency.orders.reflect(request.consistencyToken);
    const scope = { collection: 'orders', status, customerId, sort };
    let after = null;
    if (request.cursor !== undefined) {
      const key = this.cursors.decode(request.cursor, scope);
      if (typeof key.createdAt !== 'string' || typeof key.id !== 'string') throw new InvalidCursor('undecodable');
      after = { createdAt: key.createdAt, id: key.id };
    }
    const filter = { ...(status === undefined ? {} : { status }), ...(customerId === undefined ? {} : { customerId }) };
    const rows = await this.store.listOrderJson(filter, sort === 'createdAt' ? 'asc' : 'desc', after, limit + 1);
    const items = await this.opened.orderJson(rows.slice(0, limit));
    const last = items.at(-1);
    const nextCursor = rows.length > limit && last ? this.cursors.encode(scope, { createdAt: last.createdAt, id: last.id }) : null;
    return { items, nextCursor, reflects };
  }

  /** The fulfilment queue: staff only, since it belongs to no single customer. */
  async listQueue(viewer: Viewer, request: { limit: number; cursor?: string; consistencyToken?: string }): Promise<ViewPage<QueueEntryRepresentation>> {
    if (!isStaff(viewer)) throw new Forbidden('The fulfilment queue belongs to no single customer: a customer token cannot read it.');
    assertLimit(request.limit);
    const reflects = await this.consistency.queue.reflect(request.consistencyToken);
    const scope = { collection: 'fulfilment-queue' };
    let after = null;
    if (request.cursor !== undefined) {
      const key = this.cursors.decode(request.cursor, scope);
      if (typeof key.paidAt !== 'string' || typeof key.orderId !== 'string') throw new InvalidCursor('undecodable');
      after = { paidAt: key.paidAt, orderId: key.orderId };
    }
    const rows = await this.store.listQueue(after, request.limit + 1);
    const items = await this.opened.queue(rows.slice(0, request.limit));
    const last = items.at(-1);
    const nextCursor = rows.length > request.limit && last?.paidAt ? this.cursors.encode(scope, { paidAt: last.paidAt, orderId: last.orderId }) : null;
    return { items, nextCursor, reflects };
  }
}
