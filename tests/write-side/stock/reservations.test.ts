// The live reservations' persistent sorted map (write-side/stock/reservations.ts), against a plain
// Map: every version answers as the model did when it was made, whatever came after it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Reservations } from '../../../write-side/stock/reservations.js';

const sorted = (model: Map<string, number>): [string, number][] => [...model].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

function expectSame(map: Reservations, model: Map<string, number>, keys: readonly string[]): void {
  expect(map.size).toBe(model.size);
  expect([...map]).toEqual(sorted(model));
  expect(keys.map((key) => map.get(key))).toEqual(keys.map((key) => model.get(key)));
  expect(keys.map((key) => map.has(key))).toEqual(keys.map((key) => model.has(key)));
}

describe('the live reservations’ map', () => {
  it('answers as a plain map would, in every version of it, as it grows from nothing and shrinks to nothing', () => {
    // Up to 1,500 keys set one by one in any order (chunks of 128 split again and again), then
    // changed and removed in any order (chunks empty and merge), with other sets and removals between.
    const keys = Array.from({ length: 1500 }, (_, i) => `order-${String(i).padStart(4, '0')}`);
    const scenario = fc.integer({ min: 130, max: 1500 }).chain((n) =>
      fc.record({
        grow: fc.shuffledSubarray(keys, { minLength: n, maxLength: n }),
        shrink: fc.array(fc.record({ at: fc.nat(), value: fc.option(fc.integer({ min: 1, max: 1000 }), { freq: 2 }) }), { minLength: n, maxLength: 2 * n }),
      }),
    );
    fc.assert(
      fc.property(scenario, ({ grow, shrink }) => {
        let map = Reservations.EMPTY;
        const model = new Map<string, number>();
        const versions: Array<{ map: Reservations; model: Map<string, number> }> = [];
        const keep = () => versions.push({ map, model: new Map(model) });
        for (const [i, key] of grow.entries()) {
          map = map.set(key, i + 1);
          model.set(key, i + 1);
          if (i % 97 === 0) keep();
        }
        keep();
        for (const [i, { at, value }] of shrink.entries()) {
          // Mostly a key the map held (removed, or set anew); now and then any key.
          const key = grow.length > 0 && at % 5 !== 0 ? grow[at % grow.length]! : keys[at % keys.length]!;
          if (value === null) map = map.delete(key), model.delete(key);
          else map = map.set(key, value), model.set(key, value);
          if (i % 97 === 0) keep();
        }
        for (const [i, key] of [...model.keys()].entries()) {
          map = map.delete(key);
          model.delete(key);
          if (i % 97 === 0) keep();
        }
        keep();
        expect(map).toBe(Reservations.EMPTY);
        for (const version of versions) expectSame(version.map, version.model, keys);
      }),
      { numRuns: 25 },
    );
  });

  it('drops a leaf that empties between two full ones, and merges a small one with the neighbour it fits with', () => {
    const named = (prefix: string, from: number, to: number) => Array.from({ length: to - from }, (_, i) => `${prefix}${String(from + i).padStart(3, '0')}`);
    // Made in leaves of 64: a…, b…, c…; then the a and c leaves filled to 128 each, which do not split.
    let map = Reservations.of([...named('a', 0, 64), ...named('b', 0, 64), ...named('c', 0, 64)].map((key, i) => [key, i + 1] as [string, number]));
    const model = new Map(map);
    for (const key of [...named('a', 64, 128), ...named('c', 64, 128)]) map = map.set(key, 7), model.set(key, 7);
    // The b leaf, emptied: too full on either side to merge with, it goes when its last entry does.
    for (const key of named('b', 0, 64)) {
      map = map.delete(key);
      model.delete(key);
      expectSame(map, model, [key, 'a127', 'c000']);
    }
    expectSame(map, model, [...model.keys()]);
    // Then the a chunk, down to 68 entries, and the c chunk, down to a few: once c falls below a
    // quarter full beside an a it fits with, the two are one.
    for (const key of named('a', 0, 60)) map = map.delete(key), model.delete(key);
    for (const key of named('c', 0, 124)) {
      map = map.delete(key);
      model.delete(key);
      expectSame(map, model, [key, 'a060', 'a127', 'c127']);
    }
    expectSame(map, model, [...named('a', 0, 128), ...named('b', 0, 64), ...named('c', 0, 128)]);
  });

  it('grows to 30,000 entries and back to none (branches split, merge and give way), answering as a plain map would', () => {
    // Seeded shuffles, so that a failure is the same every run.
    fc.assert(
      fc.property(fc.shuffledSubarray(Array.from({ length: 30_000 }, (_, i) => `o-${String(i).padStart(5, '0')}`), { minLength: 30_000 }), fc.infiniteStream(fc.integer({ min: 1, max: 9 })), (keys, values) => {
        let map = Reservations.EMPTY;
        const model = new Map<string, number>();
        const kept: Array<{ map: Reservations; model: Map<string, number> }> = [];
        const sample = (i: number) => keys.filter((_, k) => k % 97 === i % 97);
        for (const [i, key] of keys.entries()) {
          const value = values.next().value as number;
          map = map.set(key, value);
          model.set(key, value);
          if (i % 3_000 === 0) kept.push({ map, model: new Map(model) }), expectSame(map, model, sample(i));
        }
        expectSame(map, model, keys);
        // Removed in another order than they came.
        for (const [i, key] of [...keys].reverse().sort((a, b) => (a.slice(-2) < b.slice(-2) ? -1 : a.slice(-2) > b.slice(-2) ? 1 : 0)).entries()) {
          map = map.delete(key);
          model.delete(key);
          if (i % 3_000 === 0) kept.push({ map, model: new Map(model) }), expectSame(map, model, sample(i));
        }
        expect(map).toBe(Reservations.EMPTY);
        for (const version of kept) expectSame(version.map, version.model, sample(1));
      }),
      { numRuns: 3, seed: 36 },
    );
  });

  it('is made from entries in any order, the last of a key given twice kept', () => {
    const map = Reservations.of([['b', 2], ['a', 1], ['c', 3], ['a', 4]]);
    expect([...map]).toEqual([['a', 4], ['b', 2], ['c', 3]]);
    expect(map.size).toBe(3);
  });

  it('leaves the map it was made from as it was, and returns it unchanged for a change that changes nothing', () => {
    const before = Reservations.of(Array.from({ length: 1000 }, (_, i) => [`k${i}`, 1] as [string, number]));
    const after = before.set('k5', 2).delete('k6').set('new', 1);
    expect([before.get('k5'), before.get('k6'), before.get('new'), before.size]).toEqual([1, 1, undefined, 1000]);
    expect([after.get('k5'), after.get('k6'), after.get('new'), after.size]).toEqual([2, undefined, 1, 1000]);
    expect(before.set('k5', 1)).toBe(before);
    expect(before.delete('absent')).toBe(before);
    expect(Reservations.EMPTY.delete('k')).toBe(Reservations.EMPTY);
    expect(before.set('only', 1).size).toBe(1001);
  });

  it('compares equal by its entries (as the tests’ toEqual on folded states needs)', () => {
    const grown = Reservations.EMPTY.set('b', 2).set('a', 1).set('c', 3).delete('c');
    expect(grown).toEqual(Reservations.of([['a', 1], ['b', 2]]));
    expect(grown).not.toEqual(Reservations.of([['a', 1], ['b', 3]]));
  });
});
