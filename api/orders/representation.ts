// An order as a client of each API version reads it (HTTP-CONTRACT "Changes since 2026-11-01"):
// the one place that says how the versions served differ in an order's representation. Every
// answer that holds an order goes through it (single reads, point-in-time reads, write responses,
// a dry run's preview), and so may a collection's.
import type { OrderRepresentation } from '../../read-side/orders/views.js';
import { knowsPartialShipments, type ApiVersion } from '../versions.js';

/**
 * The order for a client of `version`: one that does not know `partially_shipped` (before
 * 2027-01-01) reads such an order as `paid`, which it was before anything shipped. The lines'
 * shipped, cancelled and returned, and the balance, are additive: every version shows them.
 */
export function orderForVersion<Order extends Pick<OrderRepresentation, 'status'>>(order: Order, version: ApiVersion): Order {
  if (order.status !== 'partially_shipped' || knowsPartialShipments(version)) return order;
  return { ...order, status: 'paid' };
}
