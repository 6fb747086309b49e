// The order decider: pure functions from (command, state) to events and from (state, event)
// to state. No I/O, no clock, no randomness: the command brings `now` and every id.
import { mergeAddress } from '../kernel/address.js';
import { OrderNotFound, StateConflict, ValidationFailed, type FieldError } from '../kernel/errors.js';
import type { Address, AddressPatch, CataloguedLine, ErasedAddress, Order, OrderCommand, OrderEvent, OrderLine, PlacedOrder } from './types.js';

export const MAX_LINES = 100;
/** The reason of the service's cancellation of an order left unpaid past PENDING_ORDER_TTL_SECONDS. */
export const PAYMENT_TIMEOUT = 'payment-timeout';

export const initialState = (): Order => ({ status: 'absent' });

export function evolve(state: Order, event: OrderEvent): Order {
  switch (event.type) {
    case 'OrderPlaced': {
      const d = event.data;
      return {
        status: 'pending',
        id: d.orderId,
        customerId: d.customerId,
        currency: d.currency,
        lines: d.lines,
        total: d.total,
        address: d.address,
        createdAt: d.placedAt,
        updatedAt: d.placedAt,
        payment: null,
        shipment: null,
        cancellationReason: null,
      };
    }
    case 'OrderAddressChanged':
      return { ...placed(state), address: event.data.address, updatedAt: event.data.changedAt };
    case 'PaymentRecorded': {
      const { paymentId: id, amount, reference, method, recordedAt } = event.data;
      return { ...placed(state), status: 'paid', payment: { id, amount, reference, method, createdAt: recordedAt }, updatedAt: recordedAt };
    }
    case 'ShipmentCreated': {
      const { shipmentId: id, carrier, trackingNumber, createdAt } = event.data;
      return { ...placed(state), status: 'shipped', shipment: { id, carrier, trackingNumber, createdAt }, updatedAt: createdAt };
    }
    case 'OrderCancelled':
      return { ...placed(state), status: 'cancelled', cancellationReason: event.data.reason, updatedAt: event.data.cancelledAt };
    case 'OrderPlacementAbandoned':
      return { status: 'absent', abandoned: true };
    default: {
      const unknown: never = event;
      throw new TypeError(`unhandled event ${(unknown as OrderEvent).type}`);
    }
  }
}

