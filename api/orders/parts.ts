// What the orders' operations share: the order id of the path, how an order and what a command
// made of it (a payment, a shipment, a return, a refund, an edit) are answered, and the OpenAPI
// pieces of those answers.
import type { Context } from 'koa';
import { LRUCache } from 'lru-cache';
import { orderRepresentation } from '../../read-side/orders/views.js';
import type { Position } from '../../write-side/kernel/event-store.js';
import type { OrderResult } from '../../write-side/orders/service.js';
import type { PlacedOrder } from '../../write-side/orders/types.js';
import { authProblems, commonHeaders, headerRef, idempotencyKey, json, problem, rateLimitHeaders, ref, responseRef, retryAfter } from '../openapi-parts.js';
import { PROBLEM_BASE, validationFailed, type ProblemCode } from '../problem.js';
import { ORDER_ID_PATTERN } from '../schemas.js';
import type { ApiVersion } from '../versions.js';
import { orderForVersion } from './representation.js';

const ORDER_ID = new RegExp(ORDER_ID_PATTERN);
const JSON_BODY = 'application/json; charset=utf-8';
export const orderId = { $ref: '#/components/parameters/OrderId' };

/** The order id of the path; 400 when it cannot be one. */
export function orderIdOf(ctx: Context): string {
  const id = ctx.params.id ?? '';
  if (!ORDER_ID.test(id)) throw validationFailed([{ pointer: '/path/id', message: 'must be an order id (a UUID)' }]);
  return id;
}

export function placed(result: OrderResult): PlacedOrder {
  if (result.state.status === 'absent') throw new Error('command left no order');
  return result.state;
}

/**
 * The bodies last written of kept orders, by order and API version, ORDER_BODIES_BYTES of them at most
 * (the least recently answered go first). A kept fold (write-side/kernel/kept-folds.ts) hands out
 * the same state object until an event changes the order, or its customer's erasure makes it fold
 * afresh (at the same revision: the erasure is no event of the order's); so a body is answered
 * again only for that very state object, at its revision, and an order read again and again is
 * serialised and encoded once per version, not once per read.
 */
const ORDER_BODIES_BYTES = 16 * 1024 * 1024;
const bodies = new LRUCache<string, { readonly order: WeakRef<PlacedOrder>; readonly revision: number; readonly body: Buffer }>({
  maxSize: ORDER_BODIES_BYTES,
  sizeCalculation: (kept) => kept.body.length + 100,
});

/** The order as JSON text for a client of `version`, at `revision`. */
const orderText = (order: PlacedOrder, revision: number, version: ApiVersion): string => JSON.stringify(orderForVersion(orderRepresentation(order, revision), version));

/** The order as UTF-8 JSON for a client of `version`, at `revision`: serialised and encoded once per state, version and revision (`bodies`). */
export function orderBody(order: PlacedOrder, revision: number, version: ApiVersion): Buffer {
  const key = `${order.id} ${version}`;
  const kept = bodies.get(key);
  if (kept !== undefined && kept.order.deref() === order && kept.revision === revision) return kept.body;
  const text = orderText(order, revision, version);
  // Memory of its own, not a slice of Node's shared 8 KiB pool (Buffer.from): a kept slice holds
  // its whole slab alive, and the slices beside it, so the kept bodies held about twice the bytes
  // the budget counts (35 MB of slabs for 16 MB of bodies, in a heap snapshot at a million orders).
  const body = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  body.write(text);
  // Held weakly: the body answers for the state while the kept fold holds it, and never keeps it alive.
  bodies.set(key, { order: new WeakRef(order), revision, body });
  return body;
}

/**
 * The order, as a client of the request's API version reads it, with its ETag and the write's
 * Consistency-Token. `kept`: the state is a kept fold's (GET /orders/{id}), and its body is kept
 * with it (`bodies`). Any other state (a command's outcome, an order as it stood) is never handed
 * out again, so its body is made for this answer alone: kept, it would only push the kept folds'
 * bodies out of the budget, and cost a weak reference and a backing store of its own to collect.
 */
export function sendOrder(ctx: Context, status: number, order: PlacedOrder, at: { revision: number | null; position: Position | null }, kept = false): void {
  const revision = at.revision ?? 0;
  ctx.status = status;
  ctx.set('ETag', `"${revision}"`);
  setConsistency(ctx, at.position);
  // Serialised here, with the type Koa would give an object: it then neither looks the type up nor handles the length twice.
  ctx.set('Content-Type', JSON_BODY);
  ctx.body = kept ? orderBody(order, revision, ctx.state.apiVersion) : Buffer.from(orderText(order, revision, ctx.state.apiVersion));
}

function setConsistency(ctx: Context, position: Position | null): void {
  if (position) ctx.set('Consistency-Token', position);
}

/** What a command made of the order (a payment, a shipment, a return…): its status, and the log position of the write. */
export function sendRecorded(ctx: Context, result: OrderResult, recorded: object, status = 201): void {
  setConsistency(ctx, result.position);
  ctx.status = status;
  ctx.body = recorded;
}

/** The answer that holds the order: its ETag, and the Consistency-Token of the write. */
export const orderAnswer = (description: string) => ({
  description,
  headers: { ...commonHeaders, ...rateLimitHeaders, ETag: headerRef('ETag'), 'Consistency-Token': headerRef('Consistency-Token') },
  content: json(ref('Order')),
});

/**
 * A 409 whose problem is one of the API's codes or one of the area's own rules, whose answer
 * carries members the shared Problem does not (its schema, api/orders/schemas.ts). `type.enum`
 * lists every code it can carry, as every problem answer does.
 */
export function conflict(description: string, codes: readonly ProblemCode[], own: Readonly<Record<string, string>> = {}) {
  const plain = problem(description, 409, codes, codes.includes('idempotency-key-in-use') ? { 'Retry-After': retryAfter(false) } : {});
  if (Object.keys(own).length === 0) return plain;
  const schema = plain.content['application/problem+json'].schema;
  const types = [...schema.properties.type.enum, ...Object.keys(own).map((code) => PROBLEM_BASE + code)];
  return {
    ...plain,
    content: {
      'application/problem+json': {
        schema: { properties: { type: { enum: types }, status: { const: 409 } }, anyOf: [schema, ...Object.values(own).map(ref)] },
      },
    },
  };
}

/**
 * POST of something the order records (a payment, a shipment, a return, a refund): keyed, 201
 * with it, no Location (no resource serves it alone). `conflicts` and `refusals` replace the
 * 409 and 422 of a keyed write when the operation answers more.
 */
export function keyedSubresource(request: string, response: string, answers: { conflicts?: object; refusals?: object } = {}) {
  return {
    parameters: [idempotencyKey],
    requestBody: { required: true, content: json(ref(request)) },
    responses: {
      '201': {
        description: `The ${response.toLowerCase()}.`,
        headers: { ...commonHeaders, ...rateLimitHeaders, 'Consistency-Token': headerRef('Consistency-Token'), 'Idempotent-Replayed': headerRef('Idempotent-Replayed') },
        content: json(ref(response)),
      },
      ...authProblems,
      '404': responseRef('NotFound'),
      '409': answers.conflicts ?? responseRef('KeyedConflict'),
      '413': responseRef('PayloadTooLarge'),
      '415': responseRef('UnsupportedMediaType'),
      '422': answers.refusals ?? responseRef('IdempotencyKeyReused'),
    },
  };
}
