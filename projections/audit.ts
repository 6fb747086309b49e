// The auditor's checks: fold an order's stream event by event and report every place where a
// domain rule did not hold. Pure: the event store is read by the caller.
import type { RecordedEvent } from '../write-side/event-store.js';
import { decodeOrderEvent } from '../write-side/orders/codec.js';
import { evolve, initialState } from '../write-side/orders/decider.js';
import type { Order } from '../write-side/orders/types.js';

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
