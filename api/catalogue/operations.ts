// The catalogue: writes go to the write side's product service (staff only, which it confines
// itself), single reads fold the product's stream (always current), the collection comes from
// the `products` read model.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { ProductQueries } from '../../read-side/catalogue/queries.js';
import type { ProductSort } from '../../read-side/catalogue/queries.js';
import { productRepresentation } from '../../read-side/views.js';
import { isLive, type ProductPatch } from '../../write-side/catalogue/types.js';
import { ProductNotFound } from '../../write-side/kernel/errors.js';
import type { ProductResult, ProductService, ProductWriteContext } from '../../write-side/catalogue/service.js';
import { readJson } from '../body.js';
import { requireScope } from '../middleware/auth.js';
import { ifMatchRevision, matchesNoneMatch } from '../preconditions.js';
import { validationFailed } from '../problem.js';
import { SKU_PATTERN } from '../schemas.js';
import { bodyValidator, queryValidator } from '../validation.js';
import { holdingSlotIf, type WaitingRequests } from '../waiting.js';

export interface ProductRoutesDeps {
  readonly products: ProductService;
  readonly productQueries: ProductQueries;
  readonly waiting: WaitingRequests;
}

type ProductInput = { name: string; description?: string | null; prices: Record<string, number>; status: 'draft' | 'active' };
type ListQuery = { status?: 'draft' | 'active'; sort: ProductSort; limit: number; cursor?: string };

const validProduct = bodyValidator<ProductInput>('ProductInput');
const validPatch = bodyValidator<ProductPatch>('ProductPatch');
const validListQuery = queryValidator<ListQuery>('ProductListQuery');
const SKU = new RegExp(SKU_PATTERN);
const MERGE_PATCH = 'application/merge-patch+json';

export function productRoutes(deps: ProductRoutesDeps): Router {
  const { products, productQueries, waiting } = deps;
  const router = new Router();

  router.get('/products', requireScope('catalogue:read'), async (ctx) => {
    const query = validListQuery(ctx.query);
    const consistencyToken = ctx.get('Consistency-Token');
    const page = await holdingSlotIf(waiting, ctx.state.principal, consistencyToken !== '', () =>
      productQueries.list(ctx.state.principal, {
        sort: query.sort,
        limit: query.limit,
        ...(query.status ? { status: query.status } : {}),
        ...(query.cursor ? { cursor: query.cursor } : {}),
        consistencyToken,
      }),
    );
    if (page.nextCursor) {
      const next = new URLSearchParams({ ...(query.status ? { status: query.status } : {}), sort: query.sort, limit: String(query.limit), cursor: page.nextCursor });
      ctx.set('Link', `</products?${next}>; rel="next"`);
    }
    ctx.set('Consistency-Token', page.reflects);
    ctx.body = { items: page.items, nextCursor: page.nextCursor };
  });

  router.get('/products/:sku', requireScope('catalogue:read'), async (ctx) => {
    const sku = skuOf(ctx);
    const current = await products.get(ctx.state.principal, sku);
    if (!current) throw new ProductNotFound(sku);
    const etag = `"${current.revision}"`;
    ctx.set('ETag', etag);
    if (matchesNoneMatch(ctx.get('If-None-Match'), etag)) {
      ctx.status = 304;
      return;
    }
    ctx.set('Consistency-Token', current.position);
    ctx.body = productRepresentation(current.product, current.revision);
  });

  router.put('/products/:sku', requireScope('catalogue:write'), async (ctx) => {
    const sku = skuOf(ctx);
    const input = validProduct(await readJson(ctx, { mediaTypes: ['application/json'] }));
    const onlyIfAbsent = ifNoneMatchAny(ctx.get('If-None-Match'));
    const context = { ...writeContext(ctx), onlyIfAbsent };
    const product = { name: input.name, description: input.description ?? null, prices: input.prices, status: input.status };
    const result = await products.put(ctx.state.principal, sku, product, context);
    const created = result.events[0]?.type === 'ProductDefined';
    if (created) ctx.set('Location', `/products/${sku}`);
    sendProduct(ctx, created ? 201 : 200, result);
  });

  router.patch('/products/:sku', requireScope('catalogue:write'), async (ctx) => {
    const sku = skuOf(ctx);
    const patch = validPatch(await readJson(ctx, { mediaTypes: [MERGE_PATCH], unsupportedHeaders: { 'Accept-Patch': MERGE_PATCH } }));
    sendProduct(ctx, 200, await products.patch(ctx.state.principal, sku, patch, writeContext(ctx)));
  });

  router.delete('/products/:sku', requireScope('catalogue:write'), async (ctx) => {
    const result = await products.retire(ctx.state.principal, skuOf(ctx), writeContext(ctx));
    if (result.position) ctx.set('Consistency-Token', result.position);
    ctx.status = 204;
  });

  return router;
}

function skuOf(ctx: Context): string {
  const sku = ctx.params.sku ?? '';
  if (!SKU.test(sku)) throw validationFailed([{ pointer: '/path/sku', message: `must match ${SKU_PATTERN}` }]);
  return sku;
}

/** The request's context, with the revision If-Match pins. */
function writeContext(ctx: Context): ProductWriteContext {
  const pinned = ifMatchRevision(ctx.get('If-Match'));
  return { correlationId: ctx.state.correlationId, causationId: ctx.state.correlationId, ...(pinned === undefined ? {} : { expectedRevision: pinned }) };
}

/** If-None-Match: * on a PUT asks that the product not exist yet; nothing else is meaningful there. */
function ifNoneMatchAny(header: string): boolean {
  if (header === '') return false;
  if (header.trim() === '*') return true;
  throw validationFailed([{ pointer: '/headers/if-none-match', message: 'on a PUT, only * (create, but never replace)' }]);
}

function sendProduct(ctx: Context, status: number, result: ProductResult): void {
  const { state, revision, position } = result;
  if (!isLive(state) || revision === null) throw new Error('product command left no product');
  ctx.status = status;
  ctx.set('ETag', `"${revision}"`);
  if (position) ctx.set('Consistency-Token', position);
  ctx.body = productRepresentation(state, revision);
}
