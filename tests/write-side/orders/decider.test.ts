import { describe, expect, it } from 'vitest';
import { evolve, initialState, orderDecider } from '../../../write-side/orders/decider.js';
import { OrderNotFound, StateConflict, ValidationFailed } from '../../../write-side/kernel/errors.js';
import type { Address, CataloguedLine, OrderCommand, OrderEvent } from '../../../write-side/orders/types.js';
import { givenDecider } from '../../support/decider.js';

const given = givenDecider(orderDecider);

const id = 'ord-1';
const meta = { now: '2026-11-22T10:00:00.000Z', principal: 'user-1' };
const later = { now: '2026-11-22T11:00:00.000Z', principal: 'user-1' };
const home: Address = { name: 'Ada Lovelace', line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' };
const work: Address = { ...home, line1: '2 Work Rd', line2: 'Floor 3' };

const place = (lines: CataloguedLine[] = [{ sku: 'SKU-1', name: 'Blue mug', quantity: 2, unitPrice: 1999 }, { sku: 'SKU-2', name: 'Green mug', quantity: 1, unitPrice: 1 }]): OrderCommand => ({
  type: 'PlaceOrder',
  data: { orderId: id, customerId: 'cus_42', currency: 'EUR', lines, address: home },
  metadata: meta,
});
const changeAddress: OrderCommand = { type: 'ChangeAddress', data: { orderId: id, patch: { line1: work.line1, line2: work.line2 } }, metadata: later };
const pay = (amount = 3999): OrderCommand => ({ type: 'RecordPayment', data: { orderId: id, paymentId: 'pay-1', amount, reference: 'psp-9', method: 'card' }, metadata: later });
const ship: OrderCommand = { type: 'CreateShipment', data: { orderId: id, shipmentId: 'shp-1', carrier: 'DHL', trackingNumber: 'T1' }, metadata: later };
const cancel: OrderCommand = { type: 'CancelOrder', data: { orderId: id, reason: 'changed my mind' }, metadata: later };

const placed: OrderEvent = {
  type: 'OrderPlaced',
  schemaVersion: 2,
  data: {
    orderId: id, customerId: 'cus_42', currency: 'EUR', total: 3999, address: home, placedAt: meta.now,
    lines: [{ sku: 'SKU-1', name: 'Blue mug', quantity: 2, unitPrice: 1999, lineTotal: 3998 }, { sku: 'SKU-2', name: 'Green mug', quantity: 1, unitPrice: 1, lineTotal: 1 }],
  },
};
const addressChanged: OrderEvent = { type: 'OrderAddressChanged', schemaVersion: 1, data: { orderId: id, address: work, changedAt: later.now } };
const paid: OrderEvent = { type: 'PaymentRecorded', schemaVersion: 2, data: { orderId: id, paymentId: 'pay-1', amount: 3999, reference: 'psp-9', method: 'card', recordedAt: later.now } };
const shipped: OrderEvent = { type: 'ShipmentCreated', schemaVersion: 2, data: { orderId: id, shipmentId: 'shp-1', carrier: 'DHL', trackingNumber: 'T1', lines: [{ sku: 'SKU-1', quantity: 2 }, { sku: 'SKU-2', quantity: 1 }], createdAt: later.now } };
const cancelled: OrderEvent = { type: 'OrderCancelled', schemaVersion: 1, data: { orderId: id, reason: 'changed my mind', cancelledAt: later.now } };

describe('order decider', () => {
  describe('when the order does not exist', () => {
    it('places it with priced lines and an integer total', () => given().when(place()).then(placed));
    it('rejects an address change as not found', () => given().when(changeAddress).thenFails(OrderNotFound, { orderId: id }));
    it('rejects a payment as not found', () => given().when(pay()).thenFails(OrderNotFound));
    it('rejects a shipment as not found', () => given().when(ship).thenFails(OrderNotFound));
    it('rejects a cancellation as not found', () => given().when(cancel).thenFails(OrderNotFound));
  });

  describe('placing', () => {
    it('rejects an order without lines', () =>
      given().when(place([])).thenFails(ValidationFailed, { errors: [{ pointer: '/lines', message: expect.any(String) }] }));
    it('rejects more than 100 lines', () =>
      given().when(place(Array.from({ length: 101 }, (_, i) => ({ sku: `S${i}`, name: 'S', quantity: 1, unitPrice: 1 })))).thenFails(ValidationFailed));
    it('accepts exactly 100 lines', () => {
      const lines = Array.from({ length: 100 }, (_, i) => ({ sku: `S${i}`, name: 'S', quantity: 1, unitPrice: 5 }));
      given().when(place(lines)).thenMatches({ type: 'OrderPlaced', data: { total: 500 } });
    });
    it('rejects a zero, negative or fractional quantity', () => {
      for (const quantity of [0, -1, 1.5]) {
        given().when(place([{ sku: 'S', name: 'S', quantity, unitPrice: 1 }])).thenFails(ValidationFailed, { errors: [{ pointer: '/lines/0/quantity' }] });
      }
    });
    it('rejects a negative or fractional unit price', () => {
      for (const unitPrice of [-1, 19.99]) {
        given().when(place([{ sku: 'S', name: 'S', quantity: 1, unitPrice }])).thenFails(ValidationFailed, { errors: [{ pointer: '/lines/0/unitPrice' }] });
      }
    });
    it('rejects a total beyond exact integer arithmetic', () =>
      given().when(place([{ sku: 'S', name: 'S', quantity: 2 ** 30, unitPrice: 2 ** 30 }, { sku: 'T', name: 'T', quantity: 2 ** 23, unitPrice: 2 ** 30 }])).thenFails(ValidationFailed));
    it('refuses to place an order twice, whatever its state', () => {
      given(placed).when(place()).thenFails(StateConflict, { currentStatus: 'pending' });
      given(placed, paid).when(place()).thenFails(StateConflict, { currentStatus: 'paid' });
      given(placed, paid, shipped).when(place()).thenFails(StateConflict, { currentStatus: 'shipped' });
      given(placed, cancelled).when(place()).thenFails(StateConflict, { currentStatus: 'cancelled' });
    });
  });

  describe('when pending', () => {
    it('changes the address', () => given(placed).when(changeAddress).then(addressChanged));
    it('records nothing when the address is unchanged', () =>
      given(placed).when({ ...changeAddress, data: { orderId: id, patch: { ...home } } }).then());
    it('merges the patch into the address as it is now: a member set to null is removed', () =>
      given(placed, addressChanged).when({ ...changeAddress, data: { orderId: id, patch: { city: 'Paris', line2: null } } })
        .then({ type: 'OrderAddressChanged', schemaVersion: 1, data: { orderId: id, address: { ...work, city: 'Paris', line2: null }, changedAt: later.now } }));
    it('rejects a patch that would leave the address without a required member', () =>
      given(placed).when({ ...changeAddress, data: { orderId: id, patch: { name: null, country: 'de' } } })
        .thenFails(ValidationFailed, { errors: [{ pointer: '/address/name' }, { pointer: '/address/country' }] }));
    it('records a payment of exactly the total', () => given(placed).when(pay()).then(paid));
    it('rejects a payment of another amount', () =>
      given(placed).when(pay(3998)).thenFails(ValidationFailed, { errors: [{ pointer: '/amount' }] }));
    it('rejects a shipment before payment', () => given(placed).when(ship).thenFails(StateConflict, { currentStatus: 'pending' }));
    it('cancels', () => given(placed).when(cancel).then(cancelled));
  });

  describe('when paid', () => {
    it('changes the address', () => given(placed, paid).when(changeAddress).then(addressChanged));
    it('rejects a second payment', () => given(placed, paid).when(pay()).thenFails(StateConflict, { currentStatus: 'paid' }));
    it('creates a shipment', () => given(placed, paid).when(ship).then(shipped));
    it('cancels', () => given(placed, paid).when(cancel).then(cancelled));
  });

  describe('when shipped', () => {
    it('rejects an address change after shipping', () =>
      given(placed, paid, shipped).when(changeAddress).thenFails(StateConflict, { currentStatus: 'shipped', code: 'state-conflict' }));
    it('rejects a payment', () => given(placed, paid, shipped).when(pay()).thenFails(StateConflict, { currentStatus: 'shipped' }));
    it('rejects a second shipment', () => given(placed, paid, shipped).when(ship).thenFails(StateConflict, { currentStatus: 'shipped' }));
    it('rejects a cancellation', () => given(placed, paid, shipped).when(cancel).thenFails(StateConflict, { currentStatus: 'shipped' }));
  });

  describe('when cancelled', () => {
    it('rejects an address change', () => given(placed, cancelled).when(changeAddress).thenFails(StateConflict, { currentStatus: 'cancelled' }));
    it('rejects a payment', () => given(placed, cancelled).when(pay()).thenFails(StateConflict, { currentStatus: 'cancelled' }));
    it('rejects a shipment', () => given(placed, paid, cancelled).when(ship).thenFails(StateConflict, { currentStatus: 'cancelled' }));
    it('treats a second cancellation as a no-op', () => given(placed, cancelled).when(cancel).then());
  });

  describe('evolve', () => {
    it('folds the history into the current order', () => {
      const order = [placed, addressChanged, paid, shipped].reduce(evolve, initialState());
      expect(order).toMatchObject({
        status: 'shipped', id, total: 3999, address: work, createdAt: meta.now, updatedAt: later.now,
        payment: { id: 'pay-1', amount: 3999 }, shipments: [{ id: 'shp-1', carrier: 'DHL', lines: [{ sku: 'SKU-1', quantity: 2 }, { sku: 'SKU-2', quantity: 1 }] }],
        balance: { charged: 3999, paid: 3999, refunded: 0, due: 0 },
      });
    });
  });
});

describe('the service’s own order commands', () => {
  const expire: OrderCommand = { type: 'ExpirePendingOrder', data: { orderId: id }, metadata: later };
  const abandon: OrderCommand = { type: 'AbandonPlacement', data: { orderId: id }, metadata: later };
  const abandoned: OrderEvent = { type: 'OrderPlacementAbandoned', schemaVersion: 1, data: { orderId: id, abandonedAt: later.now } };

  it('expires a pending order with reason payment-timeout', () =>
    given(placed).when(expire).then({ type: 'OrderCancelled', schemaVersion: 1, data: { orderId: id, reason: 'payment-timeout', cancelledAt: later.now } }));
  it('leaves a paid, shipped or cancelled order as it is', () => {
    given(placed, paid).when(expire).then();
    given(placed, paid, shipped).when(expire).then();
    given(placed, cancelled).when(expire).then();
  });
  it('gives up a placement whose order was never appended', () => given().when(abandon).then(abandoned));
  it('gives up nothing once the order is placed, nor twice', () => {
    given(placed).when(abandon).then();
    given(abandoned).when(abandon).then();
  });
  it('refuses to place an order whose placement was given up', () => given(abandoned).when(place()).thenFails(StateConflict));
});
