// Two processes opening a new data folder at once (two API replicas on a fresh DATA_DIR) each put
// its files in WAL mode. The one that comes second finds the file still in rollback mode, with the
// first one's write lock on it, and SQLite refuses its switch at once, busy timeout or not
// (shared/adapters/sqlite-wal.ts). The project’s CI saw a replica exit on it in the topology test; these tests plant that lock.
import Database from 'better-sqlite3';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { READ_STORAGE } from '../../projections/registry.js';
import { SqliteReadStore } from '../../read-side/adapters/sqlite-read-store.js';
import { enterWal } from '../../shared/adapters/sqlite-wal.js';
import { SqliteEventStore } from '../../write-side/adapters/sqlite-event-store.js';
import { tempDir } from '../support/event-stores.js';

/**
 * A new file in rollback mode, with another connection's write lock on it (as while that one
 * switches it to WAL), and a connection of the test's own to it.
 */
function lockedNewFile(file: string) {
  const other = new Database(file);
  other.exec('CREATE TABLE other (x)');
  other.exec('BEGIN IMMEDIATE');
  const db = new Database(file, { timeout: 5000 });
  const close = () => {
    if (other.inTransaction) other.exec('ROLLBACK');
    db.close();
    other.close();
  };
  return { other, db, close };
}

describe('putting a store file in WAL mode', () => {
  const dir = tempDir('sqlite-wal-');
  afterAll(() => dir.remove());

  it('is refused at once by SQLite while another connection holds the write lock (what enterWal waits out)', () => {
    const { db, close } = lockedNewFile(join(dir.path, 'plain.sqlite3'));
    expect(() => db.pragma('journal_mode = WAL')).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY' }));
    close();
  });

  it('waits until the other connection lets go, then switches', () => {
    const { other, db, close } = lockedNewFile(join(dir.path, 'waits.sqlite3'));
    let sleeps = 0;
    enterWal(db, {
      timeoutMs: 5000,
      sleep: () => {
        sleeps += 1;
        if (sleeps === 3) other.exec('COMMIT');
      },
    });
    expect(sleeps).toBe(3);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    close();
  });

  it('gives up with SQLITE_BUSY once its time is spent', () => {
    const { db, close } = lockedNewFile(join(dir.path, 'gives-up.sqlite3'));
    let slept = 0;
    expect(() => enterWal(db, { timeoutMs: 200, sleep: (ms) => (slept += ms) })).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY' }));
    expect(slept).toBe(200);
    close();
  });

  it('lets the event store open a new file that another process is switching', async () => {
    const file = join(dir.path, 'events.sqlite3');
    await lockedForAMoment(file);
    const events = new SqliteEventStore({ file });
    expect((await events.durability()).journalMode).toBe('wal');
    await events.close();
  });

  it('lets the read store open a new file that another process is switching', async () => {
    const file = join(dir.path, 'read-models.sqlite3');
    await lockedForAMoment(file);
    const reads = new SqliteReadStore(file, READ_STORAGE);
    expect(reads['db'].pragma('journal_mode', { simple: true })).toBe('wal');
    await reads.close();
  });
});

/**
 * Another thread holds a new file's write lock for 300 ms of its own from when this resolves, while
 * the caller opens a store on it (synchronously: the store waits it out, blocking this thread).
 * Were this thread held up past those 300 ms, the lock would be gone before the store tried, and
 * the test would pass without testing; it cannot fail for that.
 */
async function lockedForAMoment(file: string): Promise<void> {
  const holder = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const Database = require(workerData.driver);
     const db = new Database(workerData.file);
     db.exec('CREATE TABLE other (x)');
     db.exec('BEGIN IMMEDIATE');
     parentPort.postMessage('held');
     Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
     db.exec('COMMIT');
     db.close();`,
    { eval: true, workerData: { file, driver: createRequire(import.meta.url).resolve('better-sqlite3') } },
  );
  await new Promise((resolve, reject) => holder.once('message', resolve).once('error', reject));
  holder.unref();
}
