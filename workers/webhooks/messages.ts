// Webhook messages (HTTP-CONTRACT "Webhooks"): which log events partners get, under which event
// type and about which resource, and the JSON body of each, built when it is sent (never stored),
// so that a personal field of a customer erased since reads null in every later send and replay.
import { v5 as uuidv5 } from 'uuid';
import { productsView } from '../../projections/catalogue/products.js';
import { evolveStockLevels } from '../../projections/stock/stock.js';
import type { ProductView } from '../../read-side/catalogue/views.js';
import type { StockLevels } from '../../read-side/stock/views.js';
import { representCustomer, type CustomerRepresentation } from '../../read-side/customers/views.js';
import { statusFor } from '../../read-side/orders/status.js';
import { orderRepresentation, type OrderRepresentation } from '../../read-side/orders/views.js';
import { decodeProductEvent, isProductEventType, PRODUCT_STREAM_PREFIX, productStream } from '../../write-side/catalogue/codec.js';
import type { ProductEvent } from '../../write-side/catalogue/types.js';
import { CUSTOMER_STREAM_PREFIX, decodeCustomerEvent, isCustomerEventType } from '../../write-side/customers/codec.js';
import type { CustomerEventType } from '../../write-side/customers/types.js';
import type { CustomerService, CustomerSnapshot } from '../../write-side/customers/service.js';
import { serviceViewer } from '../../write-side/kernel/access.js';
import type { EventStore, RecordedEvent } from '../../write-side/kernel/event-store.js';
import { isOrderEventType, ORDER_STREAM_PREFIX } from '../../write-side/orders/codec.js';
import { decodeStoredOrderEvent, type StoredOrderEvent } from '../../write-side/orders/personal-data.js';
import type { OrderService } from '../../write-side/orders/service.js';
import type { OrderEventType, PlacedOrder } from '../../write-side/orders/types.js';
import { decodeStockEvent, isStockEvent, STOCK_STREAM_PREFIX, stockStream } from '../../write-side/stock/codec.js';
import type { StockEventType } from '../../write-side/stock/types.js';
import type { WebhookEventType } from '../../write-side/webhooks/types.js';

/** The streams whose events may become messages: what the delivery worker's subscription reads. */
export const WEBHOOK_STREAM_PREFIXES: readonly string[] = [ORDER_STREAM_PREFIX, PRODUCT_STREAM_PREFIX, CUSTOMER_STREAM_PREFIX, STOCK_STREAM_PREFIX];

/** What a log event is to partners: its contract event type, the resource it is about, and its stable id. */
export interface WebhookEventRef {
  readonly type: WebhookEventType;
  /** `order:<id>`, `product:<sku>`, `customer:<id>` or `stock:<sku>`: messages of one resource are delivered in log order. */
  readonly resource: string;
  /** The event's id, the same in both event stores and for every retry and replay (eventIdOf). */
  readonly eventId: string;
}

/** Fixed for good: every event id ever sent was derived under it. */
const EVENT_ID_NAMESPACE = '592b74ac-1e8a-4b7b-afec-3f7d25f4908e';

/**
 * A log event's id: a UUID v5 of `<stream>@<revision>`, which names the event alike in EventStoreDB
 * and the embedded store (their positions differ), and never changes on a retry or a replay.
 */
export function eventIdOf(streamName: string, revision: number): string {
  return uuidv5(`${streamName}@${revision}`, EVENT_ID_NAMESPACE);
}

/** The message's id and its `webhook-id` header. */
export const webhookMessageId = (ref: Pick<WebhookEventRef, 'eventId'>): string => `evt_${ref.eventId}`;

/** Each order event partners get; the others (an abandoned placement, a cancelled return) are not sent. */
const ORDER_EVENT_TYPES: { readonly [T in OrderEventType]: WebhookEventType | null } = {
  OrderPlaced: 'order.placed',
  PaymentRecorded: 'order.paid',
  OrderAddressChanged: 'order.address_changed',
  ShipmentCreated: 'order.shipped',
  OrderCancelled: 'order.cancelled',
  OrderEdited: 'order.edited',
  RefundRecorded: 'order.refunded',
  // A return is about its order: delivered in order with the order's other events.
  ReturnRequested: 'return.requested',
  ReturnReceived: 'return.received',
  ReturnCancelled: null,
  OrderPlacementAbandoned: null,
};

const PRODUCT_EVENT_TYPES: { readonly [T in ProductEvent['type']]: WebhookEventType } = {
  ProductDefined: 'product.changed',
  ProductChanged: 'product.changed',
  ProductRetired: 'product.changed',
};

