// What the orders' collection offers: which filters go with which sort. Each combination offered
// is served by an index of the order views (projections/orders/order-views.ts) that leads with its
// equalities and then its sort, so that a page reads its rows in order and stops at the limit;
// any other combination is refused, never answered by a scan or a sort apart. The searches by SKU
// and by total are staff's, across customers: each index is paid for by every order event the
// projector applies, so the collection offers the lists staff work from, not every product of them.
import type { FieldError } from '../../write-side/kernel/errors.js';

export type OrderSort = 'createdAt' | '-createdAt' | 'total' | '-total';

/** The filters of a request, as far as the combination goes (their values do not matter here). */
export interface OrderListShape {
  readonly status?: unknown;
  /** The status is read as versions before 2027-01-01 read it (legacyStatus). */
  readonly legacyStatus?: boolean;
  readonly customerId?: unknown;
  readonly sku?: unknown;
  readonly currency?: unknown;
  readonly createdFrom?: unknown;
  readonly createdTo?: unknown;
}

/** The combinations offered, in the words the API's answers and its OpenAPI document use. */
export const OFFERED_ORDER_LISTS =
  'sort=createdAt or -createdAt (the default) goes with any of status, customerId, createdFrom and createdTo, or with sku and any of createdFrom and createdTo; ' +
  'sort=total or -total needs currency, and goes with status (under Api-Version 2027-01-01) and nothing else. ' +
  'A customer\'s token lists its own orders, so never with sku or by total.';

export function byTotal(sort: OrderSort): boolean {
  return sort === 'total' || sort === '-total';
}

/** Why the collection does not offer this combination, one entry per parameter at fault (pointers into the query); empty when it is offered. */
export function unservedCombination(filter: OrderListShape, sort: OrderSort): FieldError[] {
  const errors: FieldError[] = [];
  const given = (name: keyof OrderListShape) => filter[name] !== undefined;
  const acrossCustomers = (what: string) =>
    `cannot be combined with customerId (a customer's token always has one): ${what} are searched across customers, by staff`;
  if (!byTotal(sort)) {
    if (given('currency')) errors.push({ pointer: '/currency', message: 'goes with sort=total or -total only: orders by date are not selected by currency' });
    if (given('sku')) {
      if (given('status')) errors.push({ pointer: '/status', message: 'cannot be combined with sku: orders with a SKU are listed by date, with a date range at most' });
      if (given('customerId')) errors.push({ pointer: '/sku', message: acrossCustomers('orders with a SKU') });
    }
    return errors;
  }
  if (!given('currency')) errors.push({ pointer: '/currency', message: `is required with sort=${sort}: totals are compared in minor units, which only one currency's orders share` });
  if (given('status') && filter.legacyStatus === true) errors.push({ pointer: '/status', message: `goes with sort=${sort} under Api-Version 2027-01-01 only` });
  if (given('customerId')) errors.push({ pointer: '/sort', message: acrossCustomers('orders by total') });
  if (given('sku')) errors.push({ pointer: '/sku', message: `cannot be combined with sort=${sort}: orders with a SKU are listed by date only` });
  for (const bound of ['createdFrom', 'createdTo'] as const) {
    if (given(bound)) errors.push({ pointer: `/${bound}`, message: `cannot be combined with sort=${sort}: a date range is listed by date only` });
  }
  return errors;
}
