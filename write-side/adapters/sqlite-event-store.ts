// The embedded event store: one SQLite file (WAL). The global position is the row id, which
// SQLite assigns in commit order under its single-writer lock, so a reader never sees a later
// position before an earlier one. The log has no gaps but where a stream with a max count
// (setMaxCount: snapshots) dropped its older events.
//
// Appends are committed by a writer thread with its own connection, so that the disk flush of
// a durable commit never stalls the event loop. Appends that arrive while a commit is running
// go together into the next one (group commit): one flush for many requests, each with its own
// expected-revision verdict, each acknowledged only once that commit is durable. Reads use this
// thread's connection.
import Database from 'better-sqlite3';
import { createRequire } from 'node:module';
import { resolve as absolute } from 'node:path';
import { BroadcastChannel, Worker } from 'node:worker_threads';
import {
  appendBytes,
  AppendTooLarge,
  MAX_APPEND_BYTES,
  PrecedingAppendFailed,
  RevisionConflict,
  StoreUnavailable,
  type AppendOptions,
  type AppendResult,
  type AppendTicket,
  type EventStore,
  type EventSubscription,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
} from '../kernel/event-store.js';
import { decodePosition, encodeSequence } from '../kernel/position.js';
import { sqliteIo } from '../../shared/adapters/sqlite-errors.js';
import { enterWal } from '../../shared/adapters/sqlite-wal.js';
import { BOUND_LIMIT } from '../../shared/adapters/sqlite-sql.js';

export interface SqliteEventStoreOptions {
  readonly file: string;
  /** `full` (default) survives power loss; `normal` survives a process crash only. */
  readonly synchronous?: 'full' | 'normal';
  /** How often a subscriber looks for events appended by another process. */
  readonly pollIntervalMs?: number;
  /** How long a commit waits for a write lock held by another process before it fails (503). */
  readonly busyTimeoutMs?: number;
  /** The most one append may hold (MAX_APPEND_BYTES, EventStoreDB's limit, unless a test sets another). */
  readonly maxAppendBytes?: number;
}

interface PendingAppend {
  readonly stream: string;
  readonly rows: readonly { type: string; data: string; metadata: string }[];
  readonly expected: ExpectedRevision;
  /** Not an append: the stream's new max count (rows is empty). */
  readonly limit?: number;
  readonly ticket?: AppendTicket;
  /** The appends this one follows (AppendOptions.after) that were not yet written when it was made. */
  readonly after?: readonly AppendTicket[];
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: unknown) => void;
}

type WriterMessage =
  | { kind: 'ready'; journalMode: string; synchronous: number }
  /** Three entries per append: true, its next revision and position; or false and the stream's actual revision. */
  | { kind: 'committed'; outcomes: Array<boolean | number | string | null> }
  | { kind: 'failed'; message: string };

interface EventRow {
  position: number;
  stream: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
  recorded_at: number;
}

/** A scanned row, and the event made of it once a subscriber wanted it (then shared by all). */
interface Scanned {
  readonly row: EventRow;
  recorded: RecordedEvent | null;
}

/** A subscriber's read of the log: its rows, and the position up to which it looked at every event. */
interface Scan {
  readonly entries: readonly Scanned[];
  readonly reached: number;
}

const scanOf = (from: number, entries: readonly Scanned[]): Scan => ({ entries, reached: entries.at(-1)?.row.position ?? from });

const SUBSCRIPTION_BATCH = 500;

