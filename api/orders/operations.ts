// The order resource: commands go to the write side, single reads fold the stream (always
// current), collections come from the projected read models. A handler parses, calls one use
// case with the viewer (which confines what it reads and changes), and represents the result;
// the scope each operation needs is checked before it, from its declaration.
import type { Context } from 'koa';
import { OrderNotFound } from '../../write-side/kernel/errors.js';
import type { Address, AddressPatch, LineInput, OrderStatus, PaymentMethod } from '../../write-side/orders/types.js';
import { readJson } from '../body.js';
import { keyedPost } from '../idempotency.js';
import { hasScope } from '../auth.js';
import { writeContext } from '../middleware/context.js';
import { area, type CoreDeps, type Operation, type Shared } from '../operation.js';
import { authProblems, commonHeaders, consistencyToken, header, headerRef, idempotencyKey, json, queryParameters, rateLimitHeaders, ref, responseRef } from '../openapi-parts.js';
import { ifMatchRevision, matchesNoneMatch } from '../preconditions.js';
import { HttpProblem, validationFailed } from '../problem.js';
import { sharedSchemas } from '../schemas.js';
import { validators } from '../validation.js';
import { afterPaymentOperations } from './after-payment.js';
import { keyedSubresource, orderId, orderIdOf, placed, sendOrder, sendRecorded } from './parts.js';
import { orderSchemas } from './schemas.js';
import { OFFERED_ORDER_LISTS, type OrderSort } from '../../read-side/orders/list-shape.js';
import { CURRENT_API_VERSION, DEPRECATED_API_VERSION } from '../versions.js';
import { holdingSlotIf } from '../waiting.js';
import type { ViewPage } from '../../read-side/kernel/page.js';
import type { OrderJson } from '../../read-side/read-store.js';

type Deps = CoreDeps & Shared;

export type AddressInput = Omit<Address, 'line2' | 'region'> & { line2?: string | null; region?: string | null };
type NewOrder = { customerId: string; currency: string; lines: LineInput[]; address: AddressInput };
type OrderPatch = { address: AddressPatch };
type ListQuery = {
  status?: OrderStatus; customerId?: string; createdFrom?: string; createdTo?: string; sku?: string; currency?: string;
  sort: OrderSort; limit: number; cursor?: string;
};

const { bodyValidator, queryValidator } = validators({ ...sharedSchemas, ...orderSchemas });
const validNewOrder = bodyValidator<NewOrder>('NewOrder');
const validPatch = bodyValidator<OrderPatch>('OrderPatch');
const validPayment = bodyValidator<{ amount: number; reference: string; method?: PaymentMethod }>('NewPayment');
const validCancellation = bodyValidator<{ reason?: string | null }>('Cancellation');
const validListQuery = queryValidator<ListQuery>('OrderListQuery');
const validPointInTime = queryValidator<{ asOf?: string; revision?: number }>('PointInTimeQuery');
const JSON_TYPES = ['application/json'];
const MERGE_PATCH = 'application/merge-patch+json';
const JSON_BODY = 'application/json; charset=utf-8';

/**
 * The body of a page of orders, by the page: a kept page (read-side/orders/kept-pages.ts) is the
 * same object each time it is answered, so its body is joined and encoded once. The views are
 * stored as JSON already: the page is written out without decoding them. Held weakly: it goes
 * with the page.
 */
const pageBodies = new WeakMap<ViewPage<OrderJson>, Buffer>();
function pageBody(page: ViewPage<OrderJson>): Buffer {
  let body = pageBodies.get(page);
  if (body === undefined) {
    body = Buffer.from(`{"items":[${page.items.map((row) => row.json).join(',')}],"nextCursor":${JSON.stringify(page.nextCursor)}}`);
    pageBodies.set(page, body);
  }
  return body;
}
export { orderId, orderIdOf } from './parts.js';

