// The auditor's checks: fold an order's stream event by event and report every place where a
// domain rule did not hold; fold every SKU's stream and hold it against the orders. The checks
// are pure; auditLog reads a store's order and stock streams for them.
import type { EventStore, Position, RecordedEvent } from '../write-side/kernel/event-store.js';
import { refundable, remainingToShip, restockKey, restocked, returnable, stockTargets } from '../write-side/orders/rules.js';
import { decodeOrderEvent, ORDER_STREAM_PREFIX } from '../write-side/orders/codec.js';
import { evolve, initialState } from '../write-side/orders/decider.js';
import type { Order, OrderEvent, OrderLine, PlacedOrder, SkuQuantity } from '../write-side/orders/types.js';
import { decodeStockEvent, STOCK_STREAM_PREFIX } from '../write-side/stock/codec.js';
import { available, evolveStock, initialStock, liveReservations } from '../write-side/stock/decider.js';
import { restockAdjustmentId } from '../write-side/stock/service.js';

export interface Finding {
  readonly stream: string;
  readonly revision: number;
  readonly rule: string;
  readonly detail: string;
}

/** The state after each event, for `audit replay`. */
export function replay(events: readonly RecordedEvent[]): Array<{ event: RecordedEvent; state: Order }> {
  let state = initialState();
  return events.map((event) => ({ event, state: (state = evolve(state, decodeOrderEvent(event))) }));
}

/** What a shipped or cancelled order may still record: a shipped one's returns and refunds go on; a cancelled one may only be paid back. */
const AFTER_THE_END: Readonly<Record<'shipped' | 'cancelled', ReadonlySet<string>>> = {
  shipped: new Set(['ReturnRequested', 'ReturnReceived', 'ReturnCancelled', 'RefundRecorded']),
  cancelled: new Set(['RefundRecorded']),
};

/**
 * The order's rules, event by event: each event is one the decider could have decided on the
 * order as it was (HTTP-CONTRACT "Orders after payment" among them), and after each, every line
 * keeps 0 ≤ returned ≤ shipped ≤ quantity − cancelled and the balance is the contract's.
 */
export function auditStream(stream: string, events: readonly RecordedEvent[]): Finding[] {
  const findings: Finding[] = [];
  let state: Order = initialState();
  let payments = 0;
  for (const recorded of events) {
    const find = (rule: string, detail: string) => findings.push({ stream, revision: recorded.revision, rule, detail });
    let event;
    try {
      event = decodeOrderEvent(recorded);
    } catch (error) {
      find('readable', (error as Error).message);
      continue;
    }
    if (event.type === 'OrderPlacementAbandoned') {
      if (recorded.revision !== 0) find('abandoned before placement', 'an abandoned placement after other events');
      state = evolve(state, event);
      continue;
    }
    if (event.type === 'OrderPlaced') {
      if (state.status !== 'absent') find('placed once', 'a second OrderPlaced');
      totals(event.data.lines, event.data.total, find);
    } else if (state.status === 'absent') {
      find('placed first', `${event.type} before OrderPlaced`);
      continue;
    } else {
      const before = state;
      if ((before.status === 'shipped' || before.status === 'cancelled') && !AFTER_THE_END[before.status].has(event.type)) {
        find('nothing after the end', `${event.type} after the order was ${before.status}`);
      } else {
        decidable(before, event, find);
      }
    }
    if (event.type === 'PaymentRecorded' && ++payments > 1) find('paid once', 'a second payment');
    try {
      state = evolve(state, event);
    } catch (error) {
      find('foldable', (error as Error).message);
      continue;
    }
    if (state.status !== 'absent') holds(state, find);
  }
  return findings;
}

type Find = (rule: string, detail: string) => void;

function totals(lines: readonly OrderLine[], total: number, find: Find): void {
  for (const line of lines) {
    if (line.lineTotal !== line.quantity * line.unitPrice) find('totals', `line ${line.sku}: ${line.quantity} × ${line.unitPrice} ≠ ${line.lineTotal}`);
  }
  const sum = lines.reduce((all, line) => all + line.lineTotal, 0);
  if (sum !== total) find('totals', `lines add up to ${sum}, total says ${total}`);
}

