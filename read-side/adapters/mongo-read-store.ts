// The read-model store port on MongoDB (driver v7): one collection per projection generation,
// beside `projections` (each projection's active and latest generation) and `checkpoints`.
import {
  MongoBulkWriteError, MongoClient, MongoServerError,
  type AnyBulkWriteOperation, type Collection, type Db, type Document, type Filter, type FindCursor, type IndexDescription,
  type WriteError,
} from 'mongodb';
import { guard, mongoClientOptions, storeError } from '../../shared/adapters/mongo-errors.js';
import type { Position } from '../../write-side/kernel/event-store.js';
import {
  distinctValues, storageName, storageVersion,
  type Change, type Condition, type FieldValue, type StoredFieldValue, type KeyedChange, type Keyed, type OrderJson, type PageQuery, type ProjectionName, type ReadModelStore, type ReadStorage,
  type ViewStore,
} from '../read-store.js';

export { mongoClientOptions } from '../../shared/adapters/mongo-errors.js';

type Declared = ReadStorage[number];

/**
 * A projection's indexes on its documents: its declared indexes but those only SQL needs, each
 * field by its name in the document (a derived field by the members an equality on it matches; a
 * multi-valued one by the array kept under its name, which makes the index multikey), then _id.
 * One per filter/sort combination the queries use, so none of them scans or sorts in memory.
 */
export function mongoIndexes(declared: Declared): IndexDescription[] {
  const indexes: IndexDescription[] = [];
  for (const index of declared.indexes) {
    if ('embeddedOnly' in index) continue;
    const key: Record<string, 1> = {};
    const multi = index.filter((name) => multiValued(declared, name));
    if (multi.length > 1) throw new TypeError(`projection ${declared.name} declares an index on two multi-valued fields: ${multi.join(', ')}`);
    for (const name of index) {
      if (multiValued(declared, name)) {
        key[name] = 1;
        continue;
      }
      const field = declared.fields.find((f) => f.name === name);
      if (!field) throw new TypeError(`projection ${declared.name} declares no field ${name}`);
      for (const path of field.derived ? Object.keys(field.derived.equals) : [name]) key[path] = 1;
    }
    indexes.push({ key: { ...key, _id: 1 } });
  }
  return indexes;
}

const DUPLICATE_KEY = 11000;
const ACTIVE_CACHE_MS = 1000;
/** How often a write that collided on _id is tried again under its guard: once the document exists, the guard decides. */
const COLLISION_RETRIES = 1;

/** The collection that holds a projection's views of one generation. */
export function viewCollectionName(name: ProjectionName, generation: number): string {
  return `${storageName(name)}_g${generation}`;
}

type Stored = Document & { _id: string };
/** A recorded change: _id is its position, `key` the view it belongs to. */
type StoredChange = Document & { _id: string; key: string; change: Document };
/** `version`: of the active generation's storage (StorageDeclaration.version); absent before projections declared one, which is 1. */
interface ProjectionDoc { _id: string; active: number; latest: number; version?: number }
interface CheckpointDoc { _id: string; position: string }
interface LeaseDoc { _id: string; holder: string; expiresAt: Date }
interface ProcessCheckpointDoc { _id: string; position: string }

export class MongoReadStore implements ReadModelStore {
  private readonly projections: Collection<ProjectionDoc>;
  private readonly checkpoints: Collection<CheckpointDoc>;
  private readonly leases: Collection<LeaseDoc>;
  private readonly processCheckpoints: Collection<ProcessCheckpointDoc>;
  private readonly active = new Map<ProjectionName, { generation: number; until: number }>();

  private readonly storage: ReadonlyMap<ProjectionName, Declared>;

  private constructor(private readonly client: MongoClient, private readonly db: Db, storage: ReadStorage) {
    this.storage = new Map(storage.map((declared) => [declared.name, declared]));
    this.projections = db.collection('projections');
    this.checkpoints = db.collection('checkpoints');
    this.leases = db.collection('leases');
    this.processCheckpoints = db.collection('process_checkpoints');
  }

