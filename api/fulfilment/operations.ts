// The fulfilment queue for the fulfilment side: the paid orders waiting to ship, oldest payment
// first, and a feed of its changes as Server-Sent Events or as a JSON long-poll.
import type { Context } from 'koa';
import { PassThrough } from 'node:stream';
import type { FeedStart, QueueFeed } from '../../read-side/orders/queue-feed.js';
import { area, type CoreDeps, type Operation, type Shared } from '../operation.js';
import { authProblems, commonHeaders, consistencyToken, header, headerRef, json, queryParameters, rateLimitHeaders, ref } from '../openapi-parts.js';
import { sharedSchemas } from '../schemas.js';
import { validators } from '../validation.js';
import { fulfilmentSchemas } from './schemas.js';
import { holdingSlotIf } from '../waiting.js';

export interface FulfilmentDeps {
  readonly feed: QueueFeed;
  readonly heartbeatMs?: number;
}
type Deps = FulfilmentDeps & Pick<CoreDeps, 'queries'> & Pick<Shared, 'waiting'>;

const { queryValidator } = validators({ ...sharedSchemas, ...fulfilmentSchemas });
const validQueueQuery = queryValidator<{ limit: number; cursor?: string }>('PageQuery');
const validChangesQuery = queryValidator<{ after?: string; wait: number; limit: number }>('ChangesQuery');

const operations: Operation<Deps>[] = [
  {
    method: 'get',
    path: '/fulfilment-queue',
    access: { scope: 'shipments:write' },
    operationId: 'listFulfilmentQueue',
    tags: ['fulfilment'],
    summary: 'Paid orders waiting to ship, oldest payment first',
    description: 'Needs shipments:write and a token that is not a customer\'s (403 otherwise, whatever its scopes). From the fulfilment-queue projection; the same paging and Consistency-Token rules as GET /orders.',
    parameters: [
      ...queryParameters('PageQuery', ['limit', 'cursor']),
      consistencyToken,
    ],
    responses: {
      '200': { description: 'A page of the queue.', headers: { ...commonHeaders, ...rateLimitHeaders, Link: headerRef('Link'), 'Consistency-Token': headerRef('Collection-Consistency-Token') }, content: json(ref('QueuePage')) },
      ...authProblems,
    },
    async handle(ctx, { queries, waiting }) {
      const query = validQueueQuery(ctx.query);
      const consistencyToken = ctx.get('Consistency-Token');
      const page = await holdingSlotIf(waiting, ctx.state.principal, consistencyToken !== '', () =>
        queries.listQueue(ctx.state.principal, { limit: query.limit, ...(query.cursor ? { cursor: query.cursor } : {}), consistencyToken }),
      );
      if (page.nextCursor) ctx.set('Link', `</fulfilment-queue?${new URLSearchParams({ limit: String(query.limit), cursor: page.nextCursor })}>; rel="next"`);
      ctx.set('Consistency-Token', page.reflects);
      ctx.body = {
        items: page.items.map(({ orderId, customerId, currency, total, lines, address, paidAt, revision }) => ({ orderId, customerId, currency, total, lines, address, paidAt, revision })),
        nextCursor: page.nextCursor,
      };
    },
  },
  {
    method: 'get',
    path: '/fulfilment-queue/changes',
    access: { scope: 'shipments:write' },
    operationId: 'followFulfilmentQueue',
    tags: ['fulfilment'],
    summary: 'Changes of the queue: an order entered (paid) or left (shipped, cancelled)',
    description:
      'Needs shipments:write and a token that is not a customer\'s (403 otherwise, whatever its scopes). A JSON long-poll: the changes after `after`, waiting up to `wait` seconds for one; continue with `next`. ' +
      'The changes are recorded by the fulfilment-queue projection: send a write\'s Consistency-Token to wait (up to 5 s) until its changes are included. An `after` or Last-Event-ID beyond the end of the log is a 400. ' +
      'With Accept: text/event-stream the same URL answers Server-Sent Events instead, described in x-event-stream (OpenAPI 3.1 has one 200 per operation; the stream is kept out of it so that a generated client reads the long-poll\'s JSON as it is): ' +
      'each change an event named entered or left whose id is its log position and whose data is a QueueChange; reconnecting with Last-Event-ID resumes right after it (at least once); a comment line every 15 s keeps idle connections open.',
    parameters: [
      ...queryParameters('ChangesQuery', ['after', 'wait', 'limit']),
      { name: 'Last-Event-ID', in: 'header', required: false, description: 'Server-Sent Events: the id of the last event handled (takes the place of `after`).', schema: { type: 'string', pattern: '^[0-9a-f]{32}$' } },
      consistencyToken,
    ],
    responses: {
      '200': { description: 'The changes after `after` (none when `wait` passed without one).', headers: { ...commonHeaders, ...rateLimitHeaders }, content: json(ref('QueueChanges')) },
      ...authProblems,
    },
    extensions: {
      'x-event-stream': {
        description: 'Accept: text/event-stream: the changes as Server-Sent Events, from `after` (or Last-Event-ID) on, for as long as the client stays.',
        headers: {
          ...commonHeaders,
          ...rateLimitHeaders,
          'Cache-Control': header('no-cache, no-transform', { type: 'string' }, true),
          'X-Accel-Buffering': header('no: proxies must not buffer the stream', { type: 'string' }, true),
        },
        content: { 'text/event-stream': { schema: { type: 'string' } } },
        'x-events': { entered: ref('QueueChange'), left: ref('QueueChange') },
      },
    },
    async handle(ctx, deps) {
      const query = validChangesQuery(ctx.query);
      const lastEventId = ctx.get('Last-Event-ID');
      const start: FeedStart = lastEventId ? { after: lastEventId, from: 'last-event-id' } : query.after !== undefined ? { after: query.after, from: 'after' } : {};
      if (ctx.accepts('application/json', 'text/event-stream') === 'text/event-stream') return streamEvents(ctx, deps, start);
      await longPoll(ctx, deps, start, query.wait, query.limit);
    },
  },
];

