// Audit: an order's events, in order. (An order as it stood at a point in time is a read of the
// order itself: GET /orders/{id} with asOf or revision.)
import { area, type CoreDeps, type Operation } from '../operation.js';
import { authProblems, commonHeaders, headerRef, json, queryParameters, rateLimitHeaders, ref, responseRef } from '../openapi-parts.js';
import { orderId, orderIdOf } from '../orders/operations.js';
import { sharedSchemas } from '../schemas.js';
import { validators } from '../validation.js';
import { auditSchemas } from './schemas.js';

type Deps = Pick<CoreDeps, 'history'>;

const { queryValidator } = validators({ ...sharedSchemas, ...auditSchemas });
const validHistoryQuery = queryValidator<{ limit: number; cursor?: string }>('PageQuery');

const operations: Operation<Deps>[] = [
  {
    method: 'get',
    path: '/orders/{id}/history',
    pathParameters: [orderId],
    access: { scope: 'audit:read' },
    operationId: 'getOrderHistory',
    tags: ['audit'],
    summary: 'The order\'s events, in order',
    description: 'Needs audit:read. Each event with its type, schema version (data is upcast to the current version; recordedSchemaVersion is the stored one), data, revision, global position, recorded time and metadata (principal, correlation id, causation id). Once the order\'s customer was erased, its CustomerErased is among them at its place in the log, and the personal data of every event reads as null. Cursor-paged.',
    parameters: queryParameters('PageQuery', ['limit', 'cursor']),
    responses: {
      '200': { description: 'A page of the history.', headers: { ...commonHeaders, ...rateLimitHeaders, Link: headerRef('Link') }, content: json(ref('HistoryPage')) },
      ...authProblems,
      '404': responseRef('NotFound'),
    },
    async handle(ctx, { history }) {
      const query = validHistoryQuery(ctx.query);
      const id = orderIdOf(ctx);
      const page = await history.page(ctx.state.principal, id, { limit: query.limit, ...(query.cursor ? { cursor: query.cursor } : {}) });
      if (page.nextCursor) ctx.set('Link', `</orders/${id}/history?${new URLSearchParams({ limit: String(query.limit), cursor: page.nextCursor })}>; rel="next"`);
      ctx.body = { items: page.items, nextCursor: page.nextCursor };
    },
  },
];

export const auditArea = area<void, Deps, typeof auditSchemas>({
  schemas: auditSchemas,
  tags: [{ name: 'audit', description: 'Order history and point-in-time reads' }],
  operations,
  deps: (core) => core,
});