/** Whether the decider could have decided `event` on `order` (an order neither shipped nor cancelled, or one of the events allowed after). */
function decidable(order: PlacedOrder, event: OrderEvent, find: Find): void {
  const within = (rule: string, asked: readonly SkuQuantity[], left: ReadonlyMap<string, number>, what: string) => {
    const sums = new Map<string, number>();
    for (const line of asked) sums.set(line.sku, (sums.get(line.sku) ?? 0) + line.quantity);
    for (const [sku, quantity] of sums) {
      const remaining = left.get(sku);
      if (remaining === undefined) find(rule, `${sku}, not on the order, ${what}`);
      else if (quantity < 1 || quantity > remaining) find(rule, `${quantity} ${sku} ${what}, ${remaining} remained`);
    }
  };
  const returnOf = (returnId: string) => order.returns.find((r) => r.id === returnId);
  switch (event.type) {
    case 'OrderAddressChanged':
      if (order.status === 'partially_shipped') find('address before shipping', 'OrderAddressChanged after part of the order shipped');
      return;
    case 'PaymentRecorded':
      if (event.data.amount !== order.total) find('payment equals total', `paid ${event.data.amount}, total ${order.total}`);
      return;
    case 'ShipmentCreated':
      if (order.status !== 'paid' && order.status !== 'partially_shipped') find('shipped after payment', `shipped while ${order.status}`);
      else if (event.data.lines) within('ships what remains', event.data.lines, remainingToShip(order), 'shipped');
      return;
    case 'ReturnRequested':
      within('returns what shipped', event.data.lines, returnable(order), 'asked back');
      return;
    case 'ReturnReceived': {
      const ret = returnOf(event.data.returnId);
      if (ret?.status !== 'requested') find('receives a requested return', `return ${event.data.returnId} is ${ret?.status ?? 'unknown'}`);
      else within('receives what was asked', event.data.lines, new Map(ret.lines.map((line) => [line.sku, line.quantity])), 'received');
      return;
    }
    case 'ReturnCancelled': {
      const ret = returnOf(event.data.returnId);
      if (ret?.status !== 'requested') find('cancels a requested return', `return ${event.data.returnId} is ${ret?.status ?? 'unknown'}`);
      return;
    }
    case 'RefundRecorded':
      if (!order.payment) find('refunds a paid order', 'a refund of an order never paid');
      else if (event.data.amount < 1 || event.data.amount > refundable(order)) find('refunds within payment', `refunded ${event.data.amount}, ${refundable(order)} refundable`);
      return;
    case 'OrderEdited': {
      if ((order.status !== 'pending' && order.status !== 'paid') || order.lines.some((line) => line.shipped > 0)) find('edited before shipping', `edited while ${order.status}`);
      const was = (lines: readonly OrderLine[]) => JSON.stringify(lines.map(({ sku, quantity, unitPrice }) => [sku, quantity, unitPrice]));
      if (was(event.data.before) !== was(order.lines)) find('edits the order as it was', 'its `before` is not the order\'s lines');
      for (const line of event.data.after) {
        const kept = order.lines.find((l) => l.sku === line.sku);
        if (kept && kept.unitPrice !== line.unitPrice) find('kept lines keep their price', `${line.sku} at ${line.unitPrice}, placed at ${kept.unitPrice}`);
      }
      totals(event.data.after, event.data.total, find);
      return;
    }
    default:
      return;
  }
}

/** After every event: each line's counts in order, refunds within what was paid, and the balance the contract's. */
function holds(order: PlacedOrder, find: Find): void {
  for (const line of order.lines) {
    const { quantity, cancelled, shipped, returned } = line;
    if (!(cancelled >= 0 && returned >= 0 && quantity - cancelled >= shipped && shipped >= returned)) {
      find('quantity − cancelled ≥ shipped ≥ returned', `${line.sku}: quantity ${quantity}, cancelled ${cancelled}, shipped ${shipped}, returned ${returned}`);
    }
  }
  const paid = order.payment?.amount ?? 0;
  const refunded = order.refunds.reduce((sum, refund) => sum + refund.amount, 0);
  const charged = order.lines.reduce((sum, line) => sum + line.unitPrice * (line.quantity - line.cancelled - line.returned), 0);
  const balance = { charged, paid, refunded, due: charged - paid + refunded };
  if (JSON.stringify(order.balance) !== JSON.stringify(balance)) find('balance', `${JSON.stringify(order.balance)}, the lines and payments say ${JSON.stringify(balance)}`);
  if (refunded > paid) find('refunds within payment', `refunded ${refunded} of ${paid} paid`);
}

