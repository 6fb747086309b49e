// The keys of this process, cached in front of the key store with a bound: at most `max`
// subjects, each kept for `ttlMs` at most. That lifetime is how fast an erasure made by another
// process (an API replica, the projector, the worker) reaches this one: past it, the key is read
// from the key store again, and a destroyed key is found destroyed.
import { LRUCache } from 'lru-cache';
import { UnknownCustomer } from '../errors.js';
import type { Erasure, KeyState, KeyStore } from './key-store.js';

/** Well below the 5 s within which an erasure must reach every process. */
export const KEY_CACHE_TTL_MS = 4000;

/** A subject's key as this process knows it: a key, erased, or none made yet. */
type Known = KeyState | { readonly none: true };

export class Keyring {
  private readonly cache: LRUCache<string, Known>;

  constructor(
    readonly store: KeyStore,
    options: { max?: number; ttlMs?: number; /** The clock the cache lifetime is measured by, in ms. */ now?: () => number } = {},
  ) {
    this.cache = new LRUCache<string, Known>({
      max: options.max ?? 100_000,
      ttl: options.ttlMs ?? KEY_CACHE_TTL_MS,
      ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
    });
  }

  /** The key to seal a subject's data with, made on first use; UnknownCustomer once the subject was erased. */
  async sealingKey(subject: string): Promise<Buffer> {
    let known = this.cache.get(subject);
    if (!known || 'none' in known) {
      known = await this.store.createOrGet(subject);
      this.cache.set(subject, known);
    }
    if ('erasedAt' in known) throw new UnknownCustomer(subject, 'erased');
    return known.key;
  }

  /**
   * The keys of these subjects: a key, or null for a subject whose data was erased (or that never
   * had a key, whose sealed values no key opens). `fresh` asks the key store, whatever is cached.
   */
  async openingKeys(subjects: Iterable<string>, options: { fresh?: boolean } = {}): Promise<Map<string, Buffer | null>> {
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
        const state = states.get(subject);
        this.cache.set(subject, state ?? { none: true });
        keys.set(subject, state && 'key' in state ? state.key : null);
      }
    }
    return keys;
  }

  /** Whether the subject's data was erased, as of at most `ttlMs` ago. */
  async erased(subject: string): Promise<boolean> {
    let known = this.cache.get(subject);
    if (!known) {
      known = (await this.store.read([subject])).get(subject) ?? { none: true };
      this.cache.set(subject, known);
    }
    return 'erasedAt' in known;
  }

  /**
   * True while this process knows the subject's key (or its lack of one) as of at most `ttlMs`
   * ago and it is not erased: what was opened with it may still be served. No I/O.
   */
  current(subject: string): boolean {
    const known = this.cache.get(subject);
    return known !== undefined && !('erasedAt' in known);
  }

  /** Destroys the subject's key in the key store and forgets it here at once. */
  async destroy(subject: string, at: Date): Promise<Erasure> {
    const erasure = await this.store.destroy(subject, at);
    this.cache.set(subject, { erasedAt: erasure.erasedAt });
    return erasure;
  }
}
