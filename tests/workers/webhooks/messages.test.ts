// Webhook messages: which log events partners get (and about which resource), their stable ids,
// and the bodies built at send time from the real services on an embedded store.
import { randomUUID } from 'node:crypto';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../api/openapi.js';
import { PERSONAL_DATA } from '../../../write-side/areas.js';
import { encodeProductEvent, productStream } from '../../../write-side/catalogue/codec.js';
import { ProductService } from '../../../write-side/catalogue/service.js';
import type { ProductEvent } from '../../../write-side/catalogue/types.js';
import { customerStream, encodeCustomerEvent } from '../../../write-side/customers/codec.js';
import { CustomerService } from '../../../write-side/customers/service.js';
import type { CustomerEvent } from '../../../write-side/customers/types.js';
import { serviceViewer } from '../../../write-side/kernel/access.js';
import type { NewEvent, RecordedEvent } from '../../../write-side/kernel/event-store.js';
import { encodeSequence } from '../../../write-side/kernel/position.js';
import { encodeOrderEvent, orderStream } from '../../../write-side/orders/codec.js';
import { ERASED_ADDRESS } from '../../../write-side/orders/personal-data.js';
import { OrderService } from '../../../write-side/orders/service.js';
import type { OrderEvent } from '../../../write-side/orders/types.js';
import { CustomerErasure } from '../../../write-side/personal-data/erasure.js';
import { SealingEventStore } from '../../../write-side/personal-data/sealing-event-store.js';
import { encodeStockEvent, stockStream } from '../../../write-side/stock/codec.js';
import { StockService } from '../../../write-side/stock/service.js';
import type { StockEvent } from '../../../write-side/stock/types.js';
import { buildMessage, eventIdOf, messageReaders, webhookEventOf, webhookMessageId, type MessageReaders } from '../../../workers/webhooks/messages.js';
import { openEmbedded, type StoreFixture } from '../../support/event-stores.js';
import { inMemoryPersonalData } from '../../support/personal-data.js';
import { receiveStock } from '../../support/seed.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const at = '2027-01-02T10:00:00.000Z';
const meta = { correlationId: 'c', causationId: null, principal: 'p' };

/** A recorded event as a store hands it out, from an encoded one. */
function recordedOf(streamName: string, event: NewEvent, revision = 0): RecordedEvent {
  return { ...event, streamName, revision, position: encodeSequence(revision + 1), recordedAt: new Date(at) };
}
const orderRecord = (event: OrderEvent, revision = 0) => recordedOf(orderStream(event.data.orderId), encodeOrderEvent(event, meta), revision);
const productRecord = (event: ProductEvent) => recordedOf(productStream(event.data.sku), encodeProductEvent(event, meta));
const customerRecord = (id: string, event: CustomerEvent) => recordedOf(customerStream(id), encodeCustomerEvent(event, meta));

