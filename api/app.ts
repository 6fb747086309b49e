// The Koa application factory. The listener lives elsewhere (bootstrap/main.ts), so tests
// drive the same app on port 0.
import Router from '@koa/router';
import Koa from 'koa';
import compose from 'koa-compose';
import type { Logger } from 'pino';
import type { TokenVerifier } from './auth.js';
import { areaProblems, mountAreas, tokenStandings, type AreaDeps } from './areas.js';
import { InFlight } from './idempotency.js';
import type { Metrics } from './metrics.js';
import { authenticate } from './middleware/auth.js';
import { cors } from './middleware/cors.js';
import { loadShedding } from './middleware/load-shedding.js';
import { requestContext } from './middleware/context.js';
import { rateLimit, type RateLimitOptions } from './middleware/rate-limit.js';
import { adminAppRoutes } from './admin-app.js';
import { openApiDocument } from './openapi.js';
import type { CoreDeps } from './operation.js';
import { HttpProblem } from './problem.js';
import { WaitingRequests } from './waiting.js';

/** The app's dependencies: the core every deployment has, each area's own (AreaDeps, from api/areas.ts), and the app's settings. */
export interface AppDeps extends CoreDeps, AreaDeps {
  readonly auth: TokenVerifier;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** Resolves when the stores answer and the projections have caught up once. */
  readonly checkReady: () => Promise<void>;
  readonly rateLimit?: RateLimitOptions;
  readonly requestTimeoutMs?: number;
  /** Requests served at once before the excess is shed with 503; unlimited when unset. */
  readonly maxInFlight?: number;
  /** Origins allowed to call from a browser; none by default. */
  readonly corsOrigins?: readonly string[];
  /** Requests of one principal that may wait at once (long-polls, SSE, Consistency-Token reads); 16 by default. */
  readonly waitingPerPrincipal?: number;
  /** The administration app's build (admin/dist), served at /admin; not served when unset. */
  readonly adminAppDir?: string;
}

export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  // Errors after the response began (a client gone while a stream was written) end up here.
  app.on('error', (error: NodeJS.ErrnoException) => {
    const gone = error.code === 'ERR_STREAM_PREMATURE_CLOSE' || error.code === 'ECONNRESET' || error.code === 'EPIPE';
    deps.logger[gone ? 'debug' : 'error']({ err: error }, gone ? 'client went away mid-response' : 'error after the response began');
  });
  // First, so that every answer a browser gets is readable, a shed one included. Without allowed
  // origins CORS answers nothing, so it is not mounted at all.
  if ((deps.corsOrigins ?? []).length > 0) app.use(cors(deps.corsOrigins ?? []));
  if (deps.maxInFlight !== undefined) app.use(loadShedding({ maxInFlight: deps.maxInFlight, logger: deps.logger, onShed: deps.metrics.onShed }));
  app.use(deps.metrics.middleware);
  app.use(requestContext(deps.logger, areaProblems()));

  const operations = new Router();
  operations.get('/health/live', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  operations.get('/health/ready', async (ctx) => {
    try {
      await deps.checkReady();
      ctx.body = { status: 'ok' };
    } catch (error) {
      ctx.status = 503;
      ctx.set('Retry-After', '1');
      ctx.body = { status: 'unavailable', reason: error instanceof Error ? error.message : 'not ready' };
    }
  });
  operations.get('/metrics', async (ctx) => {
    ctx.type = deps.metrics.registry.contentType;
    ctx.body = await deps.metrics.registry.metrics();
  });
  const document = openApiDocument();
  operations.get('/openapi.json', (ctx) => {
    ctx.body = document;
  });
  app.use(ownPathsOnly(operations));
  // The administration app needs no token: it signs in through the API.
  if (deps.adminAppDir) app.use(ownPathsOnly(adminAppRoutes(deps.adminAppDir)));

  // Sign-in needs no token: its own router, in front of the API's token check, like the operations'.
  const signIn = new Router();
  const api = new Router();
  // One router layer for all the guards: the router matches and prepares every layer it runs
  // for every request, so three layers cost three times what one does.
  api.use(compose([authenticate(deps.auth, tokenStandings(deps)), rateLimit(deps.rateLimit ?? { perSecond: 100, burst: 200 }), timeout(deps.requestTimeoutMs ?? 10_000)]));
  mountAreas(signIn, api, { ...deps, inFlight: new InFlight(), waiting: new WaitingRequests(deps.waitingPerPrincipal) }, deps);
  if (signIn.stack.length > 0) {
    const signInRoutesMw = compose([timeout(deps.requestTimeoutMs ?? 10_000), signIn.routes() as unknown as Koa.Middleware, signIn.allowedMethods() as unknown as Koa.Middleware]);
    const serves = servesPath(signIn);
    app.use(Object.assign((ctx: Koa.Context, next: Koa.Next) => (serves(ctx.path) ? signInRoutesMw(ctx, next) : next()), { router: signIn }));
  }
  app.use(api.routes());
  app.use(api.allowedMethods());
  return app;
}

