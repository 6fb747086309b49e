// The MongoDB read store's own decisions. Those that need no server run always: the driver's
// time bounds, the index behind every page query, the guarded retry of a colliding write. Those
// that need one (racing projectors, metadata seeded again, orphaned generations, the query
// plans) run when MONGO_URL is set, each on a database of its own.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { MongoClient, MongoNetworkTimeoutError, MongoParseError, MongoServerError, type Document, type IndexDescription } from 'mongodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toProblem } from '../../api/problem.js';
import { storeError } from '../../shared/adapters/mongo-errors.js';
import { MongoReadStore, mongoClientOptions, mongoIndexes, mongoPage, underGuard, viewCollectionName } from '../../read-side/adapters/mongo-read-store.js';
import type { PageQuery, SortDirection } from '../../read-side/read-store.js';
import { accountPage } from '../../read-side/accounts/queries.js';
import { productPage } from '../../read-side/catalogue/queries.js';
import { customerPage } from '../../read-side/customers/queries.js';
import { orderPage, queuePage, type OrderFilter } from '../../read-side/orders/queries.js';
import type { ProductView } from '../../read-side/catalogue/views.js';
import type { OrderView, QueueEntry } from '../../read-side/orders/views.js';
import { READ_STORAGE, type ProjectionName } from '../../projections/registry.js';
import { StoreUnavailable, type Position } from '../../write-side/kernel/event-store.js';
import { encodeSequence } from '../../write-side/kernel/position.js';
import { mongoUrl } from '../support/read-stores.js';
import { declaredIndexesFor, expectedPage, LISTED_VALUES, listedViews, offeredOrderLists, pageOf as orderListPage } from './order-lists.js';

const FILTERS: OrderFilter[] = [
  {},
  { status: 'paid' },
  { customerId: 'cus_1' },
  { customerId: 'cus_1', status: 'paid' },
  { createdFrom: '2026-01-01T00:00:00.000Z', createdTo: '2026-12-01T00:00:00.000Z' },
  { status: 'paid', createdFrom: '2026-01-01T00:00:00.000Z' },
  { customerId: 'cus_1', status: 'paid', createdTo: '2026-12-01T00:00:00.000Z' },
  // As clients before 2027-01-01 read the status: by the computed legacyStatus.
  { status: 'paid', apiVersion: '2026-12-01' },
  { customerId: 'cus_1', status: 'paid', apiVersion: '2026-11-01', createdFrom: '2026-01-01T00:00:00.000Z' },
];
const DIRECTIONS: SortDirection[] = ['asc', 'desc'];
/** The driver's own class for a pool that had no free connection in time; it does not export it, nor type it. */
const { WaitQueueTimeoutError } = createRequire(import.meta.url)('mongodb/lib/cmap/errors.js') as { WaitQueueTimeoutError: new (message: string, address: string) => Error };
/** A projection's declared storage, as the composition root hands it to the adapter. */
const declared = (name: string) => READ_STORAGE.find((storage) => storage.name === name)!;
/** Each projection's index keys, as the adapter creates them. */
const INDEXES = Object.fromEntries(READ_STORAGE.map((storage) => [storage.name, mongoIndexes(storage)])) as Record<ProjectionName, IndexDescription[]>;
/** A page query of a projection as the adapter sends it: its filter (`query`) and its sort. */
const pageOf = (name: string, page: PageQuery) => {
  const { filter, sort } = mongoPage(declared(name), page);
  return { query: filter, sort };
};
const orderPageQuery = (filter: OrderFilter, direction: SortDirection, after: { createdAt: string; id: string } | null) => pageOf('order-views', orderPage(filter, direction, after, 10));
const queuePageQuery = (after: { paidAt: string; orderId: string } | null) => pageOf('fulfilment-queue', queuePage(after, 10));
const accountPageQuery = (after: { createdAt: string; id: string } | null) => pageOf('accounts', accountPage(after, 10));
const customerPageQuery = (filter: { emailKey?: string }, after: { createdAt: string; id: string } | null) => pageOf('customers', customerPage(filter.emailKey, after, 10));
const productPageQuery = (filter: { status?: 'draft' | 'active' }, sort: 'sku' | '-updatedAt', after: { sku: string; updatedAt: string } | null) =>
  pageOf('products', productPage(filter.status, sort, after, 10));