  /** `storage` is what each projection keeps (the registry's READ_STORAGE), from which its collections' indexes are made. */
  static async connect(url: string, database: string, storage: ReadStorage, options: { requestTimeoutMs?: number } = {}): Promise<MongoReadStore> {
    const client = new MongoClient(url, mongoClientOptions(options.requestTimeoutMs ?? 10_000));
    try {
      await client.connect();
      const store = new MongoReadStore(client, client.db(database), storage);
      for (const name of store.storage.keys()) {
        // A plain _id equality upsert: the server retries it on a duplicate key, so racing first starts are safe.
        await store.projections.updateOne({ _id: name }, { $setOnInsert: store.firstGeneration(name) }, { upsert: true });
        await store.upgrade(name);
        await store.createIndexes(name, await store.readActive(name));
      }
      return store;
    } catch (error) {
      await client.close().catch(() => undefined);
      throw storeError(error);
    }
  }

  private declared(name: ProjectionName): Declared {
    const declared = this.storage.get(name);
    if (!declared) throw new TypeError(`no storage is declared for projection ${name}`);
    return declared;
  }

  private collection(name: ProjectionName, generation: number): Collection<Stored> {
    return this.db.collection<Stored>(viewCollectionName(name, generation));
  }

  /**
   * A projection's metadata, seeded when it is missing: at the first start, and whenever the
   * database was dropped or restored without it under a running service.
   */
  private async projection(name: ProjectionName): Promise<ProjectionDoc> {
    const doc = await this.projections.findOne({ _id: name });
    if (doc) return doc;
    // A plain _id equality upsert: the server retries it on a duplicate key, so racing seeds are safe.
    await this.projections.updateOne({ _id: name }, { $setOnInsert: this.firstGeneration(name) }, { upsert: true });
    const seeded = await this.projections.findOne({ _id: name });
    if (!seeded) throw new Error(`projection ${name} has no metadata`);
    await this.createIndexes(name, seeded.active);
    return seeded;
  }

  /** A projection's metadata when it is first seeded: generation 1, of the shape declared now. */
  private firstGeneration(name: ProjectionName): Omit<ProjectionDoc, '_id'> {
    return { active: 1, latest: 1, version: storageVersion(this.declared(name)) };
  }

  /**
   * A store whose active generation is of an older shape than the projection declares now (its
   * storage version), or from before its projection recorded changes (views with a checkpoint
   * but no changes collection): a fresh generation replaces it, which the projector fills from
   * the start of the log, so that every view has the new shape and fields, and the feed misses no change.
   */
  private async upgrade(name: ProjectionName): Promise<void> {
    const { version = 1 } = await this.projection(name);
    if (version >= storageVersion(this.declared(name)) && !(await this.unrecorded(name, await this.readActive(name)))) return;
    await this.activateGeneration(name, await this.createGeneration(name));
  }

  /** Views with a checkpoint but no changes collection, of a projection that records its changes. */
  private async unrecorded(name: ProjectionName, generation: number): Promise<boolean> {
    const changes = this.changeCollection(name, generation);
    if (changes === null || !(await this.checkpoints.findOne({ _id: `${name}:${generation}` }))) return false;
    return (await this.db.listCollections({ name: changes.collectionName }, { nameOnly: true }).toArray()).length === 0;
  }

  /**
   * The view as its document: its members, and beside them the computed fields' values
   * (FieldDeclaration.computed) and each multi-valued field's values as an array (distinct, sorted).
   */
  private document(name: ProjectionName, view: object): Document {
    const declared = this.declared(name);
    const computed = declared.fields.filter((field) => field.computed);
    const multi = declared.multiValued ?? [];
    if (computed.length === 0 && multi.length === 0) return { ...view };
    return {
      ...view,
      ...Object.fromEntries(computed.map((field) => [field.name, (field.value as (view: object) => FieldValue)(view)])),
      ...Object.fromEntries(multi.map((field) => [field.name, distinctValues((field.values as (view: object) => readonly string[])(view))])),
    };
  }

  /** A stored document as its view: without _id, and without the computed and multi-valued fields kept beside the view's members. */
  private unstored<V>(name: ProjectionName, doc: Stored): V {
    const { _id, ...view } = doc;
    const declared = this.declared(name);
    for (const field of declared.fields) if (field.computed) delete view[field.name];
    for (const field of declared.multiValued ?? []) delete view[field.name];
    return view as V;
  }

  private changeCollection(name: ProjectionName, generation: number): Collection<StoredChange> | null {
    return this.declared(name).changes ? this.db.collection<StoredChange>(`${storageName(name)}_changes_g${generation}`) : null;
  }

