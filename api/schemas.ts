// The shared part of the API's JSON Schemas (2020-12): the constants and patterns, the pieces
// (text, email, money) and the schemas that several areas use (Address, OrderLine, PageQuery,
// Problem…). Each area's own schemas live in api/<area>/schemas.ts; api/areas.ts gathers them
// with these. ajv validates requests with them and the OpenAPI document is built from them, so the
// two cannot drift apart. A schema belongs here once a second area uses it.

import { getAlpha2Codes } from 'i18n-iso-countries/index.js';

// Free text: something visible, and none of what hides or reorders text in a screen or a log:
// control characters, line and paragraph separators (U+2028/9), bidirectional controls
// (U+202A-E, U+2066-9) and unpaired surrogates (the `u` flag ajv compiles patterns with
// matches a surrogate pair as one code point, outside the range).
const HIDDEN = '\\u0000-\\u001f\\u007f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069\\ud800-\\udfff';
// Leading white space, one visible character, anything visible or white after it: the classes do
// not overlap, so matching takes linear time even on a 64 KiB string.
export const TEXT_PATTERN = `^[^${HIDDEN}\\S]*[^${HIDDEN}\\s][^${HIDDEN}]*$`;
export const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength, pattern: TEXT_PATTERN }) as const;
export const optionalText = (maxLength: number) => ({ type: ['string', 'null'], maxLength, pattern: TEXT_PATTERN }) as const;

/** ISO 4217 currencies as the runtime's Intl data knows them (no XXX, XTS or made-up codes). */
export const CURRENCY_CODES: readonly string[] = Object.freeze(Intl.supportedValuesOf('currency'));
/** ISO 3166-1 alpha-2 codes, from the i18n-iso-countries package (with XK, Kosovo, as carriers use it). */
export const COUNTRY_CODES: readonly string[] = Object.freeze(Object.keys(getAlpha2Codes()).sort());

export const ORDER_ID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
export const CUSTOMER_ID_PATTERN = '^[A-Za-z0-9_.:-]{1,64}$';
export const SKU_PATTERN = '^[A-Za-z0-9_.:-]{1,64}$';
export const MAX_PRICE = 1_000_000_000_000;
/** An address with one @, something visible on both sides and a dot in the domain; compared case-insensitively. */
const EMAIL_PART = `[^\\s@${HIDDEN}]`;
export const EMAIL = { type: 'string', minLength: 3, maxLength: 254, pattern: `^${EMAIL_PART}{1,64}@${EMAIL_PART}+\\.${EMAIL_PART}+$`, description: 'one customer per email, compared case-insensitively' } as const;
/**
 * An RFC 3339 date-time that names a real instant: months 01–12, the days each month has (29
 * February only in leap years), hours 00–23, minutes and seconds 00–59 (no leap second: the
 * runtime cannot represent one), offsets up to ±23:59.
 */
export const RFC3339_PATTERN =
  '^(?:\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))' +
  '|(?:\\d{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)-02-29)' +
  'T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d{1,9})?(?:Z|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)$';

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

/** The schemas several areas use; an area's own are in its folder (api/<area>/schemas.ts). */
export const sharedSchemas = {
  Address: {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'line1', 'city', 'postalCode', 'country'],
    properties: addressProperties,
  },
  ErasedAddress: {
    description: "The address of a customer whose personal data was erased (DELETE /customers/{id}): every member null.",
    type: 'object',
    additionalProperties: false,
    required: Object.keys(addressProperties),
    properties: Object.fromEntries(Object.keys(addressProperties).map((name) => [name, { type: 'null' }])),
  },
  OrderAddress: {
    description: 'The address an order ships to; every member null once its customer was erased.',
    oneOf: [{ $ref: '#/components/schemas/Address' }, { $ref: '#/components/schemas/ErasedAddress' }],
  },
  AddressPatch: {
    description: 'JSON Merge Patch (RFC 7396) of an address: a member set to null removes it (only line2 and region may be removed).',
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    properties: addressProperties,
  },
  PaymentMethod: { type: 'string', enum: ['card', 'bank-transfer', 'wallet', 'unknown'] },
  PageQuery: {
    description: 'A page of a collection without filters: the fulfilment queue, an order history.',
    type: 'object',
    additionalProperties: false,
    properties: {
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      cursor: { type: 'string', minLength: 1, maxLength: 1024 },
    },
  },
  OrderLine: {
    type: 'object',
    additionalProperties: false,
    required: ['sku', 'name', 'quantity', 'unitPrice', 'lineTotal'],
    properties: {
      sku: { type: 'string' },
      name: { type: ['string', 'null'], description: 'the product name when the order was placed; null on orders placed before the catalogue existed (added in 2026-11-01, additive)' },
      quantity: { type: 'integer' },
      unitPrice: { type: 'integer', description: 'the catalogue price in the order currency when the order was placed' },
      lineTotal: { type: 'integer' },
    },
  },
  Problem: {
    description: 'RFC 9457 problem details. Each response names the codes `type` can end in.',
    type: 'object',
    additionalProperties: false,
    required: ['type', 'title', 'status', 'correlationId'],
    properties: {
      type: { type: 'string', format: 'uri', description: 'ends in the stable error code' },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
      instance: { type: 'string', description: 'the path of the request' },
      correlationId: { type: 'string' },
      currentStatus: { type: 'string', description: 'state-conflict: the status that forbids the change' },
      currentRevision: { type: 'integer', description: 'precondition-failed: the revision the order or product has' },
      requiredScope: { type: 'string', description: 'forbidden: the scope the operation needs' },
      supportedVersions: { type: 'array', items: { type: 'string' }, description: 'unsupported-api-version: the versions served' },
      resultExpiredAt: { type: ['string', 'null'], format: 'date-time', description: 'result-expired: when the result was removed' },
      limit: { type: 'integer', description: 'rate-limited by the export cap: how many exports may be queued or running at once' },
      outcome: { type: 'string', enum: ['unknown'], description: 'unavailable: the event store did not confirm a write in time; it may have taken effect' },
      errors: {
        type: 'array',
        description: 'validation-failed: one entry per problem; insufficient-stock: one entry per short order line (/lines/{i}/quantity) or the adjustment\'s /delta, with what is available; product-unavailable: one per line that cannot be ordered (/lines/i/sku); price-changed: one per line whose unitPrice differs (/lines/i/unitPrice), with the current unitPrice',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['pointer', 'message'],
          properties: {
            pointer: { type: 'string', description: 'JSON Pointer into the body, the query (/limit), the path (/path/id) or a header (/headers/name)' },
            message: { type: 'string' },
            available: { type: 'integer', minimum: 0, description: 'insufficient-stock: the stock available for this line' },
            unitPrice: { type: 'integer', description: "price-changed: the line's unit price in the catalogue now" },
          },
        },
      },
    },
  },
} as const;

/** A set of named schemas, as an area or the shared part declares them. */
export type SchemaSet = Readonly<Record<string, object>>;
