// The embedded key store: a SQLite file of its own beside the event log (never in it). Destroyed
// keys must be gone from the disk, not only from the table: secure_delete overwrites a deleted
// row's bytes with zeros, and the rollback journal (which holds a page's old bytes while a
// transaction runs) is deleted when the transaction ends, so no file keeps a copy. (A WAL would
// keep old pages in its frames until a checkpoint, and cannot be truncated while another process reads.)
import Database from 'better-sqlite3';
import { sqliteIo } from '../../shared/adapters/sqlite-errors.js';
import { BOUND_LIMIT } from '../../shared/adapters/sqlite-sql.js';
import { newKey } from '../personal-data/cipher.js';
import type { Erasure, KeyState, KeyStore } from '../personal-data/key-store.js';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS keys (subject TEXT PRIMARY KEY, key BLOB NOT NULL) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS erasures (subject TEXT PRIMARY KEY, erased_at INTEGER NOT NULL) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS erasures_by_time ON erasures (erased_at, subject);
`;

export class SqliteKeyStore implements KeyStore {
  private readonly db: Database.Database;
  private readonly statements;
  private readonly createOrGetTx;
  private readonly destroyTx;

  constructor(file: string, options: { busyTimeoutMs?: number } = {}) {
    this.db = sqliteIo('opening the key store', () => {
      const db = new Database(file, { timeout: options.busyTimeoutMs ?? 2000 });
      db.pragma('journal_mode = DELETE');
      db.pragma('secure_delete = ON');
      db.pragma('synchronous = FULL');
      db.exec(SCHEMA);
      return db;
    });
    const db = this.db;
    this.statements = {
      key: db.prepare<[string], { key: Buffer }>('SELECT key FROM keys WHERE subject = ?'),
      erasure: db.prepare<[string], { erased_at: number }>('SELECT erased_at FROM erasures WHERE subject = ?'),
      insertKey: db.prepare<[string, Buffer]>('INSERT INTO keys (subject, key) VALUES (?, ?)'),
      deleteKey: db.prepare<[string]>('DELETE FROM keys WHERE subject = ?'),
      insertErasure: db.prepare<[string, number]>('INSERT OR IGNORE INTO erasures (subject, erased_at) VALUES (?, ?)'),
      since: db.prepare<[number, number], { subject: string; erased_at: number }>(
        `SELECT subject, erased_at FROM erasures WHERE erased_at >= ? ORDER BY erased_at, subject ${BOUND_LIMIT}`,
      ),
    };
    this.createOrGetTx = db.transaction((subject: string): KeyState => {
      const erased = this.statements.erasure.get(subject);
      if (erased) return { erasedAt: new Date(erased.erased_at) };
      const found = this.statements.key.get(subject);
      if (found) return { key: found.key };
      const key = newKey();
      this.statements.insertKey.run(subject, key);
      return { key };
    });
    this.destroyTx = db.transaction((subject: string, at: Date): Erasure => {
      this.statements.deleteKey.run(subject);
      this.statements.insertErasure.run(subject, at.getTime());
      return { subject, erasedAt: new Date(this.statements.erasure.get(subject)!.erased_at) };
    });
  }

  async createOrGet(subject: string): Promise<KeyState> {
    const found = this.stateOf(subject);
    if (found) return found;
    return sqliteIo('making a key', () => this.createOrGetTx.immediate(subject));
  }

  async read(subjects: readonly string[]): Promise<Map<string, KeyState>> {
    const states = new Map<string, KeyState>();
    for (const subject of new Set(subjects)) {
      const state = this.stateOf(subject);
      if (state) states.set(subject, state);
    }
    return states;
  }

  async destroy(subject: string, at: Date): Promise<Erasure> {
    return sqliteIo('destroying a key', () => this.destroyTx.immediate(subject, at));
  }

  async erasuresSince(since: Date, limit: number): Promise<Erasure[]> {
    const rows = sqliteIo('reading erasures', () => this.statements.since.all(since.getTime(), limit));
    return rows.map((row) => ({ subject: row.subject, erasedAt: new Date(row.erased_at) }));
  }

  async close(): Promise<void> {
    this.db.close();
  }

  private stateOf(subject: string): KeyState | null {
    return sqliteIo('reading a key', () => {
      const erased = this.statements.erasure.get(subject);
      if (erased) return { erasedAt: new Date(erased.erased_at) };
      const found = this.statements.key.get(subject);
      return found ? { key: found.key } : null;
    });
  }
}
