// CORS: off unless origins are configured. An allowed origin may read the headers a client
// needs (ETag, Location, Link, the consistency and correlation headers) and send the ones the
// API takes; any other origin gets no CORS headers at all, so browsers keep it out.
import type { Middleware } from 'koa';
import { randomUUID } from 'node:crypto';
import { CORRELATION_ID } from './context.js';
import { DEFAULT_API_VERSION, requestedVersion, versionHeaders } from '../versions.js';

const ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key, If-Match, If-None-Match, Api-Version, X-Correlation-Id, Consistency-Token, Last-Event-ID';
const EXPOSED_HEADERS = 'ETag, Location, Link, Consistency-Token, X-Correlation-Id, Api-Version, Deprecation, Sunset, Idempotent-Replayed, Retry-After, RateLimit, RateLimit-Policy';

export function cors(origins: readonly string[]): Middleware {
  const allowed = new Set(origins);
  return async (ctx, next) => {
    const origin = ctx.get('Origin');
    if (allowed.size > 0) ctx.vary('Origin');
    if (origin === '' || !allowed.has(origin)) return next();
    ctx.set('Access-Control-Allow-Origin', origin);
    ctx.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method') !== '') {
      ctx.set('Access-Control-Allow-Methods', 'GET, POST, PATCH, OPTIONS');
      ctx.set('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      ctx.set('Access-Control-Max-Age', '600');
      // Answered before the request context runs: the headers every response carries are set here.
      const incoming = ctx.get('X-Correlation-Id');
      ctx.set({ 'X-Correlation-Id': CORRELATION_ID.test(incoming) ? incoming : randomUUID(), ...versionHeaders(requestedVersion(ctx.get('Api-Version')) ?? DEFAULT_API_VERSION) });
      ctx.status = 204;
      return;
    }
    await next();
  };
}
