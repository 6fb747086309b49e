// JSON Schemas (2020-12) of every body, query and path parameter. ajv validates requests with
// them and the OpenAPI document is built from them, so the two cannot drift apart.

import { getAlpha2Codes } from 'i18n-iso-countries/index.js';

// Free text: something visible, and none of what hides or reorders text in a screen or a log:
// control characters, line and paragraph separators (U+2028/9), bidirectional controls
// (U+202A-E, U+2066-9) and unpaired surrogates (the `u` flag ajv compiles patterns with
// matches a surrogate pair as one code point, outside the range).
const HIDDEN = '\\u0000-\\u001f\\u007f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069\\ud800-\\udfff';
// Leading white space, one visible character, anything visible or white after it: the classes do
// not overlap, so matching takes linear time even on a 64 KiB string.
export const TEXT_PATTERN = `^[^${HIDDEN}\\S]*[^${HIDDEN}\\s][^${HIDDEN}]*$`;
const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength, pattern: TEXT_PATTERN }) as const;
const optionalText = (maxLength: number) => ({ type: ['string', 'null'], maxLength, pattern: TEXT_PATTERN }) as const;

/** ISO 4217 currencies as the runtime's Intl data knows them (no XXX, XTS or made-up codes). */
export const CURRENCY_CODES: readonly string[] = Object.freeze(Intl.supportedValuesOf('currency'));
/** ISO 3166-1 alpha-2 codes, from the i18n-iso-countries package (with XK, Kosovo, as carriers use it). */
export const COUNTRY_CODES: readonly string[] = Object.freeze(Object.keys(getAlpha2Codes()).sort());

export const ORDER_ID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
export const CUSTOMER_ID_PATTERN = '^[A-Za-z0-9_.:-]{1,64}$';
const RFC3339 = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}:\\d{2})$';

/** An address's members: a whole address requires some of them, a merge patch none. */
const addressProperties = {
  name: text(200),
  line1: text(200),
  line2: optionalText(200),
  city: text(100),
  postalCode: text(20),
  region: optionalText(100),
  country: { type: 'string', enum: COUNTRY_CODES, description: 'ISO 3166-1 alpha-2' },
} as const;

