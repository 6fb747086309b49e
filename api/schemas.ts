// JSON Schemas (2020-12) of every body, query and path parameter. ajv validates requests with
// them and the OpenAPI document is built from them, so the two cannot drift apart.

import { getAlpha2Codes } from 'i18n-iso-countries/index.js';
import { ROLES } from '../write-side/kernel/access.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../write-side/accounts/passwords.js';

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
export const SKU_PATTERN = '^[A-Za-z0-9_.:-]{1,64}$';
const MAX_PRICE = 1_000_000_000_000;
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
/** An address with one @, something visible on both sides and a dot in the domain; compared case-insensitively. */
const EMAIL_PART = `[^\\s@${HIDDEN}]`;
const EMAIL = { type: 'string', minLength: 3, maxLength: 254, pattern: `^${EMAIL_PART}{1,64}@${EMAIL_PART}+\\.${EMAIL_PART}+$`, description: 'one customer per email, compared case-insensitively' } as const;
const PHONE = { type: ['string', 'null'], pattern: '^\\+?[0-9][0-9 ()./-]{2,29}$', description: 'digits, spaces and ( ) . / -, an optional leading +' } as const;
/**
 * An RFC 3339 date-time that names a real instant: months 01–12, the days each month has (29
 * February only in leap years), hours 00–23, minutes and seconds 00–59 (no leap second: the
 * runtime cannot represent one), offsets up to ±23:59.
 */
export const RFC3339_PATTERN =
  '^(?:\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))' +
  '|(?:\\d{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)-02-29)' +
  'T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d{1,9})?(?:Z|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)$';