  /** Also creates the collection. */
  private async createIndexes(name: ProjectionName, generation: number): Promise<void> {
    await this.collection(name, generation).createIndexes(mongoIndexes(this.declared(name)));
    await this.changeCollection(name, generation)?.createIndexes([{ key: { key: 1, _id: 1 } }]);
  }

  views<View, C = never>(name: ProjectionName, generation: number): ViewStore<View, C> {
    type V = View & { readonly revision: number };
    const collection = this.collection(name, generation);
    const changeCollection = this.changeCollection(name, generation);
    const changeOf = (doc: StoredChange): KeyedChange<C> => ({ key: doc.key, change: doc.change as C });
    const checkpoints = this.checkpoints;
    const checkpointId = `${name}:${generation}`;
    return {
      name,
      generation,
      checkpoint: () => guard(async () => ((await checkpoints.findOne({ _id: checkpointId }))?.position ?? null) as Position | null),
      load: (keys) => guard(async () => {
        const docs = await collection.find({ _id: { $in: [...keys] } }).toArray();
        return new Map(docs.map((doc) => [doc._id, this.unstored<V>(name, doc)]));
      }),
      commit: (views: readonly Keyed<View>[], checkpoint: Position, changes: readonly KeyedChange<C>[] = []) => guard(async () => {
        if (changes.length > 0 && changeCollection === null) throw new TypeError(`projection ${name} records no changes`);
        if (views.length > 0) {
          // A stored view whose revision is not older fails the filter, so the upsert collides on _id: nothing to
          // write. But so does an insert that lost a race with another projector's insert of the same view, which
          // may carry an older revision: the colliding writes are tried again, one by one, under the same guard.
          const writes: AnyBulkWriteOperation<Stored>[] = views.map(({ key, view }) => ({
            replaceOne: { filter: { _id: key, revision: { $lt: view.revision } }, replacement: this.document(name, view), upsert: true },
          }));
          const collided = (await collection.bulkWrite(writes, { ordered: false }).then(() => [], collidedWrites)).map((index) => views[index]!);
          if (collided.length > 0) {
            // Mostly a replayed batch, whose views are all stored already: ask once which are older.
            const stored = await collection.find({ _id: { $in: collided.map(({ key }) => key) } }, { projection: { revision: 1 } }).toArray();
            const revisions = new Map(stored.map((doc) => [doc._id, doc['revision'] as number]));
            for (const { key, view } of collided) {
              if ((revisions.get(key) ?? -1) >= view.revision) continue;
              await underGuard(() => collection.replaceOne({ _id: key, revision: { $lt: view.revision } }, this.document(name, view), { upsert: true }));
            }
          }
        }
        // Before the checkpoint, so that changes read after a checkpoint include every change up to it.
        // A change already recorded (a batch applied again) collides on its position: nothing to write.
        if (changes.length > 0) {
          const docs = changes.map(({ key, change }) => ({ _id: (change as Change).position, key, change: { ...(change as Document) } }));
          await changeCollection!.insertMany(docs, { ordered: false }).catch((error: unknown) => void collidedWrites(error));
        }
        // Likewise: a collision means a newer checkpoint is stored, or another first one raced this one in.
        await underGuard(() =>
          checkpoints.updateOne(
            { _id: checkpointId, $or: [{ position: { $lt: checkpoint } }, { position: { $exists: false } }] },
            { $set: { position: checkpoint } },
            { upsert: true },
          ),
        );
        // A process still committing to a generation that another one has since retired (and dropped)
        // has just recreated its collection, without indexes: drop that orphan again. Read after the
        // write, the active generation shows every retirement whose drop could have come first.
        if (generation < (await this.projection(name)).active) await this.dropGeneration(name, generation);
      }),
      fields: (keys) => guard(async () => {
        const declared = this.declared(name);
        const docs = await collection.find({ _id: { $in: [...keys] } }).toArray();
        return new Map(docs.map((doc) => [doc._id, storedFields(declared, doc)]));
      }),
      scan: (afterKey, limit) => guard(async () => {
        const docs = await page(collection.find({ _id: { $gt: afterKey ?? '' } }).sort({ _id: 1 }), limit);
        return docs.map((doc) => ({ key: doc._id, view: this.unstored<V>(name, doc) }));
      }),
      changes: (after, limit) => guard(async () => {
        if (changeCollection === null) return [];
        return (await page(changeCollection.find({ _id: { $gt: after ?? '' } }).sort({ _id: 1 }), limit)).map(changeOf);
      }),
      changesOf: (keys) => guard(async () => {
        if (changeCollection === null) return [];
        return (await changeCollection.find({ key: { $in: [...keys] } }).sort({ _id: 1 }).toArray()).map(changeOf);
      }),
    };
  }

