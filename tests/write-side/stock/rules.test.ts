// The stock's rules: when a change of the available units is the fall that stock.low is about.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fellBelow } from '../../../write-side/stock/rules.js';

describe('fellBelow', () => {
  it('is a fall from the threshold or above to below it', () => {
    expect(fellBelow(5, 4, 5)).toBe(true);
    expect(fellBelow(20, 0, 3)).toBe(true);
    expect(fellBelow(6, 5, 5)).toBe(false);
    expect(fellBelow(9, 7, 5)).toBe(false);
  });

  it('is not a fall while available stays below the threshold', () => {
    expect(fellBelow(4, 3, 5)).toBe(false);
    expect(fellBelow(4, 0, 5)).toBe(false);
  });

  it('is a fall again once available rose to the threshold or above and falls below it again', () => {
    const levels = [10, 4, 2, 6, 5, 3, 1, 8, 0];
    const falls = levels.slice(1).map((after, i) => fellBelow(levels[i]!, after, 5));
    expect(falls).toEqual([true, false, false, false, true, false, false, true]);
  });

  it('never fires with a threshold of 0, whatever the levels (available is never below 0)', () =>
    fc.assert(fc.property(fc.nat(), fc.nat(), (before, after) => !fellBelow(before, after, 0))));

  it('never fires on an increase or no change, whatever the threshold', () =>
    fc.assert(fc.property(fc.nat(), fc.nat(), fc.nat(), (before, more, threshold) => !fellBelow(before, before + more, threshold))));
});
