// The short chaos run of `npm test`: three SIGKILLs under load (`npm run chaos` does twenty).
import { describe, expect, it } from 'vitest';
import { runChaos } from './chaos.js';

describe('chaos', () => {
  it('loses nothing acknowledged, does nothing twice, delivers every acknowledged write as a webhook and leaves no byte of an erased customer across 3 SIGKILLs under load', async () => {
    const seed = Date.now() % 1_000_000;
    const result = await runChaos({ kills: 3, clients: 4, seed, webhookWaitMs: 90_000 });
    const failures = result.checks.filter((c) => !c.passed).map((c) => `${c.name}: ${c.detail}`);
    expect(failures, `seed ${seed}`).toEqual([]);
    expect(result.checks.length).toBeGreaterThanOrEqual(12);
    expect(result.stats.acknowledged).toBeGreaterThan(0);
    // Keys reused for other orders and operations were there to be checked.
    expect(result.stats.reusedKeys).toBeGreaterThan(0);
    // Customers were erased during the kills, and their markers looked for on disk.
    expect(result.stats.erasures).toBe(2);
    // The webhook receiver got a message for every acknowledged write that is a webhook event (the check above), all signed.
    expect(result.stats.webhookExpected).toBeGreaterThan(0);
    expect(result.stats.webhookMessages).toBeGreaterThanOrEqual(result.stats.webhookExpected);
    expect(result.stats.webhookBadSignatures).toBe(0);
  }, 180_000);
});