  async activeGeneration(name: ProjectionName): Promise<number> {
    const cached = this.active.get(name);
    if (cached && cached.until > Date.now()) return cached.generation;
    return guard(() => this.readActive(name));
  }

  private async readActive(name: ProjectionName): Promise<number> {
    const doc = await this.projection(name);
    this.active.set(name, { generation: doc.active, until: Date.now() + ACTIVE_CACHE_MS });
    return doc.active;
  }

  createGeneration(name: ProjectionName): Promise<number> {
    return guard(async () => {
      await this.projection(name);
      const doc = await this.projections.findOneAndUpdate({ _id: name }, { $inc: { latest: 1 } }, { returnDocument: 'after' });
      if (!doc) throw new Error(`projection ${name} has no metadata`);
      await this.createIndexes(name, doc.latest);
      return doc.latest;
    });
  }

  activateGeneration(name: ProjectionName, generation: number): Promise<void> {
    return guard(async () => {
      // Filled by this build: of the shape its projection declares now.
      await this.projections.updateOne({ _id: name }, { $set: { active: generation, version: storageVersion(this.declared(name)) } });
      this.active.set(name, { generation, until: Date.now() + ACTIVE_CACHE_MS });
      const older = (n: number) => Number.isInteger(n) && n < generation;
      for (const prefix of [`${storageName(name)}_g`, ...(this.declared(name).changes ? [`${storageName(name)}_changes_g`] : [])]) {
        const collections = await this.db.listCollections({ name: { $regex: `^${prefix}\\d+$` } }, { nameOnly: true }).toArray();
        for (const { name: collection } of collections) {
          if (older(Number(collection.slice(prefix.length)))) await this.db.dropCollection(collection).catch(ignoreMissing);
        }
      }
      const stale = await this.checkpoints.find({ _id: { $regex: `^${name}:\\d+$` } }, { projection: { _id: 1 } }).toArray();
      const ids = stale.map((doc) => doc._id).filter((id) => older(Number(id.slice(name.length + 1))));
      if (ids.length > 0) await this.checkpoints.deleteMany({ _id: { $in: ids } });
    });
  }

  /** Removes a retired generation's views and checkpoint. */
  private async dropGeneration(name: ProjectionName, generation: number): Promise<void> {
    await this.collection(name, generation).drop().catch(ignoreMissing);
    await this.checkpoints.deleteOne({ _id: `${name}:${generation}` });
  }

  /**
   * Runs a query on the active generation. An empty answer may come from a generation another
   * process has just activated past and dropped (our cached number is up to a second old), so
   * that case asks again on the generation now active.
   */
  private onActive<T>(name: ProjectionName, query: (generation: number) => Promise<T>, empty: (result: T) => boolean): Promise<T> {
    return guard(async () => {
      const generation = await this.activeGeneration(name);
      const result = await query(generation);
      if (!empty(result)) return result;
      const now = await this.readActive(name);
      return now === generation ? result : query(now);
    });
  }

  processCheckpoint(name: string): Promise<Position | null> {
    return guard(async () => ((await this.processCheckpoints.findOne({ _id: name }))?.position ?? null) as Position | null);
  }

  saveProcessCheckpoint(name: string, position: Position): Promise<void> {
    // A stored position not older than this one fails the filter: the upsert collides on _id, nothing to write.
    return guard(() =>
      underGuard(() =>
        this.processCheckpoints.updateOne({ _id: name, position: { $lt: position } }, { $set: { position } }, { upsert: true }),
      ),
    );
  }

