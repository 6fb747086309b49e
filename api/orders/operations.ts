// The order resource: commands go to the write side, single reads fold the stream (always
// current), collections come from the projected read models. A route parses, checks the
// token's scope, calls one use case with the viewer (which confines what it reads and changes),
// and represents the result.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { OrderHistory } from '../../read-side/orders/history.js';
import type { OrderQueries } from '../../read-side/orders/queries.js';
import { orderRepresentation } from '../../read-side/views.js';
import type { Position } from '../../write-side/kernel/event-store.js';
import type { Viewer } from '../../write-side/kernel/access.js';
import type { OrderResult, OrderService } from '../../write-side/orders/service.js';
import type { Idempotent } from '../../write-side/kernel/idempotency.js';
import type { WriteContext } from '../../write-side/kernel/write-context.js';
import { OrderNotFound, PreconditionFailed } from '../../write-side/kernel/errors.js';
import type { Address, AddressPatch, LineInput, OrderStatus, PaymentMethod, PlacedOrder } from '../../write-side/orders/types.js';
import { readJson } from '../body.js';
import { fingerprint, idempotencyKey, idempotencyRequest, type InFlight } from '../idempotency.js';
import { hasScope } from '../auth.js';
import { requireScope } from '../middleware/auth.js';
import { ifMatchRevision, matchesNoneMatch } from '../preconditions.js';
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

export type AddressInput = Omit<Address, 'line2' | 'region'> & { line2?: string | null; region?: string | null };
type NewOrder = { customerId: string; currency: string; lines: LineInput[]; address: AddressInput };
type OrderPatch = { address: AddressPatch };
type ListQuery = { status?: OrderStatus; customerId?: string; sort: 'createdAt' | '-createdAt'; limit: number; cursor?: string };

const validNewOrder = bodyValidator<NewOrder>('NewOrder');
const validPatch = bodyValidator<OrderPatch>('OrderPatch');
const validPayment = bodyValidator<{ amount: number; reference: string; method?: PaymentMethod }>('NewPayment');
const validShipment = bodyValidator<{ carrier: string; trackingNumber: string }>('NewShipment');
const validCancellation = bodyValidator<{ reason?: string | null }>('Cancellation');
const validListQuery = queryValidator<ListQuery>('OrderListQuery');
const validPointInTime = queryValidator<{ asOf?: string; revision?: number }>('PointInTimeQuery');
const validHistoryQuery = queryValidator<{ limit: number; cursor?: string }>('PageQuery');
const ORDER_ID = new RegExp(ORDER_ID_PATTERN);
const JSON_TYPES = ['application/json'];
const MERGE_PATCH = 'application/merge-patch+json';
const JSON_BODY = 'application/json; charset=utf-8';