/** How long a reservation may lack its order, or outlive it, before it is a finding: the reconciler repairs within it. */
export const RESERVATION_GRACE_MS = 60_000;

/**
 * The stock rules over every SKU stream and the orders (docs/stock.md): 0 ≤ reserved ≤ onHand
 * after every event, and each adjustment records the levels it left; per SKU, what each order
 * holds reserved is what remains of it to ship (nothing once cancelled), so reserved is the sum of
 * that over the live orders; what was committed for each order (deducted from on hand) is what it
 * shipped; and each received return's restocked units went back on hand exactly once. So on hand
 * moves only by adjustments, shipments and restocks. `orders` is each order folded, with when
 * its stream last changed; what changed within the grace is left to the reconciler.
 */
export function auditStock(
  skus: ReadonlyMap<string, readonly RecordedEvent[]>,
  orders: ReadonlyMap<string, { readonly order: Order; readonly changedAt: Date }>,
  now: Date,
): Finding[] {
  const findings: Finding[] = [];
  const recent = (at: Date | undefined) => at !== undefined && now.getTime() - at.getTime() < RESERVATION_GRACE_MS;
  /** Per order, per SKU: what it holds reserved (matching its order), what was committed in all, and when its reservation last changed. */
  const held = new Map<string, Map<string, number>>();
  const committed = new Map<string, Map<string, { quantity: number; stream: string; revision: number }>>();
  const touched = new Map<string, Date>();
  const adjustments = new Map<string, number[]>();
  const add = <T>(map: Map<string, Map<string, T>>, orderId: string, sku: string, value: T) => map.set(orderId, (map.get(orderId) ?? new Map<string, T>()).set(sku, value));
  const targetOf = (order: Order | undefined, sku: string) => (order && order.status !== 'absent' ? stockTargets(order).get(sku) : undefined) ?? { reserved: 0, shipped: 0 };

  for (const [sku, events] of skus) {
    const stream = `stock-${sku}`;
    let stock = initialStock(sku);
    for (const recorded of events) {
      let event;
      try {
        event = decodeStockEvent(recorded);
      } catch (error) {
        findings.push({ stream, revision: recorded.revision, rule: 'readable', detail: (error as Error).message });
        continue;
      }
      stock = evolveStock(stock, event);
      if (event.type === 'StockAdjusted') {
        adjustments.set(event.data.adjustmentId, [...(adjustments.get(event.data.adjustmentId) ?? []), event.data.delta]);
        if (event.data.onHand !== stock.onHand || event.data.reserved !== stock.reserved) {
          findings.push({ stream, revision: recorded.revision, rule: 'adjustments record their levels', detail: `recorded onHand ${event.data.onHand}, reserved ${event.data.reserved}; the fold says ${stock.onHand}, ${stock.reserved}` });
        }
      } else if (event.type === 'StockFellLow') {
        const { onHand, reserved, available: recordedAvailable, threshold } = event.data;
        if (onHand !== stock.onHand || reserved !== stock.reserved || recordedAvailable !== available(stock) || recordedAvailable >= threshold) {
          findings.push({
            stream, revision: recorded.revision, rule: 'stock.low records its levels',
            detail: `recorded onHand ${onHand}, reserved ${reserved}, available ${recordedAvailable} below ${threshold}; the fold says ${stock.onHand}, ${stock.reserved}, ${available(stock)}`,
          });
        }
      } else {
        touched.set(`${event.data.orderId} ${sku}`, recorded.recordedAt);
        if (event.type === 'ReservationCommitted') {
          const before = committed.get(event.data.orderId)?.get(sku)?.quantity ?? 0;
          add(committed, event.data.orderId, sku, { quantity: before + event.data.quantity, stream, revision: recorded.revision });
        }
      }
      if (stock.reserved < 0 || stock.reserved > stock.onHand) {
        findings.push({ stream, revision: recorded.revision, rule: '0 ≤ reserved ≤ onHand', detail: `onHand ${stock.onHand}, reserved ${stock.reserved}` });
      }
    }
    const last = events.at(-1)?.revision ?? 0;
    for (const [orderId, quantity] of liveReservations(stock.live)) {
      const found = orders.get(orderId);
      const live = found !== undefined && found.order.status !== 'absent' && found.order.status !== 'cancelled';
      const wanted = live ? targetOf(found.order, sku).reserved : 0;
      if (live && wanted === quantity) {
        add(held, orderId, sku, quantity);
        continue;
      }
      if (recent(touched.get(`${orderId} ${sku}`)) || recent(found?.changedAt)) continue;
      const why = !found || found.order.status === 'absent' ? 'its order was never placed' : live ? `its order has ${wanted} left to ship` : `its order is ${found.order.status}`;
      findings.push({ stream, revision: last, rule: 'reservations belong to live orders', detail: `order ${orderId} holds ${quantity}, but ${why}` });
    }
  }

  for (const [orderId, { order, changedAt }] of orders) {
    if (order.status === 'absent' || recent(changedAt)) continue;
    const settled = (sku: string) => !recent(touched.get(`${orderId} ${sku}`));
    for (const [sku, target] of stockTargets(order)) {
      if (order.status !== 'cancelled' && target.reserved > 0 && held.get(orderId)?.get(sku) !== target.reserved && settled(sku)) {
        findings.push({ stream: `order-${orderId}`, revision: 0, rule: 'live orders hold their stock', detail: `${order.status} order holds no reservation of the ${target.reserved} ${sku} it has left to ship` });
      }
      // Orders placed before stock existed reserved nothing, and nothing of theirs is committed.
      const commits = committed.get(orderId)?.get(sku);
      if (commits && commits.quantity !== target.shipped && settled(sku)) {
        findings.push({ stream: commits.stream, revision: commits.revision, rule: 'committed = shipped', detail: `${commits.quantity} of order ${orderId} committed, it shipped ${target.shipped}` });
      }
    }
    for (const ret of order.returns) {
      for (const [sku, units] of restocked(ret)) {
        const made = adjustments.get(restockAdjustmentId(restockKey(ret.id, sku))) ?? [];
        if (made.length !== 1 || made[0] !== units) {
          findings.push({ stream: `order-${orderId}`, revision: 0, rule: 'returns restocked once', detail: `return ${ret.id} put back ${units} ${sku}; the stock shows ${made.length === 0 ? 'no restock' : `restocks of ${made.join(', ')}`}` });
        }
      }
    }
  }
  // Committed for an order that was never placed.
  for (const [orderId, bySku] of committed) {
    const found = orders.get(orderId);
    if (found && found.order.status !== 'absent') continue;
    for (const [sku, commits] of bySku) {
      if (!recent(touched.get(`${orderId} ${sku}`))) findings.push({ stream: commits.stream, revision: commits.revision, rule: 'committed = shipped', detail: `${commits.quantity} committed for order ${orderId}, which was never placed` });
    }
  }
  return findings;
}

