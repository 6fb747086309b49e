// What happens to an order after payment (HTTP-CONTRACT "Orders after payment", 2027-01-01, served
// under every version): shipments by line, returns and their receipts, refunds, and edits of the
// lines. Each is a command on the order's stream, decided by the order's decider; a handler
// parses, calls one use case with the viewer (which confines it, and refuses a customer's token
// what only staff may do), and represents what the command recorded.
import type { Context } from 'koa';
import { isStaff } from '../../write-side/kernel/access.js';
import { OrderNotFound } from '../../write-side/kernel/errors.js';
import type { OrderResult } from '../../write-side/orders/service.js';
import type { OrderEvent, ReceivedLine, RefundReason, Return, ReturnStatus, Shipment, SkuQuantity } from '../../write-side/orders/types.js';
import { hasScope, type Principal } from '../auth.js';
import { readJson } from '../body.js';
import { keyedPost } from '../idempotency.js';
import { writeContext } from '../middleware/context.js';
import type { CoreDeps, Operation, Shared } from '../operation.js';
import { authProblems, commonHeaders, consistencyToken, headerRef, idempotencyKey, json, problem, queryParameters, rateLimitHeaders, ref, responseRef } from '../openapi-parts.js';
import { ifMatchRevision } from '../preconditions.js';
import { HttpProblem, validationFailed } from '../problem.js';
import { ORDER_ID_PATTERN, sharedSchemas } from '../schemas.js';
import { validators } from '../validation.js';
import { holdingSlotIf } from '../waiting.js';
import { conflict, keyedSubresource, orderAnswer, orderId, orderIdOf, placed, sendOrder, sendRecorded } from './parts.js';
import { orderSchemas } from './schemas.js';

type Deps = CoreDeps & Shared;

const { bodyValidator, queryValidator } = validators({ ...sharedSchemas, ...orderSchemas });
const validShipment = bodyValidator<{ carrier: string; trackingNumber: string; lines?: SkuQuantity[] }>('NewShipment');
const validReturn = bodyValidator<{ lines: SkuQuantity[]; reason: string }>('NewReturn');
const validReceipt = bodyValidator<{ lines: ReceivedLine[] }>('ReturnReceipt');
const validRefund = bodyValidator<{ amount: number; reason: RefundReason; note?: string | null }>('NewRefund');
const validEdit = bodyValidator<{ lines: SkuQuantity[]; dryRun?: boolean }>('NewOrderEdit');
const validReturnListQuery = queryValidator<{ status?: ReturnStatus; limit: number; cursor?: string }>('ReturnListQuery');
const RETURN_ID = new RegExp(ORDER_ID_PATTERN);
const returnId = { name: 'returnId', in: 'path', required: true, description: 'The return id, a UUID.', schema: { type: 'string', pattern: ORDER_ID_PATTERN } };
const listed = (schema: string, description: string) => ({
  '200': { description, headers: { ...commonHeaders, ...rateLimitHeaders }, content: json(ref(schema)) },
  ...authProblems,
  '404': responseRef('NotFound'),
});
const WHO_HANDLES_RETURNS = 'Needs returns:write, or orders:write on a customer\'s token (its own orders only; another customer\'s order is 404 as an unknown one).';

