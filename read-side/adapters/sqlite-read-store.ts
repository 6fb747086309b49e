// The embedded read-model store: one SQLite file of its own, so the read side can be deleted
// and rebuilt without touching the events. Each projection generation is a table; views and
// the checkpoint change in one transaction.
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import { Worker } from 'node:worker_threads';
import { sqliteIo } from '../../shared/adapters/sqlite-errors.js';
import { enterWal } from '../../shared/adapters/sqlite-wal.js';
import { BOUND_LIMIT } from '../../shared/adapters/sqlite-sql.js';
import type { Position } from '../../write-side/kernel/event-store.js';
import {
  distinctValues,
  storageName,
  storageVersion,
  type Change,
  type Condition,
  type FieldValue,
  type Keyed,
  type KeyedChange,
  type OrderJson,
  type PageQuery,
  type ProjectionName,
  type StoredFieldValue,
  type ReadModelStore,
  type ReadStorage,
  type ViewStore,
} from '../read-store.js';

/** A column of a projection's table: a declared field's (its name in snake case). */
interface Column {
  readonly field: string;
  readonly name: string;
  readonly definition: string;
  readonly value: (view: never) => FieldValue;
}

/**
 * A multi-valued field's table beside the views' (`<table>_g<n>_<column>`): a row per value per
 * view, keyed (key, value), with copies of the fields its indexes name beside it, so that those
 * indexes hold them and a page conditioned on the field reads that table alone in index order,
 * then each view by its key.
 */
interface ValuesTable {
  readonly field: string;
  readonly column: string;
  /** The declared fields its indexes name besides the multi-valued one, copied from the views' row. */
  readonly copies: readonly Column[];
  readonly values: (view: never) => readonly string[];
}

/** A projection's table as derived from its storage declaration: a column per declared field (its name in snake case). */
interface TableSchema {
  /** The tables' name before the generation (`order_views`), and its change tables' (`order_views_changes`) when it records changes. */
  readonly table: string;
  readonly changeTable: string | null;
  /** The declared fields' columns, in declaration order, with the field each is of and how its value is read from a view. */
  readonly columns: readonly Column[];
  /** Its multi-valued fields' tables, by field name. */
  readonly valueTables: ReadonlyMap<string, ValuesTable>;
  /**
   * Each index's columns, the key last, and the multi-valued field whose table it is on (null: the
   * views' table); its name is `<table>_g<n>_i<m>`, m its place in the declaration.
   */
  readonly indexes: readonly { readonly on: string | null; readonly fields: readonly string[]; readonly columns: string }[];
  /** The column of a declared field (or of the key). */
  readonly column: ReadonlyMap<string, string>;
  /** The declared version of what is stored (StorageDeclaration.version). */
  readonly version: number;
  /** Its views hold no personal data in clear (StorageDeclaration.noClearPersonalData). */
  readonly noClearPersonalData: boolean;
}

