// The key store on MongoDB: the collection `keys` (one document per subject, its key) and
// `erasures` (subject and time only). Destroying a key deletes its document; nothing is marked.
import { Binary, MongoClient, type Collection } from 'mongodb';
import { guard, mongoClientOptions, storeError } from '../../shared/adapters/mongo-errors.js';
import { newKey } from '../personal-data/cipher.js';
import type { Erasure, KeyState, KeyStore } from '../personal-data/key-store.js';

export interface KeyDoc { _id: string; key: Binary }
export interface ErasureDoc { _id: string; erasedAt: Date }

export class MongoKeyStore implements KeyStore {
  private constructor(
    private readonly keys: Collection<KeyDoc>,
    private readonly erasures: Collection<ErasureDoc>,
    private readonly client: MongoClient | null,
  ) {}

  /** The store on two collections as given, without a client of its own (a test's, which lands an erasure between two reads). */
  static on(keys: Collection<KeyDoc>, erasures: Collection<ErasureDoc>): MongoKeyStore {
    return new MongoKeyStore(keys, erasures, null);
  }

  static async connect(url: string, database: string, options: { requestTimeoutMs?: number } = {}): Promise<MongoKeyStore> {
    const client = new MongoClient(url, mongoClientOptions(options.requestTimeoutMs ?? 10_000));
    try {
      await client.connect();
      const db = client.db(database);
      const store = new MongoKeyStore(db.collection('keys'), db.collection('erasures'), client);
      await store.erasures.createIndex({ erasedAt: 1, _id: 1 });
      return store;
    } catch (error) {
      await client.close().catch(() => undefined);
      throw storeError(error);
    }
  }

  createOrGet(subject: string): Promise<KeyState> {
    return guard(async () => {
      const known = (await this.read([subject])).get(subject);
      if (known) return known;
      // A plain _id equality upsert: racing first uses agree on the one key the server kept.
      await this.keys.updateOne({ _id: subject }, { $setOnInsert: { key: new Binary(newKey()) } }, { upsert: true });
      // An erasure that raced this: it wrote its record before deleting, so one of the two sees
      // the other, and no key outlives an erasure.
      const erased = await this.erasures.findOne({ _id: subject });
      if (erased) {
        await this.keys.deleteOne({ _id: subject });
        return { erasedAt: erased.erasedAt };
      }
      const made = await this.keys.findOne({ _id: subject });
      if (made) return { key: Buffer.from(made.key.buffer) };
      // An erasure that landed since the check above: it recorded itself before it deleted the key.
      const late = await this.erasures.findOne({ _id: subject });
      if (late) return { erasedAt: late.erasedAt };
      throw new Error(`the key of ${subject} vanished while it was made, with no erasure recorded`);
    });
  }

  read(subjects: readonly string[]): Promise<Map<string, KeyState>> {
    return guard(async () => {
      const ids = [...new Set(subjects)];
      const states = new Map<string, KeyState>();
      if (ids.length === 0) return states;
      for (const doc of await this.keys.find({ _id: { $in: ids } }).toArray()) states.set(doc._id, { key: Buffer.from(doc.key.buffer) });
      for (const doc of await this.erasures.find({ _id: { $in: ids } }).toArray()) states.set(doc._id, { erasedAt: doc.erasedAt });
      return states;
    });
  }

  destroy(subject: string, at: Date): Promise<Erasure> {
    return guard(async () => {
      await this.erasures.updateOne({ _id: subject }, { $setOnInsert: { erasedAt: at } }, { upsert: true });
      await this.keys.deleteOne({ _id: subject });
      const erasure = await this.erasures.findOne({ _id: subject });
      return { subject, erasedAt: erasure?.erasedAt ?? at };
    });
  }

  erasuresSince(since: Date, limit: number): Promise<Erasure[]> {
    return guard(async () => {
      const docs = await this.erasures.find({ erasedAt: { $gte: since } }).sort({ erasedAt: 1, _id: 1 }).limit(limit).toArray();
      return docs.map((doc) => ({ subject: doc._id, erasedAt: doc.erasedAt }));
    });
  }

  async close(): Promise<void> {
    await this.client?.close();
  }
}
