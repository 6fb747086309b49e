// The store at a glance: GET /summary, the figures of the administration app's home screen, each
// with the href of the filtered list behind it; followed live as a long-poll on its ETag.
import type { SummaryQueries } from '../../read-side/summary/queries.js';
import { area, type Operation, type Shared } from '../operation.js';
import { authProblems, commonHeaders, consistencyToken, header, headerRef, json, queryParameters, rateLimitHeaders, ref } from '../openapi-parts.js';
import { sharedSchemas } from '../schemas.js';
import { validators } from '../validation.js';
import { holdingSlotIf } from '../waiting.js';
import { summarySchemas } from './schemas.js';

export interface SummaryDeps {
  readonly summary: SummaryQueries;
}
type Deps = SummaryDeps & Pick<Shared, 'waiting'>;

const { queryValidator } = validators({ ...sharedSchemas, ...summarySchemas });
const validSummaryQuery = queryValidator<{ wait: number }>('SummaryQuery');
const etag = header('W/"<fingerprint>": the figures, whatever their asOf and ages. Send it back in If-None-Match: 304 while they are the same.', { type: 'string', pattern: '^W/"[A-Za-z0-9_-]+"$' }, true);

const operations: Operation<Deps>[] = [
  {
    method: 'get',
    path: '/summary',
    access: { scope: 'orders:read' },
    operationId: 'getStoreSummary',
    tags: ['summary'],
    summary: 'The store at a glance: sales by day, orders to be paid and shipped, returns to receive, low stock, failed webhook deliveries',
    description:
      'Needs orders:read and a token that is not a customer\'s (403 otherwise, whatever its scopes). The administration app\'s home screen: each figure carries the href of the filtered list behind it. ' +
      'lowStock is null without stock:read, failedDeliveries without webhooks:admin. Days are UTC days. From projections, which may lag: send the Consistency-Token of a write to wait (up to 5 s) until every figure includes it; ' +
      'the answer\'s Consistency-Token is the position all of them include. ' +
      'ETag is weak: it names the figures, not asOf and the ages, which move with the clock. If-None-Match with it answers 304 while the figures are the same; with `wait` (seconds, up to 30, as the fulfilment queue\'s long-poll) the request waits for them to change first: ' +
      'it is answered (200) as soon as an order, payment, shipment, return, refund, stock level, threshold or delivery changes a figure (or a UTC day begins), else 304 after `wait`. Follow the store by sending each answer\'s ETag back. ' +
      'A waiting request takes one of the principal\'s waiting slots (at most 16 at once; the next is 429).',
    parameters: [
      ...queryParameters('SummaryQuery', ['wait']),
      { name: 'If-None-Match', in: 'header', required: false, description: 'The ETag of the figures the client has: 304 while they are the same (after `wait`).', schema: { type: 'string' } },
      consistencyToken,
    ],
    responses: {
      '200': {
        description: 'The figures.',
        headers: { ...commonHeaders, ...rateLimitHeaders, ETag: etag, 'Consistency-Token': headerRef('Collection-Consistency-Token') },
        content: json(ref('StoreSummary')),
      },
      '304': {
        description: 'The figures are still those of If-None-Match (after `wait`, when given).',
        headers: { ...commonHeaders, ...rateLimitHeaders, ETag: etag, 'Consistency-Token': headerRef('Collection-Consistency-Token') },
      },
      ...authProblems,
    },
    async handle(ctx, { summary, waiting }) {
      const query = validSummaryQuery(ctx.query);
      const known = entityTags(ctx.get('If-None-Match'));
      const since = known.length === 1 && known[0] !== '*' ? known[0] : undefined;
      const consistencyToken = ctx.get('Consistency-Token');
      const waits = query.wait > 0 && since !== undefined;
      const abort = new AbortController();
      const stop = () => abort.abort();
      ctx.req.once('close', stop);
      if (waits) ctx.state.longPoll = true;
      try {
        const answer = await holdingSlotIf(waiting, ctx.state.principal, waits || consistencyToken !== '', () =>
          summary.follow(ctx.state.principal, { consistencyToken, ...(since === undefined ? {} : { since }), waitMs: waits ? query.wait * 1000 : 0, signal: abort.signal }),
        );
        ctx.set('ETag', `W/"${answer.fingerprint}"`);
        ctx.set('Consistency-Token', answer.reflects);
        if (known.includes('*') || known.includes(answer.fingerprint)) {
          ctx.status = 304;
          return;
        }
        ctx.body = answer.summary;
      } finally {
        ctx.req.off('close', stop);
      }
    },
  },
];

export const summaryArea = area<SummaryDeps, Deps, typeof summarySchemas>({
  schemas: summarySchemas,
  tags: [{ name: 'summary', description: 'The store at a glance: the figures of the administration app\'s home screen' }],
  operations,
  deps: ({ waiting }, own) => own && { ...own, waiting },
});

/** The opaque parts of the entity tags of an If-None-Match header (weak or not), or `*`. */
function entityTags(header: string): string[] {
  if (header.trim() === '*') return ['*'];
  return header
    .split(',')
    .map((tag) => /^\s*(?:W\/)?"([^"]*)"\s*$/.exec(tag)?.[1])
    .filter((tag): tag is string => tag !== undefined);
}