/** Of a customer's events, only the erasure is sent. */
const CUSTOMER_EVENT_TYPES: { readonly [T in CustomerEventType]: WebhookEventType | null } = {
  CustomerRegistered: null,
  CustomerChanged: null,
  CustomerErased: 'customer.erased',
  UniqueValueClaimFenced: null,
};

/**
 * Of a SKU's stock events, only the fall below its low-stock threshold is sent: the stock decider
 * records it (StockFellLow) in the append that made the fall, so it has an id of its own.
 */
const STOCK_EVENT_TYPES: { readonly [T in StockEventType]: WebhookEventType | null } = {
  StockAdjusted: null,
  StockReserved: null,
  ReservationReleased: null,
  ReservationCommitted: null,
  StockFellLow: 'stock.low',
};

const sent = (types: Readonly<Record<string, WebhookEventType | null>>): readonly WebhookEventType[] => [
  ...new Set(Object.values(types).filter((type): type is WebhookEventType => type !== null)),
];

/**
 * The event types messages are sent of, by the resource their `data` is: what the OpenAPI
 * document's `webhooks` must list (tests/api/openapi.test.ts holds it to this).
 */
export const SENT_WEBHOOK_EVENT_TYPES: {
  readonly order: readonly WebhookEventType[];
  readonly product: readonly WebhookEventType[];
  readonly customer: readonly WebhookEventType[];
  readonly stock: readonly WebhookEventType[];
} = {
  order: sent(ORDER_EVENT_TYPES),
  product: sent(PRODUCT_EVENT_TYPES),
  customer: sent(CUSTOMER_EVENT_TYPES),
  stock: sent(STOCK_EVENT_TYPES),
};

/**
 * The contract event a recorded log event is, and the resource it is about; null for an event
 * partners do not get. Pure. stock.low is the stock decider's StockFellLow, about its SKU: the
 * decision needs the levels before and after and the product's threshold, which only the write
 * side has together, so it is made there and recorded, never inferred here.
 */
export function webhookEventOf(recorded: RecordedEvent): WebhookEventRef | null {
  const { streamName, revision, type } = recorded;
  const eventId = eventIdOf(streamName, revision);
  if (streamName.startsWith(ORDER_STREAM_PREFIX) && isOrderEventType(type)) {
    const webhookType = ORDER_EVENT_TYPES[type];
    if (webhookType === null) return null;
    // As stored: its address may be sealed, and only the order's id is needed here.
    const event: StoredOrderEvent = decodeStoredOrderEvent(recorded);
    return { type: webhookType, resource: `order:${event.data.orderId}`, eventId };
  }
  if (streamName.startsWith(PRODUCT_STREAM_PREFIX) && isProductEventType(type)) {
    const event = decodeProductEvent(recorded);
    return { type: PRODUCT_EVENT_TYPES[event.type], resource: `product:${event.data.sku}`, eventId };
  }
  if (streamName.startsWith(CUSTOMER_STREAM_PREFIX) && isCustomerEventType(type)) {
    const event = decodeCustomerEvent(recorded);
    const webhookType = CUSTOMER_EVENT_TYPES[event.type];
    if (webhookType === null || event.type !== 'CustomerErased') return null;
    return { type: webhookType, resource: `customer:${event.data.customerId}`, eventId };
  }
  if (streamName.startsWith(STOCK_STREAM_PREFIX) && isStockEvent(recorded)) {
    // Most of the log's stock events are sales: left by their type, without decoding them.
    const webhookType = STOCK_EVENT_TYPES[type as StockEventType];
    if (webhookType === null) return null;
    const event = decodeStockEvent(recorded);
    return { type: webhookType, resource: `stock:${event.data.sku}`, eventId };
  }
  return null;
}

/** What a message's data is read from: the real services (messageReaders), or a test's. */
export interface MessageReaders {
  /** The order folded up to that revision of its stream, its address opened or erased now; null when it had none then. */
  orderAt(orderId: string, revision: number): Promise<{ readonly order: PlacedOrder; readonly revision: number } | null>;
  /** The product as its stream stood at that revision (a retired one with status `retired`); null when it had none then. */
  productAt(sku: string, revision: number): Promise<ProductView | null>;
  /** The customer as it is now; null when it has no record. */
  customer(customerId: string): Promise<CustomerSnapshot | null>;
  /** The SKU's stock level as GET /stock/{sku} answers it, as its stream stood at that revision; null when the stream does not reach it. */
  stockAt(sku: string, revision: number): Promise<StockLevels | null>;
}

