// The setup that stops a failing property's shrinking (property-limits.ts): it is in force in
// every test file, and a property stopped while shrinking still fails, with its counterexample.
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/** Holds the thread for `ms`: a property whose every run is slow, as one that starts a service is. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('the time limit on properties', () => {
  it('is configured for every test file, under the test timeout', () => {
    // Not imported here: only the setup file can have configured it.
    const limit = fc.readConfigureGlobal().interruptAfterTimeLimit;
    expect(limit).toBeGreaterThan(0);
    expect(limit).toBeLessThan(120_000);
  });

  it('stops a failing property in its shrinking and still reports it failed, with a counterexample', () => {
    // Every run fails and takes 300 ms (a property that starts a service can); its counterexample
    // of 500 integers shrinks through some 500 runs, about 150 s, so without the limit this check
    // would not return within the test timeout.
    let runs = 0;
    const started = performance.now();
    const result = fc.check(
      fc.property(fc.array(fc.integer(), { minLength: 500, maxLength: 500 }), () => {
        runs++;
        busy(300);
        return false;
      }),
      { interruptAfterTimeLimit: 1_000, seed: 42 },
    );
    expect(result.failed).toBe(true);
    expect(result.interrupted).toBe(true);
    expect(result.counterexample?.[0]).toHaveLength(500);
    expect(runs).toBeGreaterThan(1); // it was shrinking when stopped,
    expect(runs).toBeLessThan(100); // long before its end
    // Generous: the limit is 1 s; even with both cores busy, a stopped check returns well within this.
    expect(performance.now() - started).toBeLessThan(60_000);
  });
});