/**
 * Every order stream and every SKU stream of the store, folded afresh and checked (what `audit
 * verify` runs before it compares the read models): the findings, and how many orders and SKUs.
 */
export async function auditLog(store: EventStore, now: Date): Promise<{ orders: number; skus: number; domain: Finding[]; stock: Finding[] }> {
  const orderStreams = new Set<string>();
  const skus = new Map<string, RecordedEvent[]>();
  for (const prefix of [ORDER_STREAM_PREFIX, STOCK_STREAM_PREFIX]) {
    for (let after: Position | null = null; ; ) {
      const batch = await store.readAll({ after, maxCount: 5000, streamPrefixes: [prefix] });
      if (batch.length === 0) break;
      for (const e of batch) {
        if (prefix === ORDER_STREAM_PREFIX) {
          orderStreams.add(e.streamName);
          continue;
        }
        const sku = e.streamName.slice(STOCK_STREAM_PREFIX.length);
        const events = skus.get(sku) ?? [];
        events.push(e);
        skus.set(sku, events);
      }
      after = batch.at(-1)!.position;
    }
  }
  // An order's events are read one stream at a time: only its folded state is kept.
  const domain: Finding[] = [];
  const orders = new Map<string, { order: Order; changedAt: Date }>();
  for (const stream of orderStreams) {
    const events = await store.readStream(stream);
    domain.push(...auditStream(stream, events));
    let order: Order = initialState();
    for (const e of events) {
      try {
        order = evolve(order, decodeOrderEvent(e));
      } catch {
        // Reported by auditStream.
      }
    }
    orders.set(stream.slice(ORDER_STREAM_PREFIX.length), { order, changedAt: events.at(-1)?.recordedAt ?? new Date(0) });
  }
  return { orders: orders.size, skus: skus.size, domain, stock: auditStock(skus, orders, now) };
}
