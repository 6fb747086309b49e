// What the orders' collection offers: which filters go with which sort. Each combination offered
// is served by an index of the order views (projections/orders/order-views.ts) that leads with its
// equalities and then its sort, so that a page reads its rows in order and stops at the limit;
// any other combination is refused, never answered by a scan or a sort apart.
import type { FieldError } from '../../write-side/kernel/errors.js';

export type OrderSort = 'createdAt' | '-createdAt' | 'total' | '-total';

/** The filters of a request, as far as the combination goes (their values do not matter here). */
export interface OrderListShape {
  readonly status?: unknown;
  readonly customerId?: unknown;
  readonly sku?: unknown;
  readonly currency?: unknown;
  readonly createdFrom?: unknown;
  readonly createdTo?: unknown;
}

/** The combinations offered, in the words the API's answers and its OpenAPI document use. */
export const OFFERED_ORDER_LISTS =
  'sort=createdAt or -createdAt (the default) goes with any of status, customerId, sku, createdFrom and createdTo; ' +
  'sort=total or -total needs currency, and goes with any of status and customerId (not with sku, createdFrom or createdTo).';

export function byTotal(sort: OrderSort): boolean {
  return sort === 'total' || sort === '-total';
}

/**
 * Why the collection does not offer this combination, one entry per parameter at fault (pointers
 * into the query); empty when it is offered. A customer's token always lists one customer's
 * orders: every combination offered is offered with customerId too, so that never makes one unserved.
 */
export function unservedCombination(filter: OrderListShape, sort: OrderSort): FieldError[] {
  const errors: FieldError[] = [];
  const given = (name: keyof OrderListShape) => filter[name] !== undefined;
  if (!byTotal(sort)) {
    if (given('currency')) errors.push({ pointer: '/currency', message: 'goes with sort=total or -total only: orders by date are not selected by currency' });
    return errors;
  }
  if (!given('currency')) errors.push({ pointer: '/currency', message: `is required with sort=${sort}: totals are compared in minor units, which only one currency's orders share` });
  if (given('sku')) errors.push({ pointer: '/sku', message: `cannot be combined with sort=${sort}: orders with a SKU are listed by date only` });
  for (const bound of ['createdFrom', 'createdTo'] as const) {
    if (given(bound)) errors.push({ pointer: `/${bound}`, message: `cannot be combined with sort=${sort}: a date range is listed by date only` });
  }
  return errors;
}