  acquireLease(name: string, holder: string, ttlMs: number): Promise<boolean> {
    // The server's clock ($$NOW) decides, so that holders on machines whose clocks differ agree.
    // A lease held by another and not yet lapsed fails the filter, and the upsert then collides
    // on _id: not taken.
    return guard(async () => {
      try {
        await this.leases.updateOne(
          { _id: name, $or: [{ holder }, { $expr: { $lte: ['$expiresAt', '$$NOW'] } }] },
          [{ $set: { holder, expiresAt: { $add: ['$$NOW', ttlMs] } } }],
          { upsert: true },
        );
        return true;
      } catch (error) {
        if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) return false;
        throw error;
      }
    });
  }

  releaseLease(name: string, holder: string): Promise<void> {
    return guard(async () => void (await this.leases.deleteOne({ _id: name, holder })));
  }

  find<V>(name: ProjectionName, keys: readonly string[]): Promise<Map<string, V>> {
    return this.onActive(
      name,
      async (g) => {
        const collection = this.collection(name, g);
        const docs = keys.length === 1 ? [await collection.findOne({ _id: keys[0]! })].filter((doc) => doc !== null) : await collection.find({ _id: { $in: [...keys] } }).toArray();
        return new Map(docs.map((doc) => [doc._id, this.unstored<V>(name, doc)]));
      },
      (found) => found.size === 0,
    );
  }

  page<V>(name: ProjectionName, query: PageQuery): Promise<V[]> {
    const { filter, sort } = mongoPage(this.declared(name), query);
    return this.onActive(
      name,
      async (g) => (await page(this.collection(name, g).find(filter).sort(sort), query.limit)).map((doc) => this.unstored<V>(name, doc)),
      (views) => views.length === 0,
    );
  }

  async listOrderJson(query: PageQuery): Promise<OrderJson[]> {
    const views = await this.page<{ id: string; createdAt: string; total: number }>('order-views', query);
    return views.map((view) => ({ id: view.id, createdAt: view.createdAt, total: view.total, json: JSON.stringify(view) }));
  }

  count(name: ProjectionName, where: readonly Condition[]): Promise<number> {
    const filter = mongoFilter(this.declared(name), where);
    return this.onActive(name, (g) => this.collection(name, g).countDocuments(filter), (n) => n === 0);
  }

  changesAfter<C>(name: ProjectionName, after: Position | null, limit: number): Promise<{ changes: C[]; checkpoint: Position | null }> {
    return guard(async () => {
      const views = this.views<unknown, C>(name, await this.activeGeneration(name));
      // The checkpoint first: the changes read after it include every change up to it.
      const checkpoint = await views.checkpoint();
      const changes = (await views.changes(after, limit)).map((row) => row.change);
      return { changes, checkpoint };
    });
  }

  /** For tests: removes this store's whole database. */

  dropDatabase(): Promise<void> {
    return guard(async () => void (await this.db.dropDatabase()));
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/**
 * The declared fields' values in a stored document: a derived one as its members say it (1 when
 * they hold its values), any other as the member of its name (a computed one kept beside the view's).
 */
function storedFields(declared: Declared, doc: Stored): Record<string, StoredFieldValue> {
  const values: Record<string, StoredFieldValue> = {};
  for (const field of declared.fields) {
    const derived = field.derived;
    if (derived) {
      const holds = Object.entries(derived.equals).every(([path, value]) => doc[path] === value) && derived.present.every((path) => doc[path] != null);
      values[field.name] = holds ? 1 : 0;
    } else values[field.name] = (doc[field.name] ?? null) as FieldValue;
  }
  for (const field of declared.multiValued ?? []) values[field.name] = Array.isArray(doc[field.name]) ? [...(doc[field.name] as string[])] : [];
  return values;
}

/** MongoDB reads limit(0) as "no limit"; here, as in SQL, it means none. */
function page<T>(cursor: FindCursor<T>, limit: number): Promise<T[]> {
  return limit > 0 ? cursor.limit(limit).toArray() : cursor.close().then(() => []);
}

/**
 * The indexes of the writes of an unordered bulk write that collided on a duplicate key (see
 * commit); any other failure is thrown as it is.
 */
export function collidedWrites(error: unknown): number[] {
  if (error instanceof MongoBulkWriteError) {
    const writeErrors = ([] as WriteError[]).concat(error.writeErrors);
    const duplicatesOnly = writeErrors.length > 0 && writeErrors.every((e) => e.code === DUPLICATE_KEY);
    if (duplicatesOnly && !error.result?.getWriteConcernError()) return writeErrors.map((e) => e.index);
  }
  throw error;
}

/**
 * Runs a guarded upsert until it either writes or collides on a document that the guard keeps
 * (a newer one): a collision can also come from a racing insert, after which the guard decides.
 */
export async function underGuard(write: () => Promise<unknown>, retries = COLLISION_RETRIES): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await write();
      return;
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === DUPLICATE_KEY)) throw error;
      // The document exists now. Once its own revision (or position) has been compared with
      // ours by the guard, the collision means it is the newer one: nothing to write.
      if (attempt >= retries) return;
    }
  }
}

