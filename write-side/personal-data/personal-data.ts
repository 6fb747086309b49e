// Sealing and opening personal values with their subjects' keys. A value whose subject was erased
// (its key destroyed) opens as its erased form; so does one no key opens.
import type { JsonValue } from '../event-store.js';
import { isSealed, open, seal, type Sealed } from './cipher.js';
import type { Keyring } from './keyring.js';

export interface PersonalDataOptions {
  /**
   * false writes personal data in clear. For the benchmark that measures what sealing costs, and
   * nothing else: data written so is never erased from the event log.
   */
  readonly seal?: boolean;
}

export class PersonalData {
  readonly sealing: boolean;

  constructor(
    readonly keyring: Keyring,
    options: PersonalDataOptions = {},
  ) {
    this.sealing = options.seal ?? true;
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
    const keys = (options.fresh ? null : this.cachedKeys(items)) ?? (await this.keyring.openingKeys(subjectsOf(items), options));
    return items.map(({ value, place, erased }) => {
      if (!isSealed(value)) return value as T;
      const key = keys.get(value.subject);
      const opened = key ? open(key, value, place) : undefined;
      return opened === undefined ? erased : (opened as T);
    });
  }

  /** The keys the sealed values need, when this process knows each of them as current: nearly always, and then with no wait. */
  private cachedKeys(items: readonly { readonly value: unknown }[]): Map<string, Buffer | null> | null {
    const keys = new Map<string, Buffer | null>();
    for (const { value } of items) {
      if (!isSealed(value) || keys.has(value.subject)) continue;
      const key = this.keyring.cachedOpeningKey(value.subject);
      if (key === undefined) return null;
      keys.set(value.subject, key);
    }
    return keys;
  }
}

function subjectsOf(items: readonly { readonly value: unknown }[]): Set<string> {
  const subjects = new Set<string>();
  for (const { value } of items) if (isSealed(value)) subjects.add(value.subject);
  return subjects;
}

export type { Sealed };
