// The Consistency-Token wait hurries the projector for the position it waits for: a reader held
// up for its own write does not wait out a batch gathered under load. A follower does not.
import { describe, expect, it } from 'vitest';
import { Consistency, type ProjectionProgress } from '../../../read-side/kernel/consistency.js';
import { comparePositions, encodePosition } from '../../../write-side/kernel/position.js';
import type { Position } from '../../../write-side/kernel/event-store.js';

/** Views at `at`, moved to the furthest position hurried for; it records each hurry. */
function progressAt(at: bigint) {
  const hurried: Array<[Position, number]> = [];
  let position: Position = encodePosition(at);
  const progress: ProjectionProgress = {
    get position() {
      return position;
    },
    waitFor: async (wanted) => comparePositions(position, wanted) >= 0,
    hurry: (wanted, forMs) => {
      hurried.push([wanted, forMs]);
      position = wanted;
    },
  };
  return { progress, hurried };
}

describe('the Consistency-Token wait', () => {
  it('hurries the views to a token they have not reached, for as long as it waits', async () => {
    const { progress, hurried } = progressAt(10n);
    const token = encodePosition(20n);
    await expect(new Consistency(progress, 'collections', 5_000).reflect(token)).resolves.toBe(token);
    expect(hurried).toEqual([[token, 5_000]]);
  });

  it('does not hurry for a token the views include, nor for a follower waiting for the next change', async () => {
    const { progress, hurried } = progressAt(10n);
    const consistency = new Consistency(progress, 'collections', 5_000);
    await consistency.reflect(encodePosition(5n));
    await consistency.reflect(undefined);
    await consistency.waitPast(encodePosition(10n), 10);
    expect(hurried).toEqual([]);
  });
});
