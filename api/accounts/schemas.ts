// Accounts and sign-in: the JSON Schemas (2020-12) of the area's bodies, queries and answers, which its
// operations validate requests with and the OpenAPI document lists in components.schemas
// (gathered by api/areas.ts with the shared ones of api/schemas.ts, which these may $ref).
// A schema another area uses too belongs in api/schemas.ts.
import { ROLES } from '../../write-side/kernel/access.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../write-side/accounts/passwords.js';
import { CUSTOMER_ID_PATTERN, EMAIL } from '../schemas.js';

export const accountSchemas = {
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
} as const;
