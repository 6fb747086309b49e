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
  PROJECTION_NAMES,
  type AccountKey,
  type Change, type Changes, type CustomerFilter, type CustomerKey, type KeyedChange,
  type Keyed, type OrderFilter, type OrderJson, type OrderKey, type ProductFilter, type ProductKey, type ProductSort, type ProjectionName, type QueueKey, type ReadModelStore, type SortDirection,
  type ViewStore, type Views,
} from '../read-store.js';
import type { AccountView, CustomerView, JobView, OrderView, ProductView, QueueChange, QueueEntry, StockView } from '../views.js';

export { mongoClientOptions } from '../../shared/adapters/mongo-errors.js';

const COLLECTIONS: { readonly [N in ProjectionName]: string } = {
  'order-views': 'order_views', 'fulfilment-queue': 'fulfilment_queue', jobs: 'jobs', products: 'products', customers: 'customers', stock: 'stock', accounts: 'accounts',
};
/** The collections of the projections that record their changes (one per generation, _id the position). */
const CHANGE_COLLECTIONS: { readonly [N in ProjectionName]?: string } = { 'fulfilment-queue': 'fulfilment_queue_changes' };

/** One index per filter/sort combination the queries use, so none of them scans or sorts in memory. */
export const INDEXES: { readonly [N in ProjectionName]: IndexDescription[] } = {
  'order-views': [
    { key: { createdAt: 1, _id: 1 } },
    { key: { status: 1, createdAt: 1, _id: 1 } },
    { key: { customerId: 1, createdAt: 1, _id: 1 } },
    { key: { customerId: 1, status: 1, createdAt: 1, _id: 1 } },
  ],
  'fulfilment-queue': [{ key: { state: 1, paidAt: 1, _id: 1 } }],
  jobs: [{ key: { status: 1, createdAt: 1, _id: 1 } }, { key: { status: 1, finishedAt: 1, _id: 1 } }],
  products: [{ key: { status: 1, _id: 1 } }, { key: { status: 1, updatedAt: 1, _id: 1 } }],
  customers: [{ key: { createdAt: 1, _id: 1 } }, { key: { emailKey: 1, createdAt: 1, _id: 1 } }],
  accounts: [{ key: { createdAt: 1, _id: 1 } }],
  // Pages go by _id (the SKU); `below` filters on available within them.
  stock: [{ key: { available: 1, _id: 1 } }],
};

const DUPLICATE_KEY = 11000;
const ACTIVE_CACHE_MS = 1000;
/** How often a write that collided on _id is tried again under its guard: once the document exists, the guard decides. */
const COLLISION_RETRIES = 1;

/** The collection that holds a projection's views of one generation. */
export function viewCollectionName(name: ProjectionName, generation: number): string {
  return `${COLLECTIONS[name]}_g${generation}`;
}

type Stored = Document & { _id: string };
/** A recorded change: _id is its position, `key` the view it belongs to. */
type StoredChange = Document & { _id: string; key: string; change: Document };
interface ProjectionDoc { _id: ProjectionName; active: number; latest: number }
interface CheckpointDoc { _id: string; position: string }
interface LeaseDoc { _id: string; holder: string; expiresAt: Date }
interface ProcessCheckpointDoc { _id: string; position: string }

export class MongoReadStore implements ReadModelStore {
  private readonly projections: Collection<ProjectionDoc>;
  private readonly checkpoints: Collection<CheckpointDoc>;
  private readonly leases: Collection<LeaseDoc>;
  private readonly processCheckpoints: Collection<ProcessCheckpointDoc>;
  private readonly active = new Map<ProjectionName, { generation: number; until: number }>();

  private constructor(private readonly client: MongoClient, private readonly db: Db) {
    this.projections = db.collection('projections');
    this.checkpoints = db.collection('checkpoints');
    this.leases = db.collection('leases');
    this.processCheckpoints = db.collection('process_checkpoints');
  }

  static async connect(url: string, database: string, options: { requestTimeoutMs?: number } = {}): Promise<MongoReadStore> {
    const client = new MongoClient(url, mongoClientOptions(options.requestTimeoutMs ?? 10_000));
    try {
      await client.connect();
      const store = new MongoReadStore(client, client.db(database));
      for (const name of PROJECTION_NAMES) {
        // A plain _id equality upsert: the server retries it on a duplicate key, so racing first starts are safe.
        await store.projections.updateOne({ _id: name }, { $setOnInsert: { active: 1, latest: 1 } }, { upsert: true });
        await store.upgrade(name);
        await store.createIndexes(name, await store.readActive(name));
      }
      return store;
    } catch (error) {
      await client.close().catch(() => undefined);
      throw storeError(error);
    }
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
    await this.projections.updateOne({ _id: name }, { $setOnInsert: { active: 1, latest: 1 } }, { upsert: true });
    const seeded = await this.projections.findOne({ _id: name });
    if (!seeded) throw new Error(`projection ${name} has no metadata`);
    await this.createIndexes(name, seeded.active);
    return seeded;
  }