function ignoreMissing(error: unknown): void {
  // NamespaceNotFound: already gone.
  if (error instanceof MongoServerError && (error.code === 26 || error.codeName === 'NamespaceNotFound')) return;
  throw error;
}

/** The conditions on a projection's documents: a derived field's equality by the members it is derived from. */
export function mongoFilter(declared: Declared, where: readonly Condition[]): Filter<Stored> {
  const filter: Record<string, unknown> = {};
  const multi = where.filter((condition) => multiValued(declared, condition.field));
  if (multi.length > 1) throw new TypeError(`a query of ${declared.name} with conditions on several multi-valued fields: ${multi.map((c) => c.field).join(', ')}`);
  for (const condition of where) {
    if (multiValued(declared, condition.field)) {
      // An equality on the array kept under the field's name: any of its values.
      if (condition.op !== '=') throw new TypeError(`multi-valued field ${condition.field} is matched by equality only`);
      filter[condition.field] = condition.value;
      continue;
    }
    const derived = declaredField(declared, condition.field)?.derived;
    if (derived) {
      if (condition.op !== '=' || condition.value !== 1) throw new TypeError(`derived field ${condition.field} is matched as equal to 1 only`);
      Object.assign(filter, derived.equals);
      for (const path of derived.present) filter[path] = { $ne: null };
      continue;
    }
    const path = condition.field === 'key' ? '_id' : condition.field;
    if (condition.op === 'in') filter[path] = { $in: [...condition.values] };
    else if (condition.op === '=') filter[path] = condition.value;
    else {
      const current = filter[path];
      filter[path] = { ...(typeof current === 'object' && current !== null ? current : {}), [OPERATORS[condition.op]]: condition.value };
    }
  }
  return filter as Filter<Stored>;
}

const OPERATORS = { '<': '$lt', '<=': '$lte', '>': '$gt', '>=': '$gte' } as const;

/** Whether the projection declares the field as multi-valued (MultiValuedFieldDeclaration). */
function multiValued(declared: Declared, name: string): boolean {
  return (declared.multiValued ?? []).some((field) => field.name === name);
}

/** A declared field (undefined for the key), or a TypeError: a query on anything else would scan, and SQL would refuse it. */
function declaredField(declared: Declared, name: string): Declared['fields'][number] | undefined {
  if (name === 'key') return undefined;
  const field = declared.fields.find((f) => f.name === name);
  if (!field) throw new TypeError(`projection ${declared.name} declares no field ${name}`);
  return field;
}

/**
 * One keyset page: the filter and the sort its index serves. After a row, the bound on the first
 * sorted field is also given outside the $or, so that the index scan starts at the row instead of
 * at the start of the filter's range.
 */
export function mongoPage(declared: Declared, query: PageQuery): { filter: Filter<Stored>; sort: Record<string, 1 | -1> } {
  const filter = mongoFilter(declared, query.where ?? []);
  const order = query.order?.direction === 'desc' ? -1 : 1;
  for (const name of query.order?.by ?? []) declaredField(declared, name);
  const sorted = [...(query.order?.by ?? []), '_id'];
  if (query.after) {
    const values = [...query.after.values, query.after.key];
    if (values.length !== sorted.length) throw new TypeError(`a page of ${declared.name} after ${values.length - 1} sort values, for ${sorted.length - 1} sorted fields`);
    const beyond = order === 1 ? '$gt' : '$lt';
    if (sorted.length === 1) filter['_id'] = { [beyond]: query.after.key };
    else {
      filter.$and = [{ [sorted[0]!]: { [order === 1 ? '$gte' : '$lte']: values[0] } }];
      filter.$or = sorted.map((path, i) => ({
        ...Object.fromEntries(sorted.slice(0, i).map((earlier, j) => [earlier, values[j]])),
        [path]: { [beyond]: values[i] },
      }));
    }
  }
  return { filter, sort: Object.fromEntries(sorted.map((path) => [path, order])) };
}
