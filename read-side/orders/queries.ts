// Collection reads over the read models: keyset paging with opaque cursors, confined to what the
// viewer may see, and consistent with a write when its Consistency-Token is given.
import { isStaff, type Viewer } from '../../write-side/kernel/access.js';
import { Forbidden, ValidationFailed, type FieldError } from '../../write-side/kernel/errors.js';
import type { Position } from '../../write-side/kernel/event-store.js';
import type { OrderStatus } from '../../write-side/orders/types.js';
import type { Consistency } from '../kernel/consistency.js';
import { CursorCodec, InvalidCursor } from '../kernel/cursor.js';
import { assertLimit, type ViewPage } from '../kernel/page.js';
import { KeptPages, PAGES_KEPT_BYTES } from './kept-pages.js';
import type { OpenedViews } from './opened-views.js';
import type { Condition, OrderJson, PageQuery, ReadModelStore, SortDirection } from '../read-store.js';
import { byTotal, OFFERED_ORDER_LISTS, unservedCombination, type OrderSort } from './list-shape.js';
import { knowsPartialShipments, orderJsonFor, statusKnownTo } from './status.js';
import type { OrderRepresentation, QueueEntry, QueueEntryRepresentation } from './views.js';

export type { OrderSort } from './list-shape.js';

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
  /** The orders with a line of this SKU (as their lines stand). */
  readonly sku?: string;
  /** The orders in this currency. */
  readonly currency?: string;
}

/** Keyset position in the orders: the last order of the previous page (its total too, for the pages by total). */
export interface OrderKey {
  readonly createdAt: string;
  readonly id: string;
  readonly total?: number;
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
  if (filter.sku !== undefined) where.push({ field: 'sku', op: '=', value: filter.sku });
  if (filter.currency !== undefined) where.push({ field: 'currency', op: '=', value: filter.currency });
  if (filter.createdFrom !== undefined) where.push({ field: 'createdAt', op: '>=', value: filter.createdFrom });
  if (filter.createdTo !== undefined) where.push({ field: 'createdAt', op: '<', value: filter.createdTo });
  return where;
}

/**
 * Orders by (createdAt, id), or by (total, createdAt, id), in the direction, strictly after
 * `after`, at most `limit`. Sorted by total, ties fall to the order placed earlier (ascending) or
 * later (descending).
 */
export function orderPage(filter: OrderFilter, direction: SortDirection, after: OrderKey | null, limit: number, by: 'createdAt' | 'total' = 'createdAt'): PageQuery {
  if (by === 'createdAt') return { where: orderConditions(filter), order: { by: ['createdAt'], direction }, after: after && { values: [after.createdAt], key: after.id }, limit };
  if (after && after.total === undefined) throw new TypeError('a page of orders by total after an order without its total');
  return { where: orderConditions(filter), order: { by: ['total', 'createdAt'], direction }, after: after && { values: [after.total!, after.createdAt], key: after.id }, limit };
}

/**
 * A bound of the placed-date range as the views store instants (ISO 8601 in UTC, to the
 * millisecond), so that bounds compare as text: an instant between two milliseconds is taken up
 * to the next (no order was placed between), and one outside the years 0000 to 9999 in UTC is
 * refused (its text would not compare). Null when it is not such a date-time.
 */
export function storedInstant(text: string): string | null {
  let ms = Date.parse(text);
  if (Number.isNaN(ms)) return null;
  const fraction = /^[^.]*T[^.]*\.\d{3}(\d+)/.exec(text)?.[1];
  if (fraction !== undefined && /[1-9]/.test(fraction)) ms += 1;
  const instant = new Date(ms).toISOString();
  return /^\d{4}-/.test(instant) ? instant : null;
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
  /** The placed-date range, RFC 3339 date-times: from inclusive, to exclusive. */
  readonly createdFrom?: string;
  readonly createdTo?: string;
  readonly sku?: string;
  readonly currency?: string;
  /** Which combinations of filters each sort goes with: list-shape.ts. */
  readonly sort: OrderSort;
  readonly limit: number;
  readonly cursor?: string;
  /** A write's Consistency-Token: the page then includes that write. */
  readonly consistencyToken?: string;
}

export class OrderQueries {
  /** Pages of orders answered lately, served again while the views stand at the position they were read at. */
  private readonly kept: KeptPages;

  constructor(
    private readonly store: ReadModelStore,
    private readonly cursors: CursorCodec,
    private readonly consistency: { readonly orders: Consistency; readonly queue: Consistency },
    private readonly opened: OpenedViews,
    options: { /** Bytes of answered pages kept (kept-pages.ts); 0 keeps none. */ readonly pagesKeptBytes?: number } = {},
  ) {
    this.kept = new KeptPages(opened, options.pagesKeptBytes ?? PAGES_KEPT_BYTES);
  }

  async listOrders(viewer: Viewer, request: OrderListRequest): Promise<ViewPage<OrderRepresentation>> {
    const page = await this.listOrderJson(viewer, request);
    return { ...page, items: page.items.map((row) => JSON.parse(row.json) as OrderRepresentation) };
  }