/** A row whose stream starts with one of `count` prefixes, in SQL: each bound as its length and itself (prefixArgs). */
const prefixFilter = (count: number): string => Array.from({ length: count }, () => 'substr(stream, 1, ?) = ?').join(' OR ');
const prefixArgs = (prefixes: readonly string[]): (string | number)[] => prefixes.flatMap((p) => [p.length, p]);

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position    INTEGER PRIMARY KEY,
    stream      TEXT    NOT NULL,
    revision    INTEGER NOT NULL,
    type        TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    metadata    TEXT    NOT NULL,
    recorded_at INTEGER NOT NULL,
    UNIQUE (stream, revision)
  ) STRICT;
  CREATE TABLE IF NOT EXISTS stream_limits (
    stream    TEXT    PRIMARY KEY,
    max_count INTEGER NOT NULL
  ) STRICT`;

// The writer thread, as plain JavaScript so that it runs the same under tsx, vitest and the build.
const WRITER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = ' + workerData.synchronous);
db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
const current = db.prepare('SELECT revision FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1').pluck();
const insert = db.prepare('INSERT INTO events (stream, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?)');
const limitOf = db.prepare('SELECT max_count FROM stream_limits WHERE stream = ?').pluck();
const setLimit = db.prepare('INSERT INTO stream_limits (stream, max_count) VALUES (?, ?) ON CONFLICT (stream) DO UPDATE SET max_count = excluded.max_count');
const trim = db.prepare('DELETE FROM events WHERE stream = ? AND revision <= ?');
// An append in the flat message: stream, expected, limit (-1: none), row count, how many earlier
// appends of the message it follows and their indexes, then type, data and metadata of each row.
// Its outcome: true, next revision, position; false, actual revision; or false, 'preceding' when
// an append it follows was not written.
const commit = db.transaction((flat, recordedAt) => {
  const outcomes = [];
  const written = [];
  for (let i = 0; i < flat.length;) {
    const stream = flat[i], expected = flat[i + 1], limit = flat[i + 2], count = flat[i + 3], follows = flat[i + 4];
    let preceded = true;
    for (let k = 0; k < follows; k++) if (!written[flat[i + 5 + k]]) preceded = false;
    i += 5 + follows;
    written.push(false);
    if (!preceded) {
      i += 3 * count;
      outcomes.push(false, 'preceding', 0);
      continue;
    }
    const actual = current.get(stream) ?? null;
    if (limit !== -1) {
      setLimit.run(stream, limit);
      if (actual !== null) trim.run(stream, actual - limit);
      outcomes.push(true, actual ?? -1, 0);
      written[written.length - 1] = true;
      continue;
    }
    const fits = expected === 'any' || (expected === 'no_stream' && actual === null) ||
      (expected === 'stream_exists' && actual !== null) || expected === actual;
    if (!fits) {
      i += 3 * count;
      outcomes.push(false, actual, 0);
      continue;
    }
    let revision = actual ?? -1;
    let position = 0;
    for (let row = 0; row < count; row++, i += 3) {
      revision++;
      position = Number(insert.run(stream, revision, flat[i], flat[i + 1], flat[i + 2], recordedAt).lastInsertRowid);
    }
    const keep = limitOf.get(stream);
    if (keep !== undefined) trim.run(stream, revision - keep);
    outcomes.push(true, revision, position);
    written[written.length - 1] = true;
  }
  return outcomes;
});
parentPort.postMessage({ kind: 'ready', journalMode: db.pragma('journal_mode', { simple: true }), synchronous: db.pragma('synchronous', { simple: true }) });
parentPort.on('message', (flat) => {
  try {
    parentPort.postMessage({ kind: 'committed', outcomes: commit.immediate(flat, Date.now()) });
  } catch (error) {
    parentPort.postMessage({ kind: 'failed', message: String(error && error.message || error) });
  }
});
`;

