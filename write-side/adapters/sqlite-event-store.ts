// The embedded event store: one SQLite file (WAL). The global position is the row id, which
// SQLite assigns in commit order under its single-writer lock, so the log has no gaps and a
// reader never sees a later position before an earlier one. Appends that arrive while a
// commit is running are committed together in the next transaction (group commit): one disk
// flush for many requests, each with its own expected-revision verdict.
import Database from 'better-sqlite3';
import {
  RevisionConflict,
  StoreUnavailable,
  type AppendResult,
  type EventStore,
  type EventSubscription,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
} from '../event-store.js';
import { decodePosition, encodeSequence } from '../position.js';

export interface SqliteEventStoreOptions {
  readonly file: string;
  /** `full` (default) survives power loss; `normal` survives a process crash only. */
  readonly synchronous?: 'full' | 'normal';
  /** How often a subscriber looks for events appended by another process. */
  readonly pollIntervalMs?: number;
}

interface PendingAppend {
  readonly stream: string;
  readonly rows: readonly { type: string; data: string; metadata: string }[];
  readonly expected: ExpectedRevision;
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: unknown) => void;
}

interface EventRow {
  position: number;
  stream: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
  recorded_at: number;
}

const SUBSCRIPTION_BATCH = 500;

export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly pollIntervalMs: number;
  private readonly statements;
  private readonly readAllStatements = new Map<number, Database.Statement<unknown[], EventRow>>();
  private queue: PendingAppend[] = [];
  private flushScheduled = false;
  /** Bumped after every commit; subscribers wait for it to move. */
  private commits = 0;
  private readonly waiters = new Set<() => void>();
  private readonly subscriptions = new Set<EventSubscription>();
  private closed = false;
  /** Counters for metrics and tests: how many appends and how many commits carried them. */
  readonly stats = { appends: 0, commits: 0 };

  constructor(options: SqliteEventStoreOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 200;
    this.db = new Database(options.file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS events (
        position    INTEGER PRIMARY KEY,
        stream      TEXT    NOT NULL,
        revision    INTEGER NOT NULL,
        type        TEXT    NOT NULL,
        data        TEXT    NOT NULL,
        metadata    TEXT    NOT NULL,
        recorded_at INTEGER NOT NULL,
        UNIQUE (stream, revision)
      ) STRICT`);
    this.statements = {
      streamRevision: this.db
        .prepare<[string], number>('SELECT revision FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1')
        .pluck(),
      insert: this.db.prepare<[string, number, string, string, string, number]>(
        'INSERT INTO events (stream, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      readStream: this.db.prepare<[string, number, number, number], EventRow>(
        'SELECT * FROM events WHERE stream = ? AND revision >= ? AND revision <= ? AND recorded_at <= ? ORDER BY revision',
      ),
      head: this.db.prepare<[], number | null>('SELECT max(position) FROM events').pluck(),
    };
  }

  /** The settings that decide what survives a crash, as SQLite reports them. */
  durability(): { journalMode: string; synchronous: 'full' | 'normal' | 'off' | 'extra' } {
    const levels = ['off', 'normal', 'full', 'extra'] as const;
    return {
      journalMode: String(this.db.pragma('journal_mode', { simple: true })),
      synchronous: levels[Number(this.db.pragma('synchronous', { simple: true }))] ?? 'off',
    };
  }

  appendToStream(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (this.closed) return Promise.reject(new StoreUnavailable('event store is closed'));
    if (events.length === 0) return Promise.reject(new RangeError('nothing to append'));
    // Serialise before queueing so that a bad event fails alone and the commit stays short.
    let rows: PendingAppend['rows'];
    try {
      rows = events.map((e) => ({ type: e.type, data: JSON.stringify(e.data), metadata: JSON.stringify(e.metadata) }));
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ stream, rows, expected, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    const outcomes: Array<{ ok: true; result: AppendResult } | { ok: false; error: RevisionConflict }> = [];
    const recordedAt = Date.now();
    try {
      this.db
        .transaction(() => {
          for (const append of batch) outcomes.push(this.applyOne(append, recordedAt));
        })
        .immediate();
    } catch (error) {
      // The transaction rolled back as a whole: nothing of this batch was written.
      const failure = new StoreUnavailable('the event store could not commit', { cause: error });
      for (const append of batch) append.reject(failure);
      return;
    }
    this.commits++;
    this.stats.commits++;
    this.stats.appends += batch.length;
    for (const wake of this.waiters) wake();
    this.waiters.clear();
    batch.forEach((append, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) append.resolve(outcome.result);
      else append.reject(outcome.error);
    });
  }

  private applyOne(append: PendingAppend, recordedAt: number) {
    const current = this.statements.streamRevision.get(append.stream) ?? null;
    const { expected } = append;
    const fits =
      expected === 'any' ||
      (expected === 'no_stream' && current === null) ||
      (expected === 'stream_exists' && current !== null) ||
      expected === current;
    if (!fits) return { ok: false as const, error: new RevisionConflict(append.stream, expected, current ?? 'no_stream') };
    let revision = current ?? -1;
    let position = 0;
    for (const row of append.rows) {
      revision++;
      const info = this.statements.insert.run(append.stream, revision, row.type, row.data, row.metadata, recordedAt);
      position = Number(info.lastInsertRowid);
    }
    return { ok: true as const, result: { nextRevision: revision, position: encodeSequence(position) } };
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const rows = this.statements.readStream.all(
      stream,
      options.fromRevision ?? 0,
      options.toRevision ?? Number.MAX_SAFE_INTEGER,
      options.recordedUntil?.getTime() ?? Number.MAX_SAFE_INTEGER,
    );
    return rows.map(toRecorded);
  }

  async readAll(options: ReadAllOptions): Promise<RecordedEvent[]> {
    this.assertOpen();
    return this.readAllNow(options.after ?? null, options.maxCount, options.streamPrefixes ?? []);
  }

  private readAllNow(after: Position | null, maxCount: number, prefixes: readonly string[]): RecordedEvent[] {
    let statement = this.readAllStatements.get(prefixes.length);
    if (!statement) {
      const filter = prefixes.map(() => 'substr(stream, 1, ?) = ?').join(' OR ');
      statement = this.db.prepare<unknown[], EventRow>(
        `SELECT * FROM events WHERE position > ?${filter ? ` AND (${filter})` : ''} ORDER BY position LIMIT ?`,
      );
      this.readAllStatements.set(prefixes.length, statement);
    }
    const from = after === null ? 0 : Number(decodePosition(after).commit);
    const args = prefixes.flatMap((p) => [p.length, p]);
    return statement.all(from, ...args, maxCount).map(toRecorded);
  }

  subscribeToAll(options: SubscribeOptions = {}): EventSubscription {
    this.assertOpen();
    const prefixes = options.streamPrefixes ?? [];
    let after = options.after ?? null;
    let stopped = false;
    let wakeNow: (() => void) | null = null;
    const store = this;

    async function* deliver(): AsyncGenerator<RecordedEvent> {
      try {
        while (!stopped && !store.closed) {
          const seen = store.commits;
          const batch = store.readAllNow(after, SUBSCRIPTION_BATCH, prefixes);
          for (const event of batch) {
            if (stopped) return;
            yield event;
            after = event.position;
          }
          if (batch.length < SUBSCRIPTION_BATCH) {
            await new Promise<void>((resolve) => {
              wakeNow = store.waitForCommit(seen, resolve);
            });
          }
        }
      } finally {
        store.subscriptions.delete(subscription);
      }
    }

    const iterator = deliver();
    const subscription: EventSubscription = {
      [Symbol.asyncIterator]: () => iterator,
      close: async () => {
        stopped = true;
        wakeNow?.();
        await iterator.return(undefined);
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  /**
   * Calls `wake` at the next commit in this process, or after the poll interval (to see
   * commits by other processes). Returns a function that wakes it at once.
   */
  private waitForCommit(seen: number, wake: () => void): () => void {
    const waiters = this.waiters;
    const done = () => {
      clearTimeout(timer);
      waiters.delete(done);
      wake();
    };
    const timer = setTimeout(done, this.pollIntervalMs);
    if (this.commits !== seen) done();
    else waiters.add(done);
    return done;
  }

  async headPosition(): Promise<Position | null> {
    this.assertOpen();
    const head = this.statements.head.get() ?? null;
    return head === null ? null : encodeSequence(head);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    for (const wake of this.waiters) wake();
    this.db.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreUnavailable('event store is closed');
  }
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    streamName: row.stream,
    revision: row.revision,
    position: encodeSequence(row.position),
    type: row.type,
    data: JSON.parse(row.data),
    metadata: JSON.parse(row.metadata),
    recordedAt: new Date(row.recorded_at),
  };
}
