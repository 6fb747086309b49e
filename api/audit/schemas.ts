// Audit: the JSON Schemas (2020-12) of the area's bodies, queries and answers, which its
// operations validate requests with and the OpenAPI document lists in components.schemas
// (gathered by api/areas.ts with the shared ones of api/schemas.ts, which these may $ref).
// A schema another area uses too belongs in api/schemas.ts.

/** A quantity of a SKU, as a shipment, a return and its receipt record it. */
const skuQuantity = {
  type: 'object',
  additionalProperties: false,
  required: ['sku', 'quantity'],
  properties: { sku: { type: 'string' }, quantity: { type: 'integer' } },
} as const;

export const auditSchemas = {
  HistoryEvent: {
    description: 'One event of an order, its data upcast to the current schema version.',
    oneOf: [
      historyEvent('OrderPlaced', 2, {
        required: ['orderId', 'customerId', 'currency', 'lines', 'total', 'address', 'placedAt'],
        properties: {
          orderId: { type: 'string', format: 'uuid' },
          customerId: { type: 'string' },
          currency: { type: 'string' },
          lines: { type: 'array', items: { $ref: '#/components/schemas/OrderLine' } },
          total: { type: 'integer' },
          address: { $ref: '#/components/schemas/OrderAddress' },
          placedAt: { type: 'string', format: 'date-time' },
        },
      }),
      historyEvent('OrderAddressChanged', 1, {
        required: ['orderId', 'address', 'changedAt'],
        properties: { orderId: { type: 'string', format: 'uuid' }, address: { $ref: '#/components/schemas/OrderAddress' }, changedAt: { type: 'string', format: 'date-time' } },
      }),
      historyEvent('PaymentRecorded', 2, {
        required: ['orderId', 'paymentId', 'amount', 'reference', 'method', 'recordedAt'],
        properties: {
          orderId: { type: 'string', format: 'uuid' },
          paymentId: { type: 'string' },
          amount: { type: 'integer' },
          reference: { type: 'string' },
          method: { $ref: '#/components/schemas/PaymentMethod' },
          recordedAt: { type: 'string', format: 'date-time' },
        },
      }),
      historyEvent('ShipmentCreated', 2, {
        required: ['orderId', 'shipmentId', 'carrier', 'trackingNumber', 'lines', 'createdAt'],
        properties: {
          orderId: { type: 'string', format: 'uuid' },
          shipmentId: { type: 'string' },
          carrier: { type: 'string' },
          trackingNumber: { type: 'string' },
          lines: { type: ['array', 'null'], items: skuQuantity, description: 'what it shipped of each SKU; null for a shipment from before shipments by line (version 1), which shipped everything that remained' },
          createdAt: { type: 'string', format: 'date-time' },
        },
      }),
      historyEvent('OrderCancelled', 1, {
        required: ['orderId', 'reason', 'cancelledAt'],
        properties: { orderId: { type: 'string', format: 'uuid' }, reason: { type: ['string', 'null'] }, cancelledAt: { type: 'string', format: 'date-time' } },
      }),
      historyEvent('ReturnRequested', 1, {
        required: ['orderId', 'returnId', 'lines', 'reason', 'requestedAt'],
        properties: { orderId: { type: 'string', format: 'uuid' }, returnId: { type: 'string' }, lines: { type: 'array', items: skuQuantity }, reason: { type: 'string' }, requestedAt: { type: 'string', format: 'date-time' } },
      }),
      historyEvent('ReturnReceived', 1, {
        required: ['orderId', 'returnId', 'lines', 'receivedAt'],
        properties: {
          orderId: { type: 'string', format: 'uuid' },
          returnId: { type: 'string' },
          lines: { type: 'array', items: { ...skuQuantity, required: [...skuQuantity.required, 'restock'], properties: { ...skuQuantity.properties, restock: { type: 'boolean' } } } },
          receivedAt: { type: 'string', format: 'date-time' },
        },
      }),
      historyEvent('ReturnCancelled', 1, {
        required: ['orderId', 'returnId', 'cancelledAt'],
        properties: { orderId: { type: 'string', format: 'uuid' }, returnId: { type: 'string' }, cancelledAt: { type: 'string', format: 'date-time' } },
      }),
      historyEvent('RefundRecorded', 1, {
        required: ['orderId', 'refundId', 'amount', 'reason', 'note', 'recordedAt'],
        properties: {
          orderId: { type: 'string', format: 'uuid' },
          refundId: { type: 'string' },
          amount: { type: 'integer' },
          reason: { type: 'string' },
          note: { type: ['string', 'null'] },
          recordedAt: { type: 'string', format: 'date-time' },
        },
      }),
      historyEvent('OrderEdited', 1, {
        required: ['orderId', 'editId', 'before', 'after', 'total', 'editedAt'],
        properties: {
          orderId: { type: 'string', format: 'uuid' },
          editId: { type: 'string' },
          before: { type: 'array', items: { $ref: '#/components/schemas/OrderLine' } },
          after: { type: 'array', items: { $ref: '#/components/schemas/OrderLine' } },
          total: { type: 'integer' },
          editedAt: { type: 'string', format: 'date-time' },
        },
      }),
      historyEvent(
        'CustomerErased',
        1,
        {
          required: ['customerId', 'erasedAt'],
          properties: { customerId: { type: 'string' }, erasedAt: { type: 'string', format: 'date-time' } },
        },
        {
          description: "The erasure of the order's customer (DELETE /customers/{id}), recorded on the customer's stream and shown at its place in the log: from it on, the personal data of every event of the order reads as null. It holds none itself.",
          revision: "its revision in the customer's stream",
        },
      ),
    ],
  },
  HistoryPage: {
    type: 'object',
    additionalProperties: false,
    required: ['items', 'nextCursor'],
    properties: {
      items: { type: 'array', items: { $ref: '#/components/schemas/HistoryEvent' } },
      nextCursor: { type: ['string', 'null'] },
    },
  },
} as const;

/** An event of the history: its type, versions, position and metadata, and its data. */
function historyEvent(
  type: string,
  schemaVersion: number,
  data: { required: readonly string[]; properties: Record<string, unknown> },
  { description, revision = 'its revision in the order stream' }: { description?: string; revision?: string } = {},
) {
  return {
    title: type,
    ...(description ? { description } : {}),
    type: 'object',
    additionalProperties: false,
    required: ['type', 'schemaVersion', 'recordedSchemaVersion', 'revision', 'position', 'recordedAt', 'data', 'metadata'],
    properties: {
      type: { const: type },
      schemaVersion: { const: schemaVersion, description: 'the version `data` is given in (stored events are upcast on read)' },
      recordedSchemaVersion: { type: 'integer', minimum: 1, maximum: schemaVersion, description: 'the version the event was stored in' },
      revision: { type: 'integer', minimum: 0, description: revision },
      position: { type: 'string', pattern: '^[0-9a-f]{32}$', description: 'its position in the log' },
      recordedAt: { type: 'string', format: 'date-time', description: 'when the store recorded it' },
      data: { type: 'object', additionalProperties: false, ...data },
      metadata: {
        type: 'object',
        additionalProperties: false,
        required: ['principal', 'correlationId', 'causationId'],
        properties: { principal: { type: 'string' }, correlationId: { type: 'string' }, causationId: { type: ['string', 'null'] } },
      },
    },
  } as const;
}