  /**
   * A page of orders as JSON text (their addresses opened), for writing straight into a response. A customer
   * token lists its own customer's orders only, and asking for another customer's is forbidden.
   */
  async listOrderJson(viewer: Viewer, request: OrderListRequest): Promise<ViewPage<OrderJson>> {
    const { status, sort, limit, apiVersion, sku, currency } = request;
    assertLimit(limit);
    if (viewer.customerId !== null && request.customerId !== undefined && request.customerId !== viewer.customerId) {
      throw new Forbidden("A customer token can only list its own customer's orders.");
    }
    if (status !== undefined && !statusKnownTo(status, apiVersion)) {
      throw new ValidationFailed([{ pointer: '/status', message: `is not a status of Api-Version ${apiVersion}: ${status} is known from 2027-01-01 on` }]);
    }
    const { createdFrom, createdTo } = placedRange(request.createdFrom, request.createdTo);
    const customerId = viewer.customerId ?? request.customerId;
    const unserved = unservedCombination({ status, customerId, sku, currency, createdFrom, createdTo }, sort);
    if (unserved.length > 0) throw new ValidationFailed(unserved, `This combination of filters and sort is not offered (no index serves it): ${OFFERED_ORDER_LISTS}`);
    const reflects = await this.consistency.orders.reflect(request.consistencyToken);
    // A status filter selects as the version's clients read the status, so its cursors are bound to
    // that reading too. Cursors issued before 2027-01-01 was served read it as older clients do, and carry nothing for it.
    const knows = status !== undefined && knowsPartialShipments(apiVersion) ? 'partially_shipped' : undefined;
    // The bounds as instants, so that two spellings of one instant are one filter.
    const scope = { collection: 'orders', status, customerId, sort, knows, createdFrom, createdTo, sku, currency };
    // The request whole, as what it selects (a customer token's customer is its customerId): what a kept page answers.
    const asked = `${apiVersion}\n${limit}\n${request.cursor ?? ''}\n${JSON.stringify(scope)}`;
    const kept = this.kept.get(asked, reflects);
    if (kept !== undefined) return kept;
    const totals = byTotal(sort);
    let after: OrderKey | null = null;
    if (request.cursor !== undefined) {
      const key = this.cursors.decode(request.cursor, scope);
      if (typeof key.createdAt !== 'string' || typeof key.id !== 'string') throw new InvalidCursor('undecodable');
      after = { createdAt: key.createdAt, id: key.id };
      if (totals) {
        const total = typeof key.total === 'string' && /^-?\d{1,16}$/.test(key.total) ? Number(key.total) : NaN;
        if (!Number.isSafeInteger(total)) throw new InvalidCursor('undecodable');
        after = { ...after, total };
      }
    }
    const filter: OrderFilter = {
      apiVersion,
      ...(status === undefined ? {} : { status }),
      ...(customerId === undefined ? {} : { customerId }),
      ...(createdFrom === undefined ? {} : { createdFrom }),
      ...(createdTo === undefined ? {} : { createdTo }),
      ...(sku === undefined ? {} : { sku }),
      ...(currency === undefined ? {} : { currency }),
    };
    const direction = sort.startsWith('-') ? 'desc' : 'asc';
    const rows = await this.store.listOrderJson(orderPage(filter, direction, after, limit + 1, totals ? 'total' : 'createdAt'));
    const subjects = new Set<string>();
    const items = (await this.opened.orderJson(rows.slice(0, limit), { subjects })).map((row) => orderJsonFor(row, apiVersion));
    const last = items.at(-1);
    const key = (row: OrderJson): Record<string, string> => (totals ? { total: String(row.total), createdAt: row.createdAt, id: row.id } : { createdAt: row.createdAt, id: row.id });
    const nextCursor = rows.length > limit && last ? this.cursors.encode(scope, key(last)) : null;
    const page = { items, nextCursor, reflects };
    this.kept.set(asked, page, subjects);
    return page;
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

/** The placed-date range's bounds as the views store instants (storedInstant); the end must come after the start. */
function placedRange(from: string | undefined, to: string | undefined): { createdFrom?: string; createdTo?: string } {
  const errors: FieldError[] = [];
  const bound = (text: string | undefined, pointer: string) => {
    if (text === undefined) return undefined;
    const instant = storedInstant(text);
    if (instant === null) errors.push({ pointer, message: 'must be an RFC 3339 date-time within the years 0000 to 9999 in UTC' });
    return instant ?? undefined;
  };
  const createdFrom = bound(from, '/createdFrom');
  const createdTo = bound(to, '/createdTo');
  if (createdFrom !== undefined && createdTo !== undefined && createdFrom >= createdTo) {
    errors.push({ pointer: '/createdTo', message: 'must be later than createdFrom (createdFrom is inclusive, createdTo exclusive)' });
  }
  if (errors.length > 0) throw new ValidationFailed(errors, 'The placed-date range is not one.');
  return { ...(createdFrom === undefined ? {} : { createdFrom }), ...(createdTo === undefined ? {} : { createdTo }) };
}
