// Streams folded once and kept: a later read folds only the events appended since, and when the
// store's change stamp shows that nothing at all was appended since the state was read, it does
// not even ask the store. Used for orders (OrderService) and products (ProductService).
import { LRUCache } from 'lru-cache';
import type { EventStore, RecordedEvent } from './event-store.js';

export interface KeptFoldsOptions<S> {
  /** `recorded` folded onto `from` (or onto nothing); null while the stream holds nothing to keep. */
  fold(from: S | null, recorded: readonly RecordedEvent[]): S | null;
  /** The stream revision a folded state includes. */
  revisionOf(state: S): number;
  /** How much a state weighs against the budget (at least `minWeight`). */
  weigh(state: S): number;
  readonly minWeight: number;
  readonly budget: number;
  /** Whether a kept state may still be served; false folds the stream afresh (an order whose customer was erased). */
  valid?(state: S): boolean | Promise<boolean>;
}

interface Kept<S> {
  readonly state: S;
  /** The store's change stamp taken before the read the state came from. */
  readonly stamp: number | undefined;
}

export class KeptFolds<S extends object> {
  private readonly kept: LRUCache<string, Kept<S>>;

  constructor(
    private readonly store: EventStore,
    private readonly options: KeptFoldsOptions<S>,
  ) {
    this.kept = new LRUCache<string, Kept<S>>({
      maxSize: options.budget,
      max: Math.max(1, Math.ceil(options.budget / options.minWeight)),
      sizeCalculation: (kept) => Math.max(options.minWeight, options.weigh(kept.state)),
    });
  }

  /** The stream's current fold: never older than an append acknowledged before this call. */
  async current(stream: string): Promise<S | null> {
    // Taken before the read: an append after this point changes it, even one the read below sees.
    const stamp = await this.store.changeStamp?.();
    let cached = this.kept.get(stream); // now the most recently read
    const valid = cached && this.options.valid ? this.options.valid(cached.state) : true;
    if (valid === false || (valid !== true && !(await valid))) {
      this.kept.delete(stream);
      cached = undefined;
    }
    if (cached && stamp !== undefined && cached.stamp === stamp) return cached.state;
    const state = cached
      ? this.options.fold(cached.state, await this.store.readStream(stream, { fromRevision: this.options.revisionOf(cached.state) + 1 }))
      : this.options.fold(null, await this.store.readStream(stream));
    // Beyond the budget, the least recently read go first.
    if (state) this.kept.set(stream, { state, stamp });
    return state;
  }

  /** What the kept states weigh now, in the units of the budget. */
  get size(): { readonly count: number; readonly weight: number } {
    return { count: this.kept.size, weight: this.kept.calculatedSize };
  }
}
