// The order decider: pure functions from (command, state) to events and from (state, event)
// to state. No I/O, no clock, no randomness: the command brings `now` and every id.
import { mergeAddress } from '../kernel/address.js';
import { NotFound, OrderNotFound, ProductUnavailable, StateConflict, ValidationFailed, type FieldError } from '../kernel/errors.js';
import {
  balanceOf, cancelledStatus, cancelRemaining, checkCounts, checkQuantities, evolveReturn, lineState, receiveLines, refundable, RefundExceedsPayment, remainingToShip, returnable, shipLines, shippingStatus,
} from './rules.js';
import type { Address, AddressPatch, CataloguedLine, ErasedAddress, LineState, Order, OrderCommand, OrderEvent, OrderLine, PlacedOrder, Return, SkuQuantity } from './types.js';

export const MAX_LINES = 100;
/** The reason of the service's cancellation of an order left unpaid past PENDING_ORDER_TTL_SECONDS. */
export const PAYMENT_TIMEOUT = 'payment-timeout';

export const initialState = (): Order => ({ status: 'absent' });

/** One empty list that every newly placed order shares (the service keeps tens of thousands of them). */
const NONE: readonly never[] = Object.freeze([]);

export function evolve(state: Order, event: OrderEvent): Order {
  switch (event.type) {
    case 'OrderPlaced': {
      const d = event.data;
      const lines = d.lines.map(lineState);
      return {
        status: 'pending',
        id: d.orderId,
        customerId: d.customerId,
        currency: d.currency,
        lines,
        total: d.total,
        address: d.address,
        createdAt: d.placedAt,
        updatedAt: d.placedAt,
        payment: null,
        shipments: NONE,
        returns: NONE,
        refunds: NONE,
        balance: balanceOf(lines, 0, 0),
        cancellationReason: null,
      };
    }
    case 'OrderAddressChanged':
      return { ...placed(state), address: event.data.address, updatedAt: event.data.changedAt };
    case 'PaymentRecorded': {
      const order = placed(state);
      const { paymentId: id, amount, reference, method, recordedAt } = event.data;
      return { ...order, status: 'paid', payment: { id, amount, reference, method, createdAt: recordedAt }, balance: balanceOf(order.lines, amount, order.balance.refunded), updatedAt: recordedAt };
    }
    case 'ShipmentCreated': {
      const order = placed(state);
      const { shipmentId: id, carrier, trackingNumber, createdAt } = event.data;
      const { lines, shipped } = shipLines(order.lines, event.data.lines);
      const shipment = { id, carrier, trackingNumber, lines: shipped, createdAt };
      return { ...order, status: shippingStatus(lines), lines, shipments: [...order.shipments, shipment], updatedAt: createdAt };
    }
    case 'OrderCancelled': {
      const order = placed(state);
      const lines = cancelRemaining(order.lines);
      const balance = balanceOf(lines, order.balance.paid, order.balance.refunded);
      return { ...order, status: cancelledStatus(lines), lines, balance, cancellationReason: event.data.reason, updatedAt: event.data.cancelledAt };
    }
    case 'OrderPlacementAbandoned':
      return { status: 'absent', abandoned: true };
    case 'ReturnRequested': {
      const order = placed(state);
      return { ...order, returns: [...order.returns, evolveReturn(null, event)], updatedAt: event.data.requestedAt };
    }
    case 'ReturnReceived': {
      const order = placed(state);
      const { returnId, lines: received, receivedAt } = event.data;
      const lines = receiveLines(order.lines, received);
      const returns = order.returns.map((r) => (r.id === returnId ? evolveReturn(r, event) : r));
      return { ...order, lines, returns, balance: balanceOf(lines, order.balance.paid, order.balance.refunded), updatedAt: receivedAt };
    }
    case 'ReturnCancelled': {
      const order = placed(state);
      const returns = order.returns.map((r) => (r.id === event.data.returnId ? evolveReturn(r, event) : r));
      return { ...order, returns, updatedAt: event.data.cancelledAt };
    }
    case 'RefundRecorded': {
      const order = placed(state);
      const { refundId: id, amount, reason, note, recordedAt } = event.data;
      const refunds = [...order.refunds, { id, amount, reason, note, createdAt: recordedAt }];
      return { ...order, refunds, balance: balanceOf(order.lines, order.balance.paid, order.balance.refunded + amount), updatedAt: recordedAt };
    }
    case 'OrderEdited': {
      const order = placed(state);
      const lines = event.data.after.map(lineState);
      return { ...order, lines, total: event.data.total, balance: balanceOf(lines, order.balance.paid, order.balance.refunded), updatedAt: event.data.editedAt };
    }
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
      if (order.status === 'partially_shipped') throw new StateConflict(`Order ${order.id} has shipped in part; its address can no longer change.`, order.status);
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
      if (order.status !== 'paid' && order.status !== 'partially_shipped') {
        throw new StateConflict(`Order ${order.id} is ${order.status}; only a paid order can be shipped.`, order.status);
      }
      const { shipmentId, carrier, trackingNumber } = command.data;
      const remaining = remainingToShip(order);
      const lines = command.data.lines ? merged(command.data.lines) : [...remaining].filter(([, quantity]) => quantity > 0).map(([sku, quantity]) => ({ sku, quantity }));
      if (command.data.lines) {
        checkCounts(command.data.lines);
        checkQuantities(command.data.lines, remaining, 'ship');
      }
      return [{ type: 'ShipmentCreated', schemaVersion: 2, data: { orderId: order.id, shipmentId, carrier, trackingNumber, lines, createdAt: now } }];
    }
    case 'CancelOrder': {
      const order = existing(state, command.data.orderId);
      if (order.status === 'cancelled') return [];
      if (order.status === 'shipped') {
        throw new StateConflict(`Order ${order.id} has shipped; it can no longer be cancelled.`, order.status);
      }
      return [{ type: 'OrderCancelled', schemaVersion: 1, data: { orderId: order.id, reason: command.data.reason, cancelledAt: now } }];
    }
    case 'RequestReturn': {
      const order = existing(state, command.data.orderId);
      if (order.status === 'cancelled') throw new StateConflict(`Order ${order.id} is cancelled; nothing of it can be returned.`, order.status);
      const { returnId, reason } = command.data;
      checkCounts(command.data.lines);
      checkQuantities(command.data.lines, returnable(order), 'return');
      return [{ type: 'ReturnRequested', schemaVersion: 1, data: { orderId: order.id, returnId, lines: merged(command.data.lines), reason, requestedAt: now } }];
    }
    case 'ReceiveReturn': {
      const order = existing(state, command.data.orderId);
      const ret = returnOf(order, command.data.returnId);
      if (ret.status !== 'requested') throw new StateConflict(`Return ${ret.id} is ${ret.status}; only a requested return can be received.`, ret.status);
      const asked = new Map(ret.lines.map((line) => [line.sku, line.quantity]));
      checkCounts(command.data.lines, true);
      checkQuantities(command.data.lines, asked, 'receive');
      return [{ type: 'ReturnReceived', schemaVersion: 1, data: { orderId: order.id, returnId: ret.id, lines: command.data.lines, receivedAt: now } }];
    }
    case 'CancelReturn': {
      const order = existing(state, command.data.orderId);
      const ret = returnOf(order, command.data.returnId);
      if (ret.status !== 'requested') throw new StateConflict(`Return ${ret.id} is ${ret.status}; only a requested return can be cancelled.`, ret.status);
      return [{ type: 'ReturnCancelled', schemaVersion: 1, data: { orderId: order.id, returnId: ret.id, cancelledAt: now } }];
    }
    case 'RecordRefund': {
      const order = existing(state, command.data.orderId);
      if (!order.payment) throw new StateConflict(`Order ${order.id} was never paid; there is nothing to refund.`, order.status);
      const { refundId, amount, reason, note } = command.data;
      if (!Number.isSafeInteger(amount) || amount < 1) throw new ValidationFailed([{ pointer: '/amount', message: 'must be a positive integer in minor units' }]);
      if (amount > refundable(order)) throw new RefundExceedsPayment(refundable(order), amount);
      return [{ type: 'RefundRecorded', schemaVersion: 1, data: { orderId: order.id, refundId, amount, reason, note, recordedAt: now } }];
    }
    case 'EditOrder': {
      const order = existing(state, command.data.orderId);
      if (order.status !== 'pending' && order.status !== 'paid') {
        throw new StateConflict(`Order ${order.id} is ${order.status}; only a pending or paid order can be edited.`, order.status);
      }
      if (order.lines.some((line) => line.shipped > 0)) throw new StateConflict(`Order ${order.id} has shipped in part; its lines can no longer change.`, order.status);
      const after = editedLines(order, command.data.lines, command.data.prices);
      const total = after.reduce((sum, line) => sum + line.lineTotal, 0);
      if (!Number.isSafeInteger(total)) throw new ValidationFailed([{ pointer: '/lines', message: 'order total is too large' }]);
      const before = order.lines.map(({ sku, name, quantity, unitPrice, lineTotal }) => ({ sku, name, quantity, unitPrice, lineTotal }));
      if (sameLines(before, after)) return [];
      return [{ type: 'OrderEdited', schemaVersion: 1, data: { orderId: order.id, editId: command.data.editId, before, after, total, editedAt: now } }];
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

function returnOf(order: PlacedOrder, returnId: string): Return {
  const ret = order.returns.find((r) => r.id === returnId);
  if (!ret) throw new NotFound('return', returnId);
  return ret;
}

/** A SKU named on more than one line counts once, with the quantities summed, in the order first named. */
function merged(lines: readonly SkuQuantity[]): SkuQuantity[] {
  const sums = new Map<string, number>();
  for (const line of lines) sums.set(line.sku, (sums.get(line.sku) ?? 0) + line.quantity);
  return [...sums].map(([sku, quantity]) => ({ sku, quantity }));
}

/**
 * The order's new lines: a SKU it holds keeps its name and price (its first line's), a new SKU
 * takes today's catalogue line from `prices`. A SKU named twice is one line.
 */
function editedLines(order: PlacedOrder, lines: readonly SkuQuantity[], prices: readonly CataloguedLine[]): OrderLine[] {
  const errors: FieldError[] = [];
  const wanted = merged(lines);
  const out = wanted.map((line, i) => {
    const kept = order.lines.find((l) => l.sku === line.sku);
    const priced = kept ?? prices.find((p) => p.sku === line.sku);
    if (!priced) {
      errors.push({ pointer: `/lines/${i}/sku`, message: `${line.sku} has no price in ${order.currency}` });
      return null;
    }
    return { sku: line.sku, name: priced.name, quantity: line.quantity, unitPrice: priced.unitPrice };
  });
  if (errors.length > 0) throw new ProductUnavailable(errors);
  return priceLines(out.filter((line) => line !== null));
}

function sameLines(a: readonly OrderLine[], b: readonly OrderLine[]): boolean {
  return a.length === b.length && a.every((line, i) => line.sku === b[i]!.sku && line.quantity === b[i]!.quantity && line.unitPrice === b[i]!.unitPrice);
}

/** A kept line's name is null when it was placed before the catalogue. */
function priceLines(lines: readonly (Omit<CataloguedLine, 'name'> & { readonly name: string | null })[]): OrderLine[] {
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
