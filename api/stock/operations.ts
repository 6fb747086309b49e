// Stock: a SKU's levels (always current, folded from its stream), the collection (from the stock
// projection) and adjustments. Stock belongs to no single customer: the use cases refuse a
// customer's token themselves.
import type { Context } from 'koa';
import type { StockQueries } from '../../read-side/stock/queries.js';
import { StockNotFound } from '../../write-side/kernel/errors.js';
import type { StockLevels, StockService } from '../../write-side/stock/service.js';
import type { AdjustmentReason } from '../../write-side/stock/types.js';
import { sku } from '../catalogue/operations.js';
import { keyedPost } from '../idempotency.js';
import { area, type Operation, type Shared } from '../operation.js';
import { authProblems, commonHeaders, consistencyToken, headerRef, idempotencyKey, json, problem, queryParameters, rateLimitHeaders, ref, responseRef, retryAfter } from '../openapi-parts.js';
import { validationFailed } from '../problem.js';
import { SKU_PATTERN, sharedSchemas } from '../schemas.js';
import { validators } from '../validation.js';
import { stockSchemas } from './schemas.js';
import { holdingSlotIf } from '../waiting.js';

export interface StockDeps {
  readonly stock: StockService;
  readonly stockQueries: StockQueries;
}
type Deps = StockDeps & Shared;

const { bodyValidator, queryValidator } = validators({ ...sharedSchemas, ...stockSchemas });
const validAdjustment = bodyValidator<{ delta: number; reason: AdjustmentReason; note?: string | null }>('NewStockAdjustment');
const validListQuery = queryValidator<{ below?: number; belowThreshold?: boolean; skuPrefix?: string; namePrefix?: string; limit: number; cursor?: string }>('StockListQuery');
const SKU = new RegExp(SKU_PATTERN);

