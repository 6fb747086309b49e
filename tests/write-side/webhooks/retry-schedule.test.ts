// The delivery retry schedule (rules.ts): an injected random source, no clock read, no sleeping.
import { describe, expect, it } from 'vitest';
import { DISABLE_AFTER_FAILING_MS, nextAttemptAt, RETRY_FOR_MS, RETRY_SCHEDULE_MS, shouldDisable } from '../../../write-side/webhooks/rules.js';

const first = new Date('2027-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(first.getTime() + ms);
const S = 1000;
const M = 60 * S;
const H = 60 * M;

describe('the webhook retry schedule', () => {
  it('waits 5 s, 1 min, 5 min, 30 min, 2 h, 8 h, then every 12 h (the nominal times, with the jitter at its top)', () => {
    const top = () => 1;
    const waits = [5 * S, 1 * M, 5 * M, 30 * M, 2 * H, 8 * H, 12 * H, 12 * H, 12 * H, 12 * H, 12 * H];
    expect(RETRY_SCHEDULE_MS).toEqual(waits.slice(0, 6));
    let nominal = 0;
    waits.forEach((wait, i) => {
      nominal += wait;
      expect(nextAttemptAt(first, i + 1, top)).toEqual(at(nominal));
    });
  });

  it('fails the delivery for good after 12 attempts, about 3 days after the first', () => {
    const attempts: Date[] = [first];
    for (let made = 1; ; made++) {
      const next = nextAttemptAt(first, made, () => 0.5);
      if (next === null) break;
      attempts.push(next);
    }
    expect(attempts).toHaveLength(12);
    const last = attempts.at(-1)!.getTime() - first.getTime();
    expect(last).toBeGreaterThan(60 * H);
    expect(last).toBeLessThanOrEqual(RETRY_FOR_MS);
    expect(nextAttemptAt(first, 12, () => 0)).toBeNull();
  });

  it('uses equal jitter: each wait is between its half and its whole, and attempts never come out of order', () => {
    expect(nextAttemptAt(first, 1, () => 0)).toEqual(at(2.5 * S));
    expect(nextAttemptAt(first, 2, () => 0)).toEqual(at(5 * S + 30 * S));
    expect(nextAttemptAt(first, 2, () => 0.999999)!.getTime()).toBeLessThanOrEqual(at(65 * S).getTime());
    for (let made = 1; made < 11; made++) {
      expect(nextAttemptAt(first, made, () => 0.999999)!.getTime()).toBeLessThan(nextAttemptAt(first, made + 1, () => 0)!.getTime());
    }
  });

  it('refuses a count of attempts below 1', () => {
    expect(() => nextAttemptAt(first, 0, () => 0)).toThrow(RangeError);
  });

  it('disables a subscription failing for 3 days, not one that succeeded last or fails for less', () => {
    expect(shouldDisable(null, at(10 * DISABLE_AFTER_FAILING_MS))).toBe(false);
    expect(shouldDisable(first, at(DISABLE_AFTER_FAILING_MS - 1))).toBe(false);
    expect(shouldDisable(first, at(DISABLE_AFTER_FAILING_MS))).toBe(true);
  });
});