function columnName(field: string): string {
  return field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function tableSchema(declared: ReadStorage[number]): TableSchema {
  const table = storageName(declared.name);
  const columns: Column[] = declared.fields.map((field) => ({
    field: field.name,
    name: columnName(field.name),
    definition: `${columnName(field.name)} ${field.type === 'integer' ? 'INTEGER' : 'TEXT'}${field.nullable ? '' : ' NOT NULL'}`,
    value: field.value,
  }));
  const multiValued = declared.multiValued ?? [];
  const column = new Map([['key', 'key'], ...declared.fields.map((field) => [field.name, columnName(field.name)] as const), ...multiValued.map((field) => [field.name, columnName(field.name)] as const)]);
  const copied = new Map<string, Set<string>>(multiValued.map((field) => [field.name, new Set()]));
  const indexes = declared.indexes.map((index) => {
    const fields = 'fields' in index ? index.fields : index;
    const multi = fields.filter((field) => copied.has(field));
    if (multi.length > 1) throw new TypeError(`projection ${declared.name} declares an index on two multi-valued fields: ${multi.join(', ')}`);
    const on = multi[0] ?? null;
    if (on !== null) for (const field of fields) if (field !== on) copied.get(on)!.add(field);
    return { on, fields, columns: [...fields.map((field) => column.get(field) ?? missingField(declared.name, field)), 'key'].join(', ') };
  });
  const valueTables = new Map(multiValued.map((field) => {
    const copies = columns.filter((c) => copied.get(field.name)!.has(c.field));
    return [field.name, { field: field.name, column: columnName(field.name), copies, values: field.values }] as const;
  }));
  return { table, changeTable: declared.changes ? `${table}_changes` : null, columns, valueTables, indexes, column, version: storageVersion(declared), noClearPersonalData: declared.noClearPersonalData === true };
}

function missingField(name: ProjectionName, field: string): never {
  throw new TypeError(`projection ${name} declares no field ${field}`);
}

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
// Named for top -H, ps -L and perf (Linux; elsewhere it stays unnamed).
try { require('node:fs').writeFileSync('/proc/thread-self/comm', 'checkpointer'); } catch {}
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
  private readonly schemas: ReadonlyMap<ProjectionName, TableSchema>;

  /**
   * `storage` is what each projection keeps beside its views (the registry's READ_STORAGE), from which
   * the tables and indexes are made, named as they always were, so that a file made before opens as it is.
   */
  constructor(
    file: string,
    storage: ReadStorage,
    options: {
      busyTimeoutMs?: number;
      /** Checkpoint the WAL from a background thread (every this many ms) instead of in the commits. */
      backgroundCheckpointMs?: number;
      /** The WAL's bound (WAL_LIMIT_BYTES unless a test sets a smaller one). */
      walLimitBytes?: number;
    } = {},
  ) {
    this.schemas = new Map(storage.map((declared) => [declared.name, tableSchema(declared)]));
    this.db = new Database(file);
    this.wal = `${file}-wal`;
    this.walLimitBytes = options.walLimitBytes ?? WAL_LIMIT_BYTES;
    this.busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    enterWal(this.db, { timeoutMs: this.busyTimeoutMs });
    // The read side is rebuilt from the events, so a crash may lose its last commit but never corrupts it.
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma(`busy_timeout = ${this.busyTimeoutMs}`);
    // A view that forgets personal data (the customers' on CustomerErased) leaves no copy in the
    // file: the bytes of a changed or deleted row are overwritten with zeros, not left in free space.
    this.db.pragma('secure_delete = ON');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS projections (name TEXT PRIMARY KEY, active INTEGER NOT NULL, latest INTEGER NOT NULL, version INTEGER NOT NULL DEFAULT 1) STRICT;
      CREATE TABLE IF NOT EXISTS checkpoints (name TEXT NOT NULL, generation INTEGER NOT NULL, position TEXT NOT NULL, PRIMARY KEY (name, generation)) STRICT;
      CREATE TABLE IF NOT EXISTS leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL) STRICT;
      CREATE TABLE IF NOT EXISTS process_checkpoints (name TEXT PRIMARY KEY, position TEXT NOT NULL) STRICT;`);
    this.db.transaction(() => {
      // A file from before projections declared versions: every generation in it is a version 1 one.
      const projectionColumns = this.db.prepare("SELECT name FROM pragma_table_info('projections')").pluck().all();
      if (!projectionColumns.includes('version')) this.db.exec('ALTER TABLE projections ADD COLUMN version INTEGER NOT NULL DEFAULT 1');
      for (const [name, schema] of this.schemas) {
        const inserted = this.db.prepare('INSERT OR IGNORE INTO projections (name, active, latest, version) VALUES (?, 1, 1, ?)').run(name, schema.version);
        if (inserted.changes > 0) this.createTable(name, 1, true);
        else this.upgrade(name);
      }
    }).immediate();
    if (options.backgroundCheckpointMs !== undefined) this.checkpointer = this.startCheckpointer(file, options.backgroundCheckpointMs);
  }

  /**
   * A store whose active generation is of an older shape than the projection declares now (its
   * storage version), or from before its projection recorded changes (their table is missing):
   * a fresh generation replaces it, which the projector fills from the start of the log, so that
   * every view has the new shape and fields, and the feed misses no change.
   */
  private upgrade(name: ProjectionName): void {
    const { active, version } = this.db.prepare('SELECT active, version FROM projections WHERE name = ?').get(name) as { active: number; version: number };
    const changes = this.changeTable(name, active);
    const unrecorded = changes !== null && !this.db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").pluck().get(changes);
    if (!unrecorded && version >= this.schema(name).version) return;
    const generation = this.db
      .prepare('UPDATE projections SET latest = latest + 1, active = latest + 1, version = ? WHERE name = ? RETURNING active')
      .pluck()
      .get(this.schema(name).version, name) as number;
    this.createTable(name, generation, true);
    this.dropOlder(name, generation);
  }

  /** Drops the generations before this one, their changes and their checkpoints (inside a transaction). */
  private dropOlder(name: ProjectionName, generation: number): void {
    // Views with no personal data in clear: their pages go to the free list as they are (FAST still
    // zeroes what is deleted within the pages it writes anyway), not each overwritten with zeros.
    const zeroed = !this.schema(name).noClearPersonalData;
    if (!zeroed) this.db.pragma('secure_delete = FAST');
    try {
      for (let g = 1; g < generation; g++) {
        this.db.exec(`DROP TABLE IF EXISTS ${this.table(name, g)}`);
        for (const values of this.schema(name).valueTables.values()) this.db.exec(`DROP TABLE IF EXISTS ${this.valuesTable(name, g, values)}`);
        const changes = this.changeTable(name, g);
        if (changes !== null) this.db.exec(`DROP TABLE IF EXISTS ${changes}`);
      }
    } finally {
      if (!zeroed) this.db.pragma('secure_delete = ON');
    }
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

  private schema(name: ProjectionName): TableSchema {
    const schema = this.schemas.get(name);
    if (!schema) throw new TypeError(`no storage is declared for projection ${name}`);
    return schema;
  }

  private table(name: ProjectionName, generation: number): string {
    return `${this.schema(name).table}_g${generation}`;
  }

  /** A multi-valued field's table of a generation (ValuesTable). */
  private valuesTable(name: ProjectionName, generation: number, values: ValuesTable): string {
    return `${this.table(name, generation)}_${values.column}`;
  }

  private createTable(name: ProjectionName, generation: number, indexed: boolean): void {
    const table = this.table(name, generation);
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${table} (key TEXT PRIMARY KEY, revision INTEGER NOT NULL, ${this.schema(name).columns.map((c) => `${c.definition}, `).join('')}doc TEXT NOT NULL) STRICT`);
    for (const values of this.schema(name).valueTables.values()) {
      this.db.exec(`CREATE TABLE IF NOT EXISTS ${this.valuesTable(name, generation, values)}
        (key TEXT NOT NULL, ${values.column} TEXT NOT NULL, ${values.copies.map((c) => `${c.definition}, `).join('')}PRIMARY KEY (key, ${values.column})) STRICT, WITHOUT ROWID`);
    }
    this.createChangeTable(name, generation);
    if (indexed) this.createIndexes(name, generation);
  }

  /** The statement that creates the generation's i-th declared index, on the views' table or a multi-valued field's. */
  private indexSql(name: ProjectionName, generation: number, i: number): string {
    const table = this.table(name, generation);
    const { on, columns } = this.schema(name).indexes[i]!;
    const target = on === null ? table : this.valuesTable(name, generation, this.schema(name).valueTables.get(on)!);
    return `CREATE INDEX IF NOT EXISTS ${table}_i${i} ON ${target} (${columns})`;
  }

  private changeTable(name: ProjectionName, generation: number): string | null {
    const table = this.schema(name).changeTable;
    return table === null ? null : `${table}_g${generation}`;
  }

  private createChangeTable(name: ProjectionName, generation: number): void {
    const table = this.changeTable(name, generation);
    if (table === null) return;
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${table} (position TEXT PRIMARY KEY, key TEXT NOT NULL, doc TEXT NOT NULL) STRICT;
      CREATE INDEX IF NOT EXISTS ${table}_key ON ${table} (key, position)`);
  }

  private createIndexes(name: ProjectionName, generation: number): void {
    this.schema(name).indexes.forEach((_, i) => this.db.exec(this.indexSql(name, generation, i)));
  }

  private statement<R>(sql: string): Database.Statement<unknown[], R> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement as Database.Statement<unknown[], R>;
  }

  views<View, C = never>(name: ProjectionName, generation: number): ViewStore<View, C> {
    const table = this.table(name, generation);
    const changeTable = this.changeTable(name, generation);
    const { columns } = this.schema(name);
    const extra = columns.map((c) => c.name);
    const upsert = `INSERT INTO ${table} (key, revision, ${extra.map((c) => `${c}, `).join('')}doc) VALUES (?, ?, ${extra.map(() => '?, ').join('')}?)
      ON CONFLICT (key) DO UPDATE SET revision = excluded.revision, ${extra.map((c) => `${c} = excluded.${c}, `).join('')}doc = excluded.doc
      WHERE excluded.revision > ${table}.revision`;
    // A view the caller did not load (its stream begins in the batch) is mostly not stored at all:
    // inserted so, it has no values' rows to remove. One that is (a batch applied again) is upserted.
    const insertNew = `INSERT INTO ${table} (key, revision, ${extra.map((c) => `${c}, `).join('')}doc) VALUES (?, ?, ${extra.map(() => '?, ').join('')}?)
      ON CONFLICT (key) DO NOTHING`;
    const values = (view: View) => columns.map((c) => (c.value as (view: View) => FieldValue)(view));
    // A stored view's row rewritten with only the columns whose values changed (by their places in
    // `columns`), so that SQLite leaves alone every index of columns that kept theirs: an upsert
    // sets every column, and every index is written again with it. One statement per set changed.
    // Its text kept per set of columns (a bit each), so that a write builds no SQL.
    const updates = new Map<number, string>();
    const updateOf = (changed: readonly number[]) => {
      const mask = changed.reduce((bits, i) => bits | (1 << i), 0);
      let sql = updates.get(mask);
      if (sql === undefined) {
        sql = `UPDATE ${table} SET revision = ?, ${changed.map((i) => `${columns[i]!.name} = ?, `).join('')}doc = ? WHERE key = ? AND revision < ?`;
        updates.set(mask, sql);
      }
      return sql;
    };
    const sameValues = (t: { readonly copyAt: readonly number[]; readonly values: ValuesTable }, was: View, view: View, before: readonly FieldValue[], row: readonly FieldValue[]) => {
      if (t.copyAt.some((i) => before[i] !== row[i])) return false;
      const valuesOf = t.values.values as (view: View) => readonly string[];
      return isDeepStrictEqual(distinctValues(valuesOf(was)), distinctValues(valuesOf(view)));
    };
    // Each multi-valued field's table: its rows of a view are written again whenever the view is.
    const valueTables = [...this.schema(name).valueTables.values()].map((values) => {
      const valuesTable = this.valuesTable(name, generation, values);
      return {
        values,
        table: valuesTable,
        copyAt: values.copies.map((copy) => columns.indexOf(copy)),
        remove: `DELETE FROM ${valuesTable} WHERE key = ?`,
        insert: `INSERT INTO ${valuesTable} (key, ${values.column}${values.copies.map((c) => `, ${c.name}`).join('')}) VALUES (?, ?${values.copies.map(() => ', ?').join('')})`,
      };
    });
    const store = this;
    type V = View & { readonly revision: number };
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
      async commit(views: readonly Keyed<View>[], checkpoint: Position, changes: readonly KeyedChange<C>[] = []) {
        if (changes.length > 0 && changeTable === null) throw new TypeError(`projection ${name} records no changes`);
        const record = changes.length > 0 ? store.statement(`INSERT OR IGNORE INTO ${changeTable} (position, key, doc) VALUES (?, ?, ?)`) : null;
        const write = store.statement(upsert);
        const insert = store.statement(insertNew);
        const move = store.statement(
          `INSERT INTO checkpoints (name, generation, position) VALUES (?, ?, ?)
           ON CONFLICT (name, generation) DO UPDATE SET position = excluded.position WHERE excluded.position > checkpoints.position`,
        );
        const rewrite = valueTables.map((t) => ({ ...t, remove: store.statement(t.remove), insert: store.statement(t.insert) }));
        const transaction = store.db.transaction(() => {
          for (const { key, view, was } of views) {
            const row = values(view);
            const before = was === undefined ? null : values(was);
            const doc = JSON.stringify(view);
            let fresh = false;
            // Not written (an older revision than the stored view's): its values' rows stay as they are.
            if (before === null) {
              fresh = insert.run(key, view.revision, ...row, doc).changes === 1;
              if (!fresh && write.run(key, view.revision, ...row, doc).changes === 0) continue;
            } else {
              const changed = columns.flatMap((_, i) => (row[i] === before[i] ? [] : [i]));
              if (store.statement(updateOf(changed)).run(view.revision, ...changed.map((i) => row[i]), doc, key, view.revision).changes === 0) continue;
              // Its SKUs (say) and the fields copied beside them as they were: their rows stay.
            }
            for (const t of rewrite) {
              if (before !== null && sameValues(t, was as View, view, before, row)) continue;
              if (!fresh) t.remove.run(key);
              const copies = t.copyAt.map((i) => row[i]);
              for (const value of distinctValues((t.values.values as (view: View) => readonly string[])(view))) t.insert.run(key, value, ...copies);
            }
          }
          for (const { key, change } of changes) record!.run((change as Change).position, key, JSON.stringify(change));
          move.run(name, generation, checkpoint);
        });
        sqliteIo(WRITE, () => transaction.immediate());
        await store.boundWal();
      },
      async fields(keys) {
        const rows = sqliteIo(READ, () =>
          store
            .statement<Record<string, FieldValue>>(`SELECT ${['key', ...columns.map((c) => c.name)].join(', ')} FROM ${table} WHERE key IN (SELECT value FROM json_each(?))`)
            .all(JSON.stringify(keys)),
        );
        const found = new Map<string, Record<string, StoredFieldValue>>(rows.map((row) => [String(row['key']), Object.fromEntries(columns.map((c) => [c.field, row[c.name] ?? null]))]));
        for (const t of valueTables) {
          for (const fields of found.values()) fields[t.values.field] = [];
          // A row whose copies differ from the view's own fields is not counted: verify then finds the view's values short.
          const same = t.values.copies.map((c) => ` AND v.${c.name} IS m.${c.name}`).join('');
          const valueRows = sqliteIo(READ, () =>
            store
              .statement<{ key: string; value: string }>(
                `SELECT v.key AS key, v.${t.values.column} AS value FROM ${t.table} AS v JOIN ${table} AS m ON m.key = v.key${same}
                 WHERE v.key IN (SELECT value FROM json_each(?)) ORDER BY v.key, v.${t.values.column}`,
              )
              .all(JSON.stringify(keys)),
          );
          for (const { key, value } of valueRows) (found.get(key)![t.values.field] as string[]).push(value);
        }
        return found;
      },
      async scan(afterKey, limit) {
        const rows = sqliteIo(READ, () =>
          store.statement<{ key: string; doc: string }>(`SELECT key, doc FROM ${table} WHERE key > ? ORDER BY key ${BOUND_LIMIT}`).all(afterKey ?? '', limit),
        );
        return rows.map((row) => ({ key: row.key, view: JSON.parse(row.doc) as V }));
      },
      async changes(after, limit) {
        if (changeTable === null) return [];
        return changeRows(sqliteIo(READ, () =>
          store.statement<{ key: string; doc: string }>(`SELECT key, doc FROM ${changeTable} WHERE position > ? ORDER BY position ${BOUND_LIMIT}`).all(after ?? '', limit),
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
    for (const i of this.schema(name).indexes.keys()) {
      sqliteIo(WRITE, () => this.db.exec(this.indexSql(name, generation, i)));
      await this.boundWal();
    }
    const transaction = this.db.transaction(() => {
      this.createIndexes(name, generation);
      // Filled by this build: of the shape its projection declares now.
      this.db.prepare('UPDATE projections SET active = ?, version = ? WHERE name = ?').run(generation, this.schema(name).version, name);
      this.dropOlder(name, generation);
    });
    sqliteIo(WRITE, () => transaction.immediate());
    const { table: base } = this.schema(name);
    for (const sql of this.statements.keys()) if (sql.includes(`${base}_g`) || sql.includes(`${base}_changes_g`)) this.statements.delete(sql);
  }

  async find<V>(name: ProjectionName, keys: readonly string[]): Promise<Map<string, V>> {
    const table = this.table(name, await this.activeGeneration(name));
    const rows = sqliteIo(READ, () =>
      keys.length === 1
        ? this.statement<{ key: string; doc: string }>(`SELECT key, doc FROM ${table} WHERE key = ?`).all(keys[0])
        : this.statement<{ key: string; doc: string }>(`SELECT key, doc FROM ${table} WHERE key IN (SELECT value FROM json_each(?))`).all(JSON.stringify(keys)),
    );
    return new Map(rows.map((row) => [row.key, JSON.parse(row.doc) as V]));
  }

  async page<V>(name: ProjectionName, query: PageQuery): Promise<V[]> {
    const { sql, args } = this.pageSql(name, await this.activeGeneration(name), (t) => `${t}doc`, query);
    return sqliteIo(READ, () => this.statement<string>(sql).pluck().all(...args)).map((doc) => JSON.parse(doc) as V);
  }

  async listOrderJson(query: PageQuery): Promise<OrderJson[]> {
    const select = (t: string) => `${t}key AS id, ${t}created_at AS createdAt, ${t}total AS total, ${t}doc AS json`;
    const { sql, args } = this.pageSql('order-views', await this.activeGeneration('order-views'), select, query);
    return sqliteIo(READ, () => this.statement<OrderJson>(sql).all(...args));
  }

  /**
   * The plan SQLite makes for a page (`EXPLAIN QUERY PLAN`), one line per step: for tests and
   * operators, to see which index serves a query and that nothing is scanned whole or sorted apart.
   */
  async queryPlan(name: ProjectionName, query: PageQuery): Promise<string[]> {
    const { sql, args } = this.pageSql(name, await this.activeGeneration(name), (t) => `${t}doc`, query);
    return sqliteIo(READ, () => this.db.prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`).all(...args)).map((row) => row.detail);
  }

  async count(name: ProjectionName, where: readonly Condition[]): Promise<number> {
    const generation = await this.activeGeneration(name);
    const on = this.valuesTableOf(name, where);
    const table = on === null ? this.table(name, generation) : this.valuesTable(name, generation, on);
    const { clauses, args } = this.conditions(name, where, on, '');
    return sqliteIo(READ, () => this.statement<number>(`SELECT count(*) FROM ${table}${whereClause(clauses)}`).pluck().get(...args)!);
  }

  async changesAfter<C>(name: ProjectionName, after: Position | null, limit: number): Promise<{ changes: C[]; checkpoint: Position | null }> {
    const views = this.views<unknown, C>(name, await this.activeGeneration(name));
    // The checkpoint first: the changes read after it include every change up to it.
    const checkpoint = await views.checkpoint();
    const changes = (await views.changes(after, limit)).map((row) => row.change);
    return { changes, checkpoint };
  }

  /** The multi-valued field's table a query reads when it has a condition on that field; null: the views' table. */
  private valuesTableOf(name: ProjectionName, where: readonly Condition[]): ValuesTable | null {
    const { valueTables } = this.schema(name);
    const on = where.filter((condition) => valueTables.has(condition.field));
    if (on.length > 1) throw new TypeError(`a query of ${name} with conditions on several multi-valued fields: ${on.map((c) => c.field).join(', ')}`);
    const [condition] = on;
    if (condition === undefined) return null;
    if (condition.op !== '=') throw new TypeError(`multi-valued field ${condition.field} is matched by equality only`);
    return valueTables.get(condition.field)!;
  }

  /**
   * The conditions as SQL on the declared fields' columns, in the order given: of the views' table,
   * or of a multi-valued field's (`on`), which holds that field and the copies of the fields its indexes name.
   */
  private conditions(name: ProjectionName, where: readonly Condition[], on: ValuesTable | null, prefix: string): { clauses: string[]; args: unknown[] } {
    const clauses: string[] = [];
    const args: unknown[] = [];
    for (const condition of where) {
      const col = prefix + this.columnOn(name, on, condition.field);
      if (condition.op === 'in') clauses.push(`${col} IN (${condition.values.map(() => '?').join(', ')})`), args.push(...condition.values);
      else clauses.push(`${col} ${condition.op} ?`), args.push(condition.value);
    }
    return { clauses, args };
  }

  /** A field's column in the views' table, or in a multi-valued field's table, which has only the fields its indexes name. */
  private columnOn(name: ProjectionName, on: ValuesTable | null, field: string): string {
    const { column, valueTables } = this.schema(name);
    if (on === null) {
      if (valueTables.has(field)) throw new TypeError(`multi-valued field ${field} of ${name} is matched by equality only, and sorted by never`);
      return column.get(field) ?? missingField(name, field);
    }
    if (field === 'key' || field === on.field || on.copies.some((c) => c.field === field)) return column.get(field)!;
    throw new TypeError(`no index of ${name} on ${on.field} names ${field}: a query on ${on.field} cannot select or sort by it`);
  }

  /**
   * A keyset page's statement: the conditions, then the bound after the last page's row as one
   * row-value comparison, the order, the limit. With a condition on a multi-valued field it reads
   * that field's table (`v`) in index order, and each view's row (`m`) by its key: CROSS JOIN keeps
   * SQLite from choosing the other way round.
   */
  private pageSql(name: ProjectionName, generation: number, select: (table: string) => string, query: PageQuery): { sql: string; args: unknown[] } {
    const where = withoutLooserBounds(query);
    const on = this.valuesTableOf(name, where);
    const t = on === null ? '' : 'v.';
    const { clauses, args } = this.conditions(name, where, on, t);
    const sorted = [...(query.order?.by ?? []).map((field) => t + this.columnOn(name, on, field)), `${t}key`];
    const direction = query.order?.direction ?? 'asc';
    if (query.after) {
      if (query.after.values.length !== sorted.length - 1) throw new TypeError(`a page of ${name} after ${query.after.values.length} sort values, for ${sorted.length - 1} sorted fields`);
      const beyond = direction === 'asc' ? '>' : '<';
      clauses.push(sorted.length === 1 ? `${t}key ${beyond} ?` : `(${sorted.join(', ')}) ${beyond} (${sorted.map(() => '?').join(', ')})`);
      args.push(...query.after.values, query.after.key);
    }
    const order = sorted.map((col) => `${col} ${direction === 'asc' ? 'ASC' : 'DESC'}`).join(', ');
    args.push(query.limit);
    const table = this.table(name, generation);
    const servedBy = this.keysetIndex(name, on, where, query.order?.by ?? []);
    const indexed = servedBy === null ? '' : ` INDEXED BY ${table}_i${servedBy}`;
    const from = on === null ? `${table}${indexed}` : `${this.valuesTable(name, generation, on)} AS v${indexed} CROSS JOIN ${table} AS m ON m.key = v.key`;
    return { sql: `SELECT ${select(on === null ? '' : 'm.')} FROM ${from}${whereClause(clauses)} ORDER BY ${order} ${BOUND_LIMIT}`, args };
  }

  /**
   * The declared index that serves a keyset page whole: it leads with the page's equalities (in
   * any order), then holds its sorted fields in order, and the page's other conditions are ranges
   * of the first sorted field. Such a page names it (INDEXED BY): without statistics, SQLite
   * prefers an index that takes two bounds of createdAt (a date range, or one bound and the
   * cursor's) to the one that takes one more equality, and then reads every row of the customer's
   * in the range to keep those of the status. Null when no index serves the page so (an IN, a
   * range on another field): the planner chooses then.
   */
  private keysetIndex(name: ProjectionName, on: ValuesTable | null, where: readonly Condition[], sorted: readonly string[]): number | null {
    const equalities = new Set<string>();
    for (const condition of where) {
      if (condition.op === '=') equalities.add(condition.field);
      else if (condition.op === 'in' || condition.field !== sorted[0]) return null;
    }
    const at = this.schema(name).indexes.findIndex((index) =>
      index.on === (on?.field ?? null) &&
      index.fields.length === equalities.size + sorted.length &&
      index.fields.slice(0, equalities.size).every((field) => equalities.has(field)) &&
      sorted.every((field, i) => index.fields[equalities.size + i] === field),
    );
    return at === -1 ? null : at;
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

/**
 * A page's conditions without a bound on its first sorted field that the row it starts after
 * already passes, on the side it pages towards (asc: from below): SQLite takes one bound of a
 * side into an index search, and given `created_at >= ?` and `(created_at, key) > (?, ?)` it may
 * take the first and read every row from the range's start up to the cursor's row, on every
 * later page. The row's own bound is at least as tight, so the page is the same.
 */
function withoutLooserBounds(query: PageQuery): readonly Condition[] {
  const where = query.where ?? [];
  const first = query.order?.by[0];
  const after = query.after?.values[0];
  if (first === undefined || after === undefined || after === null) return where;
  const asc = (query.order?.direction ?? 'asc') === 'asc';
  return where.filter((condition) => {
    if (condition.field !== first || condition.op === 'in' || condition.op === '=' || typeof condition.value !== typeof after) return true;
    if (asc) return !((condition.op === '>=' && after >= condition.value) || (condition.op === '>' && after > condition.value));
    return !((condition.op === '<=' && after <= condition.value) || (condition.op === '<' && after < condition.value));
  });
}

function whereClause(clauses: readonly string[]): string {
  return clauses.length === 0 ? '' : ` WHERE ${clauses.join(' AND ')}`;
}
