// The embedded read-model store: one SQLite file of its own, so the read side can be deleted
// and rebuilt without touching the events. Each projection generation is a table; views and
// the checkpoint change in one transaction.
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { sqliteIo } from '../../shared/adapters/sqlite-errors.js';
import type { Position } from '../../write-side/kernel/event-store.js';
import type {
  AccountKey,
  Change,
  Changes,
  CustomerFilter,
  CustomerKey,
  Keyed,
  KeyedChange,
  OrderJson,
  OrderFilter,
  OrderKey,
  ProductFilter,
  ProductKey,
  ProductSort,
  ProjectionName,
  QueueKey,
  ReadModelStore,
  SortDirection,
  ViewStore,
  Views,
} from '../read-store.js';
import { PROJECTION_NAMES } from '../read-store.js';
import type { AccountView, CustomerView, JobView, OrderView, ProductView, QueueChange, QueueEntry, StockView } from '../views.js';

const TABLES: { readonly [N in ProjectionName]: string } = {
  'order-views': 'order_views', 'fulfilment-queue': 'fulfilment_queue', jobs: 'jobs', products: 'products', customers: 'customers', stock: 'stock', accounts: 'accounts',
};
/** The tables of the projections that record their changes, one per generation beside its views. */
const CHANGE_TABLES: { readonly [N in ProjectionName]?: string } = { 'fulfilment-queue': 'fulfilment_queue_changes' };

/** The columns a projection's table keeps beside the JSON document, for keys and indexes. */
const SCHEMAS: { readonly [N in ProjectionName]: { columns: string; indexes: readonly string[]; values: (view: Views[N]) => unknown[] } } = {
  'order-views': {
    columns: 'customer_id TEXT NOT NULL, status TEXT NOT NULL, created_at TEXT NOT NULL',
    indexes: ['created_at, key', 'status, created_at, key', 'customer_id, created_at, key', 'customer_id, status, created_at, key'],
    values: (v) => [v.customerId, v.status, v.createdAt],
  },
  'fulfilment-queue': {
    columns: 'customer_id TEXT NOT NULL, state TEXT NOT NULL, paid_at TEXT',
    indexes: ['state, paid_at, key'],
    values: (v) => [v.customerId, v.state, v.paidAt],
  },
  jobs: {
    columns: 'status TEXT NOT NULL, created_at TEXT NOT NULL, finished_at TEXT, has_result INTEGER NOT NULL',
    indexes: ['status, created_at, key', 'has_result, finished_at, key'],
    values: (v) => [v.status, v.createdAt, v.finishedAt, v.result ? 1 : 0],
  },
  products: {
    columns: 'status TEXT NOT NULL, updated_at TEXT NOT NULL',
    indexes: ['status, key', 'updated_at, key', 'status, updated_at, key'],
    values: (v) => [v.status, v.updatedAt],
  },
  customers: {
    columns: 'email_key TEXT, created_at TEXT NOT NULL',
    indexes: ['created_at, key', 'email_key, created_at, key'],
    values: (v) => [v.emailKey, v.createdAt],
  },
  accounts: {
    columns: 'created_at TEXT NOT NULL',
    indexes: ['created_at, key'],
    values: (v) => [v.createdAt],
  },
  stock: {
    columns: 'available INTEGER NOT NULL',
    indexes: ['available, key'],
    values: (v) => [v.available],
  },
};

