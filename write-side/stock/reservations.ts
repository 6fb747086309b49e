// A SKU's live reservations (order id → a count), as a persistent sorted map.
//
// Each fold of a SKU makes a new state and leaves every earlier one as it was (the service keeps
// folds between commands and decides on them while an append is under way). So a change must not
// copy the whole map: a hot SKU holding many reservations would pay for each of them at every sale.
//
// Entries sit in sorted runs ("chunks") of at most CHUNK_MAX, found by binary search over each
// chunk's first key. A change copies the one chunk it touches and the list of chunks (a SKU with a
// few hundred reservations has a few chunks; one with ten thousand, a list of about a hundred). A
// fold holds a live reservation in some 88 bytes with its UUID key (two array slots and the key),
// against 208 in immutable's Map (a hash array mapped trie: a node, a two-element array and the key
// per entry), which mattered at a million orders, where the kept folds held a million of them. A
// snapshot's entries come back sorted as they were written, so decoding one sorts nothing and
// hashes nothing.

/** The most entries a chunk holds; a fuller one is split in two. */
const CHUNK_MAX = 128;
/** A chunk that falls below this is merged with a neighbour (the next, else the previous) when both fit in one. */
const CHUNK_MIN = 32;

interface Chunk {
  readonly keys: readonly string[];
  readonly values: readonly number[];
}

export class Reservations implements Iterable<[string, number]> {
  static readonly EMPTY = new Reservations([], [], 0);

  /** Never changed once made: every change makes new arrays where it differs, and shares the rest. */
  readonly #chunks: readonly Chunk[];
  /** Each chunk's first key, in order: where a key's chunk is found. */
  readonly #firsts: readonly string[];
  readonly #size: number;

  private constructor(chunks: readonly Chunk[], firsts: readonly string[], size: number) {
    this.#chunks = chunks;
    this.#firsts = firsts;
    this.#size = size;
  }

  /** The map of these entries; a key given twice keeps its last value. */
  static of(entries: Iterable<readonly [string, number]>): Reservations {
    let pairs = Array.isArray(entries) ? (entries as readonly (readonly [string, number])[]) : [...entries];
    let sorted = true;
    for (let i = 1; i < pairs.length && sorted; i++) sorted = pairs[i - 1]![0] < pairs[i]![0];
    if (!sorted) {
      const last = new Map<string, number>();
      for (const [key, value] of pairs) last.set(key, value);
      pairs = [...last].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    }
    if (pairs.length === 0) return Reservations.EMPTY;
    // Half-full chunks, so that the next entries land without a split.
    const chunks: Chunk[] = [];
    for (let at = 0; at < pairs.length; at += CHUNK_MAX / 2) {
      const run = pairs.slice(at, at + CHUNK_MAX / 2);
      chunks.push({ keys: run.map(([key]) => key), values: run.map(([, value]) => value) });
    }
    return new Reservations(chunks, chunks.map((chunk) => chunk.keys[0]!), pairs.length);
  }

  get size(): number {
    return this.#size;
  }

  get(key: string): number | undefined {
    const chunk = this.#chunks[this.chunkOf(key)];
    if (!chunk) return undefined;
    const at = search(chunk.keys, key);
    return at >= 0 ? chunk.values[at] : undefined;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** The map with `key` at `value`. */
  set(key: string, value: number): Reservations {
    if (this.#size === 0) return new Reservations([{ keys: [key], values: [value] }], [key], 1);
    const index = Math.max(0, this.chunkOf(key));
    const chunk = this.#chunks[index]!;
    const at = search(chunk.keys, key);
    if (at >= 0) {
      if (chunk.values[at] === value) return this;
      const values = chunk.values.slice();
      values[at] = value;
      return this.replaced(index, [{ keys: chunk.keys, values }], this.#size);
    }
    const place = -at - 1;
    const keys = chunk.keys.slice();
    const values = chunk.values.slice();
    keys.splice(place, 0, key);
    values.splice(place, 0, value);
    if (keys.length <= CHUNK_MAX) return this.replaced(index, [{ keys, values }], this.#size + 1);
    const half = keys.length >> 1;
    return this.replaced(index, [{ keys: keys.slice(0, half), values: values.slice(0, half) }, { keys: keys.slice(half), values: values.slice(half) }], this.#size + 1);
  }

  /** The map without `key`. */
  delete(key: string): Reservations {
    const index = this.chunkOf(key);
    const chunk = this.#chunks[index];
    const at = chunk ? search(chunk.keys, key) : -1;
    if (!chunk || at < 0) return this;
    if (this.#size === 1) return Reservations.EMPTY;
    const keys = chunk.keys.slice();
    const values = chunk.values.slice();
    keys.splice(at, 1);
    values.splice(at, 1);
    if (keys.length === 0) return this.replaced(index, [], this.#size - 1);
    if (keys.length < CHUNK_MIN) {
      // Merged with a neighbour it fits with: the chunks stay at least a quarter full where they can.
      const next = this.#chunks[index + 1];
      if (next && keys.length + next.keys.length <= CHUNK_MAX) return this.replaced(index, [{ keys: keys.concat(next.keys), values: values.concat(next.values) }], this.#size - 1, 2);
      const previous = this.#chunks[index - 1];
      if (previous && keys.length + previous.keys.length <= CHUNK_MAX) {
        return this.replaced(index - 1, [{ keys: previous.keys.concat(keys), values: previous.values.concat(values) }], this.#size - 1, 2);
      }
    }
    return this.replaced(index, [{ keys, values }], this.#size - 1);
  }

  *[Symbol.iterator](): IterableIterator<[string, number]> {
    for (const { keys, values } of this.#chunks) {
      for (let i = 0; i < keys.length; i++) yield [keys[i]!, values[i]!];
    }
  }

  /** The index of the chunk that holds `key` or would: the last whose first key is not after it; -1 before the first. */
  private chunkOf(key: string): number {
    let low = 0;
    let high = this.#firsts.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (this.#firsts[middle]! <= key) low = middle + 1;
      else high = middle - 1;
    }
    return high;
  }

  /** This map with `count` chunks from `index` on replaced by `chunks`. */
  private replaced(index: number, chunks: readonly Chunk[], size: number, count = 1): Reservations {
    const all = this.#chunks.slice();
    const firsts = this.#firsts.slice();
    all.splice(index, count, ...chunks);
    firsts.splice(index, count, ...chunks.map((chunk) => chunk.keys[0]!));
    return new Reservations(all, firsts, size);
  }
}

/** The index of `key` in the sorted `keys`, or -(where it would go) - 1. */
function search(keys: readonly string[], key: string): number {
  let low = 0;
  let high = keys.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const found = keys[middle]!;
    if (found < key) low = middle + 1;
    else if (found > key) high = middle - 1;
    else return middle;
  }
  return -low - 1;
}
