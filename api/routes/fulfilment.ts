// The fulfilment queue for the fulfilment side: the paid orders waiting to ship, oldest payment
// first, and a feed of its changes as Server-Sent Events or as a JSON long-poll.
import Router from '@koa/router';
import type { Context } from 'koa';
import { PassThrough } from 'node:stream';
import type { QueueChanges } from '../../projections/queue-changes.js';
import type { OrderQueries } from '../../read-side/order-queries.js';
import type { Position } from '../../write-side/event-store.js';
import { requireStaff } from '../../write-side/access.js';
import { encodePosition, parsePosition } from '../../write-side/position.js';
import { requireScope } from '../middleware/auth.js';
import { HttpProblem, validationFailed } from '../problem.js';
import { queryValidator } from '../validation.js';
import type { WaitingRequests } from '../waiting.js';
import type { Consistency } from './orders.js';

export interface FulfilmentRoutesDeps {
  readonly queries: OrderQueries;
  readonly changes: QueueChanges;
  /** The fulfilment-queue projection's progress. */
  readonly queueConsistency: Consistency;
  readonly waiting: WaitingRequests;
  readonly heartbeatMs?: number;
  readonly consistencyWaitMs?: number;
}

const validQueueQuery = queryValidator<{ limit: number; cursor?: string }>('PageQuery');
const validChangesQuery = queryValidator<{ after?: string; wait: number; limit: number }>('ChangesQuery');

export function fulfilmentRoutes(deps: FulfilmentRoutesDeps): Router {
  const { queries, changes, queueConsistency } = deps;
  const heartbeatMs = deps.heartbeatMs ?? 15_000;
  const router = new Router();

  router.get('/fulfilment-queue', requireScope('shipments:write'), async (ctx) => {
    requireStaff(ctx.state.principal, 'read the fulfilment queue: it holds every customer\'s orders');
    const query = validQueueQuery(ctx.query);
    const token = ctx.get('Consistency-Token');
    if (token !== '') {
      const position = parsePosition(token);
      if (!position) throw validationFailed([{ pointer: '/headers/consistency-token', message: 'is not a consistency token of this service' }]);
      const release = deps.waiting.enter(ctx.state.principal);
      const reached = await queueConsistency.waitFor(position, deps.consistencyWaitMs ?? 5000).finally(release);
      if (!reached) {
        throw new HttpProblem(503, 'unavailable', 'The queue has not caught up with that write yet; retry shortly.', {}, { 'Retry-After': '1' });
      }
    }
    const reflects = queueConsistency.position ?? encodePosition(0n);
    const page = await queries.listQueue({ limit: query.limit, ...(query.cursor ? { cursor: query.cursor } : {}) });
    if (page.nextCursor) ctx.set('Link', `</fulfilment-queue?${new URLSearchParams({ limit: String(query.limit), cursor: page.nextCursor })}>; rel="next"`);
    ctx.set('Consistency-Token', reflects);
    ctx.body = {
      items: page.items.map(({ orderId, customerId, currency, total, lines, address, paidAt, revision }) => ({ orderId, customerId, currency, total, lines, address, paidAt, revision })),
      nextCursor: page.nextCursor,
    };
  });

  router.get('/fulfilment-queue/changes', requireScope('shipments:write'), async (ctx) => {
    requireStaff(ctx.state.principal, 'follow the fulfilment queue: it holds every customer\'s orders');
    const query = validChangesQuery(ctx.query);
    const lastEventId = ctx.get('Last-Event-ID');
    const from = lastEventId || query.after;
    const after = from ? parsePosition(from) : null;
    if (from && !after) throw validationFailed([{ pointer: lastEventId ? '/headers/last-event-id' : '/after', message: 'is not a position of this feed' }]);
    if (ctx.accepts('application/json', 'text/event-stream') === 'text/event-stream') return streamEvents(ctx, after);
    await longPoll(ctx, after, query.wait, query.limit);
  });

  /** JSON long-poll: the changes after `after`, waiting up to `wait` seconds for the first. */
  async function longPoll(ctx: Context, after: Position | null, wait: number, limit: number): Promise<void> {
    let page = await changes.read(after, limit);
    if (page.changes.length === 0 && wait > 0) {
      const release = deps.waiting.enter(ctx.state.principal);
      ctx.state.longPoll = true;
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(), wait * 1000);
      ctx.req.once('close', () => abort.abort());
      try {
        for await (const first of changes.follow(page.next, abort.signal)) {
          page = { changes: [first], next: first.position };
          break;
        }
      } finally {
        clearTimeout(timer);
        abort.abort();
        release();
      }
    }
    ctx.body = { changes: page.changes, next: page.next };
  }

  /** Server-Sent Events: every change with its position as the event id, heartbeats while idle. */
  function streamEvents(ctx: Context, after: Position | null): void {
    const release = deps.waiting.enter(ctx.state.principal);
    const stream = new PassThrough();
    const abort = new AbortController();
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
        for await (const change of changes.follow(after, abort.signal)) {
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
