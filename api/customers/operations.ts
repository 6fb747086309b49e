// The customer resource: registration, reads, merge-patch changes and erasure go to the write
// side (single reads fold the stream: always current), the list comes from the customers
// projection. A handler parses, calls one use case with the viewer (which confines what it reads
// and changes), and represents the result.
import type { Context } from 'koa';
import type { CustomerQueries } from '../../read-side/customers/queries.js';
import { representCustomer } from '../../read-side/customers/views.js';
import type { CustomerResult, CustomerService, CustomerSnapshot } from '../../write-side/customers/service.js';
import type { Customer, CustomerPatch, CustomerProfile } from '../../write-side/customers/types.js';
import { CustomerNotFound } from '../../write-side/kernel/errors.js';
import type { Position } from '../../write-side/kernel/event-store.js';
import { readJson } from '../body.js';
import { keyedPost } from '../idempotency.js';
import { writeContext } from '../middleware/context.js';
import { area, type Operation, type Shared } from '../operation.js';
import { authProblems, commonHeaders, consistencyToken, header, headerRef, idempotencyKey, json, mergePatchOnly, problem, queryParameters, rateLimitHeaders, ref, responseRef, retryAfter } from '../openapi-parts.js';
import { validationFailed } from '../problem.js';
import { CUSTOMER_ID_PATTERN, sharedSchemas } from '../schemas.js';
import { validators } from '../validation.js';
import { customerSchemas } from './schemas.js';
import { holdingSlotIf } from '../waiting.js';
import { ifMatchRevision, matchesNoneMatch } from '../preconditions.js';
import { withNulls, type AddressInput } from '../orders/operations.js';

export interface CustomerDeps {
  readonly customers: CustomerService;
  readonly customerQueries: CustomerQueries;
}
type Deps = CustomerDeps & Shared;

type NewCustomer = { email: string; name: string; phone?: string | null; defaultAddress?: AddressInput | null };

const { bodyValidator, queryValidator } = validators({ ...sharedSchemas, ...customerSchemas });
const validNewCustomer = bodyValidator<NewCustomer>('NewCustomer');
const validPatch = bodyValidator<CustomerPatch>('CustomerPatch');
const validListQuery = queryValidator<{ email?: string; limit: number; cursor?: string }>('CustomerListQuery');
const CUSTOMER_ID = new RegExp(CUSTOMER_ID_PATTERN);
const MERGE_PATCH = 'application/merge-patch+json';
const customerId = { $ref: '#/components/parameters/CustomerId' };

