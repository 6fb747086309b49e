// Every list of orders the collection offers (read-side/orders/list-shape.ts), as the queries ask the
// read store for it, for the tests that prove each is served by an index (order-list-plans.test.ts
// on the embedded store, mongo-read-store.test.ts on MongoDB), and the index each should use.
import { orderViews } from '../../projections/orders/order-views.js';
import { byTotal, type OrderSort } from '../../read-side/orders/list-shape.js';
import { orderPage, type OrderFilter, type OrderKey } from '../../read-side/orders/queries.js';
import { legacyStatus } from '../../read-side/orders/status.js';
import type { OrderView } from '../../read-side/orders/views.js';
import type { PageQuery } from '../../read-side/read-store.js';

const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
const STATUSES = ['pending', 'paid', 'partially_shipped', 'shipped', 'cancelled'] as const;
const ADDRESS = { name: 'Ada', line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' };

/**
 * Views to list: every status, 3 customers (cus_0–2), 2 currencies (EUR, USD), SKUs S0–S3 (one or
 * two an order), totals that tie, two orders to each second from 2026-01-01T00:00:00Z on.
 */
export function listedViews(count: number): OrderView[] {
  return Array.from({ length: count }, (_, n) => {
    const skus = [...new Set([`S${n % 4}`, `S${n % 3}`])];
    const total = (n * 37) % 200;
    const createdAt = at(Math.floor(n / 2));
    return {
      id: `ord-${String(n).padStart(6, '0')}`, customerId: `cus_${n % 3}`, status: STATUSES[n % 5]!, currency: n % 4 === 0 ? 'USD' : 'EUR',
      lines: skus.map((sku) => ({ sku, name: `Product ${sku}`, quantity: 1, unitPrice: total, lineTotal: total, shipped: 0, cancelled: 0, returned: 0 })),
      total, balance: { charged: total, paid: 0, refunded: 0, due: total }, address: ADDRESS, createdAt, updatedAt: createdAt, revision: 0,
    };
  });
}

/** The values the lists of listedViews select by: each selects some of them, and leaves some out. */
export const LISTED_VALUES: ListValues = { status: 'paid', customerId: 'cus_1', sku: 'S1', currency: 'EUR', createdFrom: at(30), createdTo: at(150) };

export interface OrderList {
  readonly filter: OrderFilter;
  readonly sort: OrderSort;
}

/** The values the lists select by; a test's views should hold some of each, and some not. */
export interface ListValues {
  readonly status: OrderView['status'];
  readonly customerId: string;
  readonly sku: string;
  readonly currency: string;
  readonly createdFrom: string;
  readonly createdTo: string;
}

const CURRENT = '2027-01-01';
/** A version whose status filter reads a partially shipped order as paid (legacyStatus). */
const PREVIOUS = '2026-12-01';

/**
 * Each combination offered: by date either way with any of status (as either reading), customer
 * and a range of either or both bounds, or with a SKU and such a range; by total either way, in
 * one currency, alone or with the status as 2027-01-01 reads it.
 */
export function offeredOrderLists(values: ListValues): OrderList[] {
  const lists: OrderList[] = [];
  const statuses = [{ apiVersion: CURRENT }, { apiVersion: CURRENT, status: values.status }, { apiVersion: PREVIOUS, status: values.status }];
  const customers = [{}, { customerId: values.customerId }];
  const ranges = [{}, { createdFrom: values.createdFrom }, { createdTo: values.createdTo }, { createdFrom: values.createdFrom, createdTo: values.createdTo }];
  for (const sort of ['createdAt', '-createdAt'] as const) {
    for (const range of ranges) {
      for (const status of statuses) for (const customer of customers) lists.push({ filter: { ...status, ...customer, ...range }, sort });
      lists.push({ filter: { apiVersion: CURRENT, sku: values.sku, ...range }, sort });
    }
  }
  for (const sort of ['total', '-total'] as const) {
    for (const status of statuses.slice(0, 2)) lists.push({ filter: { ...status, currency: values.currency }, sort });
  }
  return lists;
}

/** The read store's page of the list, after `after` (null: its first page). */
export function pageOf(list: OrderList, after: OrderKey | null, limit: number): PageQuery {
  return orderPage(list.filter, list.sort.startsWith('-') ? 'desc' : 'asc', after, limit, byTotal(list.sort) ? 'total' : 'createdAt');
}

/** The fields the list's index must lead with (its equalities, in any order), and then its sort. */
export function indexFor(list: OrderList): { equalities: string[]; sorted: string[] } {
  const query = pageOf(list, null, 1);
  const equalities = (query.where ?? []).filter((c) => c.op === '=').map((c) => c.field);
  return { equalities, sorted: [...query.order!.by] };
}

/** The places in the order views' declaration of the indexes that serve the list: its equalities in any order, then its sort. */
export function declaredIndexesFor(list: OrderList): number[] {
  const { equalities, sorted } = indexFor(list);
  const places: number[] = [];
  orderViews.storage.indexes.forEach((index, i) => {
    const fields = 'fields' in index ? index.fields : index;
    const lead = fields.slice(0, equalities.length);
    if (fields.length === equalities.length + sorted.length && equalities.every((f) => lead.includes(f)) && sorted.every((f, j) => fields[equalities.length + j] === f)) places.push(i);
  });
  return places;
}

/** The list worked out by hand over the views: what the store's page must answer. */
export function expectedPage(views: readonly OrderView[], list: OrderList, after: OrderKey | null, limit: number): OrderView[] {
  const { filter } = list;
  const legacy = filter.apiVersion !== undefined && filter.apiVersion < CURRENT;
  const matches = (v: OrderView) =>
    (filter.status === undefined || (legacy ? legacyStatus(v.status) : v.status) === filter.status) &&
    (filter.customerId === undefined || v.customerId === filter.customerId) &&
    (filter.sku === undefined || v.lines.some((line) => line.sku === filter.sku)) &&
    (filter.currency === undefined || v.currency === filter.currency) &&
    (filter.createdFrom === undefined || v.createdAt >= filter.createdFrom) &&
    (filter.createdTo === undefined || v.createdAt < filter.createdTo);
  const key = (v: { total?: number; createdAt: string; id: string }): (string | number)[] => (byTotal(list.sort) ? [v.total!, v.createdAt, v.id] : [v.createdAt, v.id]);
  const compare = (a: (string | number)[], b: (string | number)[]) => {
    for (let i = 0; i < a.length; i++) if (a[i]! !== b[i]!) return a[i]! < b[i]! ? -1 : 1;
    return 0;
  };
  const sign = list.sort.startsWith('-') ? -1 : 1;
  return views
    .filter(matches)
    .filter((v) => after === null || sign * compare(key(v), key(after)) > 0)
    .sort((a, b) => sign * compare(key(a), key(b)))
    .slice(0, limit);
}
