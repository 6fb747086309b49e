// The key store port: one 256-bit key per customer id (a guest id gets one too), kept apart from
// the event log, so that destroying it makes every value sealed with it unreadable for good
// (crypto-shredding). Two adapters implement it (adapters/sqlite-key-store.ts,
// adapters/mongo-key-store.ts) and both pass tests/write-side/key-store.contract.ts. A store that
// cannot be reached fails with StoreUnavailable, having changed nothing.

/** A subject's key, or the record that it was destroyed. */
export type KeyState = { readonly key: Buffer } | { readonly erasedAt: Date };

export interface Erasure {
  readonly subject: string;
  readonly erasedAt: Date;
}

export interface KeyStore {
  /** The subject's key, made now if it has none; its erasure when its key was destroyed (no new key is ever made then). */
  createOrGet(subject: string): Promise<KeyState>;
  /** The state of each subject that has a key or had one; a subject never given a key is absent. */
  read(subjects: readonly string[]): Promise<Map<string, KeyState>>;
  /**
   * Destroys the subject's key for good, its bytes included, and records the erasure (only the
   * subject and the time). Destroying again, or a subject that never had a key, records it once.
   */
  destroy(subject: string, at: Date): Promise<Erasure>;
  /** Erasures recorded at or after `since`, oldest first, at most `limit`. */
  erasuresSince(since: Date, limit: number): Promise<Erasure[]>;
  close(): Promise<void>;
}
