// The fulfilment queue for the fulfilment side: the paid orders waiting to ship, oldest payment
// first, and a feed of its changes as Server-Sent Events or as a JSON long-poll.
import Router from '@koa/router';
import type { Context } from 'koa';
import { PassThrough } from 'node:stream';
import type { OrderQueries } from '../../read-side/orders/queries.js';
import type { FeedStart, QueueFeed } from '../../read-side/orders/queue-feed.js';
import { requireScope } from '../middleware/auth.js';
import { queryValidator } from '../validation.js';
import { holdingSlotIf, type WaitingRequests } from '../waiting.js';

export interface FulfilmentRoutesDeps {
  readonly queries: OrderQueries;
  readonly feed: QueueFeed;
  readonly waiting: WaitingRequests;
  readonly heartbeatMs?: number;
}

const validQueueQuery = queryValidator<{ limit: number; cursor?: string }>('PageQuery');
const validChangesQuery = queryValidator<{ after?: string; wait: number; limit: number }>('ChangesQuery');

export function fulfilmentRoutes(deps: FulfilmentRoutesDeps): Router {
  const { queries, feed, waiting } = deps;
  const heartbeatMs = deps.heartbeatMs ?? 15_000;
  const router = new Router();

  router.get('/fulfilment-queue', requireScope('shipments:write'), async (ctx) => {
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
  });

  router.get('/fulfilment-queue/changes', requireScope('shipments:write'), async (ctx) => {
    const query = validChangesQuery(ctx.query);
    const lastEventId = ctx.get('Last-Event-ID');
    const start: FeedStart = lastEventId ? { after: lastEventId, from: 'last-event-id' } : query.after !== undefined ? { after: query.after, from: 'after' } : {};
    if (ctx.accepts('application/json', 'text/event-stream') === 'text/event-stream') return streamEvents(ctx, start);
    await longPoll(ctx, start, query.wait, query.limit);
  });

  /** JSON long-poll: the changes after the start, waiting up to `wait` seconds for the first. */
  async function longPoll(ctx: Context, start: FeedStart, wait: number, limit: number): Promise<void> {
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
  async function streamEvents(ctx: Context, start: FeedStart): Promise<void> {
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

  return router;
}