const operations: Operation<Deps>[] = [
  {
    method: 'post',
    path: '/orders',
    access: { scope: 'orders:write' },
    operationId: 'placeOrder',
    tags: ['orders'],
    summary: 'Place an order',
    description:
      'Needs orders:write. A customer token may only place orders for its own customer (403). Under Api-Version 2026-12-01 customerId must name an existing customer (POST /customers); under 2026-11-01 any well-formed id is a guest customer. An erased customer cannot order under either (422 unknown-customer). ' +
      'Each line\'s name and unitPrice come from the catalogue in the order currency, as they are at that moment, and stay with the order. ' +
      'A line naming a product that is unknown, retired, not active or without a price in the currency is 422 product-unavailable (errors name each line); a line that sends a unitPrice other than the catalogue\'s is 409 price-changed (errors give the current prices). ' +
      'A retry with the same Idempotency-Key and body returns the first response with Idempotent-Replayed: true (at the first prices); a different body is 422. ' +
      `Under ${DEPRECATED_API_VERSION} a key is its principal\'s per target (the same key on another order or job is another key); under ${CURRENT_API_VERSION}, one request across every operation.` +
      'Placing reserves every line\'s quantity of stock, all lines or none: when a line lacks stock the answer is 409 insufficient-stock, whose errors name each short line (/lines/{i}/quantity) with what is available, and nothing is reserved. ' +
      'A placement that failed after it reserved stock and was given up by the service (its reservations released, after 30 s) answers a retry with 409 state-conflict: place it again under a new key.',
    parameters: [idempotencyKey],
    requestBody: { required: true, content: json(ref('NewOrder')) },
    responses: {
      '201': {
        description: 'The order was placed (or this is a replay of the request that placed it).',
        headers: { ...commonHeaders, ...rateLimitHeaders, Location: header('/orders/{id}', { type: 'string' }, true), ETag: headerRef('ETag'), 'Consistency-Token': headerRef('Consistency-Token'), 'Idempotent-Replayed': headerRef('Idempotent-Replayed') },
        content: json(ref('Order')),
      },
      ...authProblems,
      '409': responseRef('PlacementConflict'),
      '413': responseRef('PayloadTooLarge'),
      '415': responseRef('UnsupportedMediaType'),
      '422': responseRef('PlacementRefused'),
    },
    async handle(ctx, { orders, inFlight }) {
      const result = await keyedPost(ctx, inFlight, {
        validate: validNewOrder,
        target: () => null,
        path: () => '/orders',
        perTargetUnderOldVersion: true,
        run: (input, _, context) => orders.place(ctx.state.principal, { ...input, address: withNulls(input.address), apiVersion: ctx.state.apiVersion }, context),
        location: (placement) => `/orders/${placed(placement).id}`,
      });
      sendOrder(ctx, 201, placed(result), result);
    },
  },
  {
    method: 'get',
    path: '/orders',
    access: { scope: 'orders:read' },
    operationId: 'listOrders',
    tags: ['orders'],
    summary: 'List orders, a page at a time',
    description: 'Needs orders:read. Served from projections, which may lag: send the Consistency-Token of a write to wait (up to 5 s) until the page includes it. Keyset paging: a cursor continues the exact filter and sort it came from. ' +
      'Each order\'s status, and what the status filter selects, is as the request\'s Api-Version reads it: under 2026-11-01 and 2026-12-01 a partially_shipped order is paid. ' +
      'A customer token lists its own customer\'s orders (customerId is implied; another customer\'s is 403). ' +
      `Every combination of filters and sort offered is served by an index, so every page costs the same however deep it lies: ${OFFERED_ORDER_LISTS} ` +
      'Any other combination is 400 validation-failed, whose errors point at each parameter at fault and whose detail names the combinations offered; ' +
      'so is a createdFrom or createdTo that is no instant of the years 0000 to 9999, or a createdTo not later than createdFrom. ' +
      'A total is the order\'s `total` in minor units of its currency (an edit changes it), hence the one currency a sort by total names. ' +
      'createdFrom, createdTo, sku, currency and the sorts by total were added within 2027-01-01 (additive): every Api-Version is served them.',
    parameters: [
      ...queryParameters('OrderListQuery', Object.keys(orderSchemas.OrderListQuery.properties)),
      consistencyToken,
    ],
    responses: {
      '200': {
        description: 'One page of orders.',
        headers: { ...commonHeaders, ...rateLimitHeaders, Link: headerRef('Link'), 'Consistency-Token': headerRef('Collection-Consistency-Token') },
        content: json(ref('OrderPage')),
      },
      ...authProblems,
    },
    async handle(ctx, { queries, waiting }) {
      const query = validListQuery(ctx.query);
      const consistencyToken = ctx.get('Consistency-Token');
      const page = await holdingSlotIf(waiting, ctx.state.principal, consistencyToken !== '', () =>
        queries.listOrderJson(ctx.state.principal, {
          apiVersion: ctx.state.apiVersion,
          sort: query.sort,
          limit: query.limit,
          ...(query.status ? { status: query.status } : {}),
          ...(query.customerId ? { customerId: query.customerId } : {}),
          ...(query.createdFrom ? { createdFrom: query.createdFrom } : {}),
          ...(query.createdTo ? { createdTo: query.createdTo } : {}),
          ...(query.sku ? { sku: query.sku } : {}),
          ...(query.currency ? { currency: query.currency } : {}),
          ...(query.cursor ? { cursor: query.cursor } : {}),
          consistencyToken,
        }),
      );
      if (page.nextCursor) ctx.set('Link', `</orders?${listQueryString(query, page.nextCursor)}>; rel="next"`);
      ctx.set('Consistency-Token', page.reflects);
      ctx.set('Content-Type', JSON_BODY);
      ctx.body = pageBody(page);
    },
  },
  {
    method: 'get',
    path: '/orders/{id}',
    pathParameters: [orderId],
    access: { scope: 'orders:read' },
    operationId: 'getOrder',
    tags: ['orders'],
    summary: 'Read an order',
    description: 'Needs orders:read. Always current: folded from the order history, never older than a revision already acknowledged. Another customer\'s order answers 404 exactly as an unknown one. An order shipped in part reads as partially_shipped under Api-Version 2027-01-01 and as paid under 2026-12-01 and 2026-11-01 (here, at a point in time, and in every answer that holds an order).',
    parameters: [
      { name: 'If-None-Match', in: 'header', required: false, description: 'ETags of this order; 304 when one is current.', schema: { type: 'string' } },
      { name: 'asOf', in: 'query', required: false, description: 'audit:read: the order as it stood at this instant (the store\'s recorded time); 404 if it did not exist yet. An RFC 3339 date-time naming a real instant.', schema: { $ref: '#/components/schemas/PointInTimeQuery/properties/asOf' } },
      { name: 'revision', in: 'query', required: false, description: 'audit:read: the order as it stood at this revision.', schema: { $ref: '#/components/schemas/PointInTimeQuery/properties/revision' } },
    ],
    responses: {
      '200': { description: 'The order.', headers: { ...commonHeaders, ...rateLimitHeaders, ETag: headerRef('ETag'), 'Consistency-Token': headerRef('Consistency-Token') }, content: json(ref('Order')) },
      '304': { description: 'The order still has the revision named in If-None-Match.', headers: { ...commonHeaders, ...rateLimitHeaders, ETag: headerRef('ETag') } },
      ...authProblems,
      '404': responseRef('NotFound'),
    },
    async handle(ctx, { orders }) {
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
      const id = orderIdOf(ctx);
      // The order, when it exists and the principal may see it; 404 otherwise, alike.
      const snapshot = await orders.get(ctx.state.principal, id);
      if (!snapshot) throw new OrderNotFound(id);
      const etag = `"${snapshot.revision}"`;
      if (matchesNoneMatch(ctx.get('If-None-Match'), etag)) {
        ctx.status = 304;
        ctx.set('ETag', etag);
        return;
      }
      sendOrder(ctx, 200, snapshot.order, snapshot, true);
    },
  },
  {
    method: 'patch',
    path: '/orders/{id}',
    pathParameters: [orderId],
    access: { scope: 'orders:write' },
    operationId: 'changeOrderAddress',
    tags: ['orders'],
    summary: 'Change the address (JSON Merge Patch)',
    description: 'Needs orders:write. Only `address` may appear. Refused with 409 state-conflict once anything of the order has shipped (partially_shipped or shipped) or it was cancelled.',
    parameters: [{ name: 'If-Match', in: 'header', required: false, description: 'An ETag of this order; 412 when the order has moved on.', schema: { type: 'string' } }],
    requestBody: { required: true, content: { 'application/merge-patch+json': { schema: ref('OrderPatch') } } },
    responses: {
      '200': { description: 'The changed order.', headers: { ...commonHeaders, ...rateLimitHeaders, ETag: headerRef('ETag'), 'Consistency-Token': headerRef('Consistency-Token') }, content: json(ref('Order')) },
      ...authProblems,
      '404': responseRef('NotFound'),
      '409': responseRef('StateConflict'),
      '412': responseRef('PreconditionFailed'),
      '413': responseRef('PayloadTooLarge'),
      '415': responseRef('MergePatchOnly'),
      '422': responseRef('UnknownCustomer'),
    },
    async handle(ctx, { orders }) {
      const body = await readJson(ctx, { mediaTypes: [MERGE_PATCH], unsupportedHeaders: { 'Accept-Patch': MERGE_PATCH } });
      const patch = validPatch(body);
      const pinned = ifMatchRevision(ctx.get('If-Match'));
      const context = { ...writeContext(ctx), ...(pinned === undefined ? {} : { expectedRevision: pinned }) };
      const result = await orders.changeAddress(ctx.state.principal, orderIdOf(ctx), patch.address, context);
      sendOrder(ctx, 200, placed(result), result);
    },
  },
  {
    method: 'post',
    path: '/orders/{id}/payments',
    pathParameters: [orderId],
    access: { scope: 'payments:write' },
    operationId: 'recordPayment',
    tags: ['orders'],
    summary: 'Record the payment of a pending order',
    description: 'Needs payments:write. The amount must equal the order total. The order becomes paid.',
    ...keyedSubresource('NewPayment', 'Payment'),
    async handle(ctx, { orders, inFlight }) {
      const result = await keyedPost(ctx, inFlight, {
        validate: validPayment,
        target: orderIdOf,
        path: (id) => `/orders/${id}/payments`,
        perTargetUnderOldVersion: true,
        run: (input, id, context) => orders.recordPayment(ctx.state.principal, id, input, context),
      });
      const event = result.events.find((e) => e.type === 'PaymentRecorded');
      if (event?.type !== 'PaymentRecorded') throw new Error('payment command recorded no payment');
      const { paymentId, amount, reference, method, recordedAt } = event.data;
      sendRecorded(ctx, result, { id: paymentId, orderId: orderIdOf(ctx), amount, reference, method, createdAt: recordedAt });
    },
  },
  ...afterPaymentOperations,
  {
    method: 'post',
    path: '/orders/{id}/cancellation',
    pathParameters: [orderId],
    access: { scope: 'orders:write' },
    operationId: 'cancelOrder',
    tags: ['orders'],
    summary: 'Cancel a pending or paid order',
    description: 'Needs orders:write. Cancelling a cancelled order changes nothing and answers 200; a shipped order is 409. Cancelling an order shipped in part (partially_shipped) cancels what has not shipped, releasing its stock, and leaves it shipped: nothing is left to ship.',
    requestBody: { required: false, content: json(ref('Cancellation')) },
    responses: {
      '200': { description: 'The cancelled order.', headers: { ...commonHeaders, ...rateLimitHeaders, ETag: headerRef('ETag'), 'Consistency-Token': headerRef('Consistency-Token') }, content: json(ref('Order')) },
      ...authProblems,
      '404': responseRef('NotFound'),
      '409': responseRef('StateConflict'),
      '413': responseRef('PayloadTooLarge'),
      '415': responseRef('UnsupportedMediaType'),
    },
    async handle(ctx, { orders }) {
      const body = await readJson(ctx, { mediaTypes: JSON_TYPES, optional: true });
      const input = body === undefined ? {} : validCancellation(body);
      const result = await orders.cancel(ctx.state.principal, orderIdOf(ctx), input.reason ?? null, writeContext(ctx));
      sendOrder(ctx, 200, placed(result), result);
    },
  },
];

