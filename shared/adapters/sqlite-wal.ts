// Putting an embedded store's file in WAL mode when other processes may be opening it too.
import type { Database } from 'better-sqlite3';

/** How long to wait between tries while another connection holds the file's write lock. */
const STEP_MS = 20;

/**
 * Sets `journal_mode = WAL` on a connection just opened, and waits (up to `timeoutMs`) while another
 * connection holds the lock this needs.
 *
 * Why a wait of its own: when two processes open a new file at once (two API replicas on a fresh
 * DATA_DIR), one of them switches it from the default rollback journal to WAL while the other
 * reads it. The second finds the file still in rollback mode, with the first's write lock on it,
 * and SQLite answers its switch SQLITE_BUSY at once, without the busy handler: the switch takes
 * the write lock from inside a read, and a reader that waited there could deadlock the writer it
 * waits for. A moment later the file is in WAL mode and the same pragma changes nothing.
 *
 * `sleep` is for tests, which release the other connection's lock from it.
 */
export function enterWal(db: Database, options: { timeoutMs: number; sleep?: (ms: number) => void }): void {
  const sleep = options.sleep ?? blockFor;
  for (let waited = 0; ; waited += STEP_MS) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || waited >= options.timeoutMs) throw error;
    }
    sleep(STEP_MS);
  }
}

const cell = new Int32Array(new SharedArrayBuffer(4));

/** Blocks this thread for `ms`: a store opens synchronously, and this happens only at start-up. */
function blockFor(ms: number): void {
  Atomics.wait(cell, 0, 0, ms);
}
