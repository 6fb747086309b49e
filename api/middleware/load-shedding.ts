// Load shedding: past `maxInFlight` requests at once, the excess is answered at once with 503
// and Retry-After, instead of queueing until every request times out.
import type { Middleware } from 'koa';
import { HttpProblem } from '../problem.js';

export function loadShedding(maxInFlight: number): Middleware {
  let inFlight = 0;
  return async (_ctx, next) => {
    if (inFlight >= maxInFlight) {
      throw new HttpProblem(503, 'unavailable', 'The service is at capacity; retry shortly.', {}, { 'Retry-After': '1' });
    }
    inFlight++;
    try {
      await next();
    } finally {
      inFlight--;
    }
  };
}
