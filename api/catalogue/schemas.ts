// Catalogue: the JSON Schemas (2020-12) of the area's bodies, queries and answers, which its
// operations validate requests with and the OpenAPI document lists in components.schemas
// (gathered by api/areas.ts with the shared ones of api/schemas.ts, which these may $ref).
// A schema another area uses too belongs in api/schemas.ts.
import { CURRENCY_CODES, MAX_PRICE, SKU_PATTERN, optionalText, text } from '../schemas.js';

/** Prices by ISO 4217 currency, in minor units; in a merge patch a price may be null (removed). */
const prices = (removable: boolean) =>
  ({
    type: 'object',
    description: removable
      ? 'prices to set by ISO 4217 currency, in minor units; null removes the price in that currency'
      : 'by ISO 4217 currency, in minor units (1299 = 12.99); a currency left out has no price',
    propertyNames: { enum: CURRENCY_CODES },
    additionalProperties: { type: removable ? ['integer', 'null'] : 'integer', minimum: 0, maximum: MAX_PRICE },
  }) as const;

/** The most a low-stock threshold may be: the most one adjustment may add. */
const MAX_THRESHOLD = 1_000_000_000;
const THRESHOLD_SINCE =
  'Since 2027-01-01 (additive: accepted and shown under every Api-Version, as the other members that version added). ' +
  "The webhook event stock.low fires when the SKU's available units fall below it; 0 is no threshold.";

export const catalogueSchemas = {
  ProductInput: {
    description: 'A whole product (PUT).',
    type: 'object',
    additionalProperties: false,
    required: ['name', 'prices', 'status'],
    properties: {
      name: text(200),
      description: { ...optionalText(2000), description: 'null (or left out) for none' },
      prices: prices(false),
      status: { type: 'string', enum: ['draft', 'active'], description: 'only an active product can be ordered' },
      lowStockThreshold: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_THRESHOLD,
        description:
          `${THRESHOLD_SINCE} Under 2027-01-01 a PUT that leaves it out sets none (0); under 2026-12-01 and 2026-11-01, whose clients do not know it, ` +
          'a PUT that leaves it out keeps the threshold the product has.',
      },
    },
  },
  ProductPatch: {
    description: 'JSON Merge Patch (RFC 7396) of a product: members left out stay; {"prices":{"USD":null}} removes the USD price; description null removes it.',
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    properties: {
      name: text(200),
      description: optionalText(2000),
      prices: prices(true),
      status: { type: 'string', enum: ['draft', 'active'] },
      lowStockThreshold: { type: ['integer', 'null'], minimum: 0, maximum: MAX_THRESHOLD, description: `${THRESHOLD_SINCE} null removes it (0).` },
    },
  },
  Product: {
    type: 'object',
    additionalProperties: false,
    required: ['sku', 'name', 'description', 'prices', 'status', 'lowStockThreshold', 'createdAt', 'updatedAt', 'revision'],
    properties: {
      sku: { type: 'string', pattern: SKU_PATTERN },
      name: { type: 'string' },
      description: { type: ['string', 'null'] },
      prices: { type: 'object', additionalProperties: { type: 'integer' }, description: 'by ISO 4217 currency, in minor units' },
      status: { type: 'string', enum: ['draft', 'active'] },
      lowStockThreshold: { type: 'integer', minimum: 0, description: `${THRESHOLD_SINCE} 0 when the product has none.` },
      createdAt: { type: 'string', format: 'date-time', description: 'when the SKU was (last) defined: a product created anew after its retirement starts again' },
      updatedAt: { type: 'string', format: 'date-time' },
      revision: { type: 'integer', description: 'the product stream revision; ETag is "<revision>"' },
    },
  },
  ProductPage: {
    type: 'object',
    additionalProperties: false,
    required: ['items', 'nextCursor'],
    properties: {
      items: { type: 'array', items: { $ref: '#/components/schemas/Product' } },
      nextCursor: { type: ['string', 'null'] },
    },
  },
  ProductListQuery: {
    type: 'object',
    additionalProperties: false,
    properties: {
      status: { type: 'string', enum: ['draft', 'active'] },
      sort: { type: 'string', enum: ['sku', '-updatedAt'], default: 'sku' },
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      cursor: { type: 'string', minLength: 1, maxLength: 1024 },
    },
  },
} as const;
