// Which SQLite failures mean "the store cannot serve right now" (a lock held elsewhere, a full
// disk, an I/O error) rather than a bug: both embedded adapters answer those as StoreUnavailable,
// which the API turns into 503 with Retry-After.
import { StoreUnavailable } from '../../write-side/kernel/event-store.js';

const TRANSIENT = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|READONLY|CANTOPEN|NOMEM|PROTOCOL)/;

export function isTransientSqliteError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && TRANSIENT.test(code);
}

/** Runs `work`; a transient SQLite failure comes out as StoreUnavailable saying what failed. */
export function sqliteIo<T>(what: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (isTransientSqliteError(error)) throw new StoreUnavailable(`${what}: ${(error as Error).message}`, { cause: error });
    throw error;
  }
}