const duplicateKey = () => new MongoServerError({ message: 'E11000 duplicate key error', code: 11000 });

describe('MongoDB read store, without a server', () => {
  it('bounds the driver\'s server selection, pool wait and every answer below the request timeout, with options driver 7.9 honours', async () => {
    for (const requestTimeoutMs of [1_000, 10_000, 30_000]) {
      const options = mongoClientOptions(requestTimeoutMs);
      // Ignored by this driver (connection_string.ts: "has no effect").
      expect(options).not.toHaveProperty('timeoutMS');
      for (const bound of ['serverSelectionTimeoutMS', 'connectTimeoutMS', 'waitQueueTimeoutMS', 'socketTimeoutMS'] as const) {
        expect(options[bound]).toBeGreaterThan(0);
        expect(options[bound]).toBeLessThan(requestTimeoutMs);
      }
      expect(options.ignoreUndefined).toBe(true);
      // As the driver reads them: a client is built without connecting.
      const client = new MongoClient('mongodb://a.invalid:27017,b.invalid:27017/?replicaSet=rs0', options);
      try {
        expect(client.options).toMatchObject({
          serverSelectionTimeoutMS: options.serverSelectionTimeoutMS, connectTimeoutMS: options.connectTimeoutMS,
          waitQueueTimeoutMS: options.waitQueueTimeoutMS, socketTimeoutMS: options.socketTimeoutMS,
        });
      } finally {
        await client.close();
      }
    }
  });

  it('builds its client without a deprecation warning', async () => {
    const emitWarning = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    try {
      const client = new MongoClient('mongodb://127.0.0.1:1/?directConnection=true', mongoClientOptions(10_000));
      await client.close();
      expect(emitWarning.mock.calls.map(([warning]) => String(warning))).toEqual([]);
    } finally {
      emitWarning.mockRestore();
    }
  });

  it('answers an operation past its time limit, a pool with no free connection and a hung answer as unavailable', () => {
    const maxTimeExpired = new MongoServerError({ message: 'operation exceeded time limit', code: 50, codeName: 'MaxTimeMSExpired' });
    const duplicate = duplicateKey();
    expect(storeError(maxTimeExpired)).toBeInstanceOf(StoreUnavailable);
    expect(storeError(new WaitQueueTimeoutError('Timed out while checking out a connection from connection pool', '127.0.0.1:27017'))).toBeInstanceOf(StoreUnavailable);
    expect(storeError(new MongoNetworkTimeoutError('connection 3 to 127.0.0.1:27017 timed out'))).toBeInstanceOf(StoreUnavailable);
    expect(storeError(duplicate)).toBe(duplicate);
    expect(toProblem(storeError(maxTimeExpired))).toMatchObject({ status: 503, headers: { 'Retry-After': expect.any(String) } });
  });

  it('gives up on a server it cannot reach within the request timeout, as unavailable', async () => {
    const started = Date.now();
    // Port 1 refuses connections: the driver keeps selecting a server until its bound (2 s at most).
    // A 20 s request timeout (was 1 s, with a 500 ms bound inside it): the answer must come within
    // it, and 18 s of room is generous for a loaded machine where half a second was not.
    const error = await MongoReadStore.connect('mongodb://127.0.0.1:1/?directConnection=true', 'unreachable', READ_STORAGE, { requestTimeoutMs: 20_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailable);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('takes a replica set\'s host list, and answers "unavailable" when none of its members can be reached', async () => {
    // Ports 1 and 2 of loopback refuse connections; the driver parses the list and selects until its bound.
    const error = await MongoReadStore.connect('mongodb://127.0.0.1:1,127.0.0.1:2/?replicaSet=rs0', 'unreachable', READ_STORAGE, { requestTimeoutMs: 1_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailable);
    expect(error).not.toBeInstanceOf(MongoParseError);
  });

  it('serves every order page query (each filter, each direction, first and later pages) from one index: its equality fields, then the sort', () => {
    const keys = INDEXES['order-views'].map((index) => JSON.stringify(index.key));
    for (const filter of FILTERS) {
      for (const direction of DIRECTIONS) {
        for (const after of [null, { createdAt: '2026-06-01T00:00:00.000Z', id: 'm' }]) {
          const { query, sort } = orderPageQuery(filter, direction, after);
          const equality = Object.fromEntries(['customerId', 'status', 'legacyStatus'].filter((f) => typeof query[f] === 'string').map((f) => [f, 1]));
          expect(keys).toContain(JSON.stringify({ ...equality, createdAt: 1, _id: 1 }));
          expect(Object.keys(sort)).toEqual(['createdAt', '_id']);
          if (after) expect(query.$and).toEqual([{ createdAt: { [direction === 'asc' ? '$gte' : '$lte']: after.createdAt } }]);
        }
      }
    }
    const queue = queuePageQuery({ paidAt: '2026-06-01T00:00:00.000Z', orderId: 'm' });
    expect(INDEXES['fulfilment-queue'].map((index) => JSON.stringify(index.key))).toContain(JSON.stringify({ state: 1, ...queue.sort }));
    // Accounts, newest first: the (createdAt, _id) index read backwards.
    for (const after of [null, { createdAt: '2026-06-01T00:00:00.000Z', id: 'm' }]) {
      const { sort } = accountPageQuery(after);
      expect(INDEXES.accounts.map((index) => JSON.stringify(index.key))).toContain(JSON.stringify(Object.fromEntries(Object.keys(sort).map((k) => [k, 1]))));
      expect(sort).toEqual({ createdAt: -1, _id: -1 });
    }
    const customerKeys = INDEXES.customers.map((index) => JSON.stringify(index.key));
    for (const filter of [{}, { emailKey: 'ada@example.org' }]) {
      for (const after of [null, { createdAt: '2026-06-01T00:00:00.000Z', id: 'm' }]) {
        const { query, sort } = customerPageQuery(filter, after);
        // Newest first: the index read backwards.
        expect(sort).toEqual({ createdAt: -1, _id: -1 });
        expect(customerKeys).toContain(JSON.stringify({ ...('emailKey' in filter ? { emailKey: 1 } : {}), createdAt: 1, _id: 1 }));
        if (after) expect(query.$and).toEqual([{ createdAt: { $lte: after.createdAt } }]);
      }
    }
    // Products: the status (an equality, or the $in of the statuses shown), then the sort.
    const productKeys = INDEXES.products.map((index) => JSON.stringify(index.key));
    for (const sort of ['sku', '-updatedAt'] as const) {
      const page = productPageQuery({}, sort, null);
      expect(productKeys).toContain(JSON.stringify({ status: 1, ...Object.fromEntries(Object.keys(page.sort).map((k) => [k, 1])) }));
    }
  });

  it('serves every list of orders the collection offers (by SKU, by total in one currency, by date range, with status and customer) from one index: its equalities, then its sort', () => {
    const views = listedViews(400);
    for (const list of offeredOrderLists(LISTED_VALUES)) {
      const all = expectedPage(views, list, null, views.length);
      const middle = all[Math.floor(all.length / 2)]!;
      for (const after of [null, { createdAt: middle.createdAt, id: middle.id, total: middle.total }]) {
        const what = JSON.stringify({ list, after });
        const { query, sort } = pageOf('order-views', orderListPage(list, after, 10));
        const sorted = Object.keys(sort);
        const equalities = ['status', 'legacyStatus', 'customerId', 'sku', 'currency'].filter((field) => typeof query[field] === 'string');
        // An index leading with the equalities (in any order), then the sort, then _id.
        const serving = INDEXES['order-views'].map((index) => Object.keys(index.key)).filter((key) =>
          key.length === equalities.length + sorted.length && equalities.every((f) => key.slice(0, equalities.length).includes(f)) && sorted.every((f, i) => key[equalities.length + i] === f));
        expect(serving, what).toHaveLength(1);
        expect(sorted.at(-1), what).toBe('_id');
        // The SKU: an equality on the array of the order's SKUs kept beside the view.
        if (list.filter.sku !== undefined) expect(query['sku'], what).toBe(list.filter.sku);
        if (after) expect(query.$and, what).toEqual([{ [sorted[0]!]: { [sort[sorted[0]!] === 1 ? '$gte' : '$lte']: list.sort.includes('total') ? after.total : after.createdAt } }]);
      }
    }
  });

  it('tries a write that collided on _id once more under its guard, and takes a second collision as "a newer one is stored"', async () => {
    let calls = 0;
    await underGuard(async () => {
      if (++calls === 1) throw duplicateKey();
    });
    expect(calls).toBe(2);

    calls = 0;
    await underGuard(async () => {
      calls++;
      throw duplicateKey();
    });
    expect(calls).toBe(2);

    await expect(underGuard(async () => Promise.reject(new MongoServerError({ message: 'not primary', code: 10107 })))).rejects.toThrow('not primary');
  });
});

const view = (i: number, revision: number): OrderView => ({
  id: `o${String(i).padStart(4, '0')}`,
  customerId: `cus_${i % 3}`,
  status: (['pending', 'paid', 'shipped'] as const)[i % 3]!,
  currency: 'EUR',
  lines: [{ sku: 'A', quantity: 1, unitPrice: 100 }] as unknown as OrderView['lines'],
  total: 100,
  balance: { charged: 100, paid: 0, refunded: 0, due: 100 },
  address: { name: 'A', line1: 'B', line2: null, city: 'C', postalCode: 'D', region: null, country: 'DE' },
  createdAt: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(),
  updatedAt: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(),
  revision,
});

describe.skipIf(!mongoUrl)('MongoDB read store on a live server (MONGO_URL)', () => {
  let client: MongoClient;
  let database: string;
  const stores: MongoReadStore[] = [];
  const open = async () => {
    const store = await MongoReadStore.connect(mongoUrl!, database, READ_STORAGE);
    stores.push(store);
    return store;
  };

  beforeEach(async () => {
    database = `orders_test_${randomUUID().slice(0, 8)}`;
    client = new MongoClient(mongoUrl!);
    await client.connect();
  });
  afterEach(async () => {
    await client.db(database).dropDatabase();
    for (const store of stores.splice(0)) await store.close();
    await client.close();
  });

  it('keeps the newer view when two projectors race to insert the same views', async () => {
    const [a, b] = [await open(), await open()];
    for (let round = 0; round < 10; round++) {
      const keys = Array.from({ length: 50 }, (_, i) => round * 50 + i);
      await Promise.all([
        a.views('order-views', 1).commit(keys.map((i) => ({ key: view(i, 1).id, view: view(i, 1) })), encodeSequence(round * 2 + 1)),
        b.views('order-views', 1).commit(keys.map((i) => ({ key: view(i, 2).id, view: view(i, 2) })), encodeSequence(round * 2 + 2)),
      ]);
      const stored = await a.views('order-views', 1).load(keys.map((i) => view(i, 0).id));
      expect([...stored.values()].map((v) => v.revision)).toEqual(keys.map(() => 2));
    }
    expect(await a.views('order-views', 1).checkpoint()).toBe(encodeSequence(20));
  });

  it('seeds the projection metadata again when it goes missing under a running store', async () => {
    const store = await open();
    await store.views('order-views', 1).commit([{ key: view(1, 1).id, view: view(1, 1) }], encodeSequence(1));
    await client.db(database).collection('projections').drop();
    await new Promise((r) => setTimeout(r, 1_100)); // past the cached active generation
    expect(await store.activeGeneration('order-views')).toBe(1);
    expect((await store.find('order-views', [view(1, 1).id])).get(view(1, 1).id)).toMatchObject({ revision: 1 });
    expect(await store.createGeneration('order-views')).toBe(2);
  });

  it('drops again the collection a late commit to a retired generation recreated', async () => {
    const store = await open();
    const late = await open();
    const generation = await store.createGeneration('order-views');
    await store.activateGeneration('order-views', generation);
    const names = async () => (await client.db(database).listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    expect(await names()).not.toContain(viewCollectionName('order-views', 1));
    // Another process, still on generation 1, commits one more batch.
    await late.views('order-views', 1).commit([{ key: view(1, 1).id, view: view(1, 1) }], encodeSequence(1));
    expect(await names()).not.toContain(viewCollectionName('order-views', 1));
    expect(await client.db(database).collection('checkpoints').findOne({ _id: 'order-views:1' as never })).toBeNull();
  });

  it('plans every keyset page query as an index scan, with no sort in memory and no scan from the start', async () => {
    const store = await open();
    const count = 300;
    await store.views('order-views', 1).commit(Array.from({ length: count }, (_, i) => ({ key: view(i, 1).id, view: view(i, 1) })), encodeSequence(1));
    const queue: QueueEntry[] = Array.from({ length: count }, (_, i) => ({
      orderId: view(i, 1).id, customerId: 'cus_1', state: 'queued', currency: 'EUR', total: 1, lines: [], address: view(i, 1).address,
      paidAt: view(i, 1).createdAt, revision: 1,
    }));
    await store.views('fulfilment-queue', 1).commit(queue.map((e) => ({ key: e.orderId, view: e })), encodeSequence(1) as Position);
    const middle = view(count / 2, 1);
    const limit = 10;

    const check = async (collection: string, query: Document, sort: Document, what: string) => {
      const plan = await client.db(database).collection(collection).find(query).sort(sort).limit(limit).explain('executionStats');
      const stages = JSON.stringify(plan.queryPlanner.winningPlan);
      expect(stages, what).toContain('IXSCAN');
      expect(stages, what).not.toMatch(/"stage":"SORT"/);
      expect(plan.executionStats.totalKeysExamined, what).toBeLessThanOrEqual(count / 3);
    };
    for (const filter of FILTERS) {
      for (const direction of DIRECTIONS) {
        for (const after of [null, { createdAt: middle.createdAt, id: middle.id }]) {
          const { query, sort } = orderPageQuery(filter, direction, after);
          await check(viewCollectionName('order-views', 1), query, sort, JSON.stringify({ filter, direction, after }));
        }
      }
    }
    for (const after of [null, { paidAt: middle.createdAt, orderId: middle.id }]) {
      const { query, sort } = queuePageQuery(after);
      await check(viewCollectionName('fulfilment-queue', 1), query, sort, JSON.stringify({ queue: after }));
    }
    const accounts = Array.from({ length: count }, (_, i) => ({
      id: view(i, 1).id, email: `a${i}@shop.example`, role: 'staff' as const, customerId: null, disabled: false, createdAt: view(i, 1).createdAt, updatedAt: view(i, 1).createdAt, revision: 0,
    }));
    await store.views('accounts', 1).commit(accounts.map((a) => ({ key: a.id, view: a })), encodeSequence(1) as Position);
    for (const after of [null, { createdAt: middle.createdAt, id: middle.id }]) {
      const { query, sort } = accountPageQuery(after);
      await check(viewCollectionName('accounts', 1), query, sort, JSON.stringify({ accounts: after }));
    }
    const customers = Array.from({ length: count }, (_, i) => ({
      id: view(i, 1).id, email: `c${i}@example.org`, name: 'C', phone: null, defaultAddress: null, status: 'active' as const,
      createdAt: view(i, 1).createdAt, updatedAt: view(i, 1).createdAt, erasedAt: null, revision: 0, emailKey: `c${i}@example.org`,
    }));
    await store.views('customers', 1).commit(customers.map((c) => ({ key: c.id, view: c })), encodeSequence(1) as Position);
    for (const filter of [{}, { emailKey: `c${count / 2}@example.org` }]) {
      for (const after of [null, { createdAt: middle.createdAt, id: middle.id }]) {
        const { query, sort } = customerPageQuery(filter, after);
        await check(viewCollectionName('customers', 1), query, sort, JSON.stringify({ customers: filter, after }));
      }
    }
    const products: ProductView[] = Array.from({ length: count }, (_, i) => ({
      sku: `P-${String(i).padStart(4, '0')}`, name: 'P', description: null, prices: { EUR: 1 }, status: (['draft', 'active', 'retired'] as const)[i % 3]!, lowStockThreshold: 0,
      createdAt: view(i, 1).createdAt, updatedAt: view(i, 1).createdAt, revision: 0,
    }));
    await store.views('products', 1).commit(products.map((p) => ({ key: p.sku, view: p })), encodeSequence(1) as Position);
    const half = products[count / 2]!;
    for (const filter of [{}, { status: 'active' as const }]) {
      for (const sort of ['sku', '-updatedAt'] as const) {
        for (const after of [null, { sku: half.sku, updatedAt: half.updatedAt }]) {
          const { query, sort: order } = productPageQuery(filter, sort, after);
          await check(viewCollectionName('products', 1), query, order, JSON.stringify({ products: filter, sort, after }));
        }
      }
    }
  });
});

describe.skipIf(!mongoUrl)('the orders\' collection on a live MongoDB (MONGO_URL): every list offered, by an index', () => {
  it('plans each list, first page and a later one, as a scan of its own index, with no sort in memory, and answers it as it says', async () => {
    const database = `orders_test_${randomUUID().slice(0, 8)}`;
    const client = new MongoClient(mongoUrl!);
    await client.connect();
    const store = await MongoReadStore.connect(mongoUrl!, database, READ_STORAGE);
    try {
      const views = listedViews(400);
      await store.views<OrderView>('order-views', 1).commit(views.map((view) => ({ key: view.id, view })), encodeSequence(1));
      const collection = client.db(database).collection<Document & { _id: string }>(viewCollectionName('order-views', 1));
      const declaredIndexes = READ_STORAGE.find((storage) => storage.name === 'order-views')!.indexes;
      for (const list of offeredOrderLists(LISTED_VALUES)) {
        const all = expectedPage(views, list, null, views.length);
        const middle = all[Math.floor(all.length / 2)]!;
        const index = declaredIndexes[declaredIndexesFor(list)[0]!] as readonly string[];
        const keyPattern = JSON.stringify({ ...Object.fromEntries(index.map((field) => [field, 1])), _id: 1 });
        for (const after of [null, { createdAt: middle.createdAt, id: middle.id, total: middle.total }]) {
          const what = JSON.stringify({ list, after });
          const { query, sort } = pageOf('order-views', orderListPage(list, after, 10));
          const plan = await collection.find(query).sort(sort).limit(10).explain('executionStats');
          const stages = JSON.stringify(plan.queryPlanner.winningPlan);
          expect(stages, what).toContain('IXSCAN');
          expect(stages, what).toContain(`"keyPattern":${keyPattern}`);
          expect(stages, what).not.toMatch(/"stage":"SORT"/);
          // A page of 10 reads about as many keys (a multikey index may read an order's other SKUs' keys too): never the list whole.
          expect(plan.executionStats.totalKeysExamined, what).toBeLessThanOrEqual(40);
          const page = await store.page<OrderView>('order-views', orderListPage(list, after, 10));
          expect(page.map((v) => v.id), what).toEqual(expectedPage(views, list, after, 10).map((v) => v.id));
        }
      }
    } finally {
      await client.db(database).dropDatabase();
      await store.close();
      await client.close();
    }
  });
});

if (!mongoUrl) describe.skip('MongoDB read store on a live server — skipped, MONGO_URL is not set', () => it('runs against a live MongoDB', () => {}));
