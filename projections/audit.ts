// The auditor's checks: fold an order's stream event by event and report every place where a
// domain rule did not hold. Pure: the event store is read by the caller.
import type { RecordedEvent } from '../write-side/kernel/event-store.js';
import { decodeOrderEvent } from '../write-side/orders/codec.js';
import { evolve, initialState } from '../write-side/orders/decider.js';
import type { Order } from '../write-side/orders/types.js';
import { decodeStockEvent } from '../write-side/stock/codec.js';
import { evolveStock, initialStock, liveReservations } from '../write-side/stock/decider.js';

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

export function auditStream(stream: string, events: readonly RecordedEvent[]): Finding[] {
  const findings: Finding[] = [];
  const find = (revision: number, rule: string, detail: string) => findings.push({ stream, revision, rule, detail });
  let state: Order = initialState();
  let payments = 0;
  let shipments = 0;
  for (const recorded of events) {
    let event;
    try {
      event = decodeOrderEvent(recorded);
    } catch (error) {
      find(recorded.revision, 'readable', (error as Error).message);
      continue;
    }
    const before = state.status;
    if (event.type === 'OrderPlacementAbandoned') {
      if (recorded.revision !== 0) find(recorded.revision, 'abandoned before placement', 'an abandoned placement after other events');
      state = evolve(state, event);
      continue;
    }
    if (event.type === 'OrderPlaced') {
      if (before !== 'absent') find(recorded.revision, 'placed once', 'a second OrderPlaced');
      for (const line of event.data.lines) {
        if (line.lineTotal !== line.quantity * line.unitPrice) find(recorded.revision, 'totals', `line ${line.sku}: ${line.quantity} × ${line.unitPrice} ≠ ${line.lineTotal}`);
      }
      const sum = event.data.lines.reduce((total, line) => total + line.lineTotal, 0);
      if (sum !== event.data.total) find(recorded.revision, 'totals', `lines add up to ${sum}, total says ${event.data.total}`);
    } else if (before === 'absent') {
      find(recorded.revision, 'placed first', `${event.type} before OrderPlaced`);
      continue;
    } else if (before === 'shipped' || before === 'cancelled') {
      find(recorded.revision, 'nothing after the end', `${event.type} after the order was ${before}`);
    }
    if (event.type === 'PaymentRecorded') {
      payments++;
      if (payments > 1) find(recorded.revision, 'paid once', 'a second payment');
      if (state.status !== 'absent' && event.data.amount !== state.total) find(recorded.revision, 'payment equals total', `paid ${event.data.amount}, total ${state.total}`);
    }
    if (event.type === 'ShipmentCreated') {
      shipments++;
      if (shipments > 1) find(recorded.revision, 'shipped once', 'a second shipment');
      if (before !== 'paid') find(recorded.revision, 'shipped after payment', `shipped while ${before}`);
    }
    state = evolve(state, event);
  }
  return findings;
}

/** How long a reservation may lack its order, or outlive it, before it is a finding: the reconciler repairs within it. */
export const RESERVATION_GRACE_MS = 60_000;

/**
 * The stock rules over every SKU stream and the orders: 0 ≤ reserved ≤ onHand after every
 * event; every live reservation belongs to a pending or paid order that has the SKU, for the
 * quantity of its lines; every pending or paid order holds its lines' stock. `orders` is each
 * order folded, with when its stream last changed; what changed within the grace is left alone.
 */
export function auditStock(
  skus: ReadonlyMap<string, readonly RecordedEvent[]>,
  orders: ReadonlyMap<string, { readonly order: Order; readonly changedAt: Date }>,
  now: Date,
): Finding[] {
  const findings: Finding[] = [];
  const recent = (at: Date) => now.getTime() - at.getTime() < RESERVATION_GRACE_MS;
  const held = new Map<string, Map<string, number>>();
  for (const [sku, events] of skus) {
    const stream = `stock-${sku}`;
    let stock = initialStock(sku);
    const reservedAt = new Map<string, Date>();
    for (const recorded of events) {
      let event;
      try {
        event = decodeStockEvent(recorded);
      } catch (error) {
        findings.push({ stream, revision: recorded.revision, rule: 'readable', detail: (error as Error).message });
        continue;
      }
      stock = evolveStock(stock, event);
      if (event.type === 'StockReserved') reservedAt.set(event.data.orderId, recorded.recordedAt);
      if (stock.reserved < 0 || stock.reserved > stock.onHand) {
        findings.push({ stream, revision: recorded.revision, rule: '0 ≤ reserved ≤ onHand', detail: `onHand ${stock.onHand}, reserved ${stock.reserved}` });
      }
    }
    const last = events.at(-1)?.revision ?? 0;
    for (const [orderId, quantity] of liveReservations(stock.live)) {
      const found = orders.get(orderId);
      const wanted = found && found.order.status !== 'absent' ? found.order.lines.filter((l) => l.sku === sku).reduce((sum, l) => sum + l.quantity, 0) : 0;
      const live = found && (found.order.status === 'pending' || found.order.status === 'paid');
      if (live && wanted === quantity) {
        held.set(orderId, (held.get(orderId) ?? new Map<string, number>()).set(sku, quantity));
        continue;
      }
      if (recent(reservedAt.get(orderId) ?? now) || (found && recent(found.changedAt))) continue;
      const why = !found || found.order.status === 'absent' ? 'its order was never placed' : live ? `its order wants ${wanted}` : `its order is ${found.order.status}`;
      findings.push({ stream, revision: last, rule: 'reservations belong to live orders', detail: `order ${orderId} holds ${quantity}, but ${why}` });
    }
  }
  for (const [orderId, { order, changedAt }] of orders) {
    if ((order.status !== 'pending' && order.status !== 'paid') || recent(changedAt)) continue;
    const wanted = new Map<string, number>();
    for (const line of order.lines) wanted.set(line.sku, (wanted.get(line.sku) ?? 0) + line.quantity);
    for (const [sku, quantity] of wanted) {
      if (held.get(orderId)?.get(sku) !== quantity) {
        findings.push({ stream: `order-${orderId}`, revision: 0, rule: 'live orders hold their stock', detail: `${order.status} order holds no reservation of ${quantity} ${sku}` });
      }
    }
  }
  return findings;
}
