// The keys of this process, cached in front of the key store with a bound of `max` subjects.
// A key never changes once made and an erasure is final, so what is cached stays true until the
// subject is erased. Erasures made by another process (an API replica, the projector, the worker)
// are learnt by one query of the key store's recent erasures for the whole process, at most
// `ttlMs` after the last one: that is how fast an erasure reaches this process. Until that check
// is made again, nothing cached is served (current() is false, the rest waits for the check), so
// a read never costs a key-store read per subject, only one per `ttlMs` per process.
import { LRUCache } from 'lru-cache';
import { UnknownCustomer } from '../kernel/errors.js';
import type { Erasure, KeyState, KeyStore } from './key-store.js';

/** Well below the 5 s within which an erasure must reach every process. */
export const KEY_CACHE_TTL_MS = 4000;

/**
 * An erasure's time is the erasing process's clock, taken just before its write commits: each
 * check reads back this far before the previous one began, which covers that write's wait for the
 * store and clocks that disagree by less than this. (An erasure seen twice changes nothing.)
 */
const ERASURE_LOOKBACK_MS = 60_000;
const ERASURE_PAGE = 1000;

/** A subject's key as this process knows it: a key, erased, or none made yet. */
type Known = KeyState | { readonly none: true };

export class Keyring {
  private readonly cache: LRUCache<string, Known>;
  private readonly ttlMs: number;
  private readonly now: () => number;
  /** When (this.now) the last check of the erasures began: what is cached is true as of then. */
  private checkedAt: number;
  /** The wall-clock time the last check began, from which the next reads back. */
  private checkedSince: number;
  private checking: Promise<void> | null = null;
  private readonly erasedListeners: Array<(subject: string | null) => void> = [];

  constructor(
    readonly store: KeyStore,
    options: { max?: number; ttlMs?: number; /** The clock the cache lifetime is measured by, in ms. */ now?: () => number } = {},
  ) {
    this.ttlMs = options.ttlMs ?? KEY_CACHE_TTL_MS;
    this.now = options.now ?? (() => performance.now());
    this.cache = new LRUCache<string, Known>({
      max: options.max ?? 100_000,
      ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
    });
    this.checkedAt = this.now();
    this.checkedSince = Date.now();
  }

  /** The key to seal a subject's data with, made on first use; UnknownCustomer once the subject was erased. */
  async sealingKey(subject: string): Promise<Buffer> {
    await this.checked();
    let known = this.cache.get(subject);
    if (!known || 'none' in known) known = this.remember(subject, await this.store.createOrGet(subject));
    if ('erasedAt' in known) throw new UnknownCustomer(subject, 'erased');
    return known.key;
  }

  /**
   * The keys of these subjects: a key, or null for a subject whose data was erased (or that never
   * had a key, whose sealed values no key opens). `fresh` asks the key store, whatever is cached.
   */
  async openingKeys(subjects: Iterable<string>, options: { fresh?: boolean } = {}): Promise<Map<string, Buffer | null>> {
    if (!options.fresh) await this.checked();
    const keys = new Map<string, Buffer | null>();
    const missing: string[] = [];
    for (const subject of subjects) {
      if (keys.has(subject)) continue;
      const known = options.fresh ? undefined : this.cache.get(subject);
      if (known) keys.set(subject, 'key' in known ? known.key : null);
      else {
        keys.set(subject, null);
        missing.push(subject);
      }
    }
    if (missing.length > 0) {
      const states = await this.store.read(missing);
      for (const subject of missing) {
        const known = this.remember(subject, states.get(subject) ?? { none: true });
        keys.set(subject, 'key' in known ? known.key : null);
      }
    }
    return keys;
  }

  /**
   * The key of a subject as this process knows it, with no I/O and no wait: a key, or null when
   * the subject was erased (or had no key when last asked); undefined when that is not known as of
   * at most `ttlMs` ago (openingKeys then asks).
   */
  cachedOpeningKey(subject: string): Buffer | null | undefined {
    if (this.now() - this.checkedAt >= this.ttlMs) return undefined;
    const known = this.cache.get(subject);
    return known === undefined ? undefined : 'key' in known ? known.key : null;
  }