export const afterPaymentOperations: Operation<Deps>[] = [
  {
    method: 'post',
    path: '/orders/{id}/shipments',
    pathParameters: [orderId],
    access: { scope: 'shipments:write' },
    operationId: 'createShipment',
    tags: ['orders'],
    summary: 'Ship a paid order, all of what remains or the lines named',
    description:
      'Needs shipments:write and a token that is not a customer\'s (403 whatever its scopes). The order must be paid or partially_shipped; any other status is 409 state-conflict (currentStatus says which). ' +
      'Without lines it ships everything that remains (as before 2027-01-01); with lines, what they name: more of a SKU than remains to ship, or a SKU not on the order, is 409 quantity-unavailable (errors name each such line with what remains) and nothing ships. ' +
      'The order becomes shipped once nothing remains to ship, partially_shipped before (which reads as paid under 2026-12-01 and 2026-11-01). Each shipped unit turns its part of the reservation into a deduction from stock on hand; the rest stays reserved. ' +
      'A retry with the same Idempotency-Key and body answers the first shipment with Idempotent-Replayed: true, and ships nothing more.',
    ...keyedSubresource('NewShipment', 'Shipment', {
      conflicts: conflict(
        'state-conflict: the order is not paid or partially_shipped (currentStatus says what it is); quantity-unavailable: a line names more than remains to ship of its SKU, or a SKU not on the order (errors say what remains); or idempotency-key-in-use: the first request with this key is still running (with Retry-After).',
        ['state-conflict', 'idempotency-key-in-use'],
        { 'quantity-unavailable': 'QuantityUnavailableProblem' },
      ),
    }),
    async handle(ctx, { orders, inFlight }) {
      const result = await keyedPost(ctx, inFlight, {
        validate: validShipment,
        target: orderIdOf,
        path: (id) => `/orders/${id}/shipments`,
        perTargetUnderOldVersion: true,
        run: (input, id, context) => orders.createShipment(ctx.state.principal, id, input, context),
      });
      const { shipmentId } = recorded(result, 'ShipmentCreated').data;
      sendRecorded(ctx, result, shipmentOf(orderIdOf(ctx), one(placed(result).shipments, shipmentId)));
    },
  },
  {
    method: 'get',
    path: '/orders/{id}/shipments',
    pathParameters: [orderId],
    access: { scope: 'orders:read' },
    operationId: 'listShipments',
    tags: ['orders'],
    summary: "The order's shipments",
    description: "Needs orders:read. Every shipment of the order, oldest first, each with what it shipped. Always current (folded from the order's history). Another customer's order answers 404 exactly as an unknown one.",
    responses: listed('ShipmentList', 'The shipments, oldest first.'),
    async handle(ctx, { orders }) {
      const id = orderIdOf(ctx);
      const order = await visibleOrder(ctx, orders, id);
      ctx.body = { items: order.shipments.map((shipment) => shipmentOf(id, shipment)) };
    },
  },
  {
    method: 'post',
    path: '/orders/{id}/returns',
    pathParameters: [orderId],
    // Either of two scopes, depending on the token: the handler checks (mayHandleReturns).
    access: { scope: 'returns:write', checkedBy: 'handler' },
    operationId: 'requestReturn',
    tags: ['orders'],
    summary: 'Request a return of shipped lines',
    description:
      `${WHO_HANDLES_RETURNS} Of each SKU at most what shipped and is in no return that is not cancelled (409 quantity-unavailable: errors say what remains returnable); a cancelled order is 409 state-conflict. ` +
      'The return is requested; nothing changes on the order until it is received. A retry with the same Idempotency-Key and body answers the first return with Idempotent-Replayed: true.',
    ...keyedSubresource('NewReturn', 'Return', {
      conflicts: conflict(
        'state-conflict: the order was cancelled; quantity-unavailable: a line names more than was shipped and is not in a return, or a SKU not on the order (errors say what remains); or idempotency-key-in-use: the first request with this key is still running (with Retry-After).',
        ['state-conflict', 'idempotency-key-in-use'],
        { 'quantity-unavailable': 'QuantityUnavailableProblem' },
      ),
    }),
    async handle(ctx, { orders, inFlight }) {
      mayHandleReturns(ctx.state.principal);
      const result = await keyedPost(ctx, inFlight, {
        validate: validReturn,
        target: orderIdOf,
        path: (id) => `/orders/${id}/returns`,
        run: (input, id, context) => orders.requestReturn(ctx.state.principal, id, input, context),
      });
      const { returnId: id } = recorded(result, 'ReturnRequested').data;
      sendRecorded(ctx, result, returnOf(orderIdOf(ctx), one(placed(result).returns, id)));
    },
  },
  {
    method: 'get',
    path: '/orders/{id}/returns',
    pathParameters: [orderId],
    access: { scope: 'orders:read' },
    operationId: 'listReturns',
    tags: ['orders'],
    summary: "The order's returns",
    description: "Needs orders:read. Every return of the order, oldest first, whatever its status. Always current (folded from the order's history). Another customer's order answers 404 exactly as an unknown one.",
    responses: listed('ReturnList', 'The returns, oldest first.'),
    async handle(ctx, { orders }) {
      const id = orderIdOf(ctx);
      const order = await visibleOrder(ctx, orders, id);
      ctx.body = { items: order.returns.map((ret) => returnOf(id, ret)) };
    },
  },
  {
    method: 'get',
    path: '/returns',
    access: { scope: 'orders:read' },
    operationId: 'listAllReturns',
    tags: ['orders'],
    summary: 'The returns of every order, oldest request first',
    description:
      'Needs orders:read and a token that is not a customer\'s (403 otherwise, whatever its scopes: a customer reads its returns on its orders, GET /orders/{id}/returns). ' +
      '`status=requested` lists the returns waiting to be received, the list behind that figure of GET /summary. From the returns projection, which may lag: ' +
      'send the Consistency-Token of a write to wait (up to 5 s) until the page includes it. Keyset paging: a cursor continues the status filter it came from.',
    parameters: [...queryParameters('ReturnListQuery', ['status', 'limit', 'cursor']), consistencyToken],
    responses: {
      '200': {
        description: 'One page of returns.',
        headers: { ...commonHeaders, ...rateLimitHeaders, Link: headerRef('Link'), 'Consistency-Token': headerRef('Collection-Consistency-Token') },
        content: json(ref('ReturnPage')),
      },
      ...authProblems,
    },
    async handle(ctx, { returns, waiting }) {
      const query = validReturnListQuery(ctx.query);
      const consistencyToken = ctx.get('Consistency-Token');
      const page = await holdingSlotIf(waiting, ctx.state.principal, consistencyToken !== '', () =>
        returns.list(ctx.state.principal, { limit: query.limit, ...(query.status ? { status: query.status } : {}), ...(query.cursor ? { cursor: query.cursor } : {}), consistencyToken }),
      );
      if (page.nextCursor) {
        const next = new URLSearchParams({ ...(query.status ? { status: query.status } : {}), limit: String(query.limit), cursor: page.nextCursor });
        ctx.set('Link', `</returns?${next}>; rel="next"`);
      }
      ctx.set('Consistency-Token', page.reflects);
      ctx.body = { items: page.items, nextCursor: page.nextCursor };
    },
  },
  {
    method: 'post',
    path: '/orders/{id}/returns/{returnId}/receipt',
    pathParameters: [orderId, returnId],
    access: { scope: 'returns:write' },
    operationId: 'receiveReturn',
    tags: ['orders'],
    summary: 'Record what came back of a return',
    description:
      'Needs returns:write and a token that is not a customer\'s (403 whatever its scopes). Only a requested return is received (a received or cancelled one is 409 state-conflict, currentStatus its status); of each SKU at most what it requested (409 quantity-unavailable). ' +
      'Every unit received counts in its line\'s returned (and so in the balance); the units with restock: true go back on hand, as a stock adjustment with reason returned, the others (damaged) do not. An unknown return is 404.',
    requestBody: { required: true, content: json(ref('ReturnReceipt')) },
    responses: {
      '200': { description: 'The return, received, with what came back.', headers: { ...commonHeaders, ...rateLimitHeaders, 'Consistency-Token': headerRef('Consistency-Token') }, content: json(ref('Return')) },
      ...authProblems,
      '404': responseRef('NotFound'),
      '409': conflict(
        'state-conflict: the return is not requested (received already, or cancelled; currentStatus says which); or quantity-unavailable: a line names more than the return requested of its SKU, or a SKU it does not hold (errors say what remains).',
        ['state-conflict'],
        { 'quantity-unavailable': 'QuantityUnavailableProblem' },
      ),
      '413': responseRef('PayloadTooLarge'),
      '415': responseRef('UnsupportedMediaType'),
    },
    async handle(ctx, { orders }) {
      const input = validReceipt(await readJson(ctx, { mediaTypes: JSON_TYPES }));
      const [id, ret] = [orderIdOf(ctx), returnIdOf(ctx)];
      const result = await orders.receiveReturn(ctx.state.principal, id, ret, input.lines, writeContext(ctx));
      sendRecorded(ctx, result, returnOf(id, one(placed(result).returns, ret)), 200);
    },
  },
  {
    method: 'post',
    path: '/orders/{id}/returns/{returnId}/cancellation',
    pathParameters: [orderId, returnId],
    access: { scope: 'returns:write', checkedBy: 'handler' },
    operationId: 'cancelReturn',
    tags: ['orders'],
    summary: 'Cancel a requested return',
    description: `${WHO_HANDLES_RETURNS} Only a requested return is cancelled: a received or cancelled one is 409 state-conflict (currentStatus its status). Its lines may then be returned again. No body. An unknown return is 404.`,
    responses: {
      '200': { description: 'The return, cancelled.', headers: { ...commonHeaders, ...rateLimitHeaders, 'Consistency-Token': headerRef('Consistency-Token') }, content: json(ref('Return')) },
      ...authProblems,
      '404': responseRef('NotFound'),
      '409': responseRef('StateConflict'),
    },
    async handle(ctx, { orders }) {
      mayHandleReturns(ctx.state.principal);
      const [id, ret] = [orderIdOf(ctx), returnIdOf(ctx)];
      const result = await orders.cancelReturn(ctx.state.principal, id, ret, writeContext(ctx));
      sendRecorded(ctx, result, returnOf(id, one(placed(result).returns, ret)), 200);
    },
  },
  {
    method: 'post',
    path: '/orders/{id}/refunds',
    pathParameters: [orderId],
    access: { scope: 'refunds:write' },
    operationId: 'recordRefund',
    tags: ['orders'],
    summary: 'Record a refund',
    description:
      'Needs refunds:write and a token that is not a customer\'s (403 whatever its scopes). On any order that was paid, a cancelled one included (409 state-conflict for one never paid); at most what was paid and is not refunded yet (409 refund-exceeds-payment, with refundable). ' +
      'The order\'s balance shows it in refunded. A retry with the same Idempotency-Key and body answers the first refund with Idempotent-Replayed: true, and refunds nothing more.',
    ...keyedSubresource('NewRefund', 'Refund', {
      conflicts: conflict(
        'state-conflict: the order was never paid; refund-exceeds-payment: the amount is more than was paid and not yet refunded (refundable says how much may be); or idempotency-key-in-use: the first request with this key is still running (with Retry-After).',
        ['state-conflict', 'idempotency-key-in-use'],
        { 'refund-exceeds-payment': 'RefundExceedsPaymentProblem' },
      ),
    }),
    async handle(ctx, { orders, inFlight }) {
      const result = await keyedPost(ctx, inFlight, {
        validate: validRefund,
        target: orderIdOf,
        path: (id) => `/orders/${id}/refunds`,
        run: ({ amount, reason, note }, id, context) => orders.recordRefund(ctx.state.principal, id, { amount, reason, note: note ?? null }, context),
      });
      const { refundId, amount, reason, note, recordedAt } = recorded(result, 'RefundRecorded').data;
      sendRecorded(ctx, result, { id: refundId, orderId: orderIdOf(ctx), amount, reason, note, createdAt: recordedAt });
    },
  },
  {
    method: 'post',
    path: '/orders/{id}/edits',
    pathParameters: [orderId],
    access: { scope: 'orders:write' },
    operationId: 'editOrder',
    tags: ['orders'],
    summary: "Replace the order's lines, or preview it (dryRun)",
    description:
      'Needs orders:write and a token that is not a customer\'s (403 whatever its scopes). lines is the order\'s complete new set of lines. Only while the order is pending or paid and nothing of it has shipped (409 state-conflict otherwise). ' +
      'Lines kept keep their name and price; a new SKU takes the catalogue\'s price now (422 product-unavailable when it cannot be ordered). Stock is reserved for every increase and released for every decrease, all or none: 409 insufficient-stock (errors name each short line with what is available) changes nothing. A paid order\'s balance.due then shows what the change costs (positive) or gives back (negative). ' +
      'dryRun: true answers 200 with the order as it would become, balance included, and writes and reserves nothing; its ETag is the revision it was worked out on, so If-Match with it applies exactly that preview. ' +
      'A dry run needs an Idempotency-Key as every request of this operation does, but does not take it: it records nothing, so it is never replayed and the same key may carry the edit itself afterwards. ' +
      'An edit retried with the same Idempotency-Key and body answers the first edit with Idempotent-Replayed: true and changes nothing more. An edit that names the lines the order has already changes nothing: 200 with the order. ' +
      'If-Match: an ETag of the order; 412 when the order has moved on (a retry of an edit that was made is replayed all the same).',
    parameters: [idempotencyKey, { name: 'If-Match', in: 'header', required: false, description: 'An ETag of this order; 412 when the order has moved on.', schema: { type: 'string' } }],
    requestBody: { required: true, content: json(ref('NewOrderEdit')) },
    responses: {
      '200': orderAnswer('dryRun: the order as it would become (nothing was written or reserved); or, for lines the order has already, the order unchanged.'),
      '201': {
        description: "The edit: the lines before and after it. The order changed (GET /orders/{id}).",
        headers: { ...commonHeaders, ...rateLimitHeaders, 'Consistency-Token': headerRef('Consistency-Token'), 'Idempotent-Replayed': headerRef('Idempotent-Replayed') },
        content: json(ref('OrderEdit')),
      },
      ...authProblems,
      '404': responseRef('NotFound'),
      '409': conflict(
        'state-conflict: the order is not pending or paid, or has shipped in part (currentStatus says its status); insufficient-stock: an increase needs more stock than is available (errors name each short line, /lines/i/quantity, with what is available; nothing was reserved or changed); or idempotency-key-in-use: the first request with this key is still running (with Retry-After).',
        ['state-conflict', 'insufficient-stock', 'idempotency-key-in-use'],
      ),
      '412': responseRef('PreconditionFailed'),
      '413': responseRef('PayloadTooLarge'),
      '415': responseRef('UnsupportedMediaType'),
      '422': problem(
        'idempotency-key-reused: the key was used for a different request; or product-unavailable: a new line names a product that is unknown, retired, not active or without a price in the order currency (errors name each line, /lines/i/sku).',
        422,
        ['idempotency-key-reused', 'product-unavailable'],
      ),
    },
    async handle(ctx, { orders, inFlight }) {
      const pinned = ifMatchRevision(ctx.get('If-Match'));
      const result = await keyedPost(ctx, inFlight, {
        validate: validEdit,
        target: orderIdOf,
        path: (id) => `/orders/${id}/edits`,
        run: ({ lines, dryRun = false }, id, { idempotency, ...context }) =>
          orders.edit(ctx.state.principal, id, { lines, dryRun }, { ...context, ...(dryRun ? {} : { idempotency }), ...(pinned === undefined ? {} : { expectedRevision: pinned }) }),
      });
      const edit = result.events.find((event) => event.type === 'OrderEdited');
      if (result.dryRun || edit?.type !== 'OrderEdited') {
        sendOrder(ctx, 200, placed(result), result);
        return;
      }
      const { editId, before, after, editedAt } = edit.data;
      sendRecorded(ctx, result, { id: editId, orderId: orderIdOf(ctx), before, after, createdAt: editedAt });
    },
  },
];

