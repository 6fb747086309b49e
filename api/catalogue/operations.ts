// The catalogue: writes go to the write side's product service (staff only, which it confines
// itself), single reads fold the product's stream (always current), the collection comes from
// the `products` read model.
import type { Context } from 'koa';
import type { ProductQueries } from '../../read-side/catalogue/queries.js';
import type { ProductSort } from '../../read-side/catalogue/queries.js';
import { productRepresentation } from '../../read-side/catalogue/views.js';
import { isLive, type ProductPatch } from '../../write-side/catalogue/types.js';
import { ProductNotFound } from '../../write-side/kernel/errors.js';
import type { ProductResult, ProductService, ProductWriteContext } from '../../write-side/catalogue/service.js';
import { readJson } from '../body.js';
import { writeContext } from '../middleware/context.js';
import { area, type Operation, type Shared } from '../operation.js';
import { authProblems, commonHeaders, consistencyToken, header, headerRef, json, queryParameters, rateLimitHeaders, ref, responseRef } from '../openapi-parts.js';
import { ifMatchRevision, matchesNoneMatch } from '../preconditions.js';
import { validationFailed } from '../problem.js';
import { SKU_PATTERN, sharedSchemas } from '../schemas.js';
import { validators } from '../validation.js';
import { knowsLowStockThresholds } from '../versions.js';
import { catalogueSchemas } from './schemas.js';
import { holdingSlotIf } from '../waiting.js';

export interface CatalogueDeps {
  readonly products: ProductService;
  readonly productQueries: ProductQueries;
}
type Deps = CatalogueDeps & Pick<Shared, 'waiting'>;

type ProductInput = { name: string; description?: string | null; prices: Record<string, number>; status: 'draft' | 'active'; lowStockThreshold?: number };
type ListQuery = { status?: 'draft' | 'active'; sort: ProductSort; limit: number; cursor?: string };

const { bodyValidator, queryValidator } = validators({ ...sharedSchemas, ...catalogueSchemas });
const validProduct = bodyValidator<ProductInput>('ProductInput');
const validPatch = bodyValidator<ProductPatch>('ProductPatch');
const validListQuery = queryValidator<ListQuery>('ProductListQuery');
const SKU = new RegExp(SKU_PATTERN);
const MERGE_PATCH = 'application/merge-patch+json';
export const sku = { $ref: '#/components/parameters/Sku' };
/** A single product's answer: its revision, and the log position it reflects. */
const productHeaders = { ...commonHeaders, ...rateLimitHeaders, ETag: headerRef('ETag'), 'Consistency-Token': headerRef('Consistency-Token') };

