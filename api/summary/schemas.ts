// The store at a glance: the JSON Schemas (2020-12) of its query and its answer, which its operation
// validates requests with and the OpenAPI document lists in components.schemas (gathered by
// api/areas.ts with the shared ones of api/schemas.ts).

const count = { type: 'integer', minimum: 0 } as const;
const href = { type: 'string', description: 'the filtered list behind the figure (read it with Api-Version 2027-01-01)' } as const;
const date = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;
const ageSeconds = { type: 'integer', minimum: 0, description: 'seconds from then to asOf' } as const;
const uuid = { type: 'string', format: 'uuid' } as const;
const counted = (description: string | null, more: Record<string, object> = {}, required: readonly string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  ...(description === null ? {} : { description }),
  required: ['count', ...required, 'href'],
  properties: { count, ...more, href },
});
const oldest = (description: string, properties: Record<string, object>) => ({
  description,
  oneOf: [{ type: 'null' }, { type: 'object', additionalProperties: false, required: [...Object.keys(properties), 'ageSeconds'], properties: { ...properties, ageSeconds } }],
});

export const summarySchemas = {
  SummaryQuery: {
    type: 'object',
    additionalProperties: false,
    properties: {
      wait: {
        type: 'integer',
        minimum: 0,
        maximum: 30,
        default: 0,
        description: 'with If-None-Match naming the ETag of the figures the client has: seconds to wait for them to change before answering 304 (a long-poll); 0 answers at once',
      },
    },
  },
  StoreSummary: {
    description: 'The store at a glance, for the administration app\'s home screen: each figure with the href of the filtered list behind it. Days are UTC days. See docs/home-summary.md.',
    type: 'object',
    additionalProperties: false,
    required: ['asOf', 'timeZone', 'sales', 'ordersPlacedToday', 'awaitingPayment', 'awaitingShipment', 'returnsAwaitingReceipt', 'lowStock', 'failedDeliveries'],
    properties: {
      asOf: { ...dateTime, description: 'when the figures were read (the service\'s clock): today is its UTC day, and ages count to it' },
      timeZone: { const: 'UTC', description: 'the time zone days are counted in' },
      sales: {
        type: 'object',
        additionalProperties: false,
        description: 'The last 30 UTC days, today included. A day\'s sales in a currency are the payments recorded that day less the refunds recorded that day, in the currency\'s minor units (from the daily-sales projection).',
        required: ['from', 'to', 'currencies', 'days', 'href'],
        properties: {
          from: date,
          to: { ...date, description: 'today' },
          currencies: { type: 'array', items: { type: 'string' }, description: 'every currency of the days, by code: the chart\'s series' },
          days: {
            type: 'array',
            minItems: 30,
            maxItems: 30,
            description: 'every day from `from` to `to`, oldest first, quiet days included',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['date', 'ordersPlaced', 'sales'],
              properties: {
                date,
                ordersPlaced: { ...count, description: 'orders placed that day, whatever became of them' },
                sales: {
                  type: 'array',
                  description: 'one entry per currency with a payment or a refund that day, by code',
                  items: {
                    type: 'object',
                    additionalProperties: false,
                    required: ['currency', 'payments', 'refunds', 'net'],
                    properties: {
                      currency: { type: 'string' },
                      payments: { ...count, description: 'the payments recorded that day' },
                      refunds: { ...count, description: 'the refunds recorded that day' },
                      net: { type: 'integer', description: 'payments − refunds: the day\'s sales (negative when refunds outweigh them)' },
                    },
                  },
                },
              },
            },
          },
          href,
        },
      },
      ordersPlacedToday: counted('Orders placed since the start of today (UTC), whatever became of them.'),
      awaitingPayment: counted('Orders pending: placed, not paid, not cancelled.', {
        oldest: oldest('the pending order placed first; null when none is', { orderId: uuid, placedAt: dateTime }),
      }, ['oldest']),
      awaitingShipment: counted(
        'Orders paid with something left to ship: paid ones and partially shipped ones (their sum). The href is the fulfilment queue (shipments:write); paid and partiallyShipped link to the orders list (orders:read).',
        {
          paid: counted('Paid, nothing shipped yet.'),
          partiallyShipped: counted('Paid, part of it shipped.'),
          oldest: oldest('the order paid first of those; null when none is', { orderId: uuid, paidAt: dateTime }),
        },
        ['paid', 'partiallyShipped', 'oldest'],
      ),
      returnsAwaitingReceipt: counted('Returns requested and not yet received or cancelled.', {
        oldest: oldest('the return requested first of those; null when none is', { returnId: uuid, orderId: uuid, requestedAt: dateTime }),
      }, ['oldest']),
      lowStock: {
        description: 'SKUs whose available units are below their product\'s lowStockThreshold (a product not retired, threshold above 0); null for a token without stock:read.',
        oneOf: [
          { type: 'null' },
          counted(null, {
            mostPressing: {
              type: 'array',
              maxItems: 5,
              description: 'the five with the fewest units available, then by SKU',
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['sku', 'name', 'available', 'lowStockThreshold', 'href'],
                properties: { sku: { type: 'string' }, name: { type: ['string', 'null'] }, available: count, lowStockThreshold: count, href: { type: 'string', description: 'the SKU\'s stock' } },
              },
            },
          }, ['mostPressing']),
        ],
      },
      failedDeliveries: {
        description: 'Webhook deliveries that failed for good (retried for about 3 days), of the subscriptions not deleted; null for a token without webhooks:admin.',
        oneOf: [
          { type: 'null' },
          counted(null, {
            subscriptions: {
              type: 'array',
              description: 'each subscription with at least one, newest subscription first',
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['subscriptionId', 'url', 'status', 'count', 'href'],
                properties: {
                  subscriptionId: uuid,
                  url: { type: 'string' },
                  status: { type: 'string', enum: ['active', 'paused', 'disabled'] },
                  count,
                  href: { type: 'string', description: 'the subscription\'s failed deliveries' },
                },
              },
            },
          }, ['subscriptions']),
        ],
      },
    },
  },
} as const;
