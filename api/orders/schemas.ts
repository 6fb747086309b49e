// Orders: the JSON Schemas (2020-12) of the area's bodies, queries and answers, which its
// operations validate requests with and the OpenAPI document lists in components.schemas
// (gathered by api/areas.ts with the shared ones of api/schemas.ts, which these may $ref).
// A schema another area uses too belongs in api/schemas.ts.
import { REFUND_REASONS } from '../../write-side/orders/types.js';
import { PROBLEM_BASE } from '../problem.js';
import { CURRENCY_CODES, CUSTOMER_ID_PATTERN, MAX_PRICE, RFC3339_PATTERN as RFC3339, SKU_PATTERN, optionalText, sharedSchemas, text } from '../schemas.js';

/** What a shipment, a return or an edit may name: up to 100 lines (as an order holds). */
const lineList = (items: string, description: string) => ({ type: 'array', minItems: 1, maxItems: 100, items: { $ref: `#/components/schemas/${items}` }, description }) as const;
const uuid = { type: 'string', format: 'uuid' } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;
const count = (description: string) => ({ type: 'integer', minimum: 0, description }) as const;

/**
 * A problem of one of the area's own rules, whose answer carries members of its own (the shared
 * Problem allows none but its own): the shared members, the code's `type`, and `extra`.
 */
const areaProblem = (code: string, description: string, required: readonly string[], extra: Record<string, object>) => ({
  description,
  type: 'object',
  additionalProperties: false,
  required: [...sharedSchemas.Problem.required, ...required],
  properties: { ...sharedSchemas.Problem.properties, type: { const: PROBLEM_BASE + code }, status: { const: 409 }, ...extra },
}) as const;

/** A SKU and a quantity of it, as every order line a client sends names them. */
const SKU_QUANTITY = {
  sku: { type: 'string', pattern: SKU_PATTERN },
  quantity: { type: 'integer', minimum: 1, maximum: 1_000_000 },
} as const;

