// Customers: the JSON Schemas (2020-12) of the area's bodies, queries and answers, which its
// operations validate requests with and the OpenAPI document lists in components.schemas
// (gathered by api/areas.ts with the shared ones of api/schemas.ts, which these may $ref).
// A schema another area uses too belongs in api/schemas.ts.
import { CUSTOMER_ID_PATTERN, EMAIL, text } from '../schemas.js';

const PHONE = { type: ['string', 'null'], pattern: '^\\+?[0-9][0-9 ()./-]{2,29}$', description: 'digits, spaces and ( ) . / -, an optional leading +' } as const;

export const customerSchemas = {
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
} as const;
