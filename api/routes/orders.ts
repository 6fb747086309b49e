// The order resource: commands go to the write side, single reads fold the stream (always
// current), collections come from the projected read models.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { OrderHistory } from '../../read-side/order-history.js';
import type { OrderQueries } from '../../read-side/order-queries.js';
import { orderRepresentation } from '../../read-side/views.js';
import type { Position } from '../../write-side/event-store.js';
import type { Idempotent, OrderResult, OrderService, WriteContext } from '../../write-side/order-service.js';
import { PreconditionFailed } from '../../write-side/errors.js';
import type { Address, LineInput, OrderStatus, PaymentMethod, PlacedOrder } from '../../write-side/orders/types.js';
import { readJson } from '../body.js';
import { fingerprint, idempotencyKey, type InFlight } from '../idempotency.js';
import { hasScope } from '../auth.js';
import { requireScope } from '../middleware/auth.js';
import { HttpProblem, validationFailed } from '../problem.js';
import { ORDER_ID_PATTERN } from '../schemas.js';
import { bodyValidator, queryValidator } from '../validation.js';
import { holdingSlotIf, type WaitingRequests } from '../waiting.js';

export interface OrderRoutesDeps {
  readonly orders: OrderService;
  readonly queries: OrderQueries;
  readonly history: OrderHistory;
  readonly inFlight: InFlight;
  readonly waiting: WaitingRequests;
}

type AddressInput = Omit<Address, 'line2' | 'region'> & { line2?: string | null; region?: string | null };
type NewOrder = { customerId: string; currency: string; lines: LineInput[]; address: AddressInput };
type OrderPatch = { address: Partial<Record<keyof Address, string | null>> };
type ListQuery = { status?: OrderStatus; customerId?: string; sort: 'createdAt' | '-createdAt'; limit: number; cursor?: string };

const validNewOrder = bodyValidator<NewOrder>('NewOrder');
const validPatch = bodyValidator<OrderPatch>('OrderPatch');
const validAddress = bodyValidator<Address>('Address');
const validPayment = bodyValidator<{ amount: number; reference: string; method?: PaymentMethod }>('NewPayment');
const validShipment = bodyValidator<{ carrier: string; trackingNumber: string }>('NewShipment');
const validCancellation = bodyValidator<{ reason?: string | null }>('Cancellation');
const validListQuery = queryValidator<ListQuery>('OrderListQuery');
const validPointInTime = queryValidator<{ asOf?: string; revision?: number }>('PointInTimeQuery');
const validHistoryQuery = queryValidator<{ limit: number; cursor?: string }>('PageQuery');
const ORDER_ID = new RegExp(ORDER_ID_PATTERN);
const JSON_TYPES = ['application/json'];
const MERGE_PATCH = 'application/merge-patch+json';
const PATCH_ATTEMPTS = 5;

