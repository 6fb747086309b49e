// Collection reads over the read models: keyset paging with opaque cursors, confined to what the
// viewer may see, and consistent with a write when its Consistency-Token is given.
import { isStaff, type Viewer } from '../../write-side/kernel/access.js';
import { Forbidden, ValidationFailed } from '../../write-side/kernel/errors.js';
import type { Position } from '../../write-side/kernel/event-store.js';
import type { OrderStatus } from '../../write-side/orders/types.js';
import type { Consistency } from '../kernel/consistency.js';
import { CursorCodec, InvalidCursor } from '../kernel/cursor.js';
import { assertLimit, type ViewPage } from '../kernel/page.js';
import type { OpenedViews } from './opened-views.js';
import type { Condition, OrderJson, PageQuery, ReadModelStore, SortDirection } from '../read-store.js';
import { knowsPartialShipments, orderJsonFor, statusKnownTo } from './status.js';
import type { OrderRepresentation, QueueEntry, QueueEntryRepresentation } from './views.js';

export type OrderSort = 'createdAt' | '-createdAt';

export interface OrderFilter {
  /** The status as clients of `apiVersion` read it (status.ts). */
  readonly status?: OrderStatus;
  /** The API version the filter is asked under; without one, `status` is the status as the views hold it. */
  readonly apiVersion?: string;
  readonly customerId?: string;
  /** Inclusive lower bound on createdAt, an ISO 8601 UTC instant as the views store it. */
  readonly createdFrom?: string;
  /** Exclusive upper bound on createdAt. */
  readonly createdTo?: string;
}

/** Keyset position in the orders: the last order of the previous page. */
export interface OrderKey {
  readonly createdAt: string;
  readonly id: string;
}

/**
 * The order views a filter selects (an index leads with its equalities: customer, status, then
 * createdAt). A version whose clients read a partially shipped order as paid selects by the
 * status as they read it, which the views store as `legacyStatus`.
 */
export function orderConditions(filter: OrderFilter): Condition[] {
  const where: Condition[] = [];
  if (filter.status !== undefined) {
    const field = filter.apiVersion === undefined || knowsPartialShipments(filter.apiVersion) ? 'status' : 'legacyStatus';
    where.push({ field, op: '=', value: filter.status });
  }
  if (filter.customerId !== undefined) where.push({ field: 'customerId', op: '=', value: filter.customerId });
  if (filter.createdFrom !== undefined) where.push({ field: 'createdAt', op: '>=', value: filter.createdFrom });
  if (filter.createdTo !== undefined) where.push({ field: 'createdAt', op: '<', value: filter.createdTo });
  return where;
}

/** Orders by (createdAt, id) in the direction, strictly after `after`, at most `limit`. */
export function orderPage(filter: OrderFilter, direction: SortDirection, after: OrderKey | null, limit: number): PageQuery {
  return { where: orderConditions(filter), order: { by: ['createdAt'], direction }, after: after && { values: [after.createdAt], key: after.id }, limit };
}

/** Keyset position in the fulfilment queue. */
export interface QueueKey {
  readonly paidAt: string;
  readonly orderId: string;
}

/** Queued orders by (paidAt, orderId) ascending, strictly after `after`, at most `limit`. */
export function queuePage(after: QueueKey | null, limit: number): PageQuery {
  return { where: [{ field: 'state', op: '=', value: 'queued' }], order: { by: ['paidAt'], direction: 'asc' }, after: after && { values: [after.paidAt], key: after.orderId }, limit };
}

export interface OrderListRequest {
  /** The API version asked under: it decides how each order's status reads, and what `status` selects. */
  readonly apiVersion: string;
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
    const { status, sort, limit, apiVersion } = request;
    assertLimit(limit);
    if (viewer.customerId !== null && request.customerId !== undefined && request.customerId !== viewer.customerId) {
      throw new Forbidden("A customer token can only list its own customer's orders.");
    }
    if (status !== undefined && !statusKnownTo(status, apiVersion)) {
      throw new ValidationFailed([{ pointer: '/status', message: `is not a status of Api-Version ${apiVersion}: ${status} is known from 2027-01-01 on` }]);
    }
    const customerId = viewer.customerId ?? request.customerId;
    const reflects = await this.consistency.orders.reflect(request.consistencyToken);
    // A status filter selects as the version's clients read the status, so its cursors are bound to
    // that reading too. Cursors issued before 2027-01-01 was served read it as older clients do, and carry nothing for it.
    const knows = status !== undefined && knowsPartialShipments(apiVersion) ? 'partially_shipped' : undefined;
    const scope = { collection: 'orders', status, customerId, sort, knows };
    let after = null;
    if (request.cursor !== undefined) {
      const key = this.cursors.decode(request.cursor, scope);
      if (typeof key.createdAt !== 'string' || typeof key.id !== 'string') throw new InvalidCursor('undecodable');
      after = { createdAt: key.createdAt, id: key.id };
    }
    const filter = { apiVersion, ...(status === undefined ? {} : { status }), ...(customerId === undefined ? {} : { customerId }) };
    const rows = await this.store.listOrderJson(orderPage(filter, sort === 'createdAt' ? 'asc' : 'desc', after, limit + 1));
    const items = (await this.opened.orderJson(rows.slice(0, limit))).map((row) => orderJsonFor(row, apiVersion));
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
    const rows = await this.store.page<QueueEntry>('fulfilment-queue', queuePage(after, request.limit + 1));
    const items = await this.opened.queue(rows.slice(0, request.limit));
    const last = items.at(-1);
    const nextCursor = rows.length > request.limit && last?.paidAt ? this.cursors.encode(scope, { paidAt: last.paidAt, orderId: last.orderId }) : null;
    return { items, nextCursor, reflects };
  }
}