const RFC3339 = RFC3339_PATTERN;

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
    additionalProperties: false,
    required: ['id', 'type', 'status', 'progress', 'createdAt', 'startedAt', 'finishedAt', 'result', 'error'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      type: { type: 'string', enum: ['order-export'] },
      status: { type: 'string', enum: ['queued', 'running', 'succeeded', 'failed'] },
      format: { type: 'string', enum: ['ndjson', 'csv'] },
      filter: {
        type: 'object',
        additionalProperties: false,
        description: 'the filter as applied: bounds as UTC instants',
        properties: {
          status: { type: 'string', enum: ['pending', 'paid', 'shipped', 'cancelled'] },
          createdFrom: { type: 'string', format: 'date-time' },
          createdTo: { type: 'string', format: 'date-time' },
        },
      },
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
      error: {
        description: 'why the job failed (an RFC 9457 problem); null unless it failed',
        oneOf: [
          { type: 'null' },
          {
            type: 'object',
            additionalProperties: false,
            required: ['type', 'title', 'status', 'detail'],
            properties: { type: { type: 'string', format: 'uri' }, title: { type: 'string' }, status: { type: 'integer' }, detail: { type: 'string' } },
          },
        ],
      },
    },
  },
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
  StockPage: {
    type: 'object',
    additionalProperties: false,
    required: ['items', 'nextCursor'],
    properties: {
      items: { type: 'array', items: { $ref: '#/components/schemas/Stock' } },
      nextCursor: { type: ['string', 'null'] },
    },
  },
  StockListQuery: {
    type: 'object',
    additionalProperties: false,
    properties: {
      below: { type: 'integer', minimum: 0, maximum: 1_000_000_000_000, description: 'only SKUs whose available stock is below this' },
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      cursor: { type: 'string', minLength: 1, maxLength: 1024 },
    },
  },
  NewCustomer: {
    type: 'object',
    additionalProperties: false,
    required: ['email', 'name'],
    properties: {
      email: EMAIL,
      name: text(200),
      phone: PHONE,
      defaultAddress: { oneOf: [{ type: 'null' }, { $ref: '#/components/schemas/Address' }] },
    },
  },
  CustomerPatch: {
    description: 'JSON Merge Patch (RFC 7396) of a customer: defaultAddress is merged member by member; null removes phone or defaultAddress.',
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    properties: {
      email: EMAIL,
      name: text(200),
      phone: PHONE,
      defaultAddress: { oneOf: [{ type: 'null' }, { $ref: '#/components/schemas/AddressPatch' }] },
    },
  },
  CustomerListQuery: {
    type: 'object',
    additionalProperties: false,
    properties: {
      email: { ...EMAIL, description: 'exact match, case-insensitive' },
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      cursor: { type: 'string', minLength: 1, maxLength: 1024 },
    },
  },
  Customer: {
    description: 'A customer. Once erased, every personal member (email, name, phone, defaultAddress) is null and erasedAt says when.',
    type: 'object',
    additionalProperties: false,
    required: ['id', 'email', 'name', 'phone', 'defaultAddress', 'status', 'createdAt', 'updatedAt', 'erasedAt', 'revision'],
    properties: {
      id: { type: 'string', pattern: CUSTOMER_ID_PATTERN },
      email: { type: ['string', 'null'] },
      name: { type: ['string', 'null'] },
      phone: { type: ['string', 'null'] },
      defaultAddress: { oneOf: [{ type: 'null' }, { $ref: '#/components/schemas/Address' }] },
      status: { type: 'string', enum: ['active', 'erased'] },
      createdAt: { type: 'string', format: 'date-time', description: 'the registration; for a guest customer (no record before), the erasure' },
      updatedAt: { type: 'string', format: 'date-time' },
      erasedAt: { type: ['string', 'null'], format: 'date-time' },
      revision: { type: 'integer', description: 'the customer stream revision; ETag is "<revision>"' },
    },
  },
  CustomerPage: {
    type: 'object',
    additionalProperties: false,
    required: ['items', 'nextCursor'],
    properties: {
      items: { type: 'array', items: { $ref: '#/components/schemas/Customer' } },
      nextCursor: { type: ['string', 'null'] },
    },
  },
  NewAccount: {
    type: 'object',
    additionalProperties: false,
    required: ['email', 'password', 'role'],
    properties: {
      email: { $ref: '#/components/schemas/Email' },
      password: { $ref: '#/components/schemas/Password' },
      role: { type: 'string', enum: ROLES },
      customerId: { type: 'string', pattern: CUSTOMER_ID_PATTERN, description: 'Required for the customer role, refused for the others.' },
    },
  },
  AccountPatch: {
    description: 'JSON Merge Patch (RFC 7396): the role (among the staff roles: the customer role is given only at creation) and whether the account is disabled.',
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    properties: {
      role: { type: 'string', enum: ROLES.filter((role) => role !== 'customer') },
      disabled: { type: 'boolean' },
    },
  },
  PasswordChange: {
    type: 'object',
    additionalProperties: false,
    required: ['currentPassword', 'newPassword'],
    properties: {
      currentPassword: { type: 'string', minLength: 1, maxLength: PASSWORD_MAX_LENGTH },
      newPassword: { $ref: '#/components/schemas/Password' },
    },
  },
  SignIn: {
    type: 'object',
    additionalProperties: false,
    required: ['email', 'password'],
    properties: {
      email: { type: 'string', minLength: 1, maxLength: 254 },
      password: { type: 'string', minLength: 1, maxLength: PASSWORD_MAX_LENGTH },
    },
  },
  Email: { ...EMAIL, description: 'one account per email, compared case-insensitively; kept lower-cased' },
  Password: {
    type: 'string',
    minLength: PASSWORD_MIN_LENGTH,
    maxLength: PASSWORD_MAX_LENGTH,
    description: `${PASSWORD_MIN_LENGTH}–${PASSWORD_MAX_LENGTH} characters (NIST SP 800-63B), any of them. Never returned, logged or stored in clear (argon2id).`,
  },
  Account: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'email', 'role', 'customerId', 'disabled', 'createdAt', 'updatedAt', 'revision'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      email: { type: 'string' },
      role: { type: 'string', enum: ROLES },
      customerId: { type: ['string', 'null'], description: 'The customer a customer account acts for; null for the other roles.' },
      disabled: { type: 'boolean' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
      revision: { type: 'integer', minimum: 0 },
    },
  },
  AccountPage: {
    type: 'object',
    additionalProperties: false,
    required: ['items', 'nextCursor'],
    properties: {
      items: { type: 'array', items: { $ref: '#/components/schemas/Account' } },
      nextCursor: { type: ['string', 'null'] },
    },
  },
  AccessToken: {
    description: 'RFC 6749 §5.1.',
    type: 'object',
    additionalProperties: false,
    required: ['access_token', 'token_type', 'expires_in', 'scope'],
    properties: {
      access_token: { type: 'string' },
      token_type: { const: 'Bearer' },
      expires_in: { type: 'integer', minimum: 1, description: 'Seconds (TOKEN_TTL_SECONDS).' },
      scope: { type: 'string', description: "The role's scopes, space-separated." },
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
    },
  },
  Product: {
    type: 'object',
    additionalProperties: false,
    required: ['sku', 'name', 'description', 'prices', 'status', 'createdAt', 'updatedAt', 'revision'],
    properties: {
      sku: { type: 'string', pattern: SKU_PATTERN },
      name: { type: 'string' },
      description: { type: ['string', 'null'] },
      prices: { type: 'object', additionalProperties: { type: 'integer' }, description: 'by ISO 4217 currency, in minor units' },
      status: { type: 'string', enum: ['draft', 'active'] },
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
  Order: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'customerId', 'status', 'currency', 'lines', 'total', 'address', 'createdAt', 'updatedAt', 'revision'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      customerId: { type: 'string' },
      status: { type: 'string', enum: ['pending', 'paid', 'shipped', 'cancelled'] },
      currency: { type: 'string' },
      lines: { type: 'array', items: { $ref: '#/components/schemas/OrderLine' } },
      total: { type: 'integer', description: 'minor units' },
      address: { $ref: '#/components/schemas/OrderAddress' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
      revision: { type: 'integer', description: 'the order stream revision (0 for a new order); ETag is "<revision>"' },
    },
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
      lines: { type: 'array', items: { $ref: '#/components/schemas/OrderLine' } },
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
      historyEvent('ShipmentCreated', 1, {
        required: ['orderId', 'shipmentId', 'carrier', 'trackingNumber', 'createdAt'],
        properties: {
          orderId: { type: 'string', format: 'uuid' },
          shipmentId: { type: 'string' },
          carrier: { type: 'string' },
          trackingNumber: { type: 'string' },
          createdAt: { type: 'string', format: 'date-time' },
        },
      }),
      historyEvent('OrderCancelled', 1, {
        required: ['orderId', 'reason', 'cancelledAt'],
        properties: { orderId: { type: 'string', format: 'uuid' }, reason: { type: ['string', 'null'] }, cancelledAt: { type: 'string', format: 'date-time' } },
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

export type SchemaName = keyof typeof schemas;

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