export const schemas = {
  Address: {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'line1', 'city', 'postalCode', 'country'],
    properties: addressProperties,
  },
  AddressPatch: {
    description: 'JSON Merge Patch (RFC 7396) of an address: a member set to null removes it (only line2 and region may be removed).',
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    properties: addressProperties,
  },
  OrderLineInput: {
    type: 'object',
    additionalProperties: false,
    required: ['sku', 'quantity', 'unitPrice'],
    properties: {
      sku: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,64}$' },
      quantity: { type: 'integer', minimum: 1, maximum: 1_000_000 },
      unitPrice: { type: 'integer', minimum: 0, maximum: 1_000_000_000_000, description: 'minor units (1999 = 19.99)' },
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
  PaymentMethod: { type: 'string', enum: ['card', 'bank-transfer', 'wallet', 'unknown'] },
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
  NewExport: {
    type: 'object',
    additionalProperties: false,
    required: ['format'],
    properties: {
      format: { type: 'string', enum: ['ndjson', 'csv'] },
      filter: {
        type: 'object',
        additionalProperties: false,
        properties: {
          status: { type: 'string', enum: ['pending', 'paid', 'shipped', 'cancelled'] },
          createdFrom: { type: 'string', pattern: RFC3339, description: 'inclusive' },
          createdTo: { type: 'string', pattern: RFC3339, description: 'exclusive' },
        },
      },
    },
  },
  Job: {
    type: 'object',
    required: ['id', 'type', 'status', 'progress', 'createdAt', 'startedAt', 'finishedAt', 'result', 'error'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      type: { type: 'string', enum: ['order-export'] },
      status: { type: 'string', enum: ['queued', 'running', 'succeeded', 'failed'] },
      format: { type: 'string', enum: ['ndjson', 'csv'] },
      filter: { type: 'object' },
      progress: { type: 'object', required: ['processed', 'total'], properties: { processed: { type: 'integer' }, total: { type: 'integer' } } },
      createdAt: { type: 'string', format: 'date-time' },
      startedAt: { type: ['string', 'null'], format: 'date-time' },
      finishedAt: { type: ['string', 'null'], format: 'date-time' },
      result: {
        type: ['object', 'null'],
        required: ['href', 'contentType', 'count', 'bytes'],
        properties: { href: { type: 'string' }, contentType: { type: 'string' }, count: { type: 'integer' }, bytes: { type: 'integer' } },
      },
      resultExpiresAt: { type: ['string', 'null'], format: 'date-time', description: 'when the result file will be removed' },
      resultExpiredAt: { type: ['string', 'null'], format: 'date-time', description: 'when the result file was removed; result is then null' },
      error: { oneOf: [{ type: 'null' }, { $ref: '#/components/schemas/Problem' }] },
    },
  },
  PageQuery: {
    description: 'A page of a collection without filters: the fulfilment queue, an order history.',
    type: 'object',
    additionalProperties: false,
    properties: {
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      cursor: { type: 'string', minLength: 1, maxLength: 1024 },
    },
  },
  ChangesQuery: {
    type: 'object',
    additionalProperties: false,
    properties: {
      after: { type: 'string', pattern: '^[0-9a-f]{32}$', description: 'the position of the last change handled' },
      wait: { type: 'integer', minimum: 0, maximum: 30, default: 0, description: 'seconds to wait for a change when there is none yet' },
      limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
    },
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
      status: { type: 'string', enum: ['pending', 'paid', 'shipped', 'cancelled'] },
      customerId: { type: 'string', pattern: CUSTOMER_ID_PATTERN },
      sort: { type: 'string', enum: ['createdAt', '-createdAt'], default: '-createdAt' },
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      cursor: { type: 'string', minLength: 1, maxLength: 1024 },
    },
  },
  OrderLine: {
    type: 'object',
    required: ['sku', 'quantity', 'unitPrice', 'lineTotal'],
    properties: { sku: { type: 'string' }, quantity: { type: 'integer' }, unitPrice: { type: 'integer' }, lineTotal: { type: 'integer' } },
  },
  Order: {
    type: 'object',
    required: ['id', 'customerId', 'status', 'currency', 'lines', 'total', 'address', 'createdAt', 'updatedAt', 'revision'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      customerId: { type: 'string' },
      status: { type: 'string', enum: ['pending', 'paid', 'shipped', 'cancelled'] },
      currency: { type: 'string' },
      lines: { type: 'array', items: { $ref: '#/components/schemas/OrderLine' } },
      total: { type: 'integer', description: 'minor units' },
      address: { $ref: '#/components/schemas/Address' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
      revision: { type: 'integer', description: 'the order stream revision (0 for a new order); ETag is "<revision>"' },
    },
  },
  OrderPage: {
    type: 'object',
    required: ['items', 'nextCursor'],
    properties: {
      items: { type: 'array', items: { $ref: '#/components/schemas/Order' } },
      nextCursor: { type: ['string', 'null'] },
    },
  },
  Payment: {
    type: 'object',
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
    required: ['id', 'orderId', 'carrier', 'trackingNumber', 'createdAt'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      orderId: { type: 'string', format: 'uuid' },
      carrier: { type: 'string' },
      trackingNumber: { type: 'string' },
      createdAt: { type: 'string', format: 'date-time' },
    },
  },
  Problem: {
    type: 'object',
    required: ['type', 'title', 'status', 'correlationId'],
    properties: {
      type: { type: 'string', format: 'uri', description: 'ends in the stable error code' },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
      instance: { type: 'string' },
      correlationId: { type: 'string' },
      currentStatus: { type: 'string', description: 'state-conflict: the order status that forbids the change' },
      errors: {
        type: 'array',
        description: 'validation-failed: one entry per problem',
        items: {
          type: 'object',
          required: ['pointer', 'message'],
          properties: { pointer: { type: 'string', description: 'JSON Pointer into the body, the query (/limit) or a header (/headers/name)' }, message: { type: 'string' } },
        },
      },
    },
  },
} as const;

export type SchemaName = keyof typeof schemas;