/** The principal messages are read as: staff, so every order and customer is visible. */
export const WEBHOOK_READER = 'service:webhooks';

/**
 * The readers over the composition root's services (its `Services` fits): orders through the
 * order service on the sealing store, so an erased customer's address reads as nulls; products
 * and stock levels folded from their streams, with their projection's own evolve, up to the
 * revision (a StockFellLow records the levels after it, so its level is folded from that event alone).
 */
export function messageReaders(services: { readonly orders: OrderService; readonly customers: CustomerService; readonly eventStore: EventStore }): MessageReaders {
  const viewer = serviceViewer(WEBHOOK_READER);
  return {
    async orderAt(orderId, revision) {
      const snapshot = await services.orders.get(viewer, orderId, { toRevision: revision });
      return snapshot && { order: snapshot.order, revision: snapshot.revision };
    },
    async productAt(sku, revision) {
      const recorded = await services.eventStore.readStream(productStream(sku), { toRevision: revision });
      let view: ProductView | null = null;
      for (const r of recorded) view = productsView.evolve(view, decodeProductEvent(r), r);
      return recorded.at(-1)?.revision === revision ? view : null;
    },
    customer: (customerId) => services.customers.get(viewer, customerId),
    async stockAt(sku, revision) {
      const stream = stockStream(sku);
      const [own] = await services.eventStore.readStream(stream, { fromRevision: revision, toRevision: revision });
      if (own?.revision !== revision) return null;
      const event = decodeStockEvent(own);
      // A hot SKU's stream is long: the levels a StockFellLow records are the fold's up to it (the audit checks so).
      if (event.type === 'StockFellLow') {
        const { onHand, reserved, available, at } = event.data;
        return evolveStockLevels({ sku, onHand, reserved, available, updatedAt: at, revision }, event, own);
      }
      let view: StockLevels | null = null;
      for (const r of await services.eventStore.readStream(stream, { toRevision: revision })) view = evolveStockLevels(view, decodeStockEvent(r), r);
      return view;
    },
  };
}

/** The resource of an event could not be read at its revision (its stream does not hold it). */
export class MessageResourceMissing extends Error {
  override readonly name = 'MessageResourceMissing';
  constructor(readonly resource: string, readonly revision: number) {
    super(`${resource} cannot be read at revision ${revision}`);
  }
}

/**
 * The message's JSON body: `{ id, type, occurredAt, position, data }`, `data` the resource as GET
 * answers it at that event's revision under the subscription's API version. Built at each send:
 * personal data is opened (or read as erased) now, not when the event was recorded.
 */
export async function buildMessage(ref: WebhookEventRef, recorded: RecordedEvent, apiVersion: string, readers: MessageReaders): Promise<string> {
  const data = await dataOf(ref, recorded.revision, apiVersion, readers);
  return JSON.stringify({ id: webhookMessageId(ref), type: ref.type, occurredAt: recorded.recordedAt.toISOString(), position: recorded.position, data });
}

async function dataOf(ref: WebhookEventRef, revision: number, apiVersion: string, readers: MessageReaders): Promise<OrderRepresentation | ProductView | CustomerRepresentation | StockLevels> {
  const colon = ref.resource.indexOf(':');
  const kind = ref.resource.slice(0, colon);
  const id = ref.resource.slice(colon + 1);
  switch (kind) {
    case 'order': {
      const at = await readers.orderAt(id, revision);
      if (!at) throw new MessageResourceMissing(ref.resource, revision);
      // As GET /orders/{id} answers (api/orders/representation.ts orderForVersion, on the same rule).
      const order = orderRepresentation(at.order, at.revision);
      return { ...order, status: statusFor(order.status, apiVersion) };
    }
    case 'product': {
      const product = await readers.productAt(id, revision);
      if (!product) throw new MessageResourceMissing(ref.resource, revision);
      return product;
    }
    case 'customer': {
      const snapshot = await readers.customer(id);
      if (!snapshot) throw new MessageResourceMissing(ref.resource, revision);
      return representCustomer(snapshot.customer, snapshot.revision);
    }
    case 'stock': {
      // The same under every API version.
      const level = await readers.stockAt(id, revision);
      if (!level) throw new MessageResourceMissing(ref.resource, revision);
      return level;
    }
    default:
      throw new TypeError(`no message for a resource ${ref.resource}`);
  }
}