// Copies the WAL back into the database file from a thread of its own, with its own connection:
// a checkpoint writes and flushes megabytes at a time, which on the thread that commits the
// views stalls every request for milliseconds. PASSIVE never waits for readers or the writer;
// past the WAL's bound it is copied whole and started again (TRUNCATE), waiting a moment for the
// writer's commit and the readers: PASSIVE alone never finds the WAL copied whole between two of
// the commits of a catch-up, and one checkpoint at a time runs, so the committing connection's
// own bound (boundWal) finds this thread's in its way.
const CHECKPOINTER = `
const { parentPort, workerData } = require('node:worker_threads');
const { statSync } = require('node:fs');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 0');
const walSize = () => {
  try {
    return statSync(workerData.file + '-wal').size;
  } catch {
    return 0;
  }
};
const checkpoint = () => {
  try {
    if (walSize() > workerData.walLimitBytes) {
      db.pragma('busy_timeout = 1000');
      try {
        db.pragma('wal_checkpoint(TRUNCATE)');
      } finally {
        db.pragma('busy_timeout = 0');
      }
    } else db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy, or a passing I/O failure: the next round tries again.
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

/**
 * The most the WAL may hold before the connection that commits checkpoints it whole and starts
 * it again (see boundWal). The background checkpointer alone never bounds it: while the
 * projections commit back to back (a catch-up), a PASSIVE checkpoint never finds the whole WAL
 * copied before the next commit appends to it, and SQLite starts a WAL again only from a point
 * where it was; a WAL of many gigabytes then also makes every page read slower.
 */
export const WAL_LIMIT_BYTES = 64 * 1024 * 1024;

/** How long a background write (backgroundWrite) goes on trying while another connection holds the lock, and how long each try waits. */
const BACKGROUND_WRITE_WAIT_MS = 5000;
const BACKGROUND_TRY_MS = 20;
/** How long a commit past the WAL's bound waits for another connection's checkpoint (boundWal), and between its tries. */
const BOUND_WAIT_MS = 500;
const BOUND_RETRY_MS = 20;

const READ = 'the read-model store could not be read';
const WRITE = 'the read-model store could not be written';

export class SqliteReadStore implements ReadModelStore {
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement<unknown[], unknown>>();
  private readonly checkpointer: { readonly worker: Worker; readonly exited: Promise<void> } | null = null;
  private readonly wal: string;
  private readonly walLimitBytes: number;
  private readonly busyTimeoutMs: number;
  /** Counters for tests and benchmarks: the checkpoints boundWal ran, and how many found readers in the way. */
  readonly walStats = { restarts: 0, busy: 0 };

  /**
   * `busyTimeoutMs` is how long a write waits for a lock held by another process. The wait
   * blocks this thread, so a long-running service keeps it short and lets the projector retry.
   */
  constructor(
    file: string,
    options: {
      busyTimeoutMs?: number;
      /** Checkpoint the WAL from a background thread (every this many ms) instead of in the commits. */
      backgroundCheckpointMs?: number;
      /** The WAL's bound (WAL_LIMIT_BYTES unless a test sets a smaller one). */
      walLimitBytes?: number;
    } = {},
  ) {
    this.db = new Database(file);
    this.wal = `${file}-wal`;
    this.walLimitBytes = options.walLimitBytes ?? WAL_LIMIT_BYTES;
    this.busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    this.db.pragma('journal_mode = WAL');
    // The read side is rebuilt from the events, so a crash may lose its last commit but never corrupts it.
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    // A view that forgets personal data (the customers' on CustomerErased) leaves no copy in the
    // file: the bytes of a changed or deleted row are overwritten with zeros, not left in free space.
    this.db.pragma('secure_delete = ON');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS projections (name TEXT PRIMARY KEY, active INTEGER NOT NULL, latest INTEGER NOT NULL) STRICT;
      CREATE TABLE IF NOT EXISTS checkpoints (name TEXT NOT NULL, generation INTEGER NOT NULL, position TEXT NOT NULL, PRIMARY KEY (name, generation)) STRICT;
      CREATE TABLE IF NOT EXISTS leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL) STRICT;
      CREATE TABLE IF NOT EXISTS process_checkpoints (name TEXT PRIMARY KEY, position TEXT NOT NULL) STRICT;`);
    this.db.transaction(() => {
      for (const name of PROJECTION_NAMES) {
        const inserted = this.db.prepare('INSERT OR IGNORE INTO projections (name, active, latest) VALUES (?, 1, 1)').run(name);
        if (inserted.changes > 0) this.createTable(name, 1, true);
        else this.upgrade(name);
      }
    }).immediate();
    if (options.backgroundCheckpointMs !== undefined) this.checkpointer = this.startCheckpointer(file, options.backgroundCheckpointMs);
  }

  /**
   * A store from before its projection recorded changes: the views are kept, but their changes
   * were never written. A fresh generation replaces them, which the projector fills from the
   * start of the log, so that the feed misses no change.
   */
  private upgrade(name: ProjectionName): void {
    const active = this.db.prepare('SELECT active FROM projections WHERE name = ?').pluck().get(name) as number;
    const changes = this.changeTable(name, active);
    if (changes === null || this.db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").pluck().get(changes)) return;
    const generation = this.db.prepare('UPDATE projections SET latest = latest + 1, active = latest + 1 WHERE name = ? RETURNING active').pluck().get(name) as number;
    this.createTable(name, generation, true);
    this.db.exec(`DROP TABLE IF EXISTS ${this.table(name, active)}`);
    this.db.prepare('DELETE FROM checkpoints WHERE name = ? AND generation < ?').run(name, generation);
  }

  private startCheckpointer(file: string, intervalMs: number): { worker: Worker; exited: Promise<void> } {
    this.db.pragma('wal_autocheckpoint = 0');
    const worker = new Worker(CHECKPOINTER, {
      eval: true,
      workerData: { file, intervalMs, walLimitBytes: this.walLimitBytes, driver: createRequire(import.meta.url).resolve('better-sqlite3') },
    });
    worker.unref();
    // Without the thread the WAL would grow for ever: the commits checkpoint it again, as by default.
    worker.on('error', () => {
      if (this.db.open) this.db.pragma('wal_autocheckpoint = 1000');
    });
    return { worker, exited: new Promise((resolve) => worker.once('exit', () => resolve())) };
  }

  /**
   * After a commit: a WAL past its bound is copied into the database and started again from its
   * beginning (TRUNCATE), here, by the connection that commits, between two of its commits, so
   * that no commit of its own can slip in. It waits for readers (the other threads' queries) a short while only; if they keep it
   * busy it gives up, and the next commit tries again.
   */
  private async boundWal(): Promise<void> {
    // Another connection's checkpoint (the checkpointing thread's) makes this one give up at
    // once: wait for it a moment, without holding the write lock, so that one of the two
    // starts the WAL again before this connection's next commit adds to it.
    for (let waited = 0; ; waited += BOUND_RETRY_MS) {
      let size: number;
      try {
        size = statSync(this.wal).size;
      } catch {
        return; // no WAL (yet)
      }
      if (size <= this.walLimitBytes) return;
      let busy: boolean;
      try {
        const [result] = this.withBusyTimeout(100, () => this.db.pragma('wal_checkpoint(TRUNCATE)')) as { busy: number }[];
        this.walStats.restarts++;
        busy = result?.busy === 1;
      } catch {
        busy = true; // a lock, or an I/O error: tried again below, then at the next commit
      }
      if (!busy) return;
      this.walStats.busy++;
      if (waited >= BOUND_WAIT_MS) return;
      await new Promise((resolve) => setTimeout(resolve, BOUND_RETRY_MS));
    }
  }

  /**
   * A small write of background work (a lease, a process checkpoint), from a thread that also
   * serves requests: a lock held by another connection (the projections' batch commits, a WAL
   * checkpoint) is waited out between short tries, not by blocking the thread for the whole
   * busy timeout, and for as long as BACKGROUND_WRITE_WAIT_MS before it fails as unavailable.
   */
  private async backgroundWrite<T>(work: () => T): Promise<T> {
    const deadline = Date.now() + BACKGROUND_WRITE_WAIT_MS;
    for (let pause = 5; ; pause = Math.min(pause * 2, 200)) {
      try {
        return this.withBusyTimeout(BACKGROUND_TRY_MS, () => sqliteIo(WRITE, work));
      } catch (error) {
        const code = ((error as { cause?: { code?: unknown } }).cause?.code ?? '') as string;
        if (!String(code).startsWith('SQLITE_BUSY') || Date.now() >= deadline) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  /** Runs `work` with a lock wait of at most `ms` (never longer than the store's own), then restores the store's. */
  private withBusyTimeout<T>(ms: number, work: () => T): T {
    this.db.pragma(`busy_timeout = ${Math.min(this.busyTimeoutMs, ms)}`);
    try {
      return work();
    } finally {
      this.db.pragma(`busy_timeout = ${this.busyTimeoutMs}`);
    }
  }

  private table(name: ProjectionName, generation: number): string {
    return `${TABLES[name]}_g${generation}`;
  }

  private createTable(name: ProjectionName, generation: number, indexed: boolean): void {
    const table = this.table(name, generation);
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${table} (key TEXT PRIMARY KEY, revision INTEGER NOT NULL, ${SCHEMAS[name].columns}, doc TEXT NOT NULL) STRICT`);
    this.createChangeTable(name, generation);
    if (indexed) this.createIndexes(name, generation);
  }

  private changeTable(name: ProjectionName, generation: number): string | null {
    const table = CHANGE_TABLES[name];
    return table === undefined ? null : `${table}_g${generation}`;
  }

  private createChangeTable(name: ProjectionName, generation: number): void {
    const table = this.changeTable(name, generation);
    if (table === null) return;
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${table} (position TEXT PRIMARY KEY, key TEXT NOT NULL, doc TEXT NOT NULL) STRICT;
      CREATE INDEX IF NOT EXISTS ${table}_key ON ${table} (key, position)`);
  }

  private createIndexes(name: ProjectionName, generation: number): void {
    const table = this.table(name, generation);
    SCHEMAS[name].indexes.forEach((columns, i) => this.db.exec(`CREATE INDEX IF NOT EXISTS ${table}_i${i} ON ${table} (${columns})`));
  }

  private statement<R>(sql: string): Database.Statement<unknown[], R> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement as Database.Statement<unknown[], R>;
  }

  views<N extends ProjectionName>(name: N, generation: number): ViewStore<Views[N], Changes[N]> {
    const table = this.table(name, generation);
    const changeTable = this.changeTable(name, generation);
    const schema = SCHEMAS[name] as (typeof SCHEMAS)[N];
    const extra = schema.columns.split(',').map((c) => c.trim().split(' ')[0]!);
    const upsert = `INSERT INTO ${table} (key, revision, ${extra.join(', ')}, doc) VALUES (?, ?, ${extra.map(() => '?').join(', ')}, ?)
      ON CONFLICT (key) DO UPDATE SET revision = excluded.revision, ${extra.map((c) => `${c} = excluded.${c}`).join(', ')}, doc = excluded.doc
      WHERE excluded.revision > ${table}.revision`;
    const store = this;
    type V = Views[N] & { readonly revision: number };
    type C = Changes[N];
    const changeRows = (rows: { key: string; doc: string }[]) => rows.map((row) => ({ key: row.key, change: JSON.parse(row.doc) as C }));
    return {
      name,
      generation,
      async checkpoint() {
        const row = sqliteIo(READ, () =>
          store.statement<{ position: string }>('SELECT position FROM checkpoints WHERE name = ? AND generation = ?').get(name, generation),
        );
        return row ? (row.position as Position) : null;
      },
      async load(keys) {
        const found = new Map<string, V>();
        const rows = sqliteIo(READ, () =>
          store.statement<{ key: string; doc: string }>(`SELECT key, doc FROM ${table} WHERE key IN (SELECT value FROM json_each(?))`).all(JSON.stringify(keys)),
        );
        for (const row of rows) found.set(row.key, JSON.parse(row.doc) as V);
        return found;
      },
      async commit(views: readonly Keyed<Views[N]>[], checkpoint: Position, changes: readonly KeyedChange<C>[] = []) {
        if (changes.length > 0 && changeTable === null) throw new TypeError(`projection ${name} records no changes`);
        const record = changes.length > 0 ? store.statement(`INSERT OR IGNORE INTO ${changeTable} (position, key, doc) VALUES (?, ?, ?)`) : null;
        const write = store.statement(upsert);
        const move = store.statement(
          `INSERT INTO checkpoints (name, generation, position) VALUES (?, ?, ?)
           ON CONFLICT (name, generation) DO UPDATE SET position = excluded.position WHERE excluded.position > checkpoints.position`,
        );
        const transaction = store.db.transaction(() => {
          for (const { key, view } of views) write.run(key, view.revision, ...schema.values(view), JSON.stringify(view));
          for (const { key, change } of changes) record!.run((change as Change).position, key, JSON.stringify(change));
          move.run(name, generation, checkpoint);
        });
        sqliteIo(WRITE, () => transaction.immediate());
        await store.boundWal();
      },
      async scan(afterKey, limit) {
        const rows = sqliteIo(READ, () =>
          store.statement<{ key: string; doc: string }>(`SELECT key, doc FROM ${table} WHERE key > ? ORDER BY key LIMIT ?`).all(afterKey ?? '', limit),
        );
        return rows.map((row) => ({ key: row.key, view: JSON.parse(row.doc) as V }));
      },
      async changes(after, limit) {
        if (changeTable === null) return [];
        return changeRows(sqliteIo(READ, () =>
          store.statement<{ key: string; doc: string }>(`SELECT key, doc FROM ${changeTable} WHERE position > ? ORDER BY position LIMIT ?`).all(after ?? '', limit),
        ));
      },
      async changesOf(keys) {
        if (changeTable === null) return [];
        return changeRows(sqliteIo(READ, () =>
          store
            .statement<{ key: string; doc: string }>(`SELECT key, doc FROM ${changeTable} WHERE key IN (SELECT value FROM json_each(?)) ORDER BY position`)
            .all(JSON.stringify(keys)),
        ));
      },
    };
  }

  async activeGeneration(name: ProjectionName): Promise<number> {
    return sqliteIo(READ, () => this.statement<number>('SELECT active FROM projections WHERE name = ?').pluck().get(name)!);
  }

  async createGeneration(name: ProjectionName): Promise<number> {
    const transaction = this.db.transaction(() => {
      const generation = this.db.prepare('UPDATE projections SET latest = latest + 1 WHERE name = ? RETURNING latest').pluck().get(name) as number;
      // Queries do not read it yet: its indexes are built once, at activation, which is far
      // cheaper than keeping them up to date through a rebuild.
      this.createTable(name, generation, false);
      return generation;
    });
    return sqliteIo(WRITE, () => transaction.immediate());
  }

  async activateGeneration(name: ProjectionName, generation: number): Promise<void> {
    // Each index in a commit of its own, the WAL bounded after each: built over a large
    // generation (a catch-up from nothing) all four in one commit wrote ~940 MB of WAL at a
    // million orders. The generation is not read before the switch below, so a stop in between
    // leaves indexes that the next activation finds built.
    const table = this.table(name, generation);
    for (const [i, columns] of SCHEMAS[name].indexes.entries()) {
      sqliteIo(WRITE, () => this.db.exec(`CREATE INDEX IF NOT EXISTS ${table}_i${i} ON ${table} (${columns})`));
      await this.boundWal();
    }
    const transaction = this.db.transaction(() => {
      this.createIndexes(name, generation);
      this.db.prepare('UPDATE projections SET active = ? WHERE name = ?').run(generation, name);
      for (let g = 1; g < generation; g++) {
        this.db.exec(`DROP TABLE IF EXISTS ${this.table(name, g)}`);
        const changes = this.changeTable(name, g);
        if (changes !== null) this.db.exec(`DROP TABLE IF EXISTS ${changes}`);
      }
      this.db.prepare('DELETE FROM checkpoints WHERE name = ? AND generation < ?').run(name, generation);
    });
    sqliteIo(WRITE, () => transaction.immediate());
    for (const sql of this.statements.keys()) if (sql.includes(`${TABLES[name]}_g`) || sql.includes(`${TABLES[name]}_changes_g`)) this.statements.delete(sql);
  }

  async getOrder(id: string): Promise<OrderView | null> {
    const table = this.table('order-views', await this.activeGeneration('order-views'));
    const doc = sqliteIo(READ, () => this.statement<string>(`SELECT doc FROM ${table} WHERE key = ?`).pluck().get(id));
    return doc === undefined ? null : (JSON.parse(doc) as OrderView);
  }

  async listOrders(filter: OrderFilter, direction: SortDirection, after: OrderKey | null, limit: number): Promise<OrderView[]> {
    return (await this.listOrderJson(filter, direction, after, limit)).map((row) => JSON.parse(row.json) as OrderView);
  }

  async listOrderJson(filter: OrderFilter, direction: SortDirection, after: OrderKey | null, limit: number): Promise<OrderJson[]> {
    const table = this.table('order-views', await this.activeGeneration('order-views'));
    const { where, args } = orderConditions(filter);
    if (after) where.push(`(created_at, key) ${direction === 'asc' ? '>' : '<'} (?, ?)`), args.push(after.createdAt, after.id);
    const order = direction === 'asc' ? 'ASC' : 'DESC';
    const sql = `SELECT key AS id, created_at AS createdAt, doc AS json FROM ${table} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at ${order}, key ${order} LIMIT ?`;
    return sqliteIo(READ, () => this.statement<OrderJson>(sql).all(...args, limit));
  }

  async countOrders(filter: OrderFilter): Promise<number> {
    const table = this.table('order-views', await this.activeGeneration('order-views'));
    const { where, args } = orderConditions(filter);
    return sqliteIo(READ, () => this.statement<number>(`SELECT count(*) FROM ${table} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`).pluck().get(...args)!);
  }

  async listQueue(after: QueueKey | null, limit: number): Promise<QueueEntry[]> {
    const table = this.table('fulfilment-queue', await this.activeGeneration('fulfilment-queue'));
    const sql = `SELECT doc FROM ${table} WHERE state = 'queued' ${after ? 'AND (paid_at, key) > (?, ?)' : ''} ORDER BY paid_at, key LIMIT ?`;
    const args = after ? [after.paidAt, after.orderId, limit] : [limit];
    return sqliteIo(READ, () => this.statement<string>(sql).pluck().all(...args)).map((doc) => JSON.parse(doc) as QueueEntry);
  }

  async listStock(below: number | null, afterSku: string | null, limit: number): Promise<StockView[]> {
    const table = this.table('stock', await this.activeGeneration('stock'));
    const sql = `SELECT doc FROM ${table} WHERE key > ? ${below === null ? '' : 'AND available < ?'} ORDER BY key LIMIT ?`;
    const args = below === null ? [afterSku ?? '', limit] : [afterSku ?? '', below, limit];
    return sqliteIo(READ, () => this.statement<string>(sql).pluck().all(...args)).map((doc) => JSON.parse(doc) as StockView);
  }

  async processCheckpoint(name: string): Promise<Position | null> {
    const position = sqliteIo(READ, () => this.statement<string>('SELECT position FROM process_checkpoints WHERE name = ?').pluck().get(name));
    return position === undefined ? null : (position as Position);
  }

  async saveProcessCheckpoint(name: string, position: Position): Promise<void> {
    await this.backgroundWrite(() =>
      this.statement(
        `INSERT INTO process_checkpoints (name, position) VALUES (?, ?)
         ON CONFLICT (name) DO UPDATE SET position = excluded.position WHERE excluded.position > process_checkpoints.position`,
      ).run(name, position),
    );
  }

  async listCustomers(filter: CustomerFilter, after: CustomerKey | null, limit: number): Promise<CustomerView[]> {
    const table = this.table('customers', await this.activeGeneration('customers'));
    const where: string[] = [];
    const args: unknown[] = [];
    if (filter.emailKey !== undefined) where.push('email_key = ?'), args.push(filter.emailKey);
    if (after) where.push('(created_at, key) < (?, ?)'), args.push(after.createdAt, after.id);
    const sql = `SELECT doc FROM ${table} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, key DESC LIMIT ?`;
    return sqliteIo(READ, () => this.statement<string>(sql).pluck().all(...args, limit)).map((doc) => JSON.parse(doc) as CustomerView);
  }

  async acquireLease(name: string, holder: string, ttlMs: number): Promise<boolean> {
    // The processes sharing this file share the machine's clock.
    const now = Date.now();
    const taken = await this.backgroundWrite(() =>
      this.statement(
        `INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
         WHERE leases.holder = excluded.holder OR leases.expires_at <= ?`,
      ).run(name, holder, now + ttlMs, now),
    );
    return taken.changes > 0;
  }

  async releaseLease(name: string, holder: string): Promise<void> {
    await this.backgroundWrite(() => this.statement('DELETE FROM leases WHERE name = ? AND holder = ?').run(name, holder));
  }

  async listQueueChanges(after: Position | null, limit: number): Promise<{ changes: QueueChange[]; checkpoint: Position | null }> {
    const views = this.views('fulfilment-queue', await this.activeGeneration('fulfilment-queue'));
    // The checkpoint first: the changes read after it include every change up to it.
    const checkpoint = await views.checkpoint();
    const changes = (await views.changes(after, limit)).map((row) => row.change);
    return { changes, checkpoint };
  }

  async listProducts(filter: ProductFilter, sort: ProductSort, after: ProductKey | null, limit: number): Promise<ProductView[]> {
    const table = this.table('products', await this.activeGeneration('products'));
    const where = [filter.status === undefined ? "status IN ('draft', 'active')" : 'status = ?'];
    const args: unknown[] = filter.status === undefined ? [] : [filter.status];
    if (sort === 'sku') {
      if (after) where.push('key > ?'), args.push(after.sku);
    } else if (after) {
      where.push('(updated_at, key) < (?, ?)'), args.push(after.updatedAt ?? '', after.sku);
    }
    const order = sort === 'sku' ? 'key' : 'updated_at DESC, key DESC';
    const sql = `SELECT doc FROM ${table} WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ?`;
    return sqliteIo(READ, () => this.statement<string>(sql).pluck().all(...args, limit)).map((doc) => JSON.parse(doc) as ProductView);
  }

  async listOpenJobs(limit: number): Promise<JobView[]> {
    const table = this.table('jobs', await this.activeGeneration('jobs'));
    const sql = `SELECT doc FROM ${table} WHERE status IN ('queued', 'running') ORDER BY created_at, key LIMIT ?`;
    return sqliteIo(READ, () => this.statement<string>(sql).pluck().all(limit)).map((doc) => JSON.parse(doc) as JobView);
  }

  async listJobResults(limit: number): Promise<JobView[]> {
    const table = this.table('jobs', await this.activeGeneration('jobs'));
    const sql = `SELECT doc FROM ${table} WHERE has_result = 1 ORDER BY finished_at, key LIMIT ?`;
    return sqliteIo(READ, () => this.statement<string>(sql).pluck().all(limit)).map((doc) => JSON.parse(doc) as JobView);
  }

  async listAccounts(after: AccountKey | null, limit: number): Promise<AccountView[]> {
    const table = this.table('accounts', await this.activeGeneration('accounts'));
    const sql = `SELECT doc FROM ${table} ${after ? 'WHERE (created_at, key) < (?, ?)' : ''} ORDER BY created_at DESC, key DESC LIMIT ?`;
    const args = after ? [after.createdAt, after.id, limit] : [limit];
    return sqliteIo(READ, () => this.statement<string>(sql).pluck().all(...args)).map((doc) => JSON.parse(doc) as AccountView);
  }

  async close(): Promise<void> {
    if (this.checkpointer) {
      // Held until it has stopped, so that its last checkpoint is not cut off by the process ending.
      this.checkpointer.worker.ref();
      this.checkpointer.worker.postMessage('stop');
      await this.checkpointer.exited;
    }
    this.db.close();
  }
}

function orderConditions(filter: OrderFilter): { where: string[]; args: unknown[] } {
  const where: string[] = [];
  const args: unknown[] = [];
  if (filter.status !== undefined) where.push('status = ?'), args.push(filter.status);
  if (filter.customerId !== undefined) where.push('customer_id = ?'), args.push(filter.customerId);
  if (filter.createdFrom !== undefined) where.push('created_at >= ?'), args.push(filter.createdFrom);
  if (filter.createdTo !== undefined) where.push('created_at < ?'), args.push(filter.createdTo);
  return { where, args };
}
