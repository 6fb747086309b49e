// A SKU's live reservations (order id → a count), as a persistent sorted map.
//
// Each fold of a SKU makes a new state and leaves every earlier one as it was (the service keeps
// folds between commands and decides on them while an append is under way). So a change must not
// copy the whole map: a hot SKU holding many reservations would pay for each of them at every sale.
//
// A B+ tree: entries sit in sorted leaves of at most LEAF_MAX, under branches of at most
// BRANCH_MAX children, each found by binary search over its children's first keys. A change copies
// the leaf it touches and the branches above it (none for a SKU with up to 128 reservations, one for
// up to a few thousand, two for a few hundred thousand), and shares the rest with the map it came
// from. A fold holds a live reservation in some 88 bytes with its UUID key (two array slots and the key),
// against 208 in immutable's Map (a hash array mapped trie: a node, a two-element array and the key
// per entry), which mattered at a million orders, where the kept folds held a million of them. A
// snapshot's entries come back sorted as they were written, so decoding one sorts nothing and
// hashes nothing.

/** The most entries a leaf holds; a fuller one is split in two. */
const LEAF_MAX = 128;
/** The most children a branch holds; a fuller one is split in two. */
const BRANCH_MAX = 64;

interface Leaf {
  readonly keys: readonly string[];
  readonly values: readonly number[];
}

interface Branch {
  /** Each child's first key, in order: where a key's child is found. */
  readonly firsts: readonly string[];
  readonly children: readonly Node[];
}

/** Never changed once made: a change makes new nodes where it differs, and shares the rest. */
type Node = Leaf | Branch;

const isLeaf = (node: Node): node is Leaf => 'keys' in node;
const width = (node: Node): number => (isLeaf(node) ? node.keys.length : node.children.length);
const firstKey = (node: Node): string => (isLeaf(node) ? node.keys[0]! : node.firsts[0]!);
const EMPTY_LEAF: Leaf = { keys: [], values: [] };

export class Reservations implements Iterable<[string, number]> {
  static readonly EMPTY = new Reservations(EMPTY_LEAF, 0);

  readonly #root: Node;
  readonly #size: number;

  private constructor(root: Node, size: number) {
    this.#root = root;
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
    // Half-full nodes, so that the next entries land without a split.
    let level: Node[] = [];
    for (let at = 0; at < pairs.length; at += LEAF_MAX / 2) {
      const run = pairs.slice(at, at + LEAF_MAX / 2);
      level.push({ keys: run.map(([key]) => key), values: run.map(([, value]) => value) });
    }
    while (level.length > 1) {
      const above: Node[] = [];
      for (let at = 0; at < level.length; at += BRANCH_MAX / 2) {
        const children = level.slice(at, at + BRANCH_MAX / 2);
        above.push({ firsts: children.map(firstKey), children });
      }
      level = above;
    }
    return new Reservations(level[0]!, pairs.length);
  }

  get size(): number {
    return this.#size;
  }