export function decide(command: OrderCommand, state: Order): OrderEvent[] {
  const now = command.metadata.now;
  switch (command.type) {
    case 'PlaceOrder': {
      if (state.status !== 'absent') throw new StateConflict(`Order ${state.id} already exists.`, state.status);
      if (state.abandoned) {
        throw new StateConflict(`The placement of order ${command.data.orderId} was given up after it failed; place the order again with a new Idempotency-Key.`, 'cancelled');
      }
      const { orderId, customerId, currency, address } = command.data;
      const lines = priceLines(command.data.lines);
      const total = lines.reduce((sum, line) => sum + line.lineTotal, 0);
      if (!Number.isSafeInteger(total)) throw new ValidationFailed([{ pointer: '/lines', message: 'order total is too large' }]);
      return [{ type: 'OrderPlaced', schemaVersion: 2, data: { orderId, customerId, currency, lines, total, address, placedAt: now } }];
    }
    case 'ChangeAddress': {
      const order = existing(state, command.data.orderId);
      if (order.status === 'shipped' || order.status === 'cancelled') {
        throw new StateConflict(`Order ${order.id} is ${order.status}; its address can no longer change.`, order.status);
      }
      const address = mergeAddress(order.address, command.data.patch);
      if (sameAddress(order.address, address)) return [];
      return [{ type: 'OrderAddressChanged', schemaVersion: 1, data: { orderId: order.id, address, changedAt: now } }];
    }
    case 'RecordPayment': {
      const order = existing(state, command.data.orderId);
      if (order.status !== 'pending') {
        throw new StateConflict(`Order ${order.id} is ${order.status}; only a pending order can be paid.`, order.status);
      }
      const { paymentId, amount, reference, method } = command.data;
      if (amount !== order.total) {
        throw new ValidationFailed([{ pointer: '/amount', message: `must equal the order total, ${order.total}` }]);
      }
      return [{ type: 'PaymentRecorded', schemaVersion: 2, data: { orderId: order.id, paymentId, amount, reference, method, recordedAt: now } }];
    }
    case 'CreateShipment': {
      const order = existing(state, command.data.orderId);
      if (order.status !== 'paid') {
        throw new StateConflict(`Order ${order.id} is ${order.status}; only a paid order can be shipped.`, order.status);
      }
      const { shipmentId, carrier, trackingNumber } = command.data;
      return [{ type: 'ShipmentCreated', schemaVersion: 1, data: { orderId: order.id, shipmentId, carrier, trackingNumber, createdAt: now } }];
    }
    case 'CancelOrder': {
      const order = existing(state, command.data.orderId);
      if (order.status === 'cancelled') return [];
      if (order.status === 'shipped') {
        throw new StateConflict(`Order ${order.id} has shipped; it can no longer be cancelled.`, order.status);
      }
      return [{ type: 'OrderCancelled', schemaVersion: 1, data: { orderId: order.id, reason: command.data.reason, cancelledAt: now } }];
    }
    case 'ExpirePendingOrder': {
      const order = existing(state, command.data.orderId);
      if (order.status !== 'pending') return [];
      return [{ type: 'OrderCancelled', schemaVersion: 1, data: { orderId: order.id, reason: PAYMENT_TIMEOUT, cancelledAt: now } }];
    }
    case 'AbandonPlacement':
      // Only a placement that never appended its order can be given up.
      if (state.status !== 'absent' || state.abandoned) return [];
      return [{ type: 'OrderPlacementAbandoned', schemaVersion: 1, data: { orderId: command.data.orderId, abandonedAt: now } }];
    default: {
      const unknown: never = command;
      throw new TypeError(`unhandled command ${(unknown as OrderCommand).type}`);
    }
  }
}

export const orderDecider = { initialState, evolve, decide };

function placed(state: Order): PlacedOrder {
  if (state.status === 'absent') throw new TypeError('event applied to an order that was never placed');
  return state;
}

function existing(state: Order, orderId: string): PlacedOrder {
  if (state.status === 'absent') throw new OrderNotFound(orderId);
  return state;
}

function priceLines(lines: readonly CataloguedLine[]): OrderLine[] {
  const errors: FieldError[] = [];
  if (lines.length < 1 || lines.length > MAX_LINES) {
    errors.push({ pointer: '/lines', message: `must hold 1 to ${MAX_LINES} lines` });
  }
  const priced = lines.map((line, i) => {
    const quantityOk = Number.isSafeInteger(line.quantity) && line.quantity >= 1;
    const priceOk = Number.isSafeInteger(line.unitPrice) && line.unitPrice >= 0;
    if (!quantityOk) errors.push({ pointer: `/lines/${i}/quantity`, message: 'must be an integer of at least 1' });
    if (!priceOk) errors.push({ pointer: `/lines/${i}/unitPrice`, message: 'must be a non-negative integer in minor units' });
    const lineTotal = line.quantity * line.unitPrice;
    if (quantityOk && priceOk && !Number.isSafeInteger(lineTotal)) {
      errors.push({ pointer: `/lines/${i}`, message: 'line total is too large' });
    }
    return { sku: line.sku, name: line.name, quantity: line.quantity, unitPrice: line.unitPrice, lineTotal };
  });
  if (errors.length > 0) throw new ValidationFailed(errors);
  return priced;
}

function sameAddress(a: Address | ErasedAddress, b: Address): boolean {
  return (
    a.name === b.name && a.line1 === b.line1 && a.line2 === b.line2 && a.city === b.city &&
    a.postalCode === b.postalCode && a.region === b.region && a.country === b.country
  );
}
