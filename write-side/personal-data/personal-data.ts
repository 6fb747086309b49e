// Sealing and opening personal values with their subjects' keys. A value whose subject was erased
// (its key destroyed) opens as its erased form; so does one no key opens.
import { LRUCache } from 'lru-cache';
import type { JsonValue } from '../event-store.js';
import { isSealed, open, seal, type Sealed } from './cipher.js';
import type { Keyring } from './keyring.js';

export interface PersonalDataOptions {
  /**
   * false writes personal data in clear. For the benchmark that measures what sealing costs, and
   * nothing else: data written so is never erased from the event log.
   */
  readonly seal?: boolean;
  /** How many opened values are kept, so that a value read again is not deciphered again; 20,000 by default. */
  readonly openedKept?: number;
}

/** An opened value as kept: whose it is, and the value itself (frozen, since every reader shares it). */
interface Kept {
  readonly subject: string;
  readonly value: unknown;
}

export class PersonalData {
  readonly sealing: boolean;
  /**
   * Values opened lately, by place and sealed bytes (a page of orders opens the same addresses
   * page after page). One is served only while the keyring knows its subject's key current and not
   * destroyed, so an erasure hides it exactly as it hides the key; and an erasure this process
   * learns drops its subject's values at once.
   */
  private readonly opened: LRUCache<string, Kept>;

  constructor(
    readonly keyring: Keyring,
    options: PersonalDataOptions = {},
  ) {
    this.sealing = options.seal ?? true;
    this.opened = new LRUCache<string, Kept>({ max: options.openedKept ?? 20_000 });
    keyring.onErased((subject) => {
      if (subject === null) this.opened.clear();
      // Rare (an erasure), and the cache is bounded: a walk through it is cheaper than an index by subject.
      else for (const [key, kept] of this.opened.entries()) if (kept.subject === subject) this.opened.delete(key);
    });
  }

  /** Seals values of one subject; UnknownCustomer once it was erased, StoreUnavailable when its key cannot be had. */
  async sealer(subject: string): Promise<(place: string, value: JsonValue) => JsonValue> {
    if (!this.sealing) return (_place, value) => value;
    const key = await this.keyring.sealingKey(subject);
    return (place, value) => seal(key, subject, place, value) as unknown as JsonValue;
  }

  /**
   * Each item's value opened: a value in clear as it is (written before sealing began), a sealed
   * one with its subject's key, or its `erased` form when that key was destroyed or does not
   * open it. `fresh` asks the key store instead of this process's cache (for what goes into files).
   */
  async open<T>(items: readonly { readonly value: unknown; readonly place: string; readonly erased: T }[], options: { fresh?: boolean } = {}): Promise<T[]> {
    const results = new Array<T>(items.length);
    const subjects = new Set<string>();
    items.forEach(({ value, place }, i) => {
      if (!isSealed(value)) results[i] = value as T;
      else {
        const kept = options.fresh || !this.keyring.current(value.subject) ? undefined : this.opened.get(keyOf(value, place));
        if (kept) results[i] = kept.value as T;
        else subjects.add(value.subject);
      }
    });
    if (subjects.size === 0) return results;
    const keys = await this.keyring.openingKeys(subjects, options);
    items.forEach(({ value, place, erased }, i) => {
      if (!isSealed(value) || !subjects.has(value.subject)) return;
      const key = keys.get(value.subject);
      const opened = key ? open(key, value, place) : undefined;
      if (opened === undefined) results[i] = erased;
      else {
        results[i] = deepFreeze(opened) as T;
        // Only while the key is known current: an erasure learnt meanwhile keeps it out.
        if (this.keyring.current(value.subject)) this.opened.set(keyOf(value, place), { subject: value.subject, value: opened });
      }
    });
    return results;
  }
}

/** The place is part of what is authenticated (a value moved elsewhere does not open): part of the key, as the IV and bytes are. */
function keyOf(sealed: Sealed, place: string): string {
  return `${place}\n${sealed.iv}\n${sealed.data}`;
}

function deepFreeze<V>(value: V): V {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}

export type { Sealed };
