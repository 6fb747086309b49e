// The read-model stores a test can run against: embedded always, MongoDB when MONGO_URL is set.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { MongoReadStore } from '../../read-side/adapters/mongo-read-store.js';
import { SqliteReadStore } from '../../read-side/adapters/sqlite-read-store.js';
import { READ_STORAGE } from '../../projections/registry.js';
import type { ReadModelStore, ReadStorage } from '../../read-side/read-store.js';
import { tempDir } from './event-stores.js';

export interface ReadStoreFixture {
  readonly store: ReadModelStore;
  /** The embedded store's file, for a test that alters it as a fault would; undefined for MongoDB. */
  readonly file?: string;
  /** Opens the same data again (a restart), with the projections' storage as declared now or as `storage` declares it (another build). */
  reopen(storage?: ReadStorage): Promise<ReadModelStore>;
  dispose(): Promise<void>;
}

export async function openEmbeddedReadStore(): Promise<ReadStoreFixture> {
  const dir = tempDir('read-');
  const file = join(dir.path, 'read-models.sqlite3');
  const opened: ReadModelStore[] = [new SqliteReadStore(file, READ_STORAGE)];
  return {
    store: opened[0]!,
    file,
    reopen: async (storage = READ_STORAGE) => {
      const store = new SqliteReadStore(file, storage);
      opened.push(store);
      return store;
    },
    dispose: async () => {
      for (const store of opened) await store.close().catch(() => {});
      dir.remove();
    },
  };
}

export const mongoUrl = process.env.MONGO_URL;

export async function openMongoReadStore(): Promise<ReadStoreFixture> {
  if (!mongoUrl) throw new Error('MONGO_URL is not set');
  const database = `orders_test_${randomUUID().slice(0, 8)}`;
  const opened: MongoReadStore[] = [await MongoReadStore.connect(mongoUrl, database, READ_STORAGE)];
  return {
    store: opened[0]!,
    reopen: async (storage = READ_STORAGE) => {
      const store = await MongoReadStore.connect(mongoUrl, database, storage);
      opened.push(store);
      return store;
    },
    dispose: async () => {
      await opened[0]!.dropDatabase();
      for (const store of opened) await store.close().catch(() => {});
    },
  };
}

export const availableReadStores: ReadonlyArray<readonly [string, () => Promise<ReadStoreFixture>]> = [
  ['embedded (SQLite)', openEmbeddedReadStore],
  ...(mongoUrl ? [['MongoDB', openMongoReadStore] as const] : []),
];

if (!mongoUrl) {
  console.warn('[skipped] MongoDB tests: MONGO_URL is not set, so only the embedded read store was tested.');
}
