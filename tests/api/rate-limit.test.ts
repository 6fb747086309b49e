import type { Context } from 'koa';
import { describe, expect, it } from 'vitest';
import { rateLimit } from '../../api/middleware/rate-limit.js';
import { HttpProblem } from '../../api/problem.js';

describe('rate limit buckets', () => {
  it('keeps at most maxPrincipals buckets, dropping the least recently used (which comes back full)', async () => {
    const limit = rateLimit({ perSecond: 1, burst: 1, maxPrincipals: 2 }, () => 0); // the clock stands still: nothing refills
    const request = async (sub: string): Promise<number> => {
      const ctx = { state: { principal: { sub } }, set: () => {} } as unknown as Context;
      try {
        await limit(ctx, async () => {});
        return 200;
      } catch (error) {
        if (error instanceof HttpProblem) return error.status;
        throw error;
      }
    };
    expect(await request('alice')).toBe(200);
    expect(await request('bob')).toBe(200);
    expect(await request('alice')).toBe(429); // alice is now the most recently used
    expect(await request('carol')).toBe(200); // a third bucket: bob's, the least recently used, goes
    expect(await request('alice')).toBe(429); // kept
    expect(await request('bob')).toBe(200); // dropped, so full again (and carol's goes)
    expect(await request('alice')).toBe(429);
    expect(await request('carol')).toBe(200);
  });
});
