// The rules of what happens to an order after payment (HTTP-CONTRACT "Orders after payment"):
// what remains of each SKU to ship or to return, the balance, the stock each SKU of an order
// should hold, and the two rules of their own with stable codes. Pure functions of the state.
import { AreaRuleBroken, ValidationFailed, type FieldError } from '../kernel/errors.js';
import type { ReleaseReason } from '../stock/types.js';
import type { Balance, LineState, OrderLine, PlacedOrder, Return, ReturnCancelled, ReturnReceived, ReturnRequested, SkuQuantity } from './types.js';

/** A shipment, return, receipt or edit named more of a SKU than remains for it, or a SKU not on the order. */
export class QuantityUnavailable extends AreaRuleBroken {
  readonly rule = 'quantity-unavailable';
  override readonly details: { readonly errors: readonly (FieldError & { readonly remaining: number })[] };
  constructor(errors: readonly (FieldError & { readonly remaining: number })[]) {
    super(errors.map((e) => `${e.pointer}: ${e.message}`).join('; '));
    this.details = { errors };
  }
}

/** A refund over what was paid and not refunded yet; `refundable` is what may be. */
export class RefundExceedsPayment extends AreaRuleBroken {
  readonly rule = 'refund-exceeds-payment';
  override readonly details: { readonly refundable: number };
  constructor(refundable: number, asked: number) {
    super(`A refund of ${asked} is more than the ${refundable} paid and not yet refunded.`);
    this.details = { refundable };
  }
}

/**
 * A line with its counts, built member by member: a spread (`{ ...line, shipped }`) of a line
 * parsed from JSON makes an object of twice the size, and the order service keeps tens of
 * thousands of folded orders (measured in docs/benchmarks.md, issue 32).
 */
export function withCounts(line: OrderLine, shipped: number, cancelled: number, returned: number): LineState {
  return { sku: line.sku, name: line.name, quantity: line.quantity, unitPrice: line.unitPrice, lineTotal: line.lineTotal, shipped, cancelled, returned };
}

export const lineState = (line: OrderLine): LineState => withCounts(line, 0, 0, 0);

/** The line with `more` added to one of its counts. */
const adding = (line: LineState, field: 'shipped' | 'returned', more: number): LineState =>
  field === 'shipped' ? withCounts(line, line.shipped + more, line.cancelled, line.returned) : withCounts(line, line.shipped, line.cancelled, line.returned + more);

/** What remains to ship of a line. */
export const unshipped = (line: LineState): number => line.quantity - line.cancelled - line.shipped;

/** Per SKU, summed over the order's lines of it (an order may hold a SKU on more than one line). */
function perSku(lines: readonly LineState[], of: (line: LineState) => number): Map<string, number> {
  const sums = new Map<string, number>();
  for (const line of lines) sums.set(line.sku, (sums.get(line.sku) ?? 0) + of(line));
  return sums;
}

/** What remains to ship of each SKU of the order. */
export const remainingToShip = (order: PlacedOrder): Map<string, number> => perSku(order.lines, unshipped);

/** What of each SKU was shipped and is in no return that is not cancelled: what a new return may name. */
export function returnable(order: PlacedOrder): Map<string, number> {
  const left = perSku(order.lines, (line) => line.shipped);
  for (const ret of order.returns) {
    if (ret.status === 'cancelled') continue;
    // A received return counts what came back; one still requested, what it asked.
    for (const line of ret.received ?? ret.lines) left.set(line.sku, (left.get(line.sku) ?? 0) - line.quantity);
  }
  return left;
}

/**
 * Each line's quantity a positive integer, and at least one line unless `empty` is allowed (a
 * receipt of a return that came back with nothing). Before checkQuantities: a zero or negative
 * quantity is never "within what remains", it is no quantity (a negative one would unship, a zero
 * restock an adjustment of nothing, which the stock refuses).
 */
export function checkCounts(lines: readonly SkuQuantity[], empty = false): void {
  const errors: FieldError[] = [];
  if (lines.length === 0 && !empty) errors.push({ pointer: '/lines', message: 'must hold at least one line' });
  lines.forEach((line, i) => {
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) errors.push({ pointer: `/lines/${i}/quantity`, message: 'must be an integer of at least 1' });
  });
  if (errors.length > 0) throw new ValidationFailed(errors);
}

/**
 * Checks each asked quantity against what remains of its SKU (`remaining`), summing a SKU named
 * twice. `what` words the message ("ship", "return", "receive").
 */
export function checkQuantities(asked: readonly SkuQuantity[], remaining: ReadonlyMap<string, number>, what: string): void {
  const errors: (FieldError & { remaining: number })[] = [];
  const sums = new Map<string, number>();
  asked.forEach((line, i) => {
    const total = (sums.get(line.sku) ?? 0) + line.quantity;
    sums.set(line.sku, total);
    const left = remaining.get(line.sku);
    if (left === undefined) errors.push({ pointer: `/lines/${i}/sku`, message: `${line.sku} is not on the order`, remaining: 0 });
    else if (total > left) errors.push({ pointer: `/lines/${i}/quantity`, message: `${line.sku}: ${total} to ${what}, ${left} remaining`, remaining: Math.max(0, left) });
  });
  if (errors.length > 0) throw new QuantityUnavailable(errors);
}

/**
 * Adds `quantity` of a SKU to one count of the order's lines of it (shipped, cancelled or
 * returned), filling the lines in their order, each up to what `room` leaves it.
 */
