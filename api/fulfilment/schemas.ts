// Fulfilment: the JSON Schemas (2020-12) of the area's bodies, queries and answers, which its
// operations validate requests with and the OpenAPI document lists in components.schemas
// (gathered by api/areas.ts with the shared ones of api/schemas.ts, which these may $ref).
// A schema another area uses too belongs in api/schemas.ts.

export const fulfilmentSchemas = {
  ChangesQuery: {
    type: 'object',
    additionalProperties: false,
    properties: {
      after: { type: 'string', pattern: '^[0-9a-f]{32}$', description: 'the position of the last change handled' },
      wait: { type: 'integer', minimum: 0, maximum: 30, default: 0, description: 'seconds to wait for a change when there is none yet' },
      limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
    },
  },
  QueueEntry: {
    description: 'A paid order waiting to ship.',
    type: 'object',
    additionalProperties: false,
    required: ['orderId', 'customerId', 'currency', 'total', 'lines', 'address', 'paidAt', 'revision'],
    properties: {
      orderId: { type: 'string', format: 'uuid' },
      customerId: { type: 'string' },
      currency: { type: 'string' },
      total: { type: 'integer', description: 'minor units' },
      // The orders' own schema (api/orders/schemas.ts): the queue is a view of the orders area (docs/areas.md).
      lines: { type: 'array', items: { $ref: '#/components/schemas/OrderLineState' }, description: 'as the order has them: what remains to ship of a line is quantity − shipped − cancelled' },
      address: { $ref: '#/components/schemas/OrderAddress' },
      paidAt: { type: 'string', format: 'date-time', description: 'when the payment was recorded; the queue is in this order' },
      revision: { type: 'integer', description: 'the order stream revision this entry includes' },
    },
  },
  QueuePage: {
    type: 'object',
    additionalProperties: false,
    required: ['items', 'nextCursor'],
    properties: {
      items: { type: 'array', items: { $ref: '#/components/schemas/QueueEntry' } },
      nextCursor: { type: ['string', 'null'] },
    },
  },
  QueueChange: {
    description: 'An order entered the queue (paid) or left it (shipped, cancelled).',
    type: 'object',
    additionalProperties: false,
    required: ['position', 'orderId', 'change', 'reason', 'at'],
    properties: {
      position: { type: 'string', pattern: '^[0-9a-f]{32}$', description: 'its log position: continue after it with `after` or Last-Event-ID' },
      orderId: { type: 'string', format: 'uuid' },
      change: { type: 'string', enum: ['entered', 'left'] },
      reason: { type: 'string', enum: ['paid', 'shipped', 'cancelled'] },
      at: { type: 'string', format: 'date-time', description: 'when the event was recorded' },
    },
  },
  QueueChanges: {
    type: 'object',
    additionalProperties: false,
    required: ['changes', 'next'],
    properties: {
      changes: { type: 'array', items: { $ref: '#/components/schemas/QueueChange' } },
      next: { type: ['string', 'null'], description: 'the position to continue after (`after`); null while the log is empty' },
    },
  },
} as const;
