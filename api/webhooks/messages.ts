// The messages the service sends to subscribed URLs (HTTP-CONTRACT "Webhooks"), as the OpenAPI
// document's `webhooks` (3.1) describes them, so that a partner can generate a receiver's types:
// one entry per event type sent, each a POST whose body is the message of its resource's kind.
// The worker builds the bodies (workers/webhooks/messages.ts); tests/api/openapi.test.ts holds
// this list to the event types it sends.
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../write-side/webhooks/types.js';
import { catalogueSchemas } from '../catalogue/schemas.js';
import { json, ref } from '../openapi-parts.js';
import { ORDER_ID_PATTERN } from '../schemas.js';

type MessageKind = 'order' | 'product' | 'customer' | 'stock';

/** The resource each event type's message carries in `data`; null for a type that is not sent. */
const KIND_OF: { readonly [T in WebhookEventType]: MessageKind | null } = {
  'order.placed': 'order',
  'order.paid': 'order',
  'order.address_changed': 'order',
  'order.shipped': 'order',
  'order.cancelled': 'order',
  'order.edited': 'order',
  'order.refunded': 'order',
  // A return's message carries its order.
  'return.requested': 'order',
  'return.received': 'order',
  'product.changed': 'product',
  'stock.low': 'stock',
  'customer.erased': 'customer',
};

const KINDS: { readonly [K in MessageKind]: { readonly message: string; readonly resource: string; readonly data: string } } = {
  order: {
    message: 'OrderWebhookMessage',
    resource: 'Order',
    data: 'the order as GET /orders/{id} answers it at that event\'s revision, under the subscription\'s apiVersion (before 2027-01-01, partially_shipped reads paid); once its customer is erased, its address reads as nulls in every message sent afterwards, replays included',
  },
  product: {
    message: 'ProductWebhookMessage',
    resource: 'Product',
    data: 'the product as GET /products/{sku} answers it at that event\'s revision (a retired one with status retired)',
  },
  customer: {
    message: 'CustomerWebhookMessage',
    resource: 'Customer',
    data: 'the customer as GET /customers/{id} answers it: erased, every personal member null',
  },
  stock: {
    message: 'StockWebhookMessage',
    resource: 'Stock',
    data: "the SKU's stock level as GET /stock/{sku} answers it at that event's revision: right after the change that took available from the product's lowStockThreshold or above to below it (the same under every apiVersion)",
  },
};

const ABOUT: { readonly [K in MessageKind]: string } = {
  order: 'an order (or a return of it)',
  product: 'a product',
  customer: 'a customer',
  stock: "a SKU's stock (stock.low: its available units fell below the product's lowStockThreshold; sent once per fall, again only after available rose to the threshold or above)",
};

const typesOf = (kind: MessageKind): WebhookEventType[] => WEBHOOK_EVENT_TYPES.filter((type) => KIND_OF[type] === kind);
const EVENT_ID = `^evt_${ORDER_ID_PATTERN.slice(1)}`;

const message = (kind: MessageKind) => ({
  description: `A webhook message about ${ABOUT[kind]}: one event of the store's log. Delivered at least once (drop a repeat by its id), in log order for each resource.`,
  type: 'object',
  additionalProperties: false,
  required: ['id', 'type', 'occurredAt', 'position', 'data'],
  properties: {
    id: { type: 'string', pattern: EVENT_ID, description: 'evt_ and the event\'s id: the webhook-id header, the same for every retry and replay' },
    type: { type: 'string', enum: typesOf(kind), description: 'the event type' },
    occurredAt: { type: 'string', format: 'date-time', description: 'when the event was recorded' },
    position: { type: 'string', pattern: '^[0-9a-f]{32}$', description: 'the event\'s log position (replays may start from it)' },
    data: kind === 'product' ? { description: KINDS[kind].data, anyOf: [ref('Product'), ref('RetiredProduct')] } : { ...ref(KINDS[kind].resource), description: KINDS[kind].data },
  },
});

/** The message schemas, one per kind of resource: listed in components.schemas with the area's others. */
export const webhookMessageSchemas = {
  // GET answers 404 for a retired product, so Product has no `retired`; its last message does.
  RetiredProduct: {
    ...catalogueSchemas.Product,
    description: 'A retired product, as product.changed carries it: its last representation, with status retired.',
    properties: { ...catalogueSchemas.Product.properties, status: { type: 'string', const: 'retired' } },
  },
  OrderWebhookMessage: message('order'),
  ProductWebhookMessage: message('product'),
  CustomerWebhookMessage: message('customer'),
  StockWebhookMessage: message('stock'),
} as const;

/** The Standard Webhooks headers every message carries. */
const messageHeaders = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The message id, evt_ and the event\'s id (the body\'s id): stable across retries and replays, so a receiver drops a repeat by it.',
    schema: { type: 'string', pattern: EVENT_ID },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'When this attempt was signed, in unix seconds; a receiver refuses one too far from its clock (Standard Webhooks: 5 minutes).',
    schema: { type: 'integer', minimum: 0 },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'v1,<base64 HMAC-SHA256 over "<webhook-id>.<webhook-timestamp>.<body>" with the secret\'s key>. One signature, or two separated by a space during the 24 h after a secret rotation (the new secret\'s and the old one\'s): a receiver accepts the message when any of them verifies.',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})?$' },
  },
];

const operationId = (type: string) => `${type.replace(/[._](\w)/g, (_, letter: string) => letter.toUpperCase())}Message`;

const webhook = (type: WebhookEventType, kind: MessageKind) => ({
  post: {
    operationId: operationId(type),
    tags: ['webhooks'],
    summary: `The ${type} message`,
    description: `Sent to every active subscription whose events name ${type} (or "*"), signed as Standard Webhooks specifies. Redirects are not followed.`,
    // The receiver checks the signature; the service sends no token.
    security: [],
    parameters: messageHeaders,
    requestBody: { required: true, content: json(ref(KINDS[kind].message)) },
    responses: {
      '2XX': { description: 'Received: answer within 10 s with a short body (at most 1 KB of it is read; a longer, slower or endless one fails the attempt).' },
      default: { description: 'Any other answer, a timeout or a refused connection is a failed attempt, retried with backoff for about 3 days (5 s, 1 min, 5 min, 30 min, 2 h, 8 h, then every 12 h); then the delivery is failed.' },
    },
  },
});

/** One entry per event type sent, in the contract's order. */
export const messageWebhooks: Readonly<Record<string, object>> = Object.fromEntries(
  WEBHOOK_EVENT_TYPES.flatMap((type) => {
    const kind = KIND_OF[type];
    return kind === null ? [] : [[type, webhook(type, kind)]];
  }),
);