const JSON_TYPES = ['application/json'];

/**
 * Staff request and cancel returns with returns:write; a customer's token its own with
 * orders:write (HTTP-CONTRACT "Orders after payment"). The order's confinement is the write side's.
 */
function mayHandleReturns(principal: Principal): void {
  if (hasScope(principal, 'returns:write') || (!isStaff(principal) && hasScope(principal, 'orders:write'))) return;
  throw new HttpProblem(403, 'forbidden', 'Returns need the returns:write scope (a customer\'s own token: orders:write).', { requiredScope: 'returns:write' });
}

async function visibleOrder(ctx: Context, orders: Deps['orders'], id: string) {
  const snapshot = await orders.get(ctx.state.principal, id);
  if (!snapshot) throw new OrderNotFound(id);
  return snapshot.order;
}

function returnIdOf(ctx: Context): string {
  const id = ctx.params.returnId ?? '';
  if (!RETURN_ID.test(id)) throw validationFailed([{ pointer: '/path/returnId', message: 'must be a return id (a UUID)' }]);
  return id;
}

/** The event of `type` the command recorded (for a replay, the first run's). */
function recorded<T extends OrderEvent['type']>(result: OrderResult, type: T): Extract<OrderEvent, { type: T }> {
  const event = result.events.find((e): e is Extract<OrderEvent, { type: T }> => e.type === type);
  if (!event) throw new Error(`the command recorded no ${type}`);
  return event;
}

/** The order's shipment or return of that id, as the order holds it after the command. */
function one<T extends { readonly id: string }>(items: readonly T[], id: string): T {
  const item = items.find((i) => i.id === id);
  if (!item) throw new Error(`the command left no ${id} on the order`);
  return item;
}

function shipmentOf(orderId: string, { id, carrier, trackingNumber, lines, createdAt }: Shipment) {
  return { id, orderId, carrier, trackingNumber, lines, createdAt };
}

function returnOf(orderId: string, { id, status, lines, reason, received, createdAt, updatedAt }: Return) {
  return { id, orderId, status, lines, reason, received, createdAt, updatedAt };
}
