// order-views: one document per order, the order's full HTTP representation with its address
// sealed as the events hold it (the queries open it).
import { ORDER_STREAM_PREFIX } from '../../write-side/orders/codec.js';
import { decodeStoredOrderEvent, type StoredOrderEvent } from '../../write-side/orders/personal-data.js';
import type { OrderView } from '../../read-side/orders/views.js';
import type { EventContext, Projection } from '../projection.js';

export const orderViews: Projection<'order-views', OrderView, StoredOrderEvent> = {
  name: 'order-views',
  storage: {
    fields: [
      { name: 'customerId', type: 'text', value: (v) => v.customerId },
      { name: 'status', type: 'text', value: (v) => v.status },
      { name: 'createdAt', type: 'text', value: (v) => v.createdAt },
    ],
    // The orders' collection by creation, filtered by status, by customer, or by both.
    indexes: [['createdAt'], ['status', 'createdAt'], ['customerId', 'createdAt'], ['customerId', 'status', 'createdAt']],
  },
  streamPrefix: ORDER_STREAM_PREFIX,
  decode: decodeStoredOrderEvent,
  handles: new Set(['OrderPlaced', 'OrderAddressChanged', 'PaymentRecorded', 'ShipmentCreated', 'OrderCancelled']),
  keyOf: (event) => event.data.orderId,
  evolve(view: OrderView | null, event: StoredOrderEvent, { revision }: EventContext): OrderView {
    if (event.type === 'OrderPlaced') {
      const { orderId: id, customerId, currency, lines, total, address, placedAt } = event.data;
      return { id, customerId, status: 'pending', currency, lines, total, address, createdAt: placedAt, updatedAt: placedAt, revision };
    }
    if (!view) throw new TypeError(`${event.type} for order ${event.data.orderId}, which has no OrderPlaced`);
    switch (event.type) {
      case 'OrderAddressChanged':
        return { ...view, address: event.data.address, updatedAt: event.data.changedAt, revision };
      case 'PaymentRecorded':
        return { ...view, status: 'paid', updatedAt: event.data.recordedAt, revision };
      case 'ShipmentCreated':
        return { ...view, status: 'shipped', updatedAt: event.data.createdAt, revision };
      case 'OrderCancelled':
        return { ...view, status: 'cancelled', updatedAt: event.data.cancelledAt, revision };
      case 'OrderPlacementAbandoned':
        throw new TypeError(`order ${event.data.orderId} was never placed: an abandoned placement has no view`);
      default: {
        const unknown: never = event;
        throw new TypeError(`unhandled event ${(unknown as StoredOrderEvent).type}`);
      }
    }
  },
};
