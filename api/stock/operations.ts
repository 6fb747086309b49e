// Stock: a SKU's levels (always current, folded from its stream), the collection (from the stock
// projection) and adjustments. Stock belongs to no single customer: the use cases refuse a
// customer's token themselves.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { StockQueries } from '../../read-side/stock/queries.js';
import { StockNotFound } from '../../write-side/kernel/errors.js';
import type { StockLevels, StockService } from '../../write-side/stock/service.js';
import type { AdjustmentReason } from '../../write-side/stock/types.js';
import { readJson } from '../body.js';
import { fingerprint, idempotencyKey, type InFlight } from '../idempotency.js';
import { requireScope } from '../middleware/auth.js';
import { validationFailed } from '../problem.js';
import { SKU_PATTERN } from '../schemas.js';
import { bodyValidator, queryValidator } from '../validation.js';
import { holdingSlotIf, type WaitingRequests } from '../waiting.js';

export interface StockRoutesDeps {
  readonly stock: StockService;
  readonly stockQueries: StockQueries;
  readonly inFlight: InFlight;
  readonly waiting: WaitingRequests;
}

const validAdjustment = bodyValidator<{ delta: number; reason: AdjustmentReason; note?: string | null }>('NewStockAdjustment');
const validListQuery = queryValidator<{ below?: number; limit: number; cursor?: string }>('StockListQuery');
const SKU = new RegExp(SKU_PATTERN);

export function stockRoutes(deps: StockRoutesDeps): Router {
  const { stock, stockQueries, inFlight, waiting } = deps;
  const router = new Router();

  router.get('/stock', requireScope('stock:read'), async (ctx) => {
    const query = validListQuery(ctx.query);
    const consistencyToken = ctx.get('Consistency-Token');
    const page = await holdingSlotIf(waiting, ctx.state.principal, consistencyToken !== '', () =>
      stockQueries.list(ctx.state.principal, {
        limit: query.limit,
        ...(query.below === undefined ? {} : { below: query.below }),
        ...(query.cursor ? { cursor: query.cursor } : {}),
        consistencyToken,
      }),
    );
    if (page.nextCursor) {
      const next = new URLSearchParams({ ...(query.below === undefined ? {} : { below: String(query.below) }), limit: String(query.limit), cursor: page.nextCursor });
      ctx.set('Link', `</stock?${next}>; rel="next"`);
    }
    ctx.set('Consistency-Token', page.reflects);
    ctx.body = { items: page.items, nextCursor: page.nextCursor };
  });

  router.get('/stock/:sku', requireScope('stock:read'), async (ctx) => {
    const sku = skuOf(ctx);
    const levels = await stock.get(ctx.state.principal, sku);
    if (!levels) throw new StockNotFound(sku);
    ctx.body = representation(levels);
  });

  router.post('/stock/:sku/adjustments', requireScope('stock:write'), async (ctx) => {
    const key = idempotencyKey(ctx);
    const body = await readJson(ctx, { mediaTypes: ['application/json'] });
    const input = validAdjustment(body);
    const sku = skuOf(ctx);
    const print = fingerprint('POST', `/stock/${sku}/adjustments`, body);
    const { principal } = ctx.state;
    const result = await inFlight.run(principal.sub, key, () =>
      stock.adjust(principal, sku, { delta: input.delta, reason: input.reason, note: input.note ?? null }, {
        correlationId: ctx.state.correlationId,
        causationId: ctx.state.correlationId,
        idempotency: { key, fingerprint: print },
      }),
    );
    if (!result) throw new StockNotFound(sku);
    if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
    if (result.position) ctx.set('Consistency-Token', result.position);
    const { adjustmentId, delta, reason, note, adjustedAt } = result.adjustment;
    const { onHand, reserved, available } = result.levels;
    ctx.status = 201;
    ctx.body = { id: adjustmentId, sku, delta, reason, note, onHand, reserved, available, createdAt: adjustedAt };
  });

  return router;
}

function skuOf(ctx: Context): string {
  const sku = ctx.params.sku ?? '';
  if (!SKU.test(sku)) throw validationFailed([{ pointer: '/path/sku', message: `must match ${SKU_PATTERN}` }]);
  return sku;
}

function representation(levels: StockLevels) {
  const { sku, onHand, reserved, available, updatedAt, revision } = levels;
  return { sku, onHand, reserved, available, updatedAt, revision };
}
