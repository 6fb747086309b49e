// An order's status as each API version reads it (HTTP-CONTRACT "Orders after payment"): the one
// rule that the collections and their status filter, the exports and the single reads follow.
// Here, below the API, because the export worker writes files in a version's representation too.
import type { OrderStatus } from '../../write-side/orders/types.js';
import type { OrderJson } from '../read-store.js';

/** The first API version whose clients know `partially_shipped`. */
const PARTIAL_SHIPMENTS_SINCE = '2027-01-01';
/** A version before it: how the order views' `legacyStatus` reads every status. */
const BEFORE_PARTIAL_SHIPMENTS = '2026-12-01';

/**
 * Whether clients of the API version know `partially_shipped`. Versions are dates (api/versions.ts),
 * so a later one compares greater as text.
 */
export function knowsPartialShipments(version: string): boolean {
  return version >= PARTIAL_SHIPMENTS_SINCE;
}

/** The status as clients of the version read it: to those that do not know `partially_shipped`, such an order is `paid`. */
export function statusFor(status: OrderStatus, version: string): OrderStatus {
  return status === 'partially_shipped' && !knowsPartialShipments(version) ? 'paid' : status;
}

/** Whether clients of the version know the status at all (a filter naming one they do not is refused). */
export function statusKnownTo(status: OrderStatus, version: string): boolean {
  return statusFor(status, version) === status;
}

/**
 * The status as every version before 2027-01-01 reads it. The order views store it beside
 * `status` (their field `legacyStatus`), so that those versions' status filter pages on an index
 * of its own instead of matching two statuses.
 */
export function legacyStatus(status: OrderStatus): OrderStatus {
  return statusFor(status, BEFORE_PARTIAL_SHIPMENTS);
}

const PARTIALLY_SHIPPED = '"status":"partially_shipped"';

/**
 * An order view's stored JSON text as clients of the version read it, without decoding it (the
 * orders' collection and exports write the text out as it is). The first `"status":` member with
 * that value is the view's own: no other object of a view has a member named status, and inside a
 * string every quote is escaped, so the text cannot occur there.
 */
export function orderJsonFor(row: OrderJson, version: string): OrderJson {
  if (knowsPartialShipments(version)) return row;
  const json = row.json.replace(PARTIALLY_SHIPPED, `"status":"${statusFor('partially_shipped', version)}"`);
  return json === row.json ? row : { ...row, json };
}