/**
 * A router that needs no token, run only for requests to its own paths. For any other path it
 * matches nothing, and its allowed-methods pass agrees with the API router's, which runs anyway.
 * Tagged with its router, as the router's own middleware is, so that the route list can be read off the app.
 */
function ownPathsOnly(router: Router): Koa.Middleware {
  // Both are Koa middleware; the router's types only disagree on what the context holds.
  const routes = compose([router.routes() as unknown as Koa.Middleware, router.allowedMethods() as unknown as Koa.Middleware]);
  const serves = servesPath(router);
  return Object.assign((ctx: Koa.Context, next: Koa.Next) => (serves(ctx.path) ? routes(ctx, next) : next()), { router });
}

/**
 * Whether one of the router's layers matches the path. Every request passes the routers in front
 * of the API's: their layers' first path segments (static in each of them) are compared first,
 * so that a request for another path skips their pattern matching. Compared in lower case, as
 * the router matches; a router with a parameter in a first segment is matched in full.
 */
function servesPath(router: Router): (path: string) => boolean {
  const matches = (path: string) => router.stack.some((layer) => layer.match(path));
  const firsts = new Set<string>();
  for (const layer of router.stack) {
    const first = typeof layer.path === 'string' ? /^\/([^/:(*?]*)(?:\/|$)/.exec(layer.path) : null;
    if (!first) return matches;
    firsts.add(first[1]!.toLowerCase());
  }
  return (path) => {
    const end = path.indexOf('/', 1);
    return firsts.has((end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase()) && matches(path);
  };
}

/**
 * Answers 503 when the work takes too long; the work itself finishes (or fails) unobserved.
 * Every request gets the same limit, so deadlines fall due in arrival order: one queue and one
 * timer serve all requests, instead of a timer, a second promise and a race for each.
 */
function timeout(ms: number): Koa.Middleware {
  interface Deadline {
    readonly at: number;
    /** The request, and how to cut it short; both null once its work has settled, so that the queue holds on to nothing. */
    ctx: Koa.Context | null;
    reject: ((error: HttpProblem) => void) | null;
  }
  let queue: Deadline[] = [];
  let head = 0;
  let timer: NodeJS.Timeout | null = null;

  function arm(now: number): void {
    // Settled requests leave the queue from its front; they mostly finish in arrival order.
    while (head < queue.length && queue[head]!.reject === null) head++;
    if (head >= 256) {
      queue = queue.slice(head);
      head = 0;
    }
    if (timer === null && head < queue.length) {
      timer = setTimeout(sweep, Math.max(0, queue[head]!.at - now));
      timer.unref();
    }
  }
  function sweep(): void {
    timer = null;
    const now = performance.now();
    while (head < queue.length && queue[head]!.at <= now) {
      const { ctx, reject } = queue[head++]!;
      // A long-poll sets its own time limit; the others are cut here.
      if (ctx && reject && !ctx.state.longPoll) {
        reject(new HttpProblem(503, 'unavailable', 'The request took too long; retry it (with the same Idempotency-Key).', {}, { 'Retry-After': '1' }));
      }
    }
    arm(now);
  }

  return (ctx, next) =>
    new Promise<void>((resolve, reject) => {
      const now = performance.now();
      const deadline: Deadline = { at: now + ms, ctx, reject };
      queue.push(deadline);
      arm(now);
      next().then(
        () => {
          deadline.ctx = deadline.reject = null;
          resolve();
        },
        (error: unknown) => {
          deadline.ctx = deadline.reject = null;
          reject(error);
        },
      );
    });
}
