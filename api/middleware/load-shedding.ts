// Load shedding: past `maxInFlight` requests at once, the excess is answered at once with 503
// and Retry-After, instead of queueing until every request times out.
//
// It stands in front of everything else, and a shed request costs as little as it can: no
// token check, no routing, no log line of its own (a flood would drown the log, and writing it
// would take the CPU the admitted requests need). The metric counts every shed request, and
// one warning line at most every 10 s says how many were shed since the last.
import type { Middleware } from 'koa';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { CORRELATION_ID } from './context.js';
import { DEFAULT_API_VERSION, requestedVersion, versionHeaders } from '../versions.js';
import { PROBLEM_BASE, PROBLEM_TITLES } from '../problem.js';

/** Operational routes are never shed: a probe must see the instance, busy or not. */
const EXEMPT = /^\/(health\/|metrics$|openapi\.json$)/;
const LOG_EVERY_MS = 10_000;

export interface LoadSheddingOptions {
  readonly maxInFlight: number;
  readonly logger: Logger;
  readonly onShed?: () => void;
}

export function loadShedding({ maxInFlight, logger, onShed }: LoadSheddingOptions): Middleware {
  let inFlight = 0;
  let unlogged = 0;
  let loggedAt = 0;
  return async (ctx, next) => {
    if (EXEMPT.test(ctx.path)) return next();
    if (inFlight >= maxInFlight) {
      onShed?.();
      unlogged++;
      if (Date.now() - loggedAt >= LOG_EVERY_MS) {
        logger.warn({ shed: unlogged, maxInFlight }, 'at capacity: requests shed with 503 since the last such line');
        unlogged = 0;
        loggedAt = Date.now();
      }
      const incoming = ctx.get('X-Correlation-Id');
      const correlationId = CORRELATION_ID.test(incoming) ? incoming : randomUUID();
      ctx.status = 503;
      ctx.set({ 'Retry-After': '1', 'X-Correlation-Id': correlationId, ...versionHeaders(requestedVersion(ctx.get('Api-Version')) ?? DEFAULT_API_VERSION) });
      ctx.type = 'application/problem+json; charset=utf-8';
      ctx.body = JSON.stringify({
        type: `${PROBLEM_BASE}unavailable`,
        title: PROBLEM_TITLES.unavailable,
        status: 503,
        detail: 'The service is at capacity; retry shortly.',
        instance: ctx.path,
        correlationId,
      });
      return;
    }
    inFlight++;
    try {
      await next();
    } finally {
      inFlight--;
    }
  };
}
