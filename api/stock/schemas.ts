// Stock: the JSON Schemas (2020-12) of the area's bodies, queries and answers, which its
// operations validate requests with and the OpenAPI document lists in components.schemas
// (gathered by api/areas.ts with the shared ones of api/schemas.ts, which these may $ref).
// A schema another area uses too belongs in api/schemas.ts.
import { optionalText } from '../schemas.js';

export const stockSchemas = {
  NewStockAdjustment: {
    type: 'object',
    additionalProperties: false,
    required: ['delta', 'reason'],
    properties: {
      delta: { type: 'integer', not: { const: 0 }, minimum: -1_000_000_000, maximum: 1_000_000_000, description: 'units added to (positive) or taken from (negative) the stock on hand' },
      reason: { type: 'string', enum: ['received', 'count', 'damaged', 'returned', 'other'] },
      note: optionalText(500),
    },
  },
  StockAdjustment: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'sku', 'delta', 'reason', 'note', 'onHand', 'reserved', 'available', 'createdAt'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      sku: { type: 'string' },
      delta: { type: 'integer' },
      reason: { type: 'string', enum: ['received', 'count', 'damaged', 'returned', 'other'] },
      note: { type: ['string', 'null'] },
      onHand: { type: 'integer', description: 'right after this adjustment' },
      reserved: { type: 'integer', description: 'right after this adjustment' },
      available: { type: 'integer', description: 'onHand − reserved, right after this adjustment' },
      createdAt: { type: 'string', format: 'date-time' },
    },
  },
  Stock: {
    type: 'object',
    additionalProperties: false,
    required: ['sku', 'onHand', 'reserved', 'available', 'updatedAt', 'revision'],
    properties: {
      sku: { type: 'string' },
      onHand: { type: 'integer', minimum: 0 },
      reserved: { type: 'integer', minimum: 0, description: 'held by pending and paid orders' },
      available: { type: 'integer', minimum: 0, description: 'onHand − reserved, never below 0' },
      updatedAt: { type: ['string', 'null'], format: 'date-time', description: 'null for a SKU whose stock never changed' },
      revision: { type: ['integer', 'null'], description: "the SKU's stock stream revision; null for a SKU whose stock never changed" },
    },
  },
  ListedStock: {
    type: 'object',
    additionalProperties: false,
    required: ['sku', 'name', 'lowStockThreshold', 'onHand', 'reserved', 'available', 'updatedAt', 'revision'],
    properties: {
      sku: { type: 'string' },
      name: { type: ['string', 'null'], description: "the SKU's product's name; null for a SKU whose stock changed though no product was ever defined under it" },
      lowStockThreshold: { type: 'integer', minimum: 0, description: "the product's; 0 for none" },
      onHand: { type: 'integer', minimum: 0 },
      reserved: { type: 'integer', minimum: 0, description: 'held by pending and paid orders' },
      available: { type: 'integer', minimum: 0, description: 'onHand − reserved, never below 0' },
      updatedAt: { type: ['string', 'null'], format: 'date-time', description: 'null for a SKU whose stock never changed' },
      revision: { type: ['integer', 'null'], description: "the SKU's stock stream revision; null for a SKU whose stock never changed" },
    },
  },
  StockPage: {
    type: 'object',
    additionalProperties: false,
    required: ['items', 'nextCursor'],
    properties: {
      items: { type: 'array', items: { $ref: '#/components/schemas/ListedStock' } },
      nextCursor: { type: ['string', 'null'] },
    },
  },
  StockListQuery: {
    type: 'object',
    additionalProperties: false,
    properties: {
      below: { type: 'integer', minimum: 0, maximum: 1_000_000_000_000, description: 'only SKUs whose available stock is below this' },
      belowThreshold: {
        type: 'boolean',
        description: "true: only the SKUs whose available units are below their product's lowStockThreshold (a product not retired, with a threshold above 0), those never stocked included; not with below",
      },
      skuPrefix: { type: 'string', minLength: 1, maxLength: 64, description: 'only the SKUs that begin with it (exactly, case and all); alone or with belowThreshold' },
      namePrefix: {
        type: 'string',
        minLength: 1,
        maxLength: 200,
        description: "only the SKUs whose product's name begins with it, whatever the case; listed by name (case folded), then SKU; with no other filter",
      },
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      cursor: { type: 'string', minLength: 1, maxLength: 1024 },
    },
  },
} as const;