export function orderRoutes(deps: OrderRoutesDeps): Router {
  const { orders, queries, history, inFlight, waiting } = deps;
  const router = new Router();

  router.post('/orders', requireScope('orders:write'), async (ctx) => {
    const key = idempotencyKey(ctx);
    const body = await readJson(ctx, { mediaTypes: JSON_TYPES });
    const input = validNewOrder(body);
    const { principal } = ctx.state;
    if (principal.customerId !== null && principal.customerId !== input.customerId) {
      throw new HttpProblem(403, 'forbidden', 'A customer token can only place orders for its own customer.');
    }
    const print = fingerprint('POST', '/orders', body);
    const result = await inFlight.run(principal.sub, key, () =>
      orders.place({ ...input, address: withNulls(input.address) }, { ...writeContext(ctx), idempotency: { key, fingerprint: print } }),
    );
    const order = placed(result);
    ctx.set('Location', `/orders/${order.id}`);
    replayed(ctx, result);
    sendOrder(ctx, 201, order, result);
  });

  router.get('/orders', requireScope('orders:read'), async (ctx) => {
    const query = validListQuery(ctx.query);
    const consistencyToken = ctx.get('Consistency-Token');
    const page = await holdingSlotIf(waiting, ctx.state.principal, consistencyToken !== '', () =>
      queries.listOrderJson(ctx.state.principal, {
        sort: query.sort,
        limit: query.limit,
        ...(query.status ? { status: query.status } : {}),
        ...(query.customerId ? { customerId: query.customerId } : {}),
        ...(query.cursor ? { cursor: query.cursor } : {}),
        consistencyToken,
      }),
    );
    if (page.nextCursor) {
      const next = new URLSearchParams({ ...(query.status ? { status: query.status } : {}), ...(query.customerId ? { customerId: query.customerId } : {}), sort: query.sort, limit: String(query.limit), cursor: page.nextCursor });
      ctx.set('Link', `</orders?${next}>; rel="next"`);
    }
    ctx.set('Consistency-Token', page.reflects);
    // The views are stored as JSON already: the page is written out without decoding them.
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = `{"items":[${page.items.map((row) => row.json).join(',')}],"nextCursor":${JSON.stringify(page.nextCursor)}}`;
  });

  router.get('/orders/:id', requireScope('orders:read'), async (ctx) => {
    const { asOf, revision } = validPointInTime(ctx.query);
    if (asOf !== undefined || revision !== undefined) {
      // Point in time: an auditor's read, folded from the history up to then.
      if (!hasScope(ctx.state.principal, 'audit:read')) throw new HttpProblem(403, 'forbidden', 'Reading an order as it stood needs the audit:read scope.', { requiredScope: 'audit:read' });
      const current = await visibleOrder(ctx);
      const then = await orders.get(current.order.id, asOf !== undefined ? { recordedUntil: new Date(asOf) } : { toRevision: revision! });
      if (!then) throw new HttpProblem(404, 'not-found', `Order ${current.order.id} did not exist then.`);
      sendOrder(ctx, 200, then.order, then);
      return;
    }
    const snapshot = await visibleOrder(ctx);
    const etag = `"${snapshot.revision}"`;
    if (matchesNoneMatch(ctx.get('If-None-Match'), etag)) {
      ctx.status = 304;
      ctx.set('ETag', etag);
      return;
    }
    sendOrder(ctx, 200, snapshot.order, snapshot);
  });

  router.patch('/orders/:id', requireScope('orders:write'), async (ctx) => {
    const body = await readJson(ctx, { mediaTypes: [MERGE_PATCH], unsupportedHeaders: { 'Accept-Patch': MERGE_PATCH } });
    const patch = validPatch(body);
    const pinned = ifMatchRevision(ctx.get('If-Match'));
    // The merge is computed from the revision it was read at and appended only onto it: a
    // concurrent change means merging again, so no change from another request is overwritten.
    for (let attempt = 1; ; attempt++) {
      const snapshot = await visibleOrder(ctx);
      const address = mergeAddress(snapshot.order.address, patch.address);
      try {
        const result = await orders.changeAddress(snapshot.order.id, address, { ...writeContext(ctx), expectedRevision: pinned ?? snapshot.revision });
        sendOrder(ctx, 200, placed(result), result);
        return;
      } catch (error) {
        if (!(error instanceof PreconditionFailed) || pinned !== undefined || attempt === PATCH_ATTEMPTS) throw error;
      }
    }
  });

  /** A keyed sub-resource of an order (a payment, a shipment): 201 with what the event recorded. */
  function keyedCommand<Input>(
    path: 'payments' | 'shipments',
    validate: (body: unknown) => Input,
    run: (id: string, input: Input, context: WriteContext & Idempotent) => Promise<OrderResult>,
    represent: (result: OrderResult, id: string) => object,
  ) {
    return async (ctx: Context) => {
      const key = idempotencyKey(ctx);
      const body = await readJson(ctx, { mediaTypes: JSON_TYPES });
      const input = validate(body);
      const id = await visibleOrderId(ctx);
      const print = fingerprint('POST', `/orders/${id}/${path}`, body);
      const result = await inFlight.run(ctx.state.principal.sub, key, () => run(id, input, { ...writeContext(ctx), idempotency: { key, fingerprint: print } }));
      replayed(ctx, result);
      setConsistency(ctx, result.position);
      ctx.status = 201;
      ctx.body = represent(result, id);
    };
  }

  router.post(
    '/orders/:id/payments',
    requireScope('payments:write'),
    keyedCommand('payments', validPayment, (id, input, context) => orders.recordPayment(id, input, context), (result, orderId) => {
      const event = result.events.find((e) => e.type === 'PaymentRecorded');
      if (event?.type !== 'PaymentRecorded') throw new Error('payment command recorded no payment');
      const { paymentId, amount, reference, method, recordedAt } = event.data;
      return { id: paymentId, orderId, amount, reference, method, createdAt: recordedAt };
    }),
  );

  router.post(
    '/orders/:id/shipments',
    requireScope('shipments:write'),
    keyedCommand('shipments', validShipment, (id, input, context) => orders.createShipment(id, input, context), (result, orderId) => {
      const event = result.events.find((e) => e.type === 'ShipmentCreated');
      if (event?.type !== 'ShipmentCreated') throw new Error('shipment command recorded no shipment');
      const { shipmentId, carrier, trackingNumber, createdAt } = event.data;
      return { id: shipmentId, orderId, carrier, trackingNumber, createdAt };
    }),
  );

  router.post('/orders/:id/cancellation', requireScope('orders:write'), async (ctx) => {
    const body = await readJson(ctx, { mediaTypes: JSON_TYPES, optional: true });
    const input = body === undefined ? {} : validCancellation(body);
    const id = await visibleOrderId(ctx);
    const result = await orders.cancel(id, input.reason ?? null, writeContext(ctx));
    sendOrder(ctx, 200, placed(result), result);
  });

  router.get('/orders/:id/history', requireScope('audit:read'), async (ctx) => {
    const query = validHistoryQuery(ctx.query);
    const id = orderIdOf(ctx);
    const page = await history.page(ctx.state.principal, id, { limit: query.limit, ...(query.cursor ? { cursor: query.cursor } : {}) });
    if (page.nextCursor) ctx.set('Link', `</orders/${id}/history?${new URLSearchParams({ limit: String(query.limit), cursor: page.nextCursor })}>; rel="next"`);
    ctx.body = { items: page.items, nextCursor: page.nextCursor };
  });

  /** The order, when it exists and the principal may see it; 404 otherwise, alike. */
  async function visibleOrder(ctx: Context) {
    const id = orderIdOf(ctx);
    const snapshot = await orders.get(id);
    const { customerId } = ctx.state.principal;
    if (!snapshot || (customerId !== null && snapshot.order.customerId !== customerId)) {
      throw new HttpProblem(404, 'not-found', `Order ${id} does not exist.`);
    }
    return snapshot;
  }

  /** Checks visibility only where it can differ (customer tokens); the command itself finds unknown orders. */
  async function visibleOrderId(ctx: Context): Promise<string> {
    const id = orderIdOf(ctx);
    if (ctx.state.principal.customerId !== null) await visibleOrder(ctx);
    return id;
  }

  return router;
}