  /**
   * A store from before its projection recorded changes: views with a checkpoint but no changes
   * collection. A fresh generation replaces them, which the projector fills from the start of the
   * log, so that the feed misses no change.
   */
  private async upgrade(name: ProjectionName): Promise<void> {
    const active = await this.readActive(name);
    const changes = this.changeCollection(name, active);
    if (changes === null || !(await this.checkpoints.findOne({ _id: `${name}:${active}` }))) return;
    if ((await this.db.listCollections({ name: changes.collectionName }, { nameOnly: true }).toArray()).length > 0) return;
    await this.activateGeneration(name, await this.createGeneration(name));
  }

  private changeCollection(name: ProjectionName, generation: number): Collection<StoredChange> | null {
    const collection = CHANGE_COLLECTIONS[name];
    return collection === undefined ? null : this.db.collection<StoredChange>(`${collection}_g${generation}`);
  }

  /** Also creates the collection. */
  private async createIndexes(name: ProjectionName, generation: number): Promise<void> {
    await this.collection(name, generation).createIndexes(INDEXES[name]);
    await this.changeCollection(name, generation)?.createIndexes([{ key: { key: 1, _id: 1 } }]);
  }

  views<N extends ProjectionName>(name: N, generation: number): ViewStore<Views[N], Changes[N]> {
    type V = Views[N] & { readonly revision: number };
    type C = Changes[N];
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
        return new Map(docs.map((doc) => [doc._id, unstored<V>(doc)]));
      }),
      commit: (views: readonly Keyed<Views[N]>[], checkpoint: Position, changes: readonly KeyedChange<C>[] = []) => guard(async () => {
        if (changes.length > 0 && changeCollection === null) throw new TypeError(`projection ${name} records no changes`);
        if (views.length > 0) {
          // A stored view whose revision is not older fails the filter, so the upsert collides on _id: nothing to
          // write. But so does an insert that lost a race with another projector's insert of the same view, which
          // may carry an older revision: the colliding writes are tried again, one by one, under the same guard.
          const writes: AnyBulkWriteOperation<Stored>[] = views.map(({ key, view }) => ({
            replaceOne: { filter: { _id: key, revision: { $lt: view.revision } }, replacement: { ...view }, upsert: true },
          }));
          const collided = (await collection.bulkWrite(writes, { ordered: false }).then(() => [], collidedWrites)).map((index) => views[index]!);
          if (collided.length > 0) {
            // Mostly a replayed batch, whose views are all stored already: ask once which are older.
            const stored = await collection.find({ _id: { $in: collided.map(({ key }) => key) } }, { projection: { revision: 1 } }).toArray();
            const revisions = new Map(stored.map((doc) => [doc._id, doc['revision'] as number]));
            for (const { key, view } of collided) {
              if ((revisions.get(key) ?? -1) >= view.revision) continue;
              await underGuard(() => collection.replaceOne({ _id: key, revision: { $lt: view.revision } }, { ...view }, { upsert: true }));
            }
          }
        }
        // Before the checkpoint, so that changes read after a checkpoint include every change up to it.
        // A change already recorded (a batch applied again) collides on its position: nothing to write.
        if (changes.length > 0) {
          const docs = changes.map(({ key, change }) => ({ _id: (change as Change).position, key, change: { ...change } }));
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
      scan: (afterKey, limit) => guard(async () => {
        const docs = await page(collection.find({ _id: { $gt: afterKey ?? '' } }).sort({ _id: 1 }), limit);
        return docs.map((doc) => ({ key: doc._id, view: unstored<V>(doc) }));
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
      await this.projections.updateOne({ _id: name }, { $set: { active: generation } });
      this.active.set(name, { generation, until: Date.now() + ACTIVE_CACHE_MS });
      const older = (n: number) => Number.isInteger(n) && n < generation;
      for (const prefix of [`${COLLECTIONS[name]}_g`, ...(CHANGE_COLLECTIONS[name] === undefined ? [] : [`${CHANGE_COLLECTIONS[name]}_g`])]) {
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

  getOrder(id: string): Promise<OrderView | null> {
    return this.onActive(
      'order-views',
      async (g) => {
        const doc = await this.collection('order-views', g).findOne({ _id: id });
        return doc ? unstored<OrderView>(doc) : null;
      },
      (view) => view === null,
    );
  }

  listOrders(filter: OrderFilter, direction: SortDirection, after: OrderKey | null, limit: number): Promise<OrderView[]> {
    const { query, sort } = orderPageQuery(filter, direction, after);
    return this.onActive(
      'order-views',
      async (g) => (await page(this.collection('order-views', g).find(query).sort(sort), limit)).map((doc) => unstored<OrderView>(doc)),
      (views) => views.length === 0,
    );
  }

  async listOrderJson(filter: OrderFilter, direction: SortDirection, after: OrderKey | null, limit: number): Promise<OrderJson[]> {
    return (await this.listOrders(filter, direction, after, limit)).map((view) => ({ id: view.id, createdAt: view.createdAt, json: JSON.stringify(view) }));
  }

  countOrders(filter: OrderFilter): Promise<number> {
    return this.onActive('order-views', (g) => this.collection('order-views', g).countDocuments(orderQuery(filter)), (n) => n === 0);
  }

  listQueue(after: QueueKey | null, limit: number): Promise<QueueEntry[]> {
    const { query, sort } = queuePageQuery(after);
    return this.onActive(
      'fulfilment-queue',
      async (g) => (await page(this.collection('fulfilment-queue', g).find(query).sort(sort), limit)).map((doc) => unstored<QueueEntry>(doc)),
      (entries) => entries.length === 0,
    );
  }

  listStock(below: number | null, afterSku: string | null, limit: number): Promise<StockView[]> {
    const query: Filter<Stored> = { _id: { $gt: afterSku ?? '' }, ...(below === null ? {} : { available: { $lt: below } }) };
    return this.onActive(
      'stock',
      async (g) => (await page(this.collection('stock', g).find(query).sort({ _id: 1 }), limit)).map((doc) => unstored<StockView>(doc)),
      (levels) => levels.length === 0,
    );
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

  listCustomers(filter: CustomerFilter, after: CustomerKey | null, limit: number): Promise<CustomerView[]> {
    const { query, sort } = customerPageQuery(filter, after);
    return this.onActive(
      'customers',
      async (g) => (await page(this.collection('customers', g).find(query).sort(sort), limit)).map((doc) => unstored<CustomerView>(doc)),
      (views) => views.length === 0,
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

  listQueueChanges(after: Position | null, limit: number): Promise<{ changes: QueueChange[]; checkpoint: Position | null }> {
    return guard(async () => {
      const views = this.views('fulfilment-queue', await this.activeGeneration('fulfilment-queue'));
      // The checkpoint first: the changes read after it include every change up to it.
      const checkpoint = await views.checkpoint();
      const changes = (await views.changes(after, limit)).map((row) => row.change);
      return { changes, checkpoint };
    });
  }

  listProducts(filter: ProductFilter, sort: ProductSort, after: ProductKey | null, limit: number): Promise<ProductView[]> {
    const { query, sort: order } = productPageQuery(filter, sort, after);
    return this.onActive(
      'products',
      async (g) => (await page(this.collection('products', g).find(query).sort(order), limit)).map((doc) => unstored<ProductView>(doc)),
      (products) => products.length === 0,
    );
  }

  listOpenJobs(limit: number): Promise<JobView[]> {
    return this.onActive(
      'jobs',
      async (g) => (await page(this.collection('jobs', g).find({ status: { $in: ['queued', 'running'] } }).sort({ createdAt: 1, _id: 1 }), limit)).map((doc) => unstored<JobView>(doc)),
      (jobs) => jobs.length === 0,
    );
  }

  listJobResults(limit: number): Promise<JobView[]> {
    return this.onActive(
      'jobs',
      async (g) => (await page(this.collection('jobs', g).find({ status: 'succeeded', result: { $ne: null } }).sort({ finishedAt: 1, _id: 1 }), limit)).map((doc) => unstored<JobView>(doc)),
      (jobs) => jobs.length === 0,
    );
  }

  listAccounts(after: AccountKey | null, limit: number): Promise<AccountView[]> {
    const { query, sort } = accountPageQuery(after);
    return this.onActive(
      'accounts',
      async (g) => (await page(this.collection('accounts', g).find(query).sort(sort), limit)).map((doc) => unstored<AccountView>(doc)),
      (accounts) => accounts.length === 0,
    );
  }

  /** For tests: removes this store's whole database. */
  dropDatabase(): Promise<void> {
    return guard(async () => void (await this.db.dropDatabase()));
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

function unstored<V>(doc: Stored): V {
  const { _id, ...view } = doc;
  return view as V;
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

/**
 * One keyset page of orders: the filter and the sort its index serves. After a key, the
 * bound on createdAt is also given outside the $or, so that the index scan starts at the
 * key instead of at the start of the filter's range.
 */
export function orderPageQuery(filter: OrderFilter, direction: SortDirection, after: OrderKey | null): { query: Filter<Stored>; sort: Record<string, 1 | -1> } {
  const query = orderQuery(filter);
  const order = direction === 'asc' ? 1 : -1;
  if (after) {
    const beyond = direction === 'asc' ? '$gt' : '$lt';
    const from = direction === 'asc' ? '$gte' : '$lte';
    query.$and = [{ createdAt: { [from]: after.createdAt } }];
    query.$or = [{ createdAt: { [beyond]: after.createdAt } }, { createdAt: after.createdAt, _id: { [beyond]: after.id } }];
  }
  return { query, sort: { createdAt: order, _id: order } };
}

/** One keyset page of accounts, newest first; the index on (createdAt, _id) serves it backwards. */
export function accountPageQuery(after: AccountKey | null): { query: Filter<Stored>; sort: Record<string, -1> } {
  const query: Filter<Stored> = {};
  if (after) {
    query.$and = [{ createdAt: { $lte: after.createdAt } }];
    query.$or = [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, _id: { $lt: after.id } }];
  }
  return { query, sort: { createdAt: -1, _id: -1 } };
}

/** One keyset page of customers, newest first; the email filter is served by its own index. */
export function customerPageQuery(filter: CustomerFilter, after: CustomerKey | null): { query: Filter<Stored>; sort: Record<string, -1> } {
  const query: Filter<Stored> = {};
  if (filter.emailKey !== undefined) query['emailKey'] = filter.emailKey;
  if (after) {
    query.$and = [{ createdAt: { $lte: after.createdAt } }];
    query.$or = [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, _id: { $lt: after.id } }];
  }
  return { query, sort: { createdAt: -1, _id: -1 } };
}

/** One keyset page of the fulfilment queue, oldest payment first. */
export function queuePageQuery(after: QueueKey | null): { query: Filter<Stored>; sort: Record<string, 1> } {
  const query: Filter<Stored> = { state: 'queued' };
  if (after) {
    query.$and = [{ paidAt: { $gte: after.paidAt } }];
    query.$or = [{ paidAt: { $gt: after.paidAt } }, { paidAt: after.paidAt, _id: { $gt: after.orderId } }];
  }
  return { query, sort: { paidAt: 1, _id: 1 } };
}

/**
 * One keyset page of products, retired ones left out: by sku (_id) ascending, or by (updatedAt,
 * sku) descending. The status is always an equality or an $in, so the { status, … } indexes serve both.
 */
export function productPageQuery(filter: ProductFilter, sort: ProductSort, after: ProductKey | null): { query: Filter<Stored>; sort: Record<string, 1 | -1> } {
  const query: Filter<Stored> = { status: filter.status ?? { $in: ['draft', 'active'] } };
  if (sort === 'sku') {
    if (after) query['_id'] = { $gt: after.sku };
    return { query, sort: { _id: 1 } };
  }
  if (after) {
    const updatedAt = after.updatedAt ?? '';
    query.$and = [{ updatedAt: { $lte: updatedAt } }];
    query.$or = [{ updatedAt: { $lt: updatedAt } }, { updatedAt, _id: { $lt: after.sku } }];
  }
  return { query, sort: { updatedAt: -1, _id: -1 } };
}

function orderQuery(filter: OrderFilter): Filter<Stored> {
  const query: Filter<Stored> = {};
  if (filter.status !== undefined) query['status'] = filter.status;
  if (filter.customerId !== undefined) query['customerId'] = filter.customerId;
  if (filter.createdFrom !== undefined || filter.createdTo !== undefined) {
    query['createdAt'] = {
      ...(filter.createdFrom !== undefined ? { $gte: filter.createdFrom } : {}),
      ...(filter.createdTo !== undefined ? { $lt: filter.createdTo } : {}),
    };
  }
  return query;
}