export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly writer: Worker;
  private readonly writerReady: Promise<{ journalMode: string; synchronous: number }>;
  private readonly pollIntervalMs: number;
  private readonly maxAppendBytes: number;
  private readonly statements;
  private readonly readAllStatements = new Map<number, Database.Statement<unknown[], EventRow>>();
  private readonly scanOnlyStatements = new Map<number, Database.Statement<unknown[], EventRow>>();
  private queue: PendingAppend[] = [];
  /** Each ticketed append still queued or being committed, by its ticket: the appends that follow it go into the same commit. */
  private readonly ticketed = new WeakMap<AppendTicket, PendingAppend>();
  /** The tickets whose appends had not reached this store when one that follows them was to be sent: each wakes the queue when it settles. */
  private readonly awaited = new WeakSet<AppendTicket>();
  /** The batch the writer is committing; null when it is idle. */
  private committing: PendingAppend[] | null = null;
  private drained: (() => void) | null = null;
  /** A send to the idle writer is due at the end of this turn of the event loop. */
  private sendScheduled = false;
  /** Bumped after every commit; subscribers wait for it to move. */
  private commits = 0;
  private readonly waiters = new Set<() => void>();
  private readonly subscriptions = new Set<EventSubscription>();
  /**
   * Tells the other threads of this process that opened the same file of each commit (the service
   * may project in a thread of its own): their subscribers then read on at once, as this one's do,
   * instead of after the poll interval that is left for other processes.
   */
  private readonly commitsInProcess: BroadcastChannel;
  /** The last scan of the log, for the other subscribers that read on from the same place. */
  private scanned: { readonly from: number; readonly version: number; readonly entries: readonly Scanned[] } | null = null;
  private closed = false;
  /** The change stamp's read due at the end of this turn of the event loop, shared by every call until then (changeStamp). */
  private pendingStamp: Promise<number> | null = null;
  /** Counters for metrics and tests: how many appends, how many commits carried them, how many times the subscribers read the log and how many rows they were handed, and how many change stamps were read. */
  readonly stats = { appends: 0, commits: 0, scans: 0, scannedRows: 0, stamps: 0 };

  constructor(options: SqliteEventStoreOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 200;
    this.maxAppendBytes = options.maxAppendBytes ?? MAX_APPEND_BYTES;
    this.db = new Database(options.file);
    // Before the writer thread opens the file, so that the writer finds it in WAL mode already.
    const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    enterWal(this.db, { timeoutMs: busyTimeoutMs });
    this.db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    // Single-order reads look streams up all over the file: a 64 MiB page cache (instead of 2)
    // keeps the index and the recent orders here rather than behind a system call each. It is
    // heap, bounded; a memory map would be cheaper still but counts the whole file as resident.
    this.db.pragma('cache_size = -65536');
    this.db.exec(SCHEMA);
    this.statements = {
      readStream: this.db.prepare<[string, number, number, number], EventRow>(
        'SELECT * FROM events WHERE stream = ? AND revision >= ? AND revision <= ? AND recorded_at <= ? ORDER BY revision',
      ),
      // The common read (a whole stream, or its tail from a revision on) without the bounds it does not need.
      readStreamFrom: this.db.prepare<[string, number], EventRow>('SELECT * FROM events WHERE stream = ? AND revision >= ? ORDER BY revision'),
      readLast: this.db.prepare<[string], EventRow>('SELECT * FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1'),
      head: this.db.prepare<[], number | null>('SELECT max(position) FROM events').pluck(),
      // Moves whenever another connection commits: the writer thread, or another process.
      dataVersion: this.db.prepare<[], number>('PRAGMA data_version').pluck(),
      scan: this.db.prepare<[number, number], EventRow>(`SELECT * FROM events WHERE position > ? ORDER BY position ${BOUND_LIMIT}`),
    };
    this.commitsInProcess = new BroadcastChannel(`sqlite-event-store:${absolute(options.file)}`);
    this.commitsInProcess.onmessage = () => this.committed();
    this.commitsInProcess.unref(); // never what keeps the process up
    this.writer = new Worker(WRITER, {
      eval: true,
      workerData: {
        file: options.file,
        synchronous: options.synchronous === 'normal' ? 'NORMAL' : 'FULL',
        busyTimeoutMs,
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      },
    });
    this.writerReady = new Promise((resolve, reject) => {
      this.writer.once('error', reject);
      this.writer.on('message', (message: WriterMessage) => {
        if (message.kind === 'ready') {
          if (!this.committing) this.writer.unref();
          resolve(message);
        } else this.settle(message);
      });
    });
    this.writerReady.catch(() => {});
    this.writer.on('error', (error) => this.settle({ kind: 'failed', message: error.message }));
  }

  /** The settings that decide what survives a crash, as the writer's SQLite connection reports them. */
  async durability(): Promise<{ journalMode: string; synchronous: 'full' | 'normal' | 'off' | 'extra' }> {
    const { journalMode, synchronous } = await this.writerReady;
    return { journalMode, synchronous: (['off', 'normal', 'full', 'extra'] as const)[synchronous] ?? 'off' };
  }

  /**
   * An append that follows others (options.after) goes into the commit of the last of them, after
   * them, and is written only if they were: one commit (one fsync) for appends that would otherwise
   * wait for each other's.
   */
  appendToStream(stream: string, events: readonly NewEvent[], expected: ExpectedRevision, options?: AppendOptions): Promise<AppendResult> {
    const appended = this.take(stream, events, expected, options);
    return options?.ticket ? options.ticket.tracked(appended) : appended;
  }

  private take(stream: string, events: readonly NewEvent[], expected: ExpectedRevision, options: AppendOptions | undefined): Promise<AppendResult> {
    if (this.closed) return Promise.reject(new StoreUnavailable('event store is closed'));
    if (options?.after?.some((ticket) => ticket.outcome === false)) return Promise.reject(new PrecedingAppendFailed(stream));
    if (events.length === 0) return Promise.reject(new RangeError('nothing to append'));
    // Serialise here so that a bad event fails alone, before it reaches a shared commit.
    let rows: PendingAppend['rows'];
    try {
      rows = events.map((e) => ({ type: e.type, data: JSON.stringify(e.data), metadata: JSON.stringify(e.metadata) }));
    } catch (error) {
      return Promise.reject(error);
    }
    // EventStoreDB's limit, here too: an append that production would refuse fails in every test.
    const bytes = appendBytes(rows);
    if (bytes > this.maxAppendBytes) return Promise.reject(new AppendTooLarge(stream, this.maxAppendBytes, bytes));
    const after = options?.after?.filter((ticket) => ticket.outcome !== true) ?? [];
    return new Promise((resolve, reject) => {
      const append: PendingAppend = { stream, rows, expected, ...(options?.ticket ? { ticket: options.ticket } : {}), ...(after.length > 0 ? { after } : {}), resolve, reject };
      if (options?.ticket) this.ticketed.set(options.ticket, append);
      this.queue.push(append);
      this.sendSoon();
    });
  }

  /**
   * An idle writer gets the queue once the promise jobs of this turn have run: the appends one
   * request makes in a row without waiting (a placement's reservations, one per SKU, its key and
   * its order) go into one commit, instead of the first alone and the others in the next.
   */
  private sendSoon(): void {
    if (this.committing || this.sendScheduled) return;
    this.sendScheduled = true;
    setImmediate(() => {
      this.sendScheduled = false;
      if (!this.committing) this.send();
    });
  }

  async setMaxCount(stream: string, maxCount: number): Promise<void> {
    this.assertOpen();
    if (!Number.isSafeInteger(maxCount) || maxCount < 1) throw new RangeError('maxCount must be a positive integer');
    // Through the writer, like an append: it keeps the limit in the file (for every process that
    // appends to the stream) and drops the older rows at once and after each later append.
    await new Promise<AppendResult>((resolve, reject) => {
      this.queue.push({ stream, rows: [], expected: 'any', limit: maxCount, resolve, reject });
      if (!this.committing) this.send();
    });
  }

  /**
   * Hands everything queued to the writer as one commit, but an append that follows one not yet
   * queued (its call is still on its way here): that waits in the queue for the next commit.
   */
  private send(): void {
    const queued = this.queue;
    this.queue = [];
    const batch: PendingAppend[] = [];
    const placeOf = new Map<PendingAppend, number>();
    // Flat, of strings and numbers only: cloned for the thread at about two thirds the cost of objects.
    const flat: Array<string | number> = [];
    for (const append of queued) {
      const follows: number[] = [];
      let waits: AppendTicket | null = null;
      let unwritten = false;
      for (const ticket of append.after ?? []) {
        if (ticket.outcome === true) continue;
        if (ticket.outcome === false) unwritten = true;
        const preceding = this.ticketed.get(ticket);
        const place = preceding && placeOf.get(preceding);
        if (place === undefined) waits ??= ticket;
        else follows.push(place);
      }
      if (unwritten) {
        append.ticket?.settle(false);
        append.reject(new PrecedingAppendFailed(append.stream));
        continue;
      }
      if (waits) {
        this.queue.push(append);
        // Its call may yet fail before it reaches this store: then this one is refused at the next send.
        if (!this.awaited.has(waits)) this.awaited.add(waits), void waits.applied.then(() => this.sendSoon());
        continue;
      }
      placeOf.set(append, batch.length);
      batch.push(append);
      flat.push(append.stream, append.expected, append.limit ?? -1, append.rows.length, follows.length, ...follows);
      for (const row of append.rows) flat.push(row.type, row.data, row.metadata);
    }
    if (batch.length === 0) {
      if (this.queue.length === 0) this.drained?.();
      return;
    }
    this.committing = batch;
    this.writer.ref();
    this.writer.postMessage(flat);
  }

  private settle(message: Exclude<WriterMessage, { kind: 'ready' }>): void {
    const batch = this.committing;
    this.committing = null;
    this.writer.unref();
    if (!batch) return;
    if (message.kind === 'failed') {
      // The transaction rolled back as a whole: nothing of this batch was written.
      const failure = new StoreUnavailable('the event store could not commit', { cause: new Error(message.message) });
      for (const append of batch) append.ticket?.settle(false), append.reject(failure);
    } else {
      this.stats.commits++;
      this.stats.appends += batch.length;
      this.committed();
      this.commitsInProcess.postMessage(null);
      const { outcomes } = message;
      // Settled before any promise job runs, so that the appends following these in the next commit find them settled.
      batch.forEach((append, i) => append.ticket?.settle(outcomes[3 * i] === true));
      batch.forEach((append, i) => {
        if (outcomes[3 * i] === true) append.resolve({ nextRevision: outcomes[3 * i + 1] as number, position: encodeSequence(outcomes[3 * i + 2] as number) });
        else if (outcomes[3 * i + 1] === 'preceding') append.reject(new PrecedingAppendFailed(append.stream));
        else append.reject(new RevisionConflict(append.stream, append.expected, (outcomes[3 * i + 1] as number | null) ?? 'no_stream'));
      });
    }
    this.send();
  }

  /** A commit (this store's, or another thread's): the waiting subscribers read on. */
  private committed(): void {
    this.commits++;
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const from = options.fromRevision ?? 0;
    const rows = sqliteIo('the event store could not be read', () =>
      options.toRevision === undefined && options.recordedUntil === undefined
        ? this.statements.readStreamFrom.all(stream, from)
        : this.statements.readStream.all(
            stream,
            from,
            options.toRevision ?? Number.MAX_SAFE_INTEGER,
            options.recordedUntil?.getTime() ?? Number.MAX_SAFE_INTEGER,
          ),
    );
    return rows.map(toRecorded);
  }

  async readLastEvent(stream: string): Promise<RecordedEvent | null> {
    this.assertOpen();
    const row = sqliteIo('the event store could not be read', () => this.statements.readLast.get(stream));
    return row ? toRecorded(row) : null;
  }

  async readAll(options: ReadAllOptions): Promise<RecordedEvent[]> {
    this.assertOpen();
    return sqliteIo('the event store could not be read', () => this.readAllNow(options.after ?? null, options.maxCount, options.streamPrefixes ?? []));
  }

  private readAllNow(after: Position | null, maxCount: number, prefixes: readonly string[]): RecordedEvent[] {
    let statement = this.readAllStatements.get(prefixes.length);
    if (!statement) {
      const filter = prefixFilter(prefixes.length);
      statement = this.db.prepare<unknown[], EventRow>(
        `SELECT * FROM events WHERE position > ?${filter ? ` AND (${filter})` : ''} ORDER BY position ${BOUND_LIMIT}`,
      );
      this.readAllStatements.set(prefixes.length, statement);
    }
    const from = after === null ? 0 : Number(decodePosition(after).commit);
    return statement.all(from, ...prefixArgs(prefixes), maxCount).map(toRecorded);
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
          // Scan a range of the log and filter here, so that the scan moves past events of other
          // streams too: a subscriber to a rare prefix must not rescan the whole log on every commit.
          const from = after === null ? 0 : Number(decodePosition(after).commit);
          // A subscriber to some streams alone in this store shares no scan: it reads only its streams' rows.
          const alone = prefixes.length > 0 && store.subscriptions.size === 1;
          const { entries, reached } = sqliteIo('the event store could not be read', () => (alone ? store.scanOnly(from, prefixes) : store.scan(from)));
          let delivered = 0;
          for (const entry of entries) {
            if (stopped) return;
            const { row } = entry;
            if (prefixes.length === 0 || prefixes.some((p) => row.stream.startsWith(p))) {
              delivered++;
              yield (entry.recorded ??= toRecorded(row));
            }
            after = encodeSequence(row.position);
          }
          if (stopped) return;
          if (reached > from) {
            after = encodeSequence(reached);
            options.onCheckpoint?.(after);
          }
          if (entries.length < SUBSCRIPTION_BATCH) {
            options.onCaughtUp?.();
            await new Promise<void>((resolve) => {
              wakeNow = store.waitForCommit(seen, resolve);
            });
          } else if (delivered === 0) {
            // A stretch of other streams' events: the thread is handed back between scans, so
            // that a subscriber to rare streams catching up does not hold it for the whole log.
            await new Promise((resolve) => setImmediate(resolve));
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
   * A batch of the log after `from`. The subscribers (the projections, the export worker) all
   * follow the head of the log, so after a commit they all ask for the same rows, or for the tail
   * of them (one that applied a batch since asks from further on): while no connection has
   * committed since (data_version has not moved), the last scan's rows, and the events already
   * made of them, are handed out again instead of being read and parsed again. A tail is handed
   * out only of a scan that reached the head: a shorter batch must mean the log's end (see
   * deliver). Subscribers only read the events, so sharing them is safe.
   */
  private scan(from: number): Scan {
    const version = this.statements.dataVersion.get()!;
    const last = this.scanned;
    if (last && last.version === version) {
      if (last.from === from) return scanOf(from, last.entries);
      if (last.from < from && last.entries.length < SUBSCRIPTION_BATCH) {
        const start = last.entries.findIndex((entry) => entry.row.position > from);
        return scanOf(from, start === -1 ? [] : last.entries.slice(start));
      }
    }
    this.stats.scans++;
    const entries = this.statements.scan.all(from, SUBSCRIPTION_BATCH).map((row): Scanned => ({ row, recorded: null }));
    this.stats.scannedRows += entries.length;
    this.scanned = { from, version, entries };
    return scanOf(from, entries);
  }

  /**
   * The rows of the streams under `prefixes` after `from`, up to the head of the log as it was
   * just before (SQLite skips the other rows without handing them out): `reached` is that head
   * once the rows ran out before a batch was full, so that the next read starts past every other
   * stream's events too.
   */
  private scanOnly(from: number, prefixes: readonly string[]): Scan {
    const head = this.statements.head.get() ?? 0;
    if (head <= from) return { entries: [], reached: from };
    let statement = this.scanOnlyStatements.get(prefixes.length);
    if (!statement) {
      statement = this.db.prepare<unknown[], EventRow>(`SELECT * FROM events WHERE position > ? AND position <= ? AND (${prefixFilter(prefixes.length)}) ORDER BY position ${BOUND_LIMIT}`);
      this.scanOnlyStatements.set(prefixes.length, statement);
    }
    this.stats.scans++;
    const rows = statement.all(from, head, ...prefixArgs(prefixes), SUBSCRIPTION_BATCH);
    this.stats.scannedRows += rows.length;
    const entries = rows.map((row): Scanned => ({ row, recorded: null }));
    return { entries, reached: rows.length < SUBSCRIPTION_BATCH ? head : rows.at(-1)!.position };
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

  /**
   * Every append is committed by another connection than this one, so data_version sees them all.
   * It is read once per turn of the event loop, when the turn's I/O has been handled (setImmediate),
   * for every call made until then: each of those calls began before the read, so the stamp is as
   * current for each as a read of its own, and a request that only needs the stamp (a kept order)
   * pays for part of one statement instead of a whole one (each takes and drops the WAL's read lock).
   */
  changeStamp(): Promise<number> {
    this.assertOpen();
    return (this.pendingStamp ??= new Promise<number>((resolve, reject) => {
      setImmediate(() => {
        this.pendingStamp = null;
        try {
          this.assertOpen();
          this.stats.stamps++;
          resolve(sqliteIo('the event store could not be read', () => this.statements.dataVersion.get()!));
        } catch (error) {
          reject(error);
        }
      });
    }));
  }

  async headPosition(): Promise<Position | null> {
    this.assertOpen();
    const head = sqliteIo('the event store could not be read', () => this.statements.head.get() ?? null);
    return head === null ? null : encodeSequence(head);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.committing || this.queue.length > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    // Held until it has stopped: an unreferenced worker would let the process end first. And a
    // worker stopped while it is still starting up never reports that it stopped.
    this.writer.ref();
    await this.writerReady.catch(() => {});
    await this.writer.terminate();
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    for (const wake of this.waiters) wake();
    this.commitsInProcess.close();
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
