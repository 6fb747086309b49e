// The short chaos run on the scaled-out topology: SIGKILLs spread over the API processes, the
// projectors and the export worker (`npm run chaos -- --topology scaled` does twenty).
import { describe, expect, it } from 'vitest';
import { runChaos } from './chaos.js';

describe('chaos, scaled out', () => {
  it('loses nothing acknowledged and does nothing twice across 3 SIGKILLs of the scaled-out processes', async () => {
    const seed = Date.now() % 1_000_000;
    const lines: string[] = [];
    const result = await runChaos({ kills: 3, clients: 4, seed, topology: 'scaled', log: (line) => lines.push(line) });
    const failures = result.checks.filter((c) => !c.passed).map((c) => `${c.name}: ${c.detail}`);
    expect(failures, `seed ${seed}`).toEqual([]);
    expect(result.checks.length).toBeGreaterThanOrEqual(12);
    expect(result.stats.acknowledged).toBeGreaterThan(0);
    expect(lines.filter((line) => /^kill \d+\/3: (api|projector|worker)/.test(line))).toHaveLength(3);
  }, 300_000);
});