const operations: Operation<Deps>[] = [
  {
    method: 'get',
    path: '/products',
    access: { scope: 'catalogue:read' },
    operationId: 'listProducts',
    tags: ['catalogue'],
    summary: 'List products, a page at a time',
    description: 'Needs catalogue:read (customer tokens have it). Retired products are left out. From the products projection: the same paging and Consistency-Token rules as GET /orders; sort by sku (default) or -updatedAt (newest change first).',
    parameters: [
      ...queryParameters('ProductListQuery', Object.keys(catalogueSchemas.ProductListQuery.properties)),
      consistencyToken,
    ],
    responses: {
      '200': {
        description: 'One page of products.',
        headers: { ...commonHeaders, ...rateLimitHeaders, Link: headerRef('Link'), 'Consistency-Token': headerRef('Collection-Consistency-Token') },
        content: json(ref('ProductPage')),
      },
      ...authProblems,
    },
    async handle(ctx, { productQueries, waiting }) {
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
    },
  },
  {
    method: 'get',
    path: '/products/{sku}',
    pathParameters: [sku],
    access: { scope: 'catalogue:read' },
    operationId: 'getProduct',
    tags: ['catalogue'],
    summary: 'Read a product',
    description: 'Needs catalogue:read. Always current: folded from the product history. A retired or unknown product is 404.',
    parameters: [{ name: 'If-None-Match', in: 'header', required: false, description: 'ETags of this product; 304 when one is current.', schema: { type: 'string' } }],
    responses: {
      '200': { description: 'The product.', headers: productHeaders, content: json(ref('Product')) },
      '304': { description: 'The product still has the revision named in If-None-Match.', headers: { ...commonHeaders, ...rateLimitHeaders, ETag: headerRef('ETag') } },
      ...authProblems,
      '404': responseRef('NotFound'),
    },
    async handle(ctx, { products }) {
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
    },
  },
  {
    method: 'put',
    path: '/products/{sku}',
    pathParameters: [sku],
    access: { scope: 'catalogue:write' },
    operationId: 'putProduct',
    tags: ['catalogue'],
    summary: 'Create or replace a product',
    description: 'Needs catalogue:write and a token that is not a customer\'s (403 otherwise, whatever its scopes). Creates the product (201, also for a SKU whose product was retired: it starts anew) or replaces the whole of it (200; a replacement that changes nothing records nothing). Placed orders keep the names and prices they were placed with. lowStockThreshold left out: none under 2027-01-01; the product\'s own kept under 2026-12-01 and 2026-11-01.',
    parameters: [
      { name: 'If-Match', in: 'header', required: false, description: 'An ETag of this product; 412 when it has moved on (or does not exist).', schema: { type: 'string' } },
      { name: 'If-None-Match', in: 'header', required: false, description: '* only: create, never replace; 412 when the product exists.', schema: { type: 'string', const: '*' } },
    ],
    requestBody: { required: true, content: json(ref('ProductInput')) },
    responses: {
      '200': { description: 'The product, replaced.', headers: productHeaders, content: json(ref('Product')) },
      '201': { description: 'The product, created.', headers: { ...productHeaders, Location: header('/products/{sku}', { type: 'string' }, true) }, content: json(ref('Product')) },
      ...authProblems,
      '412': responseRef('PreconditionFailed'),
      '413': responseRef('PayloadTooLarge'),
      '415': responseRef('UnsupportedMediaType'),
    },
    async handle(ctx, { products }) {
      const sku = skuOf(ctx);
      const input = validProduct(await readJson(ctx, { mediaTypes: ['application/json'] }));
      const onlyIfAbsent = ifNoneMatchAny(ctx.get('If-None-Match'));
      // A client of a version before lowStockThreshold does not send it: its PUT keeps the product's.
      const context = { ...pinnedContext(ctx), onlyIfAbsent, keepThreshold: !knowsLowStockThresholds(ctx.state.apiVersion) };
      const { lowStockThreshold } = input;
      const product = { name: input.name, description: input.description ?? null, prices: input.prices, status: input.status, ...(lowStockThreshold === undefined ? {} : { lowStockThreshold }) };
      const result = await products.put(ctx.state.principal, sku, product, context);
      const created = result.events[0]?.type === 'ProductDefined';
      if (created) ctx.set('Location', `/products/${sku}`);
      sendProduct(ctx, created ? 201 : 200, result);
    },
  },
  {
    method: 'patch',
    path: '/products/{sku}',
    pathParameters: [sku],
    access: { scope: 'catalogue:write' },
    operationId: 'patchProduct',
    tags: ['catalogue'],
    summary: 'Change a product (JSON Merge Patch)',
    description: 'Needs catalogue:write and a token that is not a customer\'s. {"prices":{"USD":null}} removes the USD price, {"lowStockThreshold":null} the threshold. A retired or unknown product is 404.',
    parameters: [{ name: 'If-Match', in: 'header', required: false, description: 'An ETag of this product; 412 when it has moved on.', schema: { type: 'string' } }],
    requestBody: { required: true, content: { 'application/merge-patch+json': { schema: ref('ProductPatch') } } },
    responses: {
      '200': { description: 'The changed product.', headers: productHeaders, content: json(ref('Product')) },
      ...authProblems,
      '404': responseRef('NotFound'),
      '412': responseRef('PreconditionFailed'),
      '413': responseRef('PayloadTooLarge'),
      '415': responseRef('MergePatchOnly'),
    },
    async handle(ctx, { products }) {
      const sku = skuOf(ctx);
      const patch = validPatch(await readJson(ctx, { mediaTypes: [MERGE_PATCH], unsupportedHeaders: { 'Accept-Patch': MERGE_PATCH } }));
      sendProduct(ctx, 200, await products.patch(ctx.state.principal, sku, patch, pinnedContext(ctx)));
    },
  },
  {
    method: 'delete',
    path: '/products/{sku}',
    pathParameters: [sku],
    access: { scope: 'catalogue:write' },
    operationId: 'retireProduct',
    tags: ['catalogue'],
    summary: 'Retire a product',
    description: 'Needs catalogue:write and a token that is not a customer\'s. Afterwards reads answer 404 and orders cannot name it (422 product-unavailable); retiring it again is 204 too; a later PUT creates it anew. Placed orders keep their lines. A SKU that never named a product is 404.',
    parameters: [{ name: 'If-Match', in: 'header', required: false, description: 'An ETag of this product; 412 when it has moved on.', schema: { type: 'string' } }],
    responses: {
      '204': { description: 'The product is retired.', headers: { ...commonHeaders, ...rateLimitHeaders, 'Consistency-Token': headerRef('Consistency-Token') } },
      ...authProblems,
      '404': responseRef('NotFound'),
      '412': responseRef('PreconditionFailed'),
    },
    async handle(ctx, { products }) {
      const result = await products.retire(ctx.state.principal, skuOf(ctx), pinnedContext(ctx));
      if (result.position) ctx.set('Consistency-Token', result.position);
      ctx.status = 204;
    },
  },
];

export const catalogueArea = area<CatalogueDeps, Deps, typeof catalogueSchemas>({
  schemas: catalogueSchemas,
  tags: [{ name: 'catalogue', description: 'Products and their prices: what orders are priced from' }],
  operations,
  deps: ({ waiting }, own) => own && { ...own, waiting },
});

function skuOf(ctx: Context): string {
  const sku = ctx.params.sku ?? '';
  if (!SKU.test(sku)) throw validationFailed([{ pointer: '/path/sku', message: `must match ${SKU_PATTERN}` }]);
  return sku;
}

/** The request's context, with the revision If-Match pins. */
function pinnedContext(ctx: Context): ProductWriteContext {
  const pinned = ifMatchRevision(ctx.get('If-Match'));
  return { ...writeContext(ctx), ...(pinned === undefined ? {} : { expectedRevision: pinned }) };
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
