// order-views: one document per order, the order's full HTTP representation with its address
// sealed as the events hold it (the queries open it).
import { balanceOf, cancelledStatus, cancelRemaining, lineState, receiveLines, shipLines, shippingStatus } from '../../write-side/orders/rules.js';
import { ORDER_STREAM_PREFIX } from '../../write-side/orders/codec.js';
import { decodeStoredOrderEvent, type StoredOrderEvent } from '../../write-side/orders/personal-data.js';
import { legacyStatus } from '../../read-side/orders/status.js';
import type { OrderView } from '../../read-side/orders/views.js';
import type { EventContext, Projection } from '../projection.js';

export const orderViews: Projection<'order-views', OrderView, StoredOrderEvent> = {
  name: 'order-views',
  storage: {
    // 2: lines with what shipped, was cancelled and came back, the balance, and legacyStatus.
    // 3: the currency, the total and the lines' SKUs, which the orders' collection selects and sorts by.
    version: 3,
    // The address is kept sealed, as the events hold it (the queries open it).
    noClearPersonalData: true,
    fields: [
      { name: 'customerId', type: 'text', value: (v) => v.customerId },
      { name: 'status', type: 'text', value: (v) => v.status },
      { name: 'createdAt', type: 'text', value: (v) => v.createdAt },
      // The status as API versions before 2027-01-01 read it, which their status filter selects by.
      { name: 'legacyStatus', type: 'text', computed: true, value: (v) => legacyStatus(v.status) },
      { name: 'currency', type: 'text', value: (v) => v.currency },
      { name: 'total', type: 'integer', value: (v) => v.total },
    ],
    // The SKUs of the order's lines as they stand (an edit that drops a line drops its SKU).
    multiValued: [{ name: 'sku', type: 'text', values: (v) => v.lines.map((line) => line.sku) }],
    // One index per combination the orders' collection offers (read-side/orders/list-shape.ts): by
    // creation, with any of status (either reading) and customer (a date range is a range of
    // createdAt), or with a SKU; by total within one currency.
    indexes: [
      ['createdAt'], ['status', 'createdAt'], ['customerId', 'createdAt'], ['customerId', 'status', 'createdAt'],
      ['legacyStatus', 'createdAt'], ['customerId', 'legacyStatus', 'createdAt'],
      ['currency', 'total', 'createdAt'],
      ['sku', 'createdAt'],
    ],
  },
  streamPrefix: ORDER_STREAM_PREFIX,
  decode: decodeStoredOrderEvent,
  handles: new Set(['OrderPlaced', 'OrderAddressChanged', 'PaymentRecorded', 'ShipmentCreated', 'OrderCancelled', 'ReturnReceived', 'RefundRecorded', 'OrderEdited']),
  keyOf: (event) => event.data.orderId,
  evolve(view: OrderView | null, event: StoredOrderEvent, { revision }: EventContext): OrderView {
    if (event.type === 'OrderPlaced') {
      const { orderId: id, customerId, currency, total, address, placedAt } = event.data;
      const lines = event.data.lines.map(lineState);
      return { id, customerId, status: 'pending', currency, lines, total, balance: balanceOf(lines, 0, 0), address, createdAt: placedAt, updatedAt: placedAt, revision };
    }
    if (!view) throw new TypeError(`${event.type} for order ${event.data.orderId}, which has no OrderPlaced`);
    switch (event.type) {
      case 'OrderAddressChanged':
        return { ...view, address: event.data.address, updatedAt: event.data.changedAt, revision };
      case 'PaymentRecorded':
        return { ...view, status: 'paid', balance: balanceOf(view.lines, event.data.amount, view.balance.refunded), updatedAt: event.data.recordedAt, revision };
      case 'ShipmentCreated': {
        const { lines } = shipLines(view.lines, event.data.lines);
        return { ...view, status: shippingStatus(lines), lines, updatedAt: event.data.createdAt, revision };
      }
      case 'OrderCancelled': {
        const lines = cancelRemaining(view.lines);
        return { ...view, status: cancelledStatus(lines), lines, balance: balanceOf(lines, view.balance.paid, view.balance.refunded), updatedAt: event.data.cancelledAt, revision };
      }
      case 'ReturnReceived': {
        const lines = receiveLines(view.lines, event.data.lines);
        return { ...view, lines, balance: balanceOf(lines, view.balance.paid, view.balance.refunded), updatedAt: event.data.receivedAt, revision };
      }
      case 'RefundRecorded':
        return { ...view, balance: balanceOf(view.lines, view.balance.paid, view.balance.refunded + event.data.amount), updatedAt: event.data.recordedAt, revision };
      case 'OrderEdited': {
        const lines = event.data.after.map(lineState);
        return { ...view, lines, total: event.data.total, balance: balanceOf(lines, view.balance.paid, view.balance.refunded), updatedAt: event.data.editedAt, revision };
      }
      // A return requested or cancelled changes nothing the order's representation shows.
      case 'ReturnRequested':
      case 'ReturnCancelled':
        return view;
      case 'OrderPlacementAbandoned':
        throw new TypeError(`order ${event.data.orderId} was never placed: an abandoned placement has no view`);
      default: {
        const unknown: never = event;
        throw new TypeError(`unhandled event ${(unknown as StoredOrderEvent).type}`);
      }
    }
  },
};