describe('webhookEventOf', () => {
  const orderId = 'ord-1';
  const address = { name: 'Ada', line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' };
  const line = { sku: 'MUG', name: 'Mug', quantity: 1, unitPrice: 1000, lineTotal: 1000 };
  const orderEvents: ReadonlyArray<readonly [OrderEvent, string | null]> = [
    [{ type: 'OrderPlaced', schemaVersion: 2, data: { orderId, customerId: 'cus_1', currency: 'EUR', lines: [line], total: 1000, address, placedAt: at } }, 'order.placed'],
    [{ type: 'PaymentRecorded', schemaVersion: 2, data: { orderId, paymentId: 'pay', amount: 1000, reference: 'r', method: 'card', recordedAt: at } }, 'order.paid'],
    [{ type: 'OrderAddressChanged', schemaVersion: 1, data: { orderId, address, changedAt: at } }, 'order.address_changed'],
    [{ type: 'ShipmentCreated', schemaVersion: 2, data: { orderId, shipmentId: 's', carrier: 'DHL', trackingNumber: 'T', lines: null, createdAt: at } }, 'order.shipped'],
    [{ type: 'OrderCancelled', schemaVersion: 1, data: { orderId, reason: null, cancelledAt: at } }, 'order.cancelled'],
    [{ type: 'OrderEdited', schemaVersion: 1, data: { orderId, editId: 'e', before: [line], after: [{ ...line, quantity: 2, lineTotal: 2000 }], total: 2000, editedAt: at } }, 'order.edited'],
    [{ type: 'RefundRecorded', schemaVersion: 1, data: { orderId, refundId: 'f', amount: 100, reason: 'goodwill', note: null, recordedAt: at } }, 'order.refunded'],
    [{ type: 'ReturnRequested', schemaVersion: 1, data: { orderId, returnId: 'r', lines: [{ sku: 'MUG', quantity: 1 }], reason: 'x', requestedAt: at } }, 'return.requested'],
    [{ type: 'ReturnReceived', schemaVersion: 1, data: { orderId, returnId: 'r', lines: [{ sku: 'MUG', quantity: 1, restock: true }], receivedAt: at } }, 'return.received'],
    [{ type: 'ReturnCancelled', schemaVersion: 1, data: { orderId, returnId: 'r', cancelledAt: at } }, null],
    [{ type: 'OrderPlacementAbandoned', schemaVersion: 1, data: { orderId, abandonedAt: at } }, null],
  ];

  it.each(orderEvents.map(([event, type]) => [event.type, type, event] as const))('maps %s to %s, about its order', (_name, type, event) => {
    const ref = webhookEventOf(orderRecord(event, 3));
    if (type === null) expect(ref).toBeNull();
    else expect(ref).toEqual({ type, resource: 'order:ord-1', eventId: eventIdOf('order-ord-1', 3) });
  });

  it("maps the catalogue's defined, changed and retired events to product.changed, about the SKU", () => {
    const product = { name: 'Mug', description: null, prices: { EUR: 1000 }, status: 'active' as const };
    const events: ProductEvent[] = [
      { type: 'ProductDefined', schemaVersion: 2, data: { sku: 'MUG-1', product, definedAt: at } },
      { type: 'ProductChanged', schemaVersion: 2, data: { sku: 'MUG-1', product, changedAt: at } },
      { type: 'ProductRetired', schemaVersion: 1, data: { sku: 'MUG-1', retiredAt: at } },
    ];
    for (const event of events) {
      expect(webhookEventOf(productRecord(event))).toEqual({ type: 'product.changed', resource: 'product:MUG-1', eventId: eventIdOf('product-MUG-1', 0) });
    }
  });

  it("maps a customer's erasure to customer.erased, and its other events to nothing", () => {
    const profile = { email: 'a@example.com', name: 'Ada', phone: null, defaultAddress: null };
    expect(webhookEventOf(customerRecord('cus_9', { type: 'CustomerErased', schemaVersion: 1, data: { customerId: 'cus_9', erasedAt: at } })))
      .toEqual({ type: 'customer.erased', resource: 'customer:cus_9', eventId: eventIdOf('customer-cus_9', 0) });
    expect(webhookEventOf(customerRecord('cus_9', { type: 'CustomerRegistered', schemaVersion: 1, data: { customerId: 'cus_9', ...profile, registeredAt: at } }))).toBeNull();
    expect(webhookEventOf(customerRecord('cus_9', { type: 'CustomerChanged', schemaVersion: 1, data: { customerId: 'cus_9', changes: { name: 'Grace' }, changedAt: at } }))).toBeNull();
  });

  it("maps a SKU's fall below its low-stock threshold to stock.low, about the SKU, and its other stock events to nothing", () => {
    const fell: StockEvent = { type: 'StockFellLow', schemaVersion: 1, data: { sku: 'MUG-1', onHand: 10, reserved: 7, available: 3, threshold: 5, at } };
    expect(webhookEventOf(recordedOf(stockStream('MUG-1'), encodeStockEvent(fell, meta), 12))).toEqual({ type: 'stock.low', resource: 'stock:MUG-1', eventId: eventIdOf('stock-MUG-1', 12) });
    const others: StockEvent[] = [
      { type: 'StockAdjusted', schemaVersion: 1, data: { sku: 'MUG-1', adjustmentId: 'a', delta: -7, reason: 'count', note: null, onHand: 3, reserved: 0, adjustedAt: at } },
      { type: 'StockReserved', schemaVersion: 1, data: { sku: 'MUG-1', orderId: 'o', quantity: 1, reservedAt: at } },
      { type: 'ReservationReleased', schemaVersion: 1, data: { sku: 'MUG-1', orderId: 'o', quantity: 1, reason: 'order-cancelled', releasedAt: at } },
      { type: 'ReservationCommitted', schemaVersion: 1, data: { sku: 'MUG-1', orderId: 'o', quantity: 1, committedAt: at } },
    ];
    for (const event of others) expect(webhookEventOf(recordedOf(stockStream('MUG-1'), encodeStockEvent(event, meta)))).toBeNull();
    // A snapshot's stream is not a stock stream, whatever its events are called.
    expect(webhookEventOf(recordedOf('snapshot-stock-MUG-1', encodeStockEvent(fell, meta)))).toBeNull();
  });

  it("sends nothing for the other areas' streams (stock, jobs, keys, subscriptions, accounts)", () => {
    const other = (stream: string, type: string) => recordedOf(stream, { type, data: { sku: 'MUG' }, metadata: { ...meta, schemaVersion: 1 } });
    expect(webhookEventOf(other('stock-MUG', 'StockAdjusted'))).toBeNull();
    expect(webhookEventOf(other('stock-MUG', 'StockReserved'))).toBeNull();
    expect(webhookEventOf(other('snapshot-stock-MUG', 'StockSnapshot'))).toBeNull();
    expect(webhookEventOf(other('job-1', 'JobQueued'))).toBeNull();
    expect(webhookEventOf(other('idempotency-1', 'IdempotencyKeyTaken'))).toBeNull();
    expect(webhookEventOf(other('webhook-subscription-1', 'WebhookSubscriptionCreated'))).toBeNull();
    expect(webhookEventOf(other('account-1', 'AccountCreated'))).toBeNull();
    expect(webhookEventOf(other('unique-customer-email-x', 'UniqueValueClaimed'))).toBeNull();
  });
});

describe('eventIdOf', () => {
  it('is a UUID v5 of the stream and revision: the same every time, different for another event', () => {
    const id = eventIdOf('order-ord-1', 4);
    expect(id).toMatch(UUID);
    expect(eventIdOf('order-ord-1', 4)).toBe(id);
    expect(eventIdOf('order-ord-1', 5)).not.toBe(id);
    expect(eventIdOf('order-ord-2', 4)).not.toBe(id);
    // No concatenation ambiguity between a stream's name and a revision.
    expect(eventIdOf('order-1', 23)).not.toBe(eventIdOf('order-12', 3));
  });

  it('does not depend on where the event lies in the log or when it was recorded (the same in both stores, on every replay)', () => {
    const placed: OrderEvent = { type: 'OrderCancelled', schemaVersion: 1, data: { orderId: 'ord-7', reason: null, cancelledAt: at } };
    const here = orderRecord(placed, 2);
    const there = { ...here, position: encodeSequence(9_999), recordedAt: new Date('2030-01-01T00:00:00Z') };
    expect(webhookEventOf(there)!.eventId).toBe(webhookEventOf(here)!.eventId);
    expect(webhookMessageId(webhookEventOf(here)!)).toBe(`evt_${eventIdOf('order-ord-7', 2)}`);
  });
});

describe('buildMessage on the real services', () => {
  let events: StoreFixture;
  let orders: OrderService;
  let customers: CustomerService;
  let products: ProductService;
  let stock: StockService;
  let readers: MessageReaders;
  const staff = serviceViewer('test-webhooks');
  const keyed = (key = randomUUID()) => ({ correlationId: 'c', idempotency: { key, fingerprint: key } });
  const home = { name: 'Grace Hopper', line1: '7 Navy Yard', line2: null, city: 'Arlington', postalCode: '22202', region: null, country: 'US' };
  let sku: string;
  let other: string;
  const cleanups: Array<() => Promise<void> | void> = [];

  beforeEach(async () => {
    events = await openEmbedded();
    const personal = inMemoryPersonalData();
    const sealed = new SealingEventStore(events.store, personal.personal, PERSONAL_DATA);
    products = new ProductService(events.store);
    customers = new CustomerService(sealed, { erasure: new CustomerErasure(personal.keyring) });
    stock = new StockService(events.store, { thresholds: products });
    orders = new OrderService(sealed, { catalogue: products, customers, reservations: stock, keys: personal.keyring });
    cleanups.push(() => events.dispose(), () => personal.keys.close());
    readers = messageReaders({ orders, customers, eventStore: events.store });
    // SKUs of this test alone: the store may be shared with other tests.
    sku = `WH-${randomUUID().slice(0, 8)}`;
    other = `WH-${randomUUID().slice(0, 8)}`;
    await products.put(staff, sku, { name: 'Blue mug', description: null, prices: { EUR: 1000 }, status: 'active' }, { correlationId: 'c' });
    await products.put(staff, other, { name: 'Jug', description: 'Stoneware', prices: { EUR: 500 }, status: 'active' }, { correlationId: 'c' });
    await receiveStock(events.store, [sku, other], 100);
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function newCustomer(): Promise<string> {
    const registered = await customers.register(staff, { email: `${randomUUID()}@example.com`, name: 'Grace Hopper', phone: '+1 555 0100', defaultAddress: home }, keyed());
    return (registered.state as { id: string }).id;
  }

  async function place(customerId: string): Promise<string> {
    const placed = await orders.place(staff, { customerId, currency: 'EUR', lines: [{ sku, quantity: 2 }, { sku: other, quantity: 1 }], address: home }, keyed());
    return (placed.state as { id: string }).id;
  }

  /** The order's recorded events, as the log hands them to the worker (sealed: it reads the store as stored). */
  const history = (orderId: string) => events.store.readStream(orderStream(orderId));

  /** The body the OpenAPI document's webhooks entry of that type describes (what a partner's generated types expect). */
  const documented = (() => {
    const document = JSON.parse(JSON.stringify(openApiDocument())) as { webhooks: Record<string, any>; components: object };
    const ajv = new Ajv2020({ allErrors: true, strict: false, formats: { 'date-time': true, uri: true, uuid: true } });
    ajv.addSchema({ $id: 'document', components: document.components });
    const validators = new Map<string, ValidateFunction>();
    return (type: string): ValidateFunction => {
      const body = document.webhooks[type]?.post.requestBody.content['application/json'].schema as { $ref: string } | undefined;
      if (!body) throw new TypeError(`the OpenAPI document has no webhook ${type}`);
      if (!validators.has(type)) validators.set(type, ajv.compile({ $ref: `document${body.$ref}` }));
      return validators.get(type)!;
    };
  })();

  async function messageOf(recorded: RecordedEvent, apiVersion = '2027-01-01') {
    const ref = webhookEventOf(recorded);
    expect(ref).not.toBeNull();
    const message = JSON.parse(await buildMessage(ref!, recorded, apiVersion, readers));
    // Every message built here is also one the OpenAPI document describes.
    const validate = documented(ref!.type);
    expect(validate(message) ? [] : validate.errors, `${ref!.type} against the document`).toEqual([]);
    return message;
  }

  it('builds order.placed: the id, type, time and position of the event, and the order as GET answers it at that revision', async () => {
    const orderId = await place(await newCustomer());
    const [placed] = await history(orderId);
    const message = await messageOf(placed!);
    const now = (await orders.get(staff, orderId))!;
    expect(message).toEqual({
      id: `evt_${eventIdOf(orderStream(orderId), 0)}`,
      type: 'order.placed',
      occurredAt: placed!.recordedAt.toISOString(),
      position: placed!.position,
      data: {
        id: orderId, customerId: now.order.customerId, status: 'pending', currency: 'EUR',
        lines: now.order.lines, total: 2500, balance: now.order.balance, address: home,
        createdAt: now.order.createdAt, updatedAt: now.order.updatedAt, revision: 0,
      },
    });
    expect(Object.keys(message)).toEqual(['id', 'type', 'occurredAt', 'position', 'data']);
  });

  it("builds order.paid with the order paid, and an order.placed built after the payment still says pending (the revision's state, not today's)", async () => {
    const orderId = await place(await newCustomer());
    await orders.recordPayment(staff, orderId, { amount: 2500, reference: 'psp-1', method: 'card' }, keyed());
    const [placed, paid] = await history(orderId);
    const paidMessage = await messageOf(paid!);
    expect(paidMessage).toMatchObject({ type: 'order.paid', position: paid!.position, data: { id: orderId, status: 'paid', revision: 1 } });
    expect(paidMessage.data.balance).toEqual((await orders.get(staff, orderId))!.order.balance);

    const placedMessage = await messageOf(placed!);
    expect(placedMessage).toMatchObject({ type: 'order.placed', data: { id: orderId, status: 'pending', revision: 0 } });
    expect(placedMessage.data.updatedAt).toBe((await orders.get(staff, orderId, { toRevision: 0 }))!.order.updatedAt);
  });

  it('builds a partially shipped order as paid under 2026-12-01 and as partially_shipped under 2027-01-01', async () => {
    const orderId = await place(await newCustomer());
    await orders.recordPayment(staff, orderId, { amount: 2500, reference: 'psp-1', method: 'card' }, keyed());
    await orders.createShipment(staff, orderId, { carrier: 'DHL', trackingNumber: 'T1', lines: [{ sku, quantity: 1 }] }, keyed());
    const shipped = (await history(orderId))[2]!;
    expect(shipped.type).toBe('ShipmentCreated');
    const current = await messageOf(shipped, '2027-01-01');
    expect(current).toMatchObject({ type: 'order.shipped', data: { status: 'partially_shipped', revision: 2 } });
    expect(current.data.lines.find((l: { sku: string }) => l.sku === sku)).toMatchObject({ quantity: 2, shipped: 1 });
    const previous = await messageOf(shipped, '2026-12-01');
    expect(previous).toMatchObject({ type: 'order.shipped', data: { status: 'paid', revision: 2 } });
    // Only the status differs: the lines' shipped counts are additive, every version shows them.
    expect({ ...previous.data, status: null }).toEqual({ ...current.data, status: null });
    expect((await messageOf(shipped, '2026-11-01')).data.status).toBe('paid');
  });

  it("maps a whole order's life, read back from the log, to its event types in order", async () => {
    const orderId = await place(await newCustomer());
    await orders.changeAddress(staff, orderId, { city: 'Boston' }, { correlationId: 'c' });
    await orders.edit(staff, orderId, { lines: [{ sku, quantity: 3 }, { sku: other, quantity: 1 }], dryRun: false }, keyed());
    await orders.recordPayment(staff, orderId, { amount: 3500, reference: 'psp', method: 'card' }, keyed());
    await orders.createShipment(staff, orderId, { carrier: 'DHL', trackingNumber: 'T1' }, keyed());
    const requested = await orders.requestReturn(staff, orderId, { lines: [{ sku, quantity: 1 }], reason: 'chipped' }, keyed());
    const returnId = requested.state.status === 'absent' ? '' : requested.state.returns[0]!.id;
    await orders.receiveReturn(staff, orderId, returnId, [{ sku, quantity: 1, restock: false }], { correlationId: 'c' });
    await orders.recordRefund(staff, orderId, { amount: 1000, reason: 'return', note: null }, keyed());
    const cancelled = await place(await newCustomer());
    await orders.cancel(staff, cancelled, null, { correlationId: 'c' });

    const refs = [...(await history(orderId)), ...(await history(cancelled))].map(webhookEventOf);
    expect(refs.map((ref) => ref?.type)).toEqual([
      'order.placed', 'order.address_changed', 'order.edited', 'order.paid', 'order.shipped', 'return.requested', 'return.received', 'order.refunded',
      'order.placed', 'order.cancelled',
    ]);
    expect(refs.map((ref) => ref?.resource)).toEqual([...Array(8).fill(`order:${orderId}`), `order:${cancelled}`, `order:${cancelled}`]);
    expect(new Set(refs.map((ref) => ref?.eventId)).size).toBe(10);

    const returned = await messageOf((await history(orderId))[6]!);
    expect(returned).toMatchObject({ type: 'return.received', data: { id: orderId, status: 'shipped', revision: 6, address: { city: 'Boston' } } });
    expect(returned.data.lines.find((l: { sku: string }) => l.sku === sku)).toMatchObject({ quantity: 3, shipped: 3, returned: 1 });
  });

  it("nulls an erased customer's address in every message built after the erasure, order.placed included", async () => {
    const customerId = await newCustomer();
    const orderId = await place(customerId);
    await orders.changeAddress(staff, orderId, { city: 'Boston' }, { correlationId: 'c' });
    const [placed, changed] = await history(orderId);
    expect((await messageOf(placed!)).data.address).toEqual(home);
    expect((await messageOf(changed!)).data.address).toEqual({ ...home, city: 'Boston' });

    await customers.erase(staff, customerId, { correlationId: 'c' });
    const after = await messageOf(placed!);
    expect(after.data.address).toEqual(ERASED_ADDRESS);
    expect(Object.values(after.data.address).every((value) => value === null)).toBe(true);
    // The rest of the order is as it was.
    expect(after).toMatchObject({ type: 'order.placed', data: { id: orderId, customerId, status: 'pending', total: 2500, revision: 0 } });
    expect((await messageOf(changed!)).data.address).toEqual(ERASED_ADDRESS);
    const body = await buildMessage(webhookEventOf(placed!)!, placed!, '2027-01-01', readers);
    expect(body).not.toContain('Grace');
    expect(body).not.toContain('Navy Yard');
  });

  it('builds product.changed with the product as GET answers it at that revision, and a retired one with status retired', async () => {
    await products.patch(staff, sku, { prices: { EUR: 1200 } }, { correlationId: 'c' });
    await products.retire(staff, sku, { correlationId: 'c' });
    const [defined, changed, retired] = await events.store.readStream(productStream(sku));

    const first = await messageOf(defined!);
    expect(first).toEqual({
      id: `evt_${eventIdOf(productStream(sku), 0)}`, type: 'product.changed', occurredAt: defined!.recordedAt.toISOString(), position: defined!.position,
      data: { sku, name: 'Blue mug', description: null, prices: { EUR: 1000 }, status: 'active', lowStockThreshold: 0, createdAt: expect.any(String), updatedAt: expect.any(String), revision: 0 },
    });
    const second = await messageOf(changed!);
    expect(second.data).toMatchObject({ sku, prices: { EUR: 1200 }, status: 'active', revision: 1 });
    expect(second.data.createdAt).toBe(first.data.createdAt);
    expect((await messageOf(retired!)).data).toMatchObject({ sku, name: 'Blue mug', prices: { EUR: 1200 }, status: 'retired', revision: 2 });
  });

  it('builds a live product exactly as the catalogue service reads it now', async () => {
    const [defined] = await events.store.readStream(productStream(other));
    const now = (await products.get(staff, other))!;
    const { data } = await messageOf(defined!);
    expect(data).toEqual({ sku: other, name: now.product.name, description: 'Stoneware', prices: { EUR: 500 }, status: 'active', lowStockThreshold: 0, createdAt: now.product.createdAt, updatedAt: now.product.updatedAt, revision: now.revision });
  });

  it('builds stock.low with the level as GET /stock/{sku} answers it at that revision, not as it is when sent', async () => {
    await products.patch(staff, sku, { lowStockThreshold: 99 }, { correlationId: 'c' });
    const customerId = await newCustomer();
    await place(customerId);
    const right = (await stock.get(staff, sku))!;
    await place(customerId);
    const recorded = await events.store.readStream(stockStream(sku));
    expect(recorded.map((r) => r.type)).toEqual(['StockAdjusted', 'StockReserved', 'StockFellLow', 'StockReserved']);
    const fell = recorded[2]!;
    const message = await messageOf(fell);
    expect(message).toEqual({
      id: `evt_${eventIdOf(stockStream(sku), 2)}`, type: 'stock.low', occurredAt: fell.recordedAt.toISOString(), position: fell.position,
      data: { sku, onHand: 100, reserved: 2, available: 98, updatedAt: right.updatedAt, revision: 2 },
    });
    expect(message.data).toEqual(right);
    // The same under every version, and read again the same (a retry or a replay).
    expect((await messageOf(fell, '2026-11-01')).data).toEqual(message.data);
    expect(await buildMessage(webhookEventOf(fell)!, fell, '2027-01-01', readers)).toBe(JSON.stringify(message));
  });

  it('reads a stock level at any revision of its stream, folded with the projection\'s evolve: the same as a StockFellLow records', async () => {
    await products.patch(staff, sku, { lowStockThreshold: 99 }, { correlationId: 'c' });
    await place(await newCustomer());
    const [, reserved, fell] = await events.store.readStream(stockStream(sku));
    expect(fell!.type).toBe('StockFellLow');
    const atReservation = await readers.stockAt(sku, reserved!.revision);
    expect(await readers.stockAt(sku, fell!.revision)).toEqual({ ...atReservation, revision: fell!.revision });
    expect(atReservation).toMatchObject({ sku, onHand: 100, reserved: 2, available: 98, revision: 1 });
    expect(await readers.stockAt(sku, 9)).toBeNull();
    expect(await readers.stockAt(`NONE-${randomUUID().slice(0, 8)}`, 0)).toBeNull();
  });

  it("builds customer.erased with the customer's representation after the erasure: every personal field null", async () => {
    const customerId = await newCustomer();
    await customers.erase(staff, customerId, { correlationId: 'c' });
    const recorded = await events.store.readStream(customerStream(customerId));
    const erased = recorded.find((r) => r.type === 'CustomerErased')!;
    const message = await messageOf(erased);
    expect(message).toEqual({
      id: `evt_${eventIdOf(customerStream(customerId), erased.revision)}`, type: 'customer.erased', occurredAt: erased.recordedAt.toISOString(), position: erased.position,
      data: { id: customerId, email: null, name: null, phone: null, defaultAddress: null, status: 'erased', createdAt: expect.any(String), updatedAt: expect.any(String), erasedAt: expect.any(String), revision: erased.revision },
    });
    expect(JSON.stringify(message)).not.toContain('Grace');
  });

  it("builds customer.erased for a guest customer (an id only orders named): the erased record, with nothing personal", async () => {
    const guest = `guest-${randomUUID()}`;
    await customers.erase(staff, guest, { correlationId: 'c' });
    const [erased] = await events.store.readStream(customerStream(guest));
    const message = await messageOf(erased!);
    expect(message).toMatchObject({ type: 'customer.erased', data: { id: guest, email: null, name: null, phone: null, defaultAddress: null, status: 'erased', revision: erased!.revision } });
    expect(message.data.erasedAt).toEqual(expect.any(String));
  });
});
