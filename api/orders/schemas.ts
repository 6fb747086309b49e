// Orders: the JSON Schemas (2020-12) of the area's bodies, queries and answers, which its
// operations validate requests with and the OpenAPI document lists in components.schemas
// (gathered by api/areas.ts with the shared ones of api/schemas.ts, which these may $ref).
// A schema another area uses too belongs in api/schemas.ts.
import { CURRENCY_CODES, CUSTOMER_ID_PATTERN, MAX_PRICE, RFC3339_PATTERN as RFC3339, SKU_PATTERN, optionalText, text } from '../schemas.js';

export const orderSchemas = {
  OrderLineInput: {
    type: 'object',
    additionalProperties: false,
    required: ['sku', 'quantity'],
    properties: {
      sku: { type: 'string', pattern: SKU_PATTERN },
      quantity: { type: 'integer', minimum: 1, maximum: 1_000_000 },
      unitPrice: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_PRICE,
        description: 'optional (since 2026-11-01 deprecated, a relaxation): the price comes from the catalogue; when sent it must equal the catalogue price in the order currency, else 409 price-changed',
      },
    },
  },
  NewOrder: {
    type: 'object',
    additionalProperties: false,
    required: ['customerId', 'currency', 'lines', 'address'],
    properties: {
      customerId: { type: 'string', pattern: CUSTOMER_ID_PATTERN },
      currency: { type: 'string', enum: CURRENCY_CODES, description: 'ISO 4217' },
      lines: { type: 'array', minItems: 1, maxItems: 100, items: { $ref: '#/components/schemas/OrderLineInput' } },
      address: { $ref: '#/components/schemas/Address' },
    },
  },
  OrderPatch: {
    type: 'object',
    additionalProperties: false,
    required: ['address'],
    properties: { address: { $ref: '#/components/schemas/AddressPatch' } },
  },
  NewPayment: {
    type: 'object',
    additionalProperties: false,
    required: ['amount', 'reference'],
    properties: {
      amount: { type: 'integer', minimum: 0, description: 'minor units; must equal the order total' },
      reference: text(100),
      method: { $ref: '#/components/schemas/PaymentMethod', description: 'how the order was paid; unknown when not sent (added in 2026-11-01, additive)' },
    },
  },
  NewShipment: {
    type: 'object',
    additionalProperties: false,
    required: ['carrier', 'trackingNumber'],
    properties: { carrier: text(50), trackingNumber: text(100) },
  },
  Cancellation: {
    type: 'object',
    additionalProperties: false,
    properties: { reason: optionalText(500) },
  },
  PointInTimeQuery: {
    type: 'object',
    additionalProperties: false,
    properties: {
      asOf: { type: 'string', pattern: RFC3339, description: 'the order as it stood at this instant (audit:read)' },
      revision: { type: 'integer', minimum: 0, description: 'the order as it stood at this revision (audit:read)' },
    },
  },
  OrderListQuery: {
    type: 'object',
    additionalProperties: false,
    properties: {
      status: {
        type: 'string',
        enum: ['pending', 'paid', 'partially_shipped', 'shipped', 'cancelled'],
        description:
          'the orders whose status reads so under the request\'s Api-Version. Under 2027-01-01, paid selects paid orders only and partially_shipped those partly shipped; ' +
          'under 2026-11-01 and 2026-12-01, whose clients read a partially shipped order as paid, paid selects both (each shown as paid), and partially_shipped is a 400 validation-failed (pointer /status): they know no such status.',
      },
      customerId: { type: 'string', pattern: CUSTOMER_ID_PATTERN },
      sort: { type: 'string', enum: ['createdAt', '-createdAt'], default: '-createdAt' },
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      cursor: { type: 'string', minLength: 1, maxLength: 1024 },
    },
  },
  Order: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'customerId', 'status', 'currency', 'lines', 'total', 'address', 'createdAt', 'updatedAt', 'revision'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      customerId: { type: 'string' },
      status: {
        type: 'string',
        enum: ['pending', 'paid', 'partially_shipped', 'shipped', 'cancelled'],
        description: 'partially_shipped under Api-Version 2027-01-01 only: under 2026-11-01 and 2026-12-01 such an order reads as paid',
      },
      currency: { type: 'string' },
      lines: { type: 'array', items: { $ref: '#/components/schemas/OrderLine' } },
      total: { type: 'integer', description: 'minor units' },
      balance: { $ref: '#/components/schemas/Balance' },
      address: { $ref: '#/components/schemas/OrderAddress' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
      revision: { type: 'integer', description: 'the order stream revision (0 for a new order); ETag is "<revision>"' },
    },
  },
  Balance: {
    description: 'The order\'s money in minor units (added in 2027-01-01, additive): charged = Σ unitPrice × (quantity − cancelled − returned); due = charged − paid + refunded, negative when money is owed back.',
    type: 'object',
    additionalProperties: false,
    required: ['charged', 'paid', 'refunded', 'due'],
    properties: { charged: { type: 'integer' }, paid: { type: 'integer' }, refunded: { type: 'integer' }, due: { type: 'integer' } },
  },
  OrderPage: {
    type: 'object',
    additionalProperties: false,
    required: ['items', 'nextCursor'],
    properties: {
      items: { type: 'array', items: { $ref: '#/components/schemas/Order' } },
      nextCursor: { type: ['string', 'null'] },
    },
  },
  Payment: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'orderId', 'amount', 'reference', 'method', 'createdAt'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      orderId: { type: 'string', format: 'uuid' },
      amount: { type: 'integer' },
      reference: { type: 'string' },
      method: { $ref: '#/components/schemas/PaymentMethod' },
      createdAt: { type: 'string', format: 'date-time' },
    },
  },
  Shipment: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'orderId', 'carrier', 'trackingNumber', 'createdAt'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      orderId: { type: 'string', format: 'uuid' },
      carrier: { type: 'string' },
      trackingNumber: { type: 'string' },
      createdAt: { type: 'string', format: 'date-time' },
    },
  },
} as const;
