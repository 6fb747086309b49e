// The customer resource: registration, reads, merge-patch changes and erasure go to the write
// side (single reads fold the stream: always current), the list comes from the customers
// projection. A route parses, checks the token's scope, calls one use case with the viewer (which
// confines what it reads and changes), and represents the result.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { CustomerQueries } from '../../read-side/customers/queries.js';
import type { CustomerResult, CustomerService, CustomerSnapshot } from '../../write-side/customers/service.js';
import type { Customer, CustomerPatch, CustomerProfile } from '../../write-side/customers/types.js';
import { CustomerNotFound } from '../../write-side/kernel/errors.js';
import type { Address } from '../../write-side/orders/types.js';
import type { Position } from '../../write-side/kernel/event-store.js';
import { readJson } from '../body.js';
import { fingerprint, idempotencyKey, type InFlight } from '../idempotency.js';
import { requireScope } from '../middleware/auth.js';
import { validationFailed } from '../problem.js';
import { CUSTOMER_ID_PATTERN } from '../schemas.js';
import { bodyValidator, queryValidator } from '../validation.js';
import { holdingSlotIf, type WaitingRequests } from '../waiting.js';
import { ifMatchRevision, matchesNoneMatch } from '../preconditions.js';
import { withNulls, type AddressInput } from '../orders/operations.js';

export interface CustomerRoutesDeps {
  readonly customers: CustomerService;
  readonly customerQueries: CustomerQueries;
  readonly inFlight: InFlight;
  readonly waiting: WaitingRequests;
}

type NewCustomer = { email: string; name: string; phone?: string | null; defaultAddress?: AddressInput | null };

const validNewCustomer = bodyValidator<NewCustomer>('NewCustomer');
const validPatch = bodyValidator<CustomerPatch>('CustomerPatch');
const validListQuery = queryValidator<{ email?: string; limit: number; cursor?: string }>('CustomerListQuery');
const CUSTOMER_ID = new RegExp(CUSTOMER_ID_PATTERN);
const JSON_TYPES = ['application/json'];
const MERGE_PATCH = 'application/merge-patch+json';

export function customerRoutes({ customers, customerQueries, inFlight, waiting }: CustomerRoutesDeps): Router {
  const router = new Router();

  router.post('/customers', requireScope('customers:write'), async (ctx) => {
    const key = idempotencyKey(ctx);
    const body = await readJson(ctx, { mediaTypes: JSON_TYPES });
    const input = validNewCustomer(body);
    const profile: CustomerProfile = {
      email: input.email,
      name: input.name,
      phone: input.phone ?? null,
      defaultAddress: input.defaultAddress ? withNulls(input.defaultAddress) : null,
    };
    const { principal } = ctx.state;
    const print = fingerprint('POST', '/customers', body);
    const result = await inFlight.run(principal.sub, key, () => customers.register(principal, profile, { ...writeContext(ctx), idempotency: { key, fingerprint: print } }));
    const customer = recorded(result);
    ctx.set('Location', `/customers/${customer.id}`);
    if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
    sendCustomer(ctx, 201, customer, result);
  });

  router.get('/customers', requireScope('customers:read'), async (ctx) => {
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
  });

  router.get('/customers/:id', requireScope('customers:read'), async (ctx) => {
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
  });

  router.patch('/customers/:id', requireScope('customers:write'), async (ctx) => {
    const id = customerIdOf(ctx);
    const body = await readJson(ctx, { mediaTypes: [MERGE_PATCH], unsupportedHeaders: { 'Accept-Patch': MERGE_PATCH } });
    const patch = validPatch(body);
    const pinned = ifMatchRevision(ctx.get('If-Match'));
    const result = await customers.change(ctx.state.principal, id, patch, { ...writeContext(ctx), ...(pinned === undefined ? {} : { expectedRevision: pinned }) });
    sendCustomer(ctx, 200, recorded(result), result);
  });

  router.delete('/customers/:id', requireScope('customers:erase'), async (ctx) => {
    const result = await customers.erase(ctx.state.principal, customerIdOf(ctx), writeContext(ctx));
    if (result.position) ctx.set('Consistency-Token', result.position);
    ctx.status = 204;
  });

  return router;
}

/** The customer id of the path; 400 when it cannot be one. */
function customerIdOf(ctx: Context): string {
  const id = ctx.params.id ?? '';
  if (!CUSTOMER_ID.test(id)) throw validationFailed([{ pointer: '/path/id', message: `must match ${CUSTOMER_ID_PATTERN}` }]);
  return id;
}

function writeContext(ctx: Context) {
  return { correlationId: ctx.state.correlationId as string, causationId: ctx.state.correlationId as string };
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
  ctx.body = representation(customer, revision);
}

/** The representation, members in the documented order; personal members null once erased. */
function representation(customer: Exclude<Customer, { status: 'absent' }>, revision: number) {
  const { id, createdAt, updatedAt } = customer;
  if (customer.status === 'erased') {
    return { id, email: null, name: null, phone: null, defaultAddress: null, status: 'erased', createdAt, updatedAt, erasedAt: customer.erasedAt, revision };
  }
  const { email, name, phone, defaultAddress } = customer;
  return { id, email, name, phone, defaultAddress: defaultAddress satisfies Address | null, status: 'active', createdAt, updatedAt, erasedAt: null, revision };
}
