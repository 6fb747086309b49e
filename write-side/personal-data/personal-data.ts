// Sealing and opening personal values with their subjects' keys. A value whose subject was erased
// (its key destroyed) opens as its erased form; so does one no key opens.
import type { JsonValue } from '../kernel/event-store.js';
import { isSealed, open, seal, type Sealed } from './cipher.js';
import type { Keyring } from './keyring.js';

export interface PersonalDataOptions {
  /**
   * false writes personal data in clear. For the benchmark that measures what sealing costs, and
   * nothing else: data written so is never erased from the event log.
   */
  readonly seal?: boolean;
}

/** A value asked for in a turn, and once the turn ends, what it opened as (undefined: nothing, or erased). */
interface Asked {
  readonly sealed: Sealed | null;
  readonly place: string;
  /** The key to open it with; null once its subject is learnt erased before the turn ends. */
  key: Buffer | null;
  opened?: JsonValue | undefined;
}

interface Turn {
  readonly asked: Asked[];
  readonly opened: Promise<void>;
}

export class PersonalData {
  readonly sealing: boolean;
  private turn: Turn | null = null;

  constructor(
    readonly keyring: Keyring,
    options: PersonalDataOptions = {},
  ) {
    this.sealing = options.seal ?? true;
    // A value asked for before an erasure was learnt, but not yet opened, is not opened at all.
    keyring.onErased((subject) => {
      for (const entry of this.turn?.asked ?? []) if (entry.sealed && (subject === null || entry.sealed.subject === subject)) entry.key = null;
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
   *
   * The values are opened at the end of the event loop's turn, together with every other value
   * asked for in that turn (see Turn).
   */
  async open<T>(items: readonly { readonly value: unknown; readonly place: string; readonly erased: T }[], options: { fresh?: boolean } = {}): Promise<T[]> {
    const keys = (options.fresh ? null : this.cachedKeys(items)) ?? (await this.keyring.openingKeys(subjectsOf(items), options));
    const turn = this.thisTurn();
    const asked = items.map(({ value, place }): Asked => {
      const entry: Asked = isSealed(value) ? { sealed: value, place, key: keys.get(value.subject) ?? null } : { sealed: null, place, key: null };
      turn.asked.push(entry);
      return entry;
    });
    await turn.opened;
    return items.map(({ value, erased }, i) => {
      if (!isSealed(value)) return value as T;
      const opened = asked[i]!.opened;
      return opened === undefined ? erased : (opened as T);
    });
  }

  /**
   * The turn whose values are opened together. A value sealed with AES-GCM is opened by a cipher
   * context made for it (node:crypto has no other way): that is a long path through OpenSSL,
   * which costs about 13 µs when taken value after value but 45-60 µs when taken once among a
   * request's other work, whose code and data have pushed OpenSSL's out of the CPU caches (bench
   * notes in bench/http.ts). The values that concurrent reads ask for in one turn (a single order
   * read asks for one) are therefore opened one after another at its end. Values in clear wait
   * alike, so a read takes the same turns whatever its values were written as.
   */
  private thisTurn(): Turn {
    if (this.turn) return this.turn;
    const asked: Asked[] = [];
    const turn: Turn = {
      asked,
      opened: new Promise<void>((resolve) => {
        setImmediate(() => {
          this.turn = null;
          // open() never throws (a value it cannot open is undefined, read as erased): one value never stops the turn's other reads.
          for (const entry of asked) if (entry.sealed && entry.key) entry.opened = open(entry.key, entry.sealed, entry.place);
          resolve();
        });
      }),
    };
    this.turn = turn;
    return turn;
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