export function allocate(lines: readonly LineState[], sku: string, quantity: number, field: 'shipped' | 'returned', room: (line: LineState) => number): LineState[] {
  let left = quantity;
  const out = lines.map((line) => {
    if (line.sku !== sku || left === 0) return line;
    const take = Math.min(left, Math.max(0, room(line)));
    left -= take;
    return take === 0 ? line : adding(line, field, take);
  });
  // More than the lines hold (an event decided on other rules): the last line of the SKU takes it.
  if (left > 0) {
    const last = out.findLastIndex((line) => line.sku === sku);
    if (last >= 0) out[last] = adding(out[last]!, field, left);
  }
  return out;
}

/** The lines with everything still to ship cancelled. */
export const cancelRemaining = (lines: readonly LineState[]): LineState[] => lines.map((line) => withCounts(line, line.shipped, line.cancelled + unshipped(line), line.returned));

/** A cancelled order with something shipped is shipped (what remained was cancelled); else cancelled. */
export const cancelledStatus = (lines: readonly LineState[]): 'shipped' | 'cancelled' => (lines.some((line) => line.shipped > 0) ? 'shipped' : 'cancelled');

/**
 * The lines after a shipment, and what it shipped: `shipped` as the event says, or everything
 * that remained for a shipment from before shipments by line (null).
 */
export function shipLines(lines: readonly LineState[], shipped: readonly SkuQuantity[] | null): { lines: LineState[]; shipped: SkuQuantity[] } {
  const what = shipped ? [...shipped] : [...perSku(lines, unshipped)].filter(([, quantity]) => quantity > 0).map(([sku, quantity]) => ({ sku, quantity }));
  let out = [...lines];
  for (const line of what) out = allocate(out, line.sku, line.quantity, 'shipped', unshipped);
  return { lines: out, shipped: what };
}

/** The lines after a return's receipt: every unit received counts in its line's `returned`. */
export function receiveLines(lines: readonly LineState[], received: readonly SkuQuantity[]): LineState[] {
  let out = [...lines];
  for (const line of received) out = allocate(out, line.sku, line.quantity, 'returned', (l) => l.shipped - l.returned);
  return out;
}

/** charged = Σ unitPrice × (quantity − cancelled − returned); due = charged − paid + refunded. */
export function balanceOf(lines: readonly LineState[], paid: number, refunded: number): Balance {
  const charged = lines.reduce((sum, line) => sum + line.unitPrice * (line.quantity - line.cancelled - line.returned), 0);
  return { charged, paid, refunded, due: charged - paid + refunded };
}

/** What may still be refunded: paid − refunded. */
export const refundable = (order: PlacedOrder): number => order.balance.paid - order.balance.refunded;

/** The status that follows from the lines, for a paid order that is not cancelled. */
export function shippingStatus(lines: readonly LineState[]): 'paid' | 'partially_shipped' | 'shipped' {
  const shipped = lines.some((line) => line.shipped > 0);
  if (!shipped) return 'paid';
  return lines.every((line) => unshipped(line) === 0) ? 'shipped' : 'partially_shipped';
}

/**
 * What the stock should hold for the order, per SKU it ever held or shipped: `reserved`, what
 * remains to ship (none once the order is cancelled), and `shipped`, what was deducted from
 * stock on hand. The stock's settle brings each SKU to it (write-side/stock/), which is what
 * makes every stock effect of an order repeatable, and repairable after a crash.
 */
export function stockTargets(order: PlacedOrder): Map<string, { reserved: number; shipped: number }> {
  const targets = new Map<string, { reserved: number; shipped: number }>();
  for (const line of order.lines) {
    const target = targets.get(line.sku) ?? { reserved: 0, shipped: 0 };
    targets.set(line.sku, { reserved: target.reserved + (order.status === 'cancelled' ? 0 : unshipped(line)), shipped: target.shipped + line.shipped });
  }
  return targets;
}

/** The order's targets for exactly `skus`: none (nothing held, nothing shipped) where it does not hold the SKU. */
export function stockTargetsOf(order: PlacedOrder, skus: Iterable<string>): Map<string, { reserved: number; shipped: number }> {
  const own = stockTargets(order);
  return new Map([...new Set(skus)].map((sku) => [sku, own.get(sku) ?? { reserved: 0, shipped: 0 }]));
}

/**
 * Why a settle of the order releases: it was cancelled (a partially shipped order cancelled reads
 * as shipped; its cancelled lines say why its remainder goes), or edited.
 */
export function releaseReason(order: PlacedOrder): ReleaseReason {
  return order.status === 'cancelled' || order.lines.some((line) => line.cancelled > 0) ? 'order-cancelled' : 'order-edited';
}

/**
 * The idempotency key of a received return's restock of one SKU: one adjustment per return and
 * SKU, however often it is asked for (the receipt, the reconciler), and what the auditor looks for.
 */
export const restockKey = (returnId: string, sku: string): string => `return:${returnId}:${sku}`;

/** The units of each SKU a received return puts back on hand. */
export function restocked(ret: Return): Map<string, number> {
  const units = new Map<string, number>();
  for (const line of ret.received ?? []) if (line.restock) units.set(line.sku, (units.get(line.sku) ?? 0) + line.quantity);
  return units;
}

/**
 * A return after one of its events: requested, then received (with what came back) or cancelled.
 * The order's fold keeps its returns so, and the returns' projection each of them.
 */
export function evolveReturn(ret: Return | null, event: ReturnRequested | ReturnReceived | ReturnCancelled): Return {
  if (event.type === 'ReturnRequested') {
    const { returnId: id, lines, reason, requestedAt } = event.data;
    return { id, status: 'requested', lines, reason, received: null, createdAt: requestedAt, updatedAt: requestedAt };
  }
  if (!ret) throw new TypeError(`${event.type} of return ${event.data.returnId}, which was never requested`);
  if (event.type === 'ReturnReceived') return { ...ret, status: 'received', received: event.data.lines, updatedAt: event.data.receivedAt };
  return { ...ret, status: 'cancelled', updatedAt: event.data.cancelledAt };
}