export const fulfilmentArea = area<FulfilmentDeps, Deps, typeof fulfilmentSchemas>({
  schemas: fulfilmentSchemas,
  tags: [{ name: 'fulfilment', description: 'The fulfilment queue and its changes' }],
  operations,
  deps: ({ queries, waiting }, own) => own && { ...own, queries, waiting },
});

/** JSON long-poll: the changes after the start, waiting up to `wait` seconds for the first. */
async function longPoll(ctx: Context, { feed, waiting }: Deps, start: FeedStart, wait: number, limit: number): Promise<void> {
  const abort = new AbortController();
  const stop = () => abort.abort();
  ctx.req.once('close', stop);
  if (wait > 0) ctx.state.longPoll = true;
  const consistencyToken = ctx.get('Consistency-Token');
  try {
    const page = await holdingSlotIf(waiting, ctx.state.principal, wait > 0 || consistencyToken !== '', () =>
      feed.read(ctx.state.principal, start, { limit, waitMs: wait * 1000, signal: abort.signal, consistencyToken }),
    );
    ctx.body = { changes: page.changes, next: page.next };
  } finally {
    ctx.req.off('close', stop);
  }
}

/** Server-Sent Events: every change with its position as the event id, heartbeats while idle. */
async function streamEvents(ctx: Context, { feed, waiting, heartbeatMs = 15_000 }: Deps, start: FeedStart): Promise<void> {
  const release = waiting.enter(ctx.state.principal);
  const abort = new AbortController();
  // Refused (a customer token, a position beyond the log) before the stream begins.
  const changes = await feed.follow(ctx.state.principal, start, abort.signal).catch((error: unknown) => {
    release();
    throw error;
  });
  const stream = new PassThrough();
  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.status = 200;
  ctx.set('Content-Type', 'text/event-stream; charset=utf-8');
  ctx.set('Cache-Control', 'no-cache, no-transform');
  ctx.set('X-Accel-Buffering', 'no');
  ctx.body = stream;
  stream.write(`retry: 1000\n: following the fulfilment queue\n\n`);
  const heartbeat = setInterval(() => stream.write(`: heartbeat ${new Date().toISOString()}\n\n`), heartbeatMs);
  const finish = () => {
    release();
    clearInterval(heartbeat);
    abort.abort();
    stream.end();
  };
  ctx.req.once('close', finish);
  void (async () => {
    try {
      for await (const change of changes) {
        stream.write(`id: ${change.position}\nevent: ${change.change}\ndata: ${JSON.stringify(change)}\n\n`);
      }
    } catch (error) {
      ctx.state.log.warn({ err: error }, 'queue changes stream failed');
    } finally {
      finish();
    }
  })();
}