export const orderSchemas = {
  OrderLineInput: {
    type: 'object',
    additionalProperties: false,
    required: ['sku', 'quantity'],
    properties: {
      ...SKU_QUANTITY,
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
    properties: {
      carrier: text(50),
      trackingNumber: text(100),
      lines: lineList('LineQuantity', 'what to ship of each SKU (since 2027-01-01, additive); without it, everything that remains'),
    },
  },
  LineQuantity: {
    description: 'A quantity of one SKU of the order. A SKU named on two lines counts with the quantities summed.',
    type: 'object',
    additionalProperties: false,
    required: ['sku', 'quantity'],
    properties: {
      ...SKU_QUANTITY,
    },
  },
  ReceivedLine: {
    description: 'What came back of one SKU: `restock` units go back on hand (a stock adjustment with reason returned), the others (damaged) do not.',
    type: 'object',
    additionalProperties: false,
    required: ['sku', 'quantity', 'restock'],
    properties: {
      ...SKU_QUANTITY,
      restock: { type: 'boolean' },
    },
  },
  NewReturn: {
    type: 'object',
    additionalProperties: false,
    required: ['lines', 'reason'],
    properties: {
      lines: lineList('LineQuantity', 'at most what was shipped of each SKU and is in no return that is not cancelled'),
      reason: text(500),
    },
  },
  ReturnReceipt: {
    type: 'object',
    additionalProperties: false,
    required: ['lines'],
    properties: { lines: lineList('ReceivedLine', 'what came back: of each SKU at most what the return requested') },
  },
  NewRefund: {
    type: 'object',
    additionalProperties: false,
    required: ['amount', 'reason'],
    properties: {
      amount: { type: 'integer', minimum: 1, description: 'minor units; at most what was paid and is not refunded yet' },
      reason: { type: 'string', enum: REFUND_REASONS },
      note: optionalText(500),
    },
  },
  NewOrderEdit: {
    type: 'object',
    additionalProperties: false,
    required: ['lines'],
    properties: {
      lines: lineList('LineQuantity', "the order's complete new set of lines: a SKU it holds keeps its price, a new one takes the catalogue's price now"),
      dryRun: { type: 'boolean', default: false, description: 'true: answer the order as it would become, writing and reserving nothing' },
    },
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
      createdFrom: {
        type: 'string',
        pattern: RFC3339,
        description: 'the orders placed at or after this instant (inclusive), an RFC 3339 date-time with its offset; only with a date sort',
      },
      createdTo: {
        type: 'string',
        pattern: RFC3339,
        description: 'the orders placed before this instant (exclusive); later than createdFrom when both are given; only with a date sort',
      },
      sku: {
        type: 'string',
        pattern: SKU_PATTERN,
        description: 'the orders with a line of this SKU, as their lines stand now (a line an edit removed no longer counts; one shipped, cancelled or returned still does); with a date sort and a date range at most: never with status or customerId (so never for a customer\'s token)',
      },
      currency: {
        type: 'string',
        enum: CURRENCY_CODES,
        description: 'ISO 4217: the orders in this currency. Required with sort=total or -total, and only there: totals are compared in minor units, which only orders of one currency share.',
      },
      sort: {
        type: 'string',
        enum: ['createdAt', '-createdAt', 'total', '-total'],
        default: '-createdAt',
        description:
          'createdAt: oldest placed first; -createdAt: newest first. total: the smallest `total` first, -total the largest, in minor units of the one currency the request names; ' +
          'orders of equal total oldest first (total) or newest first (-total). Which filters go with which sort: see the operation.',
      },
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      cursor: { type: 'string', minLength: 1, maxLength: 1024, description: 'nextCursor of the previous page, with the same filters and sort: another filter or sort is 400 invalid-cursor' },
    },
  },
  Order: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'customerId', 'status', 'currency', 'lines', 'total', 'balance', 'address', 'createdAt', 'updatedAt', 'revision'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      customerId: { type: 'string' },
      status: {
        type: 'string',
        enum: ['pending', 'paid', 'partially_shipped', 'shipped', 'cancelled'],
        description: 'partially_shipped only under Api-Version 2027-01-01: under 2026-12-01 and 2026-11-01 such an order reads as paid',
      },
      currency: { type: 'string' },
      lines: { type: 'array', items: { $ref: '#/components/schemas/OrderLineState' } },
      total: { type: 'integer', description: 'minor units' },
      balance: { $ref: '#/components/schemas/Balance' },
      address: { $ref: '#/components/schemas/OrderAddress' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
      revision: { type: 'integer', description: 'the order stream revision (0 for a new order); ETag is "<revision>"' },
    },
  },
  OrderLineState: {
    description: 'An order line with what of it shipped, was cancelled (not shipped when the order was cancelled) and came back (received in a return); the three added in 2027-01-01, additive, under every version.',
    type: 'object',
    additionalProperties: false,
    required: [...sharedSchemas.OrderLine.required, 'shipped', 'cancelled', 'returned'],
    properties: {
      ...sharedSchemas.OrderLine.properties,
      shipped: count('units shipped'),
      cancelled: count('units cancelled before they shipped'),
      returned: count('units received back in a return'),
    },
  },
  Balance: {
    description: "The order's money in minor units (since 2027-01-01, additive, under every version): charged = Σ unitPrice × (quantity − cancelled − returned); due = charged − paid + refunded, negative when money is owed back to the customer.",
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
    required: ['id', 'orderId', 'carrier', 'trackingNumber', 'lines', 'createdAt'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      orderId: { type: 'string', format: 'uuid' },
      carrier: { type: 'string' },
      trackingNumber: { type: 'string' },
      lines: { type: 'array', items: { $ref: '#/components/schemas/LineQuantity' }, description: 'what it shipped of each SKU (added in 2027-01-01, additive)' },
      createdAt: { type: 'string', format: 'date-time' },
    },
  },
  ShipmentList: {
    type: 'object',
    additionalProperties: false,
    required: ['items'],
    properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Shipment' }, description: 'oldest first' } },
  },
  Return: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'orderId', 'status', 'lines', 'reason', 'received', 'createdAt', 'updatedAt'],
    properties: {
      id: uuid,
      orderId: uuid,
      status: { type: 'string', enum: ['requested', 'received', 'cancelled'] },
      lines: { type: 'array', items: { $ref: '#/components/schemas/LineQuantity' }, description: 'what was asked to come back' },
      reason: { type: 'string' },
      received: { type: ['array', 'null'], items: { $ref: '#/components/schemas/ReceivedLine' }, description: 'what came back, once received; null before' },
      createdAt: dateTime,
      updatedAt: { ...dateTime, description: 'when it was requested, received or cancelled, the latest of these' },
    },
  },
  ReturnList: {
    type: 'object',
    additionalProperties: false,
    required: ['items'],
    properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Return' }, description: 'oldest first' } },
  },
  ReturnListQuery: {
    type: 'object',
    additionalProperties: false,
    properties: {
      status: { type: 'string', enum: ['requested', 'received', 'cancelled'], description: 'only the returns of this status; requested: those waiting to be received' },
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      cursor: { type: 'string', minLength: 1, maxLength: 1024 },
    },
  },
  ReturnPage: {
    type: 'object',
    additionalProperties: false,
    required: ['items', 'nextCursor'],
    properties: {
      items: { type: 'array', items: { $ref: '#/components/schemas/Return' }, description: 'oldest request first' },
      nextCursor: { type: ['string', 'null'] },
    },
  },
  Refund: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'orderId', 'amount', 'reason', 'note', 'createdAt'],
    properties: {
      id: uuid,
      orderId: uuid,
      amount: { type: 'integer', description: 'minor units' },
      reason: { type: 'string', enum: REFUND_REASONS },
      note: { type: ['string', 'null'] },
      createdAt: dateTime,
    },
  },
  OrderEdit: {
    description: "An edit of the order's lines: the lines before and after it (without what shipped, was cancelled or returned: nothing had).",
    type: 'object',
    additionalProperties: false,
    required: ['id', 'orderId', 'before', 'after', 'createdAt'],
    properties: {
      id: uuid,
      orderId: uuid,
      before: { type: 'array', items: { $ref: '#/components/schemas/OrderLine' } },
      after: { type: 'array', items: { $ref: '#/components/schemas/OrderLine' } },
      createdAt: dateTime,
    },
  },
  QuantityUnavailableProblem: areaProblem(
    'quantity-unavailable',
    'quantity-unavailable: a shipment, return or receipt named more of a SKU than remains for it, or a SKU not on the order (or not in the return); nothing was changed.',
    ['errors'],
    {
      errors: {
        type: 'array',
        description: 'one entry per line that asks too much (/lines/i/quantity) or names a SKU not on the order (/lines/i/sku)',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['pointer', 'message', 'remaining'],
          properties: {
            pointer: { type: 'string' },
            message: { type: 'string' },
            remaining: { type: 'integer', minimum: 0, description: 'what remains of that SKU for this operation (0 for a SKU not on the order)' },
          },
        },
      },
    },
  ),
  RefundExceedsPaymentProblem: areaProblem(
    'refund-exceeds-payment',
    'refund-exceeds-payment: the refund is more than was paid and not yet refunded; nothing was recorded.',
    ['refundable'],
    { refundable: { type: 'integer', minimum: 0, description: 'what may still be refunded: paid − refunded' } },
  ),
} as const;
