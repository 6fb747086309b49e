// fulfilment-queue: paid orders with something left to ship and not cancelled, oldest payment first.
// An order's entry is kept from its payment on (Projection.keeps): before it, the order's events
// are read back from its stream when the next one comes (Projection.history), so that an order
// placed and never paid costs the queue no write. The entry stays after it leaves (state `left`),
// so that a replayed older event can never bring it back: the stored revision tells that the event
// was already seen.
// Every entry into and exit from the queue is recorded as a change, with the event's position:
// the feed of GET /fulfilment-queue/changes.
import { lineState, shipLines, shippingStatus } from '../../write-side/orders/rules.js';
import { ORDER_STREAM_PREFIX } from '../../write-side/orders/codec.js';
import { decodeStoredOrderEvent, type StoredOrderEvent } from '../../write-side/orders/personal-data.js';
import { inFulfilmentQueue, type QueueChange, type QueueEntry } from '../../read-side/orders/views.js';
import type { EventContext, Projection } from '../projection.js';

export const fulfilmentQueue: Projection<'fulfilment-queue', QueueEntry, StoredOrderEvent, QueueChange> = {
  name: 'fulfilment-queue',
  storage: {
    // 2: the entry's lines with what of them shipped (a partially shipped order stays queued).
    // 3: entries from the order's payment on only.
    version: 3,
    fields: [
      { name: 'customerId', type: 'text', value: (v) => v.customerId },
      { name: 'state', type: 'text', value: (v) => v.state },
      { name: 'paidAt', type: 'text', nullable: true, value: (v) => v.paidAt },
    ],
    // The queue: the queued entries, oldest payment first.
    indexes: [['state', 'paidAt']],
    changes: true,
    // The address is kept sealed, as the events hold it.
    noClearPersonalData: true,
  },
  streamPrefix: ORDER_STREAM_PREFIX,
  decode: decodeStoredOrderEvent,
  handles: new Set(['OrderPlaced', 'OrderAddressChanged', 'PaymentRecorded', 'ShipmentCreated', 'OrderCancelled', 'OrderEdited']),
  keyOf: (event) => event.data.orderId,
  keeps: (entry) => entry.paidAt !== null,
  history: (event, entry) => entry === null && event.type !== 'OrderPlaced',
  evolve(entry: QueueEntry | null, event: StoredOrderEvent, { revision, history }: EventContext<QueueEntry, StoredOrderEvent>): QueueEntry {
    // No entry kept yet (the order is unpaid): its stream's earlier events make it again.
    const before = entry ?? history?.reduce<QueueEntry | null>((folded, earlier) => evolveEntry(folded, earlier.event, earlier.recorded.revision), null) ?? null;
    return evolveEntry(before, event, revision);
  },
  changes(before, after, event, { position, recordedAt }): QueueChange[] {
    const was = inFulfilmentQueue(before);
    if (was === inFulfilmentQueue(after)) return [];
    const base = { position, orderId: after.orderId, at: recordedAt.toISOString() };
    if (!was) return [{ ...base, change: 'entered', reason: 'paid' }];
    return [{ ...base, change: 'left', reason: event.type === 'ShipmentCreated' ? 'shipped' : 'cancelled' }];
  },
};

/** The entry after the event: its fold, whether the entry is kept or made again from its history. */
function evolveEntry(entry: QueueEntry | null, event: StoredOrderEvent, revision: number): QueueEntry {
  if (event.type === 'OrderPlaced') {
    const { orderId, customerId, currency, total, address } = event.data;
    return { orderId, customerId, state: 'awaiting-payment', currency, total, lines: event.data.lines.map(lineState), address, paidAt: null, revision };
  }
  if (!entry) throw new TypeError(`${event.type} for order ${event.data.orderId}, which has no OrderPlaced`);
  switch (event.type) {
    case 'OrderAddressChanged':
      return { ...entry, address: event.data.address, revision };
    case 'PaymentRecorded':
      return { ...entry, state: 'queued', paidAt: event.data.recordedAt, revision };
    case 'ShipmentCreated': {
      // A partial shipment leaves the order queued, its lines saying what is left to ship.
      const { lines } = shipLines(entry.lines, event.data.lines);
      return { ...entry, lines, state: shippingStatus(lines) === 'shipped' ? 'left' : entry.state, revision };
    }
    case 'OrderCancelled':
      return { ...entry, state: 'left', revision };
    case 'OrderEdited':
      return { ...entry, lines: event.data.after.map(lineState), total: event.data.total, revision };
    // Returns and refunds come after shipping: the queue has nothing to do with them.
    case 'ReturnRequested':
    case 'ReturnReceived':
    case 'ReturnCancelled':
    case 'RefundRecorded':
      return entry;
    case 'OrderPlacementAbandoned':
      throw new TypeError(`order ${event.data.orderId} was never placed: an abandoned placement has no view`);
    default: {
      const unknown: never = event;
      throw new TypeError(`unhandled event ${(unknown as StoredOrderEvent).type}`);
    }
  }
}
