// The order decider after payment (HTTP-CONTRACT "Orders after payment"): shipments by line,
// returns and their receipts, refunds, edits, the balance, and what the stock should hold.
import { describe, expect, it } from 'vitest';
import { NotFound, ProductUnavailable, StateConflict, ValidationFailed } from '../../../write-side/kernel/errors.js';
import type { RecordedEvent } from '../../../write-side/kernel/event-store.js';
import { encodePosition } from '../../../write-side/kernel/position.js';
import { QuantityUnavailable, RefundExceedsPayment, stockTargets } from '../../../write-side/orders/rules.js';
import { decodeOrderEvent } from '../../../write-side/orders/codec.js';
import { evolve, initialState, orderDecider } from '../../../write-side/orders/decider.js';
import type { Address, CataloguedLine, Order, OrderCommand, OrderEvent, PlacedOrder, ReceivedLine, SkuQuantity } from '../../../write-side/orders/types.js';
import { givenDecider } from '../../support/decider.js';

const given = givenDecider(orderDecider);

const id = 'ord-1';
const placedAt = '2027-01-02T10:00:00.000Z';
const now = '2027-01-02T11:00:00.000Z';
const metadata = { now, principal: 'staff-1' };
const home: Address = { name: 'Ada Lovelace', line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' };

// Three mugs at 10.00 and one jug at 5.00: 35.00.
const placed: OrderEvent = {
  type: 'OrderPlaced',
  schemaVersion: 2,
  data: {
    orderId: id, customerId: 'cus_42', currency: 'EUR', address: home, placedAt, total: 3500,
    lines: [{ sku: 'MUG', name: 'Mug', quantity: 3, unitPrice: 1000, lineTotal: 3000 }, { sku: 'JUG', name: 'Jug', quantity: 1, unitPrice: 500, lineTotal: 500 }],
  },
};
const paid: OrderEvent = { type: 'PaymentRecorded', schemaVersion: 2, data: { orderId: id, paymentId: 'pay-1', amount: 3500, reference: 'psp', method: 'card', recordedAt: now } };
const shipped = (lines: SkuQuantity[] | null, shipmentId = 'shp-1'): OrderEvent => ({
  type: 'ShipmentCreated', schemaVersion: 2, data: { orderId: id, shipmentId, carrier: 'DHL', trackingNumber: 'T1', lines, createdAt: now },
});
const requested = (lines: SkuQuantity[], returnId = 'ret-1'): OrderEvent => ({ type: 'ReturnRequested', schemaVersion: 1, data: { orderId: id, returnId, lines, reason: 'too small', requestedAt: now } });
const received = (lines: ReceivedLine[], returnId = 'ret-1'): OrderEvent => ({ type: 'ReturnReceived', schemaVersion: 1, data: { orderId: id, returnId, lines, receivedAt: now } });
const returnCancelled = (returnId = 'ret-1'): OrderEvent => ({ type: 'ReturnCancelled', schemaVersion: 1, data: { orderId: id, returnId, cancelledAt: now } });
const refunded = (amount: number, refundId = 'ref-1'): OrderEvent => ({ type: 'RefundRecorded', schemaVersion: 1, data: { orderId: id, refundId, amount, reason: 'return', note: null, recordedAt: now } });
const cancelled: OrderEvent = { type: 'OrderCancelled', schemaVersion: 1, data: { orderId: id, reason: null, cancelledAt: now } };

const ship = (lines?: SkuQuantity[]): OrderCommand => ({ type: 'CreateShipment', data: { orderId: id, shipmentId: 'shp-2', carrier: 'UPS', trackingNumber: 'T2', ...(lines ? { lines } : {}) }, metadata });
const requestReturn = (lines: SkuQuantity[]): OrderCommand => ({ type: 'RequestReturn', data: { orderId: id, returnId: 'ret-2', lines, reason: 'broken' }, metadata });
const receive = (lines: ReceivedLine[], returnId = 'ret-1'): OrderCommand => ({ type: 'ReceiveReturn', data: { orderId: id, returnId, lines }, metadata });
const cancelReturn = (returnId = 'ret-1'): OrderCommand => ({ type: 'CancelReturn', data: { orderId: id, returnId }, metadata });
const refund = (amount: number): OrderCommand => ({ type: 'RecordRefund', data: { orderId: id, refundId: 'ref-2', amount, reason: 'goodwill', note: 'sorry' }, metadata });
const edit = (lines: SkuQuantity[], prices: CataloguedLine[] = []): OrderCommand => ({ type: 'EditOrder', data: { orderId: id, editId: 'edit-1', lines, prices }, metadata });
const cancel: OrderCommand = { type: 'CancelOrder', data: { orderId: id, reason: null }, metadata };
const changeAddress: OrderCommand = { type: 'ChangeAddress', data: { orderId: id, patch: { city: 'Paris' } }, metadata };

const fold = (...events: OrderEvent[]): PlacedOrder => {
  const order = events.reduce(evolve, initialState());
  if (order.status === 'absent') throw new Error('not placed');
  return order;
};
/** Each line as [sku, shipped, cancelled, returned]. */
const counts = (order: PlacedOrder) => order.lines.map((l) => [l.sku, l.shipped, l.cancelled, l.returned]);

describe('shipments by line', () => {
  it('ships the lines named and leaves the order partially shipped', () => {
    given(placed, paid).when(ship([{ sku: 'MUG', quantity: 2 }]))
      .then({ type: 'ShipmentCreated', schemaVersion: 2, data: { orderId: id, shipmentId: 'shp-2', carrier: 'UPS', trackingNumber: 'T2', lines: [{ sku: 'MUG', quantity: 2 }], createdAt: now } });
    const order = fold(placed, paid, shipped([{ sku: 'MUG', quantity: 2 }]));
    expect(order.status).toBe('partially_shipped');
    expect(counts(order)).toEqual([['MUG', 2, 0, 0], ['JUG', 0, 0, 0]]);
    expect(order.shipments).toEqual([expect.objectContaining({ id: 'shp-1', lines: [{ sku: 'MUG', quantity: 2 }] })]);
  });

  it('ships again from partially_shipped, and the order is shipped once nothing remains', () => {
    given(placed, paid, shipped([{ sku: 'MUG', quantity: 2 }])).when(ship([{ sku: 'MUG', quantity: 1 }, { sku: 'JUG', quantity: 1 }]))
      .thenMatches({ type: 'ShipmentCreated', data: { lines: [{ sku: 'MUG', quantity: 1 }, { sku: 'JUG', quantity: 1 }] } });
    const order = fold(placed, paid, shipped([{ sku: 'MUG', quantity: 2 }]), shipped([{ sku: 'MUG', quantity: 1 }, { sku: 'JUG', quantity: 1 }], 'shp-2'));
    expect(order.status).toBe('shipped');
    expect(counts(order)).toEqual([['MUG', 3, 0, 0], ['JUG', 1, 0, 0]]);
  });

  it('ships everything that remains when no lines are named', () =>
    given(placed, paid, shipped([{ sku: 'MUG', quantity: 2 }])).when(ship())
      .thenMatches({ type: 'ShipmentCreated', data: { lines: [{ sku: 'MUG', quantity: 1 }, { sku: 'JUG', quantity: 1 }] } }));

  it('counts a SKU named twice once, with its quantities summed', () =>
    given(placed, paid).when(ship([{ sku: 'MUG', quantity: 1 }, { sku: 'MUG', quantity: 1 }])).thenMatches({ data: { lines: [{ sku: 'MUG', quantity: 2 }] } }));

  it('refuses more than remains of a line, saying what remains', () => {
    given(placed, paid).when(ship([{ sku: 'MUG', quantity: 4 }]))
      .thenFails(QuantityUnavailable, { rule: 'quantity-unavailable', details: { errors: [{ pointer: '/lines/0/quantity', remaining: 3 }] } });
    given(placed, paid, shipped([{ sku: 'MUG', quantity: 2 }])).when(ship([{ sku: 'MUG', quantity: 1 }, { sku: 'MUG', quantity: 1 }]))
      .thenFails(QuantityUnavailable, { details: { errors: [{ pointer: '/lines/1/quantity', remaining: 1 }] } });
  });

  it('refuses a SKU that is not on the order', () =>
    given(placed, paid).when(ship([{ sku: 'JUG', quantity: 1 }, { sku: 'CUP', quantity: 1 }]))
      .thenFails(QuantityUnavailable, { details: { errors: [{ pointer: '/lines/1/sku', remaining: 0 }] } }));

  it('refuses a quantity that is not a positive integer, and a shipment of nothing', () => {
    for (const quantity of [0, -1, 1.5]) given(placed, paid).when(ship([{ sku: 'MUG', quantity }])).thenFails(ValidationFailed, { errors: [{ pointer: '/lines/0/quantity' }] });
    given(placed, paid).when(ship([])).thenFails(ValidationFailed, { errors: [{ pointer: '/lines' }] });
  });

  it('refuses to ship an order that is pending, shipped or cancelled', () => {
    given(placed).when(ship([{ sku: 'MUG', quantity: 1 }])).thenFails(StateConflict, { currentStatus: 'pending' });
    given(placed, paid, shipped(null)).when(ship()).thenFails(StateConflict, { currentStatus: 'shipped' });
    given(placed, paid, cancelled).when(ship()).thenFails(StateConflict, { currentStatus: 'cancelled' });
  });

  it('reads a version 1 shipment (no lines: upcast to null) as everything that remained then', () => {
    const v1: RecordedEvent = {
      streamName: `order-${id}`, revision: 3, position: encodePosition(4n), type: 'ShipmentCreated', recordedAt: new Date(now),
      data: { orderId: id, shipmentId: 'shp-old', carrier: 'DHL', trackingNumber: 'OLD', createdAt: now },
      metadata: { schemaVersion: 1, principal: 'p', correlationId: 'c', causationId: null },
    };
    const upcast = decodeOrderEvent(v1);
    expect(upcast).toMatchObject({ type: 'ShipmentCreated', schemaVersion: 2, data: { lines: null } });
    const order = fold(placed, paid, shipped([{ sku: 'MUG', quantity: 1 }]), upcast);
    expect(order.status).toBe('shipped');
    expect(counts(order)).toEqual([['MUG', 3, 0, 0], ['JUG', 1, 0, 0]]);
    expect(order.shipments[1]).toMatchObject({ id: 'shp-old', lines: [{ sku: 'MUG', quantity: 2 }, { sku: 'JUG', quantity: 1 }] });
  });
});

describe('returns', () => {
  const mugsShipped = [placed, paid, shipped([{ sku: 'MUG', quantity: 3 }])];

  it('requests a return of shipped units', () =>
    given(...mugsShipped).when(requestReturn([{ sku: 'MUG', quantity: 2 }]))
      .then({ type: 'ReturnRequested', schemaVersion: 1, data: { orderId: id, returnId: 'ret-2', lines: [{ sku: 'MUG', quantity: 2 }], reason: 'broken', requestedAt: now } }));

  it('refuses units not shipped yet, and a SKU not on the order', () => {
    given(...mugsShipped).when(requestReturn([{ sku: 'JUG', quantity: 1 }])).thenFails(QuantityUnavailable, { details: { errors: [{ remaining: 0 }] } });
    given(...mugsShipped).when(requestReturn([{ sku: 'CUP', quantity: 1 }])).thenFails(QuantityUnavailable, { details: { errors: [{ pointer: '/lines/0/sku' }] } });
    given(placed, paid).when(requestReturn([{ sku: 'MUG', quantity: 1 }])).thenFails(QuantityUnavailable);
  });

  it('takes at most what was shipped less what live returns hold', () => {
    given(...mugsShipped, requested([{ sku: 'MUG', quantity: 2 }])).when(requestReturn([{ sku: 'MUG', quantity: 2 }]))
      .thenFails(QuantityUnavailable, { details: { errors: [{ remaining: 1 }] } });
    given(...mugsShipped, requested([{ sku: 'MUG', quantity: 2 }])).when(requestReturn([{ sku: 'MUG', quantity: 1 }])).thenMatches({ type: 'ReturnRequested' });
  });

  it('frees what a cancelled return held, and counts what a received return got back rather than what it asked', () => {
    given(...mugsShipped, requested([{ sku: 'MUG', quantity: 3 }]), returnCancelled()).when(requestReturn([{ sku: 'MUG', quantity: 3 }])).thenMatches({ type: 'ReturnRequested' });
    const partlyBack = [...mugsShipped, requested([{ sku: 'MUG', quantity: 3 }]), received([{ sku: 'MUG', quantity: 1, restock: true }])];
    given(...partlyBack).when(requestReturn([{ sku: 'MUG', quantity: 2 }])).thenMatches({ type: 'ReturnRequested' });
    given(...partlyBack).when(requestReturn([{ sku: 'MUG', quantity: 3 }])).thenFails(QuantityUnavailable, { details: { errors: [{ remaining: 2 }] } });
  });

  it('refuses a return on a cancelled order', () => given(placed, paid, cancelled).when(requestReturn([{ sku: 'MUG', quantity: 1 }])).thenFails(StateConflict, { currentStatus: 'cancelled' }));

  it('refuses a quantity that is not a positive integer', () =>
    given(...mugsShipped).when(requestReturn([{ sku: 'MUG', quantity: 0 }])).thenFails(ValidationFailed, { errors: [{ pointer: '/lines/0/quantity' }] }));

  describe('a receipt', () => {
    const asked = [...mugsShipped, requested([{ sku: 'MUG', quantity: 2 }])];

    it('records what came back, restocked or not, each unit in its line’s returned', () => {
      const lines = [{ sku: 'MUG', quantity: 1, restock: true }, { sku: 'MUG', quantity: 1, restock: false }];
      given(...asked).when(receive(lines)).then(received(lines));
      const order = fold(...asked, received(lines));
      expect(counts(order)).toEqual([['MUG', 3, 0, 2], ['JUG', 0, 0, 0]]);
      expect(order.returns).toEqual([expect.objectContaining({ id: 'ret-1', status: 'received', lines: [{ sku: 'MUG', quantity: 2 }], received: lines })]);
    });

    it('takes at most what the return asked for, of the SKUs it named', () => {
      given(...asked).when(receive([{ sku: 'MUG', quantity: 3, restock: true }])).thenFails(QuantityUnavailable, { details: { errors: [{ remaining: 2 }] } });
      given(...asked).when(receive([{ sku: 'MUG', quantity: 2, restock: true }, { sku: 'MUG', quantity: 1, restock: false }])).thenFails(QuantityUnavailable);
      given(...asked).when(receive([{ sku: 'JUG', quantity: 1, restock: true }])).thenFails(QuantityUnavailable, { details: { errors: [{ pointer: '/lines/0/sku' }] } });
    });

    it('refuses a quantity that is not a positive integer (a restock of nothing the stock would refuse)', () =>
      given(...asked).when(receive([{ sku: 'MUG', quantity: 0, restock: true }])).thenFails(ValidationFailed, { errors: [{ pointer: '/lines/0/quantity' }] }));

    it('is refused a second time, and for a cancelled return', () => {
      given(...asked, received([{ sku: 'MUG', quantity: 2, restock: true }])).when(receive([{ sku: 'MUG', quantity: 2, restock: true }]))
        .thenFails(StateConflict, { code: 'state-conflict', currentStatus: 'received' });
      given(...asked, returnCancelled()).when(receive([{ sku: 'MUG', quantity: 1, restock: true }])).thenFails(StateConflict, { currentStatus: 'cancelled' });
    });

    it('of a return the order does not have is not found', () => given(...asked).when(receive([], 'ret-9')).thenFails(NotFound, { kind: 'return', id: 'ret-9' }));
  });

  it('is cancelled only while requested', () => {
    const asked = [...mugsShipped, requested([{ sku: 'MUG', quantity: 2 }])];
    given(...asked).when(cancelReturn()).then(returnCancelled());
    given(...asked, received([{ sku: 'MUG', quantity: 2, restock: true }])).when(cancelReturn()).thenFails(StateConflict, { currentStatus: 'received' });
    given(...asked, returnCancelled()).when(cancelReturn()).thenFails(StateConflict, { currentStatus: 'cancelled' });
    expect(fold(...asked, returnCancelled()).returns[0]).toMatchObject({ status: 'cancelled', received: null });
  });
});

describe('refunds', () => {
  it('records a refund of at most what was paid and not refunded yet', () => {
    given(placed, paid).when(refund(3500)).then({ type: 'RefundRecorded', schemaVersion: 1, data: { orderId: id, refundId: 'ref-2', amount: 3500, reason: 'goodwill', note: 'sorry', recordedAt: now } });
    given(placed, paid, refunded(1000)).when(refund(2500)).thenMatches({ data: { amount: 2500 } });
  });

  it('refuses more than that, saying what may be refunded', () => {
    given(placed, paid).when(refund(3501)).thenFails(RefundExceedsPayment, { rule: 'refund-exceeds-payment', details: { refundable: 3500 } });
    given(placed, paid, refunded(1000)).when(refund(2501)).thenFails(RefundExceedsPayment, { details: { refundable: 2500 } });
  });

  it('refunds a cancelled paid order, and a shipped one', () => {
    given(placed, paid, cancelled).when(refund(3500)).thenMatches({ type: 'RefundRecorded' });
    given(placed, paid, shipped(null)).when(refund(100)).thenMatches({ type: 'RefundRecorded' });
  });

  it('refuses a refund of an order that was never paid, cancelled or not', () => {
    given(placed).when(refund(1)).thenFails(StateConflict, { currentStatus: 'pending' });
    given(placed, cancelled).when(refund(1)).thenFails(StateConflict, { currentStatus: 'cancelled' });
  });

  it('refuses an amount that is not a positive integer', () => {
    for (const amount of [0, -5, 1.5]) given(placed, paid).when(refund(amount)).thenFails(ValidationFailed, { errors: [{ pointer: '/amount' }] });
  });
});

describe('edits', () => {
  const pricedCup: CataloguedLine = { sku: 'CUP', name: 'Cup', quantity: 1, unitPrice: 700 };

  it('replaces the lines: kept SKUs keep their price, whatever the catalogue says now; new SKUs take the given price', () => {
    given(placed).when(edit([{ sku: 'MUG', quantity: 1 }, { sku: 'CUP', quantity: 2 }], [pricedCup, { sku: 'MUG', name: 'Mug (new)', quantity: 1, unitPrice: 9999 }])).then({
      type: 'OrderEdited',
      schemaVersion: 1,
      data: {
        orderId: id, editId: 'edit-1', editedAt: now, total: 2400,
        before: [{ sku: 'MUG', name: 'Mug', quantity: 3, unitPrice: 1000, lineTotal: 3000 }, { sku: 'JUG', name: 'Jug', quantity: 1, unitPrice: 500, lineTotal: 500 }],
        after: [{ sku: 'MUG', name: 'Mug', quantity: 1, unitPrice: 1000, lineTotal: 1000 }, { sku: 'CUP', name: 'Cup', quantity: 2, unitPrice: 700, lineTotal: 1400 }],
      },
    });
  });

  it('refuses a new SKU without a price', () => given(placed).when(edit([{ sku: 'CUP', quantity: 1 }])).thenFails(ProductUnavailable, { errors: [{ pointer: '/lines/0/sku' }] }));
  it('records nothing when the lines are as they are', () => given(placed, paid).when(edit([{ sku: 'MUG', quantity: 3 }, { sku: 'JUG', quantity: 1 }])).then());
  it('refuses lines that are not a valid order', () => {
    given(placed).when(edit([])).thenFails(ValidationFailed, { errors: [{ pointer: '/lines' }] });
    given(placed).when(edit([{ sku: 'MUG', quantity: 0 }])).thenFails(ValidationFailed, { errors: [{ pointer: '/lines/0/quantity' }] });
  });

  it('edits a paid order, whose balance then shows what the change costs or gives back', () => {
    const cheaper = fold(placed, paid, { type: 'OrderEdited', schemaVersion: 1, data: { orderId: id, editId: 'e', editedAt: now, total: 1000, before: [], after: [{ sku: 'MUG', name: 'Mug', quantity: 1, unitPrice: 1000, lineTotal: 1000 }] } });
    expect(cheaper).toMatchObject({ status: 'paid', total: 1000, balance: { charged: 1000, paid: 3500, refunded: 0, due: -2500 } });
    expect(counts(cheaper)).toEqual([['MUG', 0, 0, 0]]);
  });

  it('refuses an edit once anything has shipped, and of a shipped or cancelled order', () => {
    given(placed, paid, shipped([{ sku: 'JUG', quantity: 1 }])).when(edit([{ sku: 'MUG', quantity: 1 }, { sku: 'JUG', quantity: 1 }])).thenFails(StateConflict, { currentStatus: 'partially_shipped' });
    given(placed, paid, shipped(null)).when(edit([{ sku: 'MUG', quantity: 1 }])).thenFails(StateConflict, { currentStatus: 'shipped' });
    given(placed, cancelled).when(edit([{ sku: 'MUG', quantity: 1 }])).thenFails(StateConflict, { currentStatus: 'cancelled' });
  });
});

describe('cancelling and the address after a shipment', () => {
  it('cancels what has not shipped of a partially shipped order, which is then shipped', () => {
    given(placed, paid, shipped([{ sku: 'MUG', quantity: 1 }])).when(cancel).then(cancelled);
    const order = fold(placed, paid, shipped([{ sku: 'MUG', quantity: 1 }]), cancelled);
    expect(order.status).toBe('shipped');
    expect(counts(order)).toEqual([['MUG', 1, 2, 0], ['JUG', 0, 1, 0]]);
    // Charged for the one mug that shipped: 25.00 is owed back.
    expect(order.balance).toEqual({ charged: 1000, paid: 3500, refunded: 0, due: -2500 });
    given(placed, paid, shipped([{ sku: 'MUG', quantity: 1 }]), cancelled).when(cancel).thenFails(StateConflict, { currentStatus: 'shipped' });
  });

  it('cancels all of an order nothing of which has shipped', () => {
    const order = fold(placed, paid, cancelled);
    expect(order.status).toBe('cancelled');
    expect(counts(order)).toEqual([['MUG', 0, 3, 0], ['JUG', 0, 1, 0]]);
    expect(order.balance).toEqual({ charged: 0, paid: 3500, refunded: 0, due: -3500 });
  });

  it('refuses an address change once part of the order has shipped', () =>
    given(placed, paid, shipped([{ sku: 'JUG', quantity: 1 }])).when(changeAddress).thenFails(StateConflict, { code: 'state-conflict', currentStatus: 'partially_shipped' }));
});

describe('the balance', () => {
  it('is Σ unitPrice × (quantity − cancelled − returned) charged, and due = charged − paid + refunded, after every event', () => {
    const history = [
      placed, paid, shipped([{ sku: 'MUG', quantity: 2 }]), requested([{ sku: 'MUG', quantity: 2 }]),
      received([{ sku: 'MUG', quantity: 1, restock: true }, { sku: 'MUG', quantity: 1, restock: false }]), refunded(2000), cancelled,
    ];
    const expected = [
      { charged: 3500, paid: 0, refunded: 0, due: 3500 },
      { charged: 3500, paid: 3500, refunded: 0, due: 0 },
      { charged: 3500, paid: 3500, refunded: 0, due: 0 },
      { charged: 3500, paid: 3500, refunded: 0, due: 0 },
      // Two mugs back: 20.00 less charged, owed back until refunded.
      { charged: 1500, paid: 3500, refunded: 0, due: -2000 },
      { charged: 1500, paid: 3500, refunded: 2000, due: 0 },
      // The last mug and the jug cancelled: 15.00 more owed back.
      { charged: 0, paid: 3500, refunded: 2000, due: -1500 },
    ];
    let order: Order = initialState();
    history.forEach((event, i) => {
      order = evolve(order, event);
      expect((order as PlacedOrder).balance).toEqual(expected[i]);
    });
    expect(counts(order as PlacedOrder)).toEqual([['MUG', 2, 1, 2], ['JUG', 0, 1, 0]]);
    expect((order as PlacedOrder).status).toBe('shipped');
  });
});

describe('what the stock should hold for an order', () => {
  it('is, per SKU, what remains to ship reserved and what shipped deducted; nothing reserved once cancelled', () => {
    expect(stockTargets(fold(placed))).toEqual(new Map([['MUG', { reserved: 3, shipped: 0 }], ['JUG', { reserved: 1, shipped: 0 }]]));
    expect(stockTargets(fold(placed, paid, shipped([{ sku: 'MUG', quantity: 2 }])))).toEqual(new Map([['MUG', { reserved: 1, shipped: 2 }], ['JUG', { reserved: 1, shipped: 0 }]]));
    expect(stockTargets(fold(placed, paid, shipped([{ sku: 'MUG', quantity: 2 }]), cancelled))).toEqual(new Map([['MUG', { reserved: 0, shipped: 2 }], ['JUG', { reserved: 0, shipped: 0 }]]));
    expect(stockTargets(fold(placed, cancelled))).toEqual(new Map([['MUG', { reserved: 0, shipped: 0 }], ['JUG', { reserved: 0, shipped: 0 }]]));
  });
});