  get(key: string): number | undefined {
    let node = this.#root;
    while (!isLeaf(node)) node = node.children[Math.max(0, childOf(node.firsts, key))]!;
    const at = search(node.keys, key);
    return at >= 0 ? node.values[at] : undefined;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** The map with `key` at `value`. */
  set(key: string, value: number): Reservations {
    const change = { added: false };
    const nodes = inserted(this.#root, key, value, change);
    if (nodes === null) return this;
    const root = nodes.length === 1 ? nodes[0]! : { firsts: nodes.map(firstKey), children: nodes };
    return new Reservations(root, change.added ? this.#size + 1 : this.#size);
  }

  /** The map without `key`. */
  delete(key: string): Reservations {
    let root = removed(this.#root, key);
    if (root === null) return this;
    if (this.#size === 1) return Reservations.EMPTY;
    // A branch left with one child gives way to it.
    while (!isLeaf(root) && root.children.length === 1) root = root.children[0]!;
    return new Reservations(root, this.#size - 1);
  }

  *[Symbol.iterator](): IterableIterator<[string, number]> {
    yield* entriesOf(this.#root);
  }
}

function* entriesOf(node: Node): Generator<[string, number]> {
  if (isLeaf(node)) {
    for (let i = 0; i < node.keys.length; i++) yield [node.keys[i]!, node.values[i]!];
  } else {
    for (const child of node.children) yield* entriesOf(child);
  }
}

/** The node with `key` at `value`: one node, or two when it split; null when nothing changed. */
function inserted(node: Node, key: string, value: number, change: { added: boolean }): Node[] | null {
  if (isLeaf(node)) {
    const at = search(node.keys, key);
    if (at >= 0) {
      if (node.values[at] === value) return null;
      const values = node.values.slice();
      values[at] = value;
      return [{ keys: node.keys, values }];
    }
    change.added = true;
    const keys = node.keys.slice();
    const values = node.values.slice();
    keys.splice(-at - 1, 0, key);
    values.splice(-at - 1, 0, value);
    if (keys.length <= LEAF_MAX) return [{ keys, values }];
    const half = keys.length >> 1;
    return [{ keys: keys.slice(0, half), values: values.slice(0, half) }, { keys: keys.slice(half), values: values.slice(half) }];
  }
  // A key before every other goes to the first child.
  const index = Math.max(0, childOf(node.firsts, key));
  const nodes = inserted(node.children[index]!, key, value, change);
  if (nodes === null) return null;
  const children = node.children.slice();
  const firsts = node.firsts.slice();
  children.splice(index, 1, ...nodes);
  firsts.splice(index, 1, ...nodes.map(firstKey));
  if (children.length <= BRANCH_MAX) return [{ firsts, children }];
  const half = children.length >> 1;
  return [{ firsts: firsts.slice(0, half), children: children.slice(0, half) }, { firsts: firsts.slice(half), children: children.slice(half) }];
}

/** The node without `key`, perhaps emptied or below a quarter full; null when it did not hold it. */
function removed(node: Node, key: string): Node | null {
  if (isLeaf(node)) {
    const at = search(node.keys, key);
    if (at < 0) return null;
    const keys = node.keys.slice();
    const values = node.values.slice();
    keys.splice(at, 1);
    values.splice(at, 1);
    return { keys, values };
  }
  const index = childOf(node.firsts, key);
  if (index < 0) return null;
  const child = removed(node.children[index]!, key);
  if (child === null) return null;
  const children = node.children.slice();
  const firsts = node.firsts.slice();
  const max = isLeaf(child) ? LEAF_MAX : BRANCH_MAX;
  if (width(child) === 0) {
    children.splice(index, 1);
    firsts.splice(index, 1);
  } else if (width(child) < max / 4 && index + 1 < children.length && width(child) + width(children[index + 1]!) <= max) {
    // Merged with a neighbour it fits with (the next, else the previous): nodes stay at least a quarter full where they can.
    children.splice(index, 2, merged(child, children[index + 1]!));
    firsts.splice(index, 2, firstKey(child));
  } else if (width(child) < max / 4 && index > 0 && width(child) + width(children[index - 1]!) <= max) {
    children.splice(index - 1, 2, merged(children[index - 1]!, child));
    firsts.splice(index - 1, 2, firsts[index - 1]!);
  } else {
    children[index] = child;
    firsts[index] = firstKey(child);
  }
  return { firsts, children };
}

/** Two neighbours of one depth as one node, `left`'s entries before `right`'s. */
function merged(left: Node, right: Node): Node {
  if (isLeaf(left) && isLeaf(right)) return { keys: left.keys.concat(right.keys), values: left.values.concat(right.values) };
  return { firsts: (left as Branch).firsts.concat((right as Branch).firsts), children: (left as Branch).children.concat((right as Branch).children) };
}

/** The index of the child that holds `key` or would: the last whose first key is not after it; -1 before the first. */
function childOf(firsts: readonly string[], key: string): number {
  let low = 0;
  let high = firsts.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (firsts[middle]! <= key) low = middle + 1;
    else high = middle - 1;
  }
  return high;
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