const operations: Operation<Deps>[] = [
  {
    method: 'get',
    path: '/stock',
    access: { scope: 'stock:read' },
    operationId: 'listStock',
    tags: ['stock'],
    summary: 'Stock levels with their products\' names, a page at a time, by SKU or by name',
    description: 'Needs stock:read and a token that is not a customer\'s (403 otherwise, whatever its scopes). From the stock projection, which may lag: send the Consistency-Token of a write to wait (up to 5 s) until the page includes it. Every SKU with a product or a stock change is listed, with its product\'s name and lowStockThreshold (a product never stocked has updatedAt and revision null). ' +
      '`below` keeps the SKUs whose available stock is below it; `belowThreshold=true` those whose available units are below their own product\'s lowStockThreshold (the list behind the low-stock figure of GET /summary); `skuPrefix` those whose SKU begins with it; all of these by SKU. ' +
      '`namePrefix` keeps those whose product\'s name begins with it, whatever the case, listed by name (case folded) then SKU. ' +
      'Each list is served by an index: `below` alone, `belowThreshold` with `skuPrefix` or not, `skuPrefix` alone, `namePrefix` alone; any other combination is 400 validation-failed, its errors pointing at the parameters at fault.',
    parameters: [
      ...queryParameters('StockListQuery', Object.keys(stockSchemas.StockListQuery.properties)),
      consistencyToken,
    ],
    responses: {
      '200': { description: 'One page of stock levels.', headers: { ...commonHeaders, ...rateLimitHeaders, Link: headerRef('Link'), 'Consistency-Token': headerRef('Collection-Consistency-Token') }, content: json(ref('StockPage')) },
      ...authProblems,
    },
    async handle(ctx, { stockQueries, waiting }) {
      const query = validListQuery(ctx.query);
      const consistencyToken = ctx.get('Consistency-Token');
      const page = await holdingSlotIf(waiting, ctx.state.principal, consistencyToken !== '', () =>
        stockQueries.list(ctx.state.principal, {
          limit: query.limit,
          ...(query.below === undefined ? {} : { below: query.below }),
          ...(query.belowThreshold ? { belowThreshold: true } : {}),
          ...(query.skuPrefix === undefined ? {} : { skuPrefix: query.skuPrefix }),
          ...(query.namePrefix === undefined ? {} : { namePrefix: query.namePrefix }),
          ...(query.cursor ? { cursor: query.cursor } : {}),
          consistencyToken,
        }),
      );
      if (page.nextCursor) {
        const next = new URLSearchParams({
          ...(query.below === undefined ? {} : { below: String(query.below) }),
          ...(query.belowThreshold ? { belowThreshold: 'true' } : {}),
          ...(query.skuPrefix === undefined ? {} : { skuPrefix: query.skuPrefix }),
          ...(query.namePrefix === undefined ? {} : { namePrefix: query.namePrefix }),
          limit: String(query.limit),
          cursor: page.nextCursor,
        });
        ctx.set('Link', `</stock?${next}>; rel="next"`);
      }
      ctx.set('Consistency-Token', page.reflects);
      ctx.body = { items: page.items, nextCursor: page.nextCursor };
    },
  },
  {
    method: 'get',
    path: '/stock/{sku}',
    pathParameters: [sku],
    access: { scope: 'stock:read' },
    operationId: 'getStock',
    tags: ['stock'],
    summary: "A SKU's stock levels",
    description: 'Needs stock:read and a token that is not a customer\'s. Always current: folded from the SKU\'s stock history. Every product has stock, 0 on hand until stock is received.',
    responses: {
      '200': { description: 'The levels.', headers: { ...commonHeaders, ...rateLimitHeaders }, content: json(ref('Stock')) },
      ...authProblems,
      '404': responseRef('NotFound'),
    },
    async handle(ctx, { stock }) {
      const sku = skuOf(ctx);
      const levels = await stock.get(ctx.state.principal, sku);
      if (!levels) throw new StockNotFound(sku);
      ctx.body = representation(levels);
    },
  },
  {
    method: 'post',
    path: '/stock/{sku}/adjustments',
    pathParameters: [sku],
    access: { scope: 'stock:write' },
    operationId: 'adjustStock',
    tags: ['stock'],
    summary: 'Adjust the stock on hand',
    description: 'Needs stock:write and a token that is not a customer\'s. A delta that would take onHand below what is reserved is 409 insufficient-stock (errors[0].available says what is available) and changes nothing. A retry with the same Idempotency-Key and body returns the first response with Idempotent-Replayed: true.',
    parameters: [idempotencyKey],
    requestBody: { required: true, content: json(ref('NewStockAdjustment')) },
    responses: {
      '201': {
        description: 'The adjustment, with the levels right after it.',
        headers: { ...commonHeaders, ...rateLimitHeaders, 'Consistency-Token': headerRef('Consistency-Token'), 'Idempotent-Replayed': headerRef('Idempotent-Replayed') },
        content: json(ref('StockAdjustment')),
      },
      ...authProblems,
      '404': responseRef('NotFound'),
      '409': problem(
        'insufficient-stock: the delta would take onHand below what is reserved; idempotency-key-in-use: the first request with this key is still running (with Retry-After).',
        409,
        ['insufficient-stock', 'idempotency-key-in-use'],
        { 'Retry-After': retryAfter(false) },
      ),
      '413': responseRef('PayloadTooLarge'),
      '415': responseRef('UnsupportedMediaType'),
      '422': responseRef('IdempotencyKeyReused'),
    },
    async handle(ctx, { stock, inFlight }) {
      const result = await keyedPost(ctx, inFlight, {
        validate: validAdjustment,
        target: skuOf,
        path: (sku) => `/stock/${sku}/adjustments`,
        run: (input, sku, context) => stock.adjust(ctx.state.principal, sku, { delta: input.delta, reason: input.reason, note: input.note ?? null }, context),
      });
      const sku = skuOf(ctx);
      if (!result) throw new StockNotFound(sku);
      if (result.position) ctx.set('Consistency-Token', result.position);
      const { adjustmentId, delta, reason, note, adjustedAt } = result.adjustment;
      const { onHand, reserved, available } = result.levels;
      ctx.status = 201;
      ctx.body = { id: adjustmentId, sku, delta, reason, note, onHand, reserved, available, createdAt: adjustedAt };
    },
  },
];

export const stockArea = area<StockDeps, Deps, typeof stockSchemas>({
  schemas: stockSchemas,
  tags: [{ name: 'stock', description: 'Stock levels and adjustments' }],
  operations,
  deps: ({ inFlight, waiting }, own) => own && { ...own, inFlight, waiting },
});

function skuOf(ctx: Context): string {
  const sku = ctx.params.sku ?? '';
  if (!SKU.test(sku)) throw validationFailed([{ pointer: '/path/sku', message: `must match ${SKU_PATTERN}` }]);
  return sku;
}

function representation(levels: StockLevels) {
  const { sku, onHand, reserved, available, updatedAt, revision } = levels;
  return { sku, onHand, reserved, available, updatedAt, revision };
}