const operations: Operation<Deps>[] = [
  {
    method: 'post',
    path: '/customers',
    access: { scope: 'customers:write' },
    operationId: 'createCustomer',
    tags: ['customers'],
    summary: 'Create a customer',
    description:
      'Needs customers:write and a staff token: a customer token is 403 (customers are created by staff, or by the account sign-up, not by another customer). ' +
      'One email belongs to one customer, compared case-insensitively, however many requests race: the others get 409 email-in-use. The id is cus_ and 32 hex digits, derived from the Idempotency-Key, so a retry lands on the same customer.',
    parameters: [idempotencyKey],
    requestBody: { required: true, content: json(ref('NewCustomer')) },
    responses: {
      '201': {
        description: 'The customer was created (or this is a replay of the request that created it).',
        headers: { ...commonHeaders, ...rateLimitHeaders, Location: header('/customers/{id}', { type: 'string' }, true), ETag: headerRef('ETag'), 'Consistency-Token': headerRef('Consistency-Token'), 'Idempotent-Replayed': headerRef('Idempotent-Replayed') },
        content: json(ref('Customer')),
      },
      ...authProblems,
      '409': problem(
        'email-in-use: another customer has this email; or idempotency-key-in-use: the first request with this key is still running (with Retry-After).',
        409,
        ['email-in-use', 'idempotency-key-in-use'],
        { 'Retry-After': retryAfter(false) },
      ),
      '413': responseRef('PayloadTooLarge'),
      '415': responseRef('UnsupportedMediaType'),
      '422': responseRef('IdempotencyKeyReused'),
    },
    async handle(ctx, { customers, inFlight }) {
      const result = await keyedPost(ctx, inFlight, {
        validate: validNewCustomer,
        target: () => null,
        path: () => '/customers',
        run: (input, _, context) => {
          const profile: CustomerProfile = {
            email: input.email,
            name: input.name,
            phone: input.phone ?? null,
            defaultAddress: input.defaultAddress ? withNulls(input.defaultAddress) : null,
          };
          return customers.register(ctx.state.principal, profile, context);
        },
        location: (registered) => `/customers/${recorded(registered).id}`,
      });
      sendCustomer(ctx, 201, recorded(result), result);
    },
  },
  {
    method: 'get',
    path: '/customers',
    access: { scope: 'customers:read' },
    operationId: 'listCustomers',
    tags: ['customers'],
    summary: 'List customers, newest first',
    description:
      'Needs customers:read and a staff token: the list belongs to no single customer, so a customer token is 403 whatever its scopes (it reads its own record at /customers/{id}). ' +
      '`email` is an exact, case-insensitive filter. Erased customers stay in the list with their personal members null, and match no email. Served from a projection, with the same Consistency-Token and cursor rules as GET /orders.',
    parameters: [
      ...queryParameters('CustomerListQuery', Object.keys(customerSchemas.CustomerListQuery.properties)),
      consistencyToken,
    ],
    responses: {
      '200': {
        description: 'One page of customers.',
        headers: { ...commonHeaders, ...rateLimitHeaders, Link: headerRef('Link'), 'Consistency-Token': headerRef('Collection-Consistency-Token') },
        content: json(ref('CustomerPage')),
      },
      ...authProblems,
    },
    async handle(ctx, { customerQueries, waiting }) {
      const query = validListQuery(ctx.query);
      const consistencyToken = ctx.get('Consistency-Token');
      const page = await holdingSlotIf(waiting, ctx.state.principal, consistencyToken !== '', () =>
        customerQueries.list(ctx.state.principal, {
          limit: query.limit,
          ...(query.email === undefined ? {} : { email: query.email }),
          ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
          consistencyToken,
        }),
      );
      if (page.nextCursor) {
        const next = new URLSearchParams({ ...(query.email === undefined ? {} : { email: query.email }), limit: String(query.limit), cursor: page.nextCursor });
        ctx.set('Link', `</customers?${next}>; rel="next"`);
      }
      ctx.set('Consistency-Token', page.reflects);
      ctx.body = { items: page.items, nextCursor: page.nextCursor };
    },
  },
  {
    method: 'get',
    path: '/customers/{id}',
    pathParameters: [customerId],
    access: { scope: 'customers:read' },
    operationId: 'getCustomer',
    tags: ['customers'],
    summary: 'Read a customer',
    description: 'Needs customers:read. Always current (folded from its events). A customer token reads only its own record: another customer answers 404 exactly as an unknown one. An erased customer reads with status erased, erasedAt, and every personal member null.',
    parameters: [{ name: 'If-None-Match', in: 'header', required: false, description: 'ETags of this customer; 304 when one is current.', schema: { type: 'string' } }],
    responses: {
      '200': { description: 'The customer.', headers: { ...commonHeaders, ...rateLimitHeaders, ETag: headerRef('ETag'), 'Consistency-Token': headerRef('Consistency-Token') }, content: json(ref('Customer')) },
      '304': { description: 'The customer still has the revision named in If-None-Match.', headers: { ...commonHeaders, ...rateLimitHeaders, ETag: headerRef('ETag') } },
      ...authProblems,
      '404': responseRef('NotFound'),
    },
    async handle(ctx, { customers }) {
      const id = customerIdOf(ctx);
      const snapshot = await customers.get(ctx.state.principal, id);
      if (!snapshot) throw new CustomerNotFound(id);
      const etag = `"${snapshot.revision}"`;
      if (matchesNoneMatch(ctx.get('If-None-Match'), etag)) {
        ctx.status = 304;
        ctx.set('ETag', etag);
        return;
      }
      sendCustomer(ctx, 200, snapshot.customer, snapshot);
    },
  },
  {
    method: 'patch',
    path: '/customers/{id}',
    pathParameters: [customerId],
    access: { scope: 'customers:write' },
    operationId: 'changeCustomer',
    tags: ['customers'],
    summary: 'Change a customer (JSON Merge Patch)',
    description:
      'Needs customers:write. A customer token changes only its own record (another is 404). email, name, phone and defaultAddress may appear; defaultAddress merges member by member, null removes phone or defaultAddress. ' +
      'An email another customer has is 409 email-in-use, however requests race; an erased customer is 409 state-conflict (currentStatus erased).',
    parameters: [{ name: 'If-Match', in: 'header', required: false, description: 'An ETag of this customer; 412 when it has moved on.', schema: { type: 'string' } }],
    requestBody: { required: true, content: { 'application/merge-patch+json': { schema: ref('CustomerPatch') } } },
    responses: {
      '200': { description: 'The changed customer.', headers: { ...commonHeaders, ...rateLimitHeaders, ETag: headerRef('ETag'), 'Consistency-Token': headerRef('Consistency-Token') }, content: json(ref('Customer')) },
      ...authProblems,
      '404': responseRef('NotFound'),
      '409': problem('email-in-use: another customer has this email; or state-conflict: the customer was erased (currentStatus).', 409, ['email-in-use', 'state-conflict']),
      '412': responseRef('PreconditionFailed'),
      '413': responseRef('PayloadTooLarge'),
      '415': mergePatchOnly(),
    },
    async handle(ctx, { customers }) {
      const id = customerIdOf(ctx);
      const body = await readJson(ctx, { mediaTypes: [MERGE_PATCH], unsupportedHeaders: { 'Accept-Patch': MERGE_PATCH } });
      const patch = validPatch(body);
      const pinned = ifMatchRevision(ctx.get('If-Match'));
      const result = await customers.change(ctx.state.principal, id, patch, { ...writeContext(ctx), ...(pinned === undefined ? {} : { expectedRevision: pinned }) });
      sendCustomer(ctx, 200, recorded(result), result);
    },
  },
  {
    method: 'delete',
    path: '/customers/{id}',
    pathParameters: [customerId],
    access: { scope: 'customers:erase' },
    operationId: 'eraseCustomer',
    tags: ['customers'],
    summary: "Erase a customer's personal data (GDPR art. 17)",
    description:
      'Needs customers:erase and a staff token (a customer token is 403: erasure is done by staff on a verified request). Records the erasure, frees the email, and the customer can never order again (422 unknown-customer). ' +
      'Any well-formed id is erased, a guest customer that appears only on orders included; erasing again changes nothing and answers 204 too.',
    responses: {
      '204': { description: 'Erased (now or before).', headers: { ...commonHeaders, ...rateLimitHeaders, 'Consistency-Token': headerRef('Consistency-Token') } },
      ...authProblems,
    },
    async handle(ctx, { customers }) {
      const result = await customers.erase(ctx.state.principal, customerIdOf(ctx), writeContext(ctx));
      if (result.position) ctx.set('Consistency-Token', result.position);
      ctx.status = 204;
    },
  },
];

export const customersArea = area<CustomerDeps, Deps, typeof customerSchemas>({
  schemas: customerSchemas,
  tags: [{ name: 'customers', description: 'Customers, their one email each, and erasure' }],
  operations,
  deps: ({ inFlight, waiting }, own) => own && { ...own, inFlight, waiting },
});

/** The customer id of the path; 400 when it cannot be one. */
function customerIdOf(ctx: Context): string {
  const id = ctx.params.id ?? '';
  if (!CUSTOMER_ID.test(id)) throw validationFailed([{ pointer: '/path/id', message: `must match ${CUSTOMER_ID_PATTERN}` }]);
  return id;
}
function recorded(result: CustomerResult): CustomerSnapshot['customer'] {
  if (result.state.status === 'absent') throw new Error('command left no customer');
  return result.state;
}

function sendCustomer(ctx: Context, status: number, customer: Exclude<Customer, { status: 'absent' }>, at: { revision: number | null; position: Position | null }): void {
  const revision = at.revision ?? 0;
  ctx.status = status;
  ctx.set('ETag', `"${revision}"`);
  if (at.position) ctx.set('Consistency-Token', at.position);
  ctx.body = representCustomer(customer, revision);
}