/** The order id of the path; 400 when it cannot be one. */
function orderIdOf(ctx: Context): string {
  const id = ctx.params.id ?? '';
  if (!ORDER_ID.test(id)) throw validationFailed([{ pointer: '/path/id', message: 'must be an order id (a UUID)' }]);
  return id;
}

function writeContext(ctx: Context) {
  return { principal: ctx.state.principal.sub, correlationId: ctx.state.correlationId, causationId: ctx.state.correlationId };
}

function placed(result: OrderResult): PlacedOrder {
  if (result.state.status === 'absent') throw new Error('command left no order');
  return result.state;
}

function sendOrder(ctx: Context, status: number, order: PlacedOrder, at: { revision: number | null; position: Position | null }): void {
  const revision = at.revision ?? 0;
  ctx.status = status;
  ctx.set('ETag', `"${revision}"`);
  setConsistency(ctx, at.position);
  ctx.body = orderRepresentation(order, revision);
}

function setConsistency(ctx: Context, position: Position | null): void {
  if (position) ctx.set('Consistency-Token', position);
}

function replayed(ctx: Context, result: OrderResult): void {
  if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
}

/** The address in its representation's shape: every member present, in the documented order. */
function withNulls(address: AddressInput): Address {
  const { name, line1, city, postalCode, country } = address;
  return { name, line1, line2: address.line2 ?? null, city, postalCode, region: address.region ?? null, country };
}

/** RFC 7396 on a flat object: null removes a member (here: sets an optional line to null). */
function mergeAddress(current: Address, patch: OrderPatch['address']): Address {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) merged[key] = value;
  try {
    return withNulls(validAddress(merged));
  } catch (error) {
    if (error instanceof HttpProblem) {
      const errors = (error.extra.errors as Array<{ pointer: string; message: string }>).map((e) => ({ ...e, pointer: `/address${e.pointer}` }));
      throw validationFailed(errors, 'The address would not be valid after this change.');
    }
    throw error;
  }
}

function ifMatchRevision(header: string): number | undefined {
  if (header === '' || header === '*') return undefined;
  const match = /^"(\d{1,15})"$/.exec(header.trim());
  if (!match) throw validationFailed([{ pointer: '/headers/if-match', message: 'must be one ETag of this order, such as "3"' }]);
  return Number(match[1]);
}

function matchesNoneMatch(header: string, etag: string): boolean {
  if (header === '') return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