export const ordersArea = area<void, Deps, typeof orderSchemas>({
  schemas: orderSchemas,
  // The orders' own rules (write-side/orders/rules.ts); their answers' members are in their schemas.
  problems: {
    'quantity-unavailable': { status: 409, title: 'Quantity unavailable' },
    'refund-exceeds-payment': { status: 409, title: 'Refund exceeds payment' },
  },
  tags: [{ name: 'orders', description: 'Orders and their lifecycle' }],
  operations,
  deps: (core) => core,
});

/** The next page's query: the same filters, sort and limit, and its cursor (status, sort, limit and currency are URL-safe as they are). */
function listQueryString(query: ListQuery, cursor: string): string {
  let text = query.status ? `status=${query.status}&` : '';
  if (query.customerId) text += `customerId=${encodeURIComponent(query.customerId)}&`;
  if (query.createdFrom) text += `createdFrom=${encodeURIComponent(query.createdFrom)}&`;
  if (query.createdTo) text += `createdTo=${encodeURIComponent(query.createdTo)}&`;
  if (query.sku) text += `sku=${encodeURIComponent(query.sku)}&`;
  if (query.currency) text += `currency=${query.currency}&`;
  return `${text}sort=${query.sort}&limit=${query.limit}&cursor=${encodeURIComponent(cursor)}`;
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

/** The address in its representation's shape: every member present, in the documented order. */
export function withNulls(address: AddressInput): Address {
  const { name, line1, city, postalCode, country } = address;
  return { name, line1, line2: address.line2 ?? null, city, postalCode, region: address.region ?? null, country };
}