  /** Whether the subject's data was erased, as of at most `ttlMs` ago. */
  async erased(subject: string): Promise<boolean> {
    await this.checked();
    let known = this.cache.get(subject);
    if (!known) known = this.remember(subject, (await this.store.read([subject])).get(subject) ?? { none: true });
    return 'erasedAt' in known;
  }

  /**
   * True while this process knows the subject's key (or its lack of one) as of at most `ttlMs`
   * ago and it is not erased: what was opened with it may still be served. No I/O.
   */
  current(subject: string): boolean {
    const age = this.now() - this.checkedAt;
    if (age >= this.ttlMs) return false;
    // Asked past half its lifetime: checked again now, in the background, so that while it is used
    // what was opened stays servable (kept pages), instead of all of it lapsing at once every
    // `ttlMs`. A failed check is left to the next one a caller waits for.
    if (age >= this.ttlMs / 2 && this.checking === null) this.recheck().catch(() => {});
    const known = this.cache.get(subject);
    return known !== undefined && !('erasedAt' in known);
  }

  /** Destroys the subject's key in the key store and forgets it here at once. */
  async destroy(subject: string, at: Date): Promise<Erasure> {
    const erasure = await this.store.destroy(subject, at);
    this.learnErased(subject, erasure.erasedAt);
    return erasure;
  }

  /**
   * Calls `listener` with each subject this process learns erased, as soon as it learns it (null:
   * every key was forgotten, and any subject may have been): for whatever holds data opened with their keys.
   */
  onErased(listener: (subject: string | null) => void): void {
    this.erasedListeners.push(listener);
  }

  /** An erasure learnt elsewhere (another keyring of this process, told at once): nothing of the subject is opened from now on. */
  learnErased(subject: string, erasedAt: Date): void {
    const known = this.cache.peek(subject);
    this.cache.set(subject, { erasedAt });
    if (!known || !('erasedAt' in known)) for (const listener of this.erasedListeners) listener(subject);
  }

  /**
   * What was read from the store, unless an erasure learnt meanwhile says otherwise. Only "no key
   * yet" expires by itself: another process may make the key.
   */
  private remember<K extends Known>(subject: string, state: K): K | { readonly erasedAt: Date } {
    const cached = this.cache.peek(subject);
    if (cached && 'erasedAt' in cached) return cached;
    if ('erasedAt' in state) this.learnErased(subject, state.erasedAt);
    else this.cache.set(subject, state, 'none' in state ? { ttl: this.ttlMs } : {});
    return state;
  }

  /** Resolves once what is cached is known true as of at most `ttlMs` ago. */
  private checked(): Promise<void> | void {
    if (this.now() - this.checkedAt < this.ttlMs) return;
    return this.recheck();
  }

  /** The erasures checked again: one check at a time for all callers. */
  private recheck(): Promise<void> {
    return (this.checking ??= this.check().finally(() => {
      this.checking = null;
    }));
  }

  private async check(): Promise<void> {
    const startedAt = this.now();
    const startedSince = Date.now();
    let since = new Date(this.checkedSince - ERASURE_LOOKBACK_MS);
    for (;;) {
      const page = await this.store.erasuresSince(since, ERASURE_PAGE);
      for (const { subject, erasedAt } of page) this.learnErased(subject, erasedAt);
      if (page.length < ERASURE_PAGE) break;
      const last = page.at(-1)!.erasedAt;
      if (last.getTime() === since.getTime()) {
        // A whole page erased in one millisecond: paging on by time could skip some, so forget every key.
        this.cache.clear();
        for (const listener of this.erasedListeners) listener(null);
        break;
      }
      since = last;
    }
    this.checkedAt = startedAt;
    this.checkedSince = startedSince;
  }
}