export function orderRoutes(deps: OrderRoutesDeps): Router {
  const { orders, queries, history, inFlight, waiting } = deps;
  const router = new Router();

  router.post('/orders', requireScope('orders:write'), async (ctx) => {
    const key = idempotencyKey(ctx);
    const body = await readJson(ctx, { mediaTypes: JSON_TYPES });
    const input = validNewOrder(body);
    const { principal } = ctx.state;
    const print = fingerprint('POST', '/orders', body);
    const result = await inFlight.run(principal.sub, key, () =>
      orders.place(principal, { ...input, address: withNulls(input.address), apiVersion: ctx.state.apiVersion }, { ...writeContext(ctx), idempotency: idempotencyRequest(ctx, key, print) }),
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
    if (page.nextCursor) ctx.set('Link', `</orders?${listQueryString(query, page.nextCursor)}>; rel="next"`);
    ctx.set('Consistency-Token', page.reflects);
    // The views are stored as JSON already: the page is written out without decoding them.
    ctx.set('Content-Type', JSON_BODY);
    ctx.body = `{"items":[${page.items.map((row) => row.json).join(',')}],"nextCursor":${JSON.stringify(page.nextCursor)}}`;
  });

  router.get('/orders/:id', requireScope('orders:read'), async (ctx) => {
    // Nearly every read asks for the order as it is now: no query string to parse and validate.
    const pointInTime = ctx.querystring === '' ? null : pointInTimeOf(ctx.query);
    if (pointInTime) {
      // Point in time: an auditor's read, folded from the history up to then.
      if (!hasScope(ctx.state.principal, 'audit:read')) throw new HttpProblem(403, 'forbidden', 'Reading an order as it stood needs the audit:read scope.', { requiredScope: 'audit:read' });
      const id = orderIdOf(ctx);
      const then = await orders.get(ctx.state.principal, id, pointInTime);
      if (!then) throw new OrderNotFound(id);
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
    const context = { ...writeContext(ctx), ...(pinned === undefined ? {} : { expectedRevision: pinned }) };
    const result = await orders.changeAddress(ctx.state.principal, orderIdOf(ctx), patch.address, context);
    sendOrder(ctx, 200, placed(result), result);
  });

  /** A keyed sub-resource of an order (a payment, a shipment): 201 with what the event recorded. */
  function keyedCommand<Input>(
    path: 'payments' | 'shipments',
    validate: (body: unknown) => Input,
    run: (viewer: Viewer, id: string, input: Input, context: WriteContext & Idempotent) => Promise<OrderResult>,
    represent: (result: OrderResult, id: string) => object,
  ) {
    return async (ctx: Context) => {
      const key = idempotencyKey(ctx);
      const body = await readJson(ctx, { mediaTypes: JSON_TYPES });
      const input = validate(body);
      const id = orderIdOf(ctx);
      const print = fingerprint('POST', `/orders/${id}/${path}`, body);
      const { principal } = ctx.state;
      const result = await inFlight.run(principal.sub, key, () => run(principal, id, input, { ...writeContext(ctx), idempotency: idempotencyRequest(ctx, key, print) }));
      replayed(ctx, result);
      setConsistency(ctx, result.position);
      ctx.status = 201;
      ctx.body = represent(result, id);
    };
  }

  router.post(
    '/orders/:id/payments',
    requireScope('payments:write'),
    keyedCommand('payments', validPayment, (viewer, id, input, context) => orders.recordPayment(viewer, id, input, context), (result, orderId) => {
      const event = result.events.find((e) => e.type === 'PaymentRecorded');
      if (event?.type !== 'PaymentRecorded') throw new Error('payment command recorded no payment');
      const { paymentId, amount, reference, method, recordedAt } = event.data;
      return { id: paymentId, orderId, amount, reference, method, createdAt: recordedAt };
    }),
  );

  router.post(
    '/orders/:id/shipments',
    requireScope('shipments:write'),
    keyedCommand('shipments', validShipment, (viewer, id, input, context) => orders.createShipment(viewer, id, input, context), (result, orderId) => {
      const event = result.events.find((e) => e.type === 'ShipmentCreated');
      if (event?.type !== 'ShipmentCreated') throw new Error('shipment command recorded no shipment');
      const { shipmentId, carrier, trackingNumber, createdAt } = event.data;
      return { id: shipmentId, orderId, carrier, trackingNumber, createdAt };
    }),
  );

  router.post('/orders/:id/cancellation', requireScope('orders:write'), async (ctx) => {
    const body = await readJson(ctx, { mediaTypes: JSON_TYPES, optional: true });
    const input = body === undefined ? {} : validCancellation(body);
    const result = await orders.cancel(ctx.state.principal, orderIdOf(ctx), input.reason ?? null, writeContext(ctx));
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
    const snapshot = await orders.get(ctx.state.principal, id);
    if (!snapshot) throw new OrderNotFound(id);
    return snapshot;
  }

  return router;
}

/** The next page's query: the same filter, sort and limit, and its cursor (every value is URL-safe but a customer id). */
function listQueryString(query: ListQuery, cursor: string): string {
  let text = query.status ? `status=${query.status}&` : '';
  if (query.customerId) text += `customerId=${encodeURIComponent(query.customerId)}&`;
  return `${text}sort=${query.sort}&limit=${query.limit}&cursor=${encodeURIComponent(cursor)}`;
}

/** The order id of the path; 400 when it cannot be one. */
function orderIdOf(ctx: Context): string {
  const id = ctx.params.id ?? '';
  if (!ORDER_ID.test(id)) throw validationFailed([{ pointer: '/path/id', message: 'must be an order id (a UUID)' }]);
  return id;
}

function writeContext(ctx: Context): WriteContext {
  return { correlationId: ctx.state.correlationId, causationId: ctx.state.correlationId };
}

/**
 * An auditor's point in time: a revision, or an instant that exists on the calendar (the
 * pattern alone lets 2026-13-45T99:99:99Z through). Both at once are refused, not one ignored.
 */
function pointInTimeOf(query: Context['query']): { toRevision: number } | { recordedUntil: Date } | null {
  const { asOf, revision } = validPointInTime(query);
  if (asOf !== undefined && revision !== undefined) {
    throw validationFailed([{ pointer: '/revision', message: 'cannot be combined with asOf: ask for one point in time' }]);
  }
  if (revision !== undefined) return { toRevision: revision };
  if (asOf === undefined) return null;
  const instant = calendarInstant(asOf);
  if (!instant) throw validationFailed([{ pointer: '/asOf', message: 'must be an RFC 3339 date-time that exists' }]);
  return { recordedUntil: instant };
}

/** The instant of an RFC 3339 date-time whose every field is in range (leap days included); null otherwise. */
function calendarInstant(text: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|([+-])(\d{2}):(\d{2}))$/i.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const offsetHours = match[8] === undefined ? 0 : Number(match[8]);
  const offsetMinutes = match[9] === undefined ? 0 : Number(match[9]);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return null;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : new Date(ms);
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
  // Serialised here, with the type Koa would give an object: it then neither looks the type up nor handles the length twice.
  ctx.set('Content-Type', JSON_BODY);
  ctx.body = JSON.stringify(orderRepresentation(order, revision));
}

function setConsistency(ctx: Context, position: Position | null): void {
  if (position) ctx.set('Consistency-Token', position);
}

function replayed(ctx: Context, result: OrderResult): void {
  if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
}

/** The address in its representation's shape: every member present, in the documented order. */
export function withNulls(address: AddressInput): Address {
  const { name, line1, city, postalCode, country } = address;
  return { name, line1, line2: address.line2 ?? null, city, postalCode, region: address.region ?? null, country };
}
