// Per-principal token buckets: `burst` requests at once, refilled at `perSecond`. Answers with
// the RateLimit and RateLimit-Policy fields of draft-ietf-httpapi-ratelimit-headers, and 429
// with Retry-After when the bucket is empty.
import type { Middleware } from 'koa';
import { LRUCache } from 'lru-cache';
import { HttpProblem } from '../problem.js';

export interface RateLimitOptions {
  readonly perSecond: number;
  readonly burst: number;
  /** Buckets kept at most; the least recently used are dropped first (a dropped bucket is full). */
  readonly maxPrincipals?: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export function rateLimit(options: RateLimitOptions, now: () => number = () => performance.now()): Middleware {
  const { perSecond, burst } = options;
  const maxPrincipals = options.maxPrincipals ?? 100_000;
  const buckets = new LRUCache<string, Bucket>({ max: maxPrincipals });
  const window = Math.max(1, Math.round(burst / perSecond));
  const policy = `"default";q=${burst};w=${window}`;

  return (ctx, next) => {
    const key = ctx.state.principal.sub;
    const t = now();
    let bucket = buckets.get(key);
    if (!bucket) buckets.set(key, (bucket = { tokens: burst, at: t }));
    bucket.tokens = Math.min(burst, bucket.tokens + ((t - bucket.at) / 1000) * perSecond);
    bucket.at = t;

    ctx.set('RateLimit-Policy', policy);
    if (bucket.tokens < 1) {
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
      ctx.set('RateLimit', `"default";r=0;t=${retryAfter}`);
      return Promise.reject(new HttpProblem(429, 'rate-limited', 'Too many requests; slow down.', {}, { 'Retry-After': String(retryAfter) }));
    }
    bucket.tokens -= 1;
    ctx.set('RateLimit', `"default";r=${Math.floor(bucket.tokens)};t=${Math.ceil((burst - bucket.tokens) / perSecond)}`);
    return next();
  };
}
