// The key store contract on every adapter available: embedded always, MongoDB with MONGO_URL.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { MongoKeyStore } from '../../write-side/adapters/mongo-key-store.js';
import { SqliteKeyStore } from '../../write-side/adapters/sqlite-key-store.js';
import type { KeyStore } from '../../write-side/personal-data/key-store.js';
import { tempDir } from '../support/event-stores.js';
import { mongoUrl } from '../support/read-stores.js';
import { keyStoreContract, type KeyStoreFixture } from './key-store.contract.js';

async function embedded(): Promise<KeyStoreFixture> {
  const dir = tempDir('keys-');
  const file = join(dir.path, 'keys.sqlite3');
  const opened: KeyStore[] = [new SqliteKeyStore(file)];
  return {
    store: opened[0]!,
    reopen: async () => {
      const store = new SqliteKeyStore(file);
      opened.push(store);
      return store;
    },
    dispose: async () => {
      for (const store of opened) await store.close();
      dir.remove();
    },
  };
}

async function mongo(): Promise<KeyStoreFixture> {
  const url = mongoUrl!;
  const database = `orders_test_${randomUUID().slice(0, 8)}`;
  const opened: KeyStore[] = [await MongoKeyStore.connect(url, database)];
  return {
    store: opened[0]!,
    reopen: async () => {
      const store = await MongoKeyStore.connect(url, database);
      opened.push(store);
      return store;
    },
    dispose: async () => {
      const client = await new MongoClient(url).connect();
      await client.db(database).dropDatabase();
      await client.close();
      for (const store of opened) await store.close();
    },
  };
}

keyStoreContract('embedded (SQLite)', embedded);
if (mongoUrl) keyStoreContract('MongoDB', mongo);
