import { describe, expect, it } from 'vitest';
import { progressReporter } from '../../bootstrap/progress.js';

function fakeOutput(isTTY: boolean) {
  const writes: string[] = [];
  return { output: { isTTY, write: (t: string) => writes.push(t) }, writes };
}

describe('progress reporting', () => {
  it('redraws one bar with events done, events/s and time left on a terminal', () => {
    let t = 0;
    const { output, writes } = fakeOutput(true);
    const progress = progressReporter('order-views', output, { now: () => t });
    t = 2000;
    progress.update(100_000, 0.25);
    t = 4000;
    progress.update(200_000, 0.5);
    progress.finish();
    expect(writes[0]).toBe('\rorder-views [########......................]  25.0%  100,000 events  50,000 events/s  6 s left  ');
    expect(writes[1]).toContain('[###############...............]  50.0%  200,000 events  50,000 events/s  4 s left');
    expect(writes.at(-1)).toBe('\n');
  });

  it('prints plain lines, at most one per interval, elsewhere', () => {
    let t = 0;
    const { output, writes } = fakeOutput(false);
    const progress = progressReporter('order-views', output, { now: () => t, everyMs: 2000 });
    for (t = 1000; t <= 6000; t += 500) progress.update(t * 10, t / 10_000);
    progress.finish();
    expect(writes).toHaveLength(3);
    for (const line of writes) expect(line).toMatch(/^order-views: +\d+\.\d% +[\d,]+ events +[\d,]+ events\/s +\d+ s left\n$/);
    expect(writes.join('')).not.toContain('\r');
  });
});
