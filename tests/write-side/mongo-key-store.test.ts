// The MongoDB key store's answer to an erasure that lands in the middle of a first use. No
// server: two in-memory stand-ins for its collections, answering only the calls the store makes,
// as one collection each would; the contract suite runs the store on a real server (MONGO_URL).
import { Binary, type Collection } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { MongoKeyStore, type ErasureDoc, type KeyDoc } from '../../write-side/adapters/mongo-key-store.js';

type Doc = { _id: string };

/** A collection of documents by _id: find by $in, findOne, upsert with $setOnInsert, deleteOne. */
function collection<D extends Doc>(docs: Map<string, D>, beforeFindOne: () => void = () => {}): Collection<D> {
  const byIds = (filter: { _id: { $in: string[] } }) => filter._id.$in.flatMap((id) => (docs.has(id) ? [docs.get(id)!] : []));
  return {
    find: (filter: { _id: { $in: string[] } }) => ({ toArray: async () => byIds(filter) }),
    findOne: async ({ _id }: Doc) => {
      beforeFindOne();
      return docs.get(_id) ?? null;
    },
    updateOne: async ({ _id }: Doc, update: { $setOnInsert: Omit<D, '_id'> }) => {
      if (!docs.has(_id)) docs.set(_id, { _id, ...update.$setOnInsert } as D);
    },
    deleteOne: async ({ _id }: Doc) => void docs.delete(_id),
  } as unknown as Collection<D>;
}

describe('MongoDB key store, without a server', () => {
  it('answers a first use that an erasure overtook between its erasure check and its last read as erased, not with an error', async () => {
    const keys = new Map<string, KeyDoc>();
    const erasures = new Map<string, ErasureDoc>();
    const erasedAt = new Date('2026-11-01T00:00:00.000Z');
    let erasureChecks = 0;
    // The store reads `erasures` once after making the key; the erasure lands right after that
    // read, as the erasing process does it: its record first, then the key deleted.
    const erasuresCollection = collection(erasures, () => void erasureChecks++);
    const keysCollection = collection(keys, () => {
      if (erasureChecks !== 1 || erasures.has('cus_1')) return;
      erasures.set('cus_1', { _id: 'cus_1', erasedAt });
      keys.delete('cus_1');
    });
    const store = MongoKeyStore.on(keysCollection, erasuresCollection);
    expect(await store.createOrGet('cus_1')).toEqual({ erasedAt });
    expect(keys.has('cus_1')).toBe(false);
  });

  it('gives the key it made when no erasure comes in between', async () => {
    const keys = new Map<string, KeyDoc>();
    const store = MongoKeyStore.on(collection(keys), collection(new Map<string, ErasureDoc>()));
    const state = await store.createOrGet('cus_2');
    expect(state).toEqual({ key: Buffer.from((keys.get('cus_2')!.key as Binary).buffer) });
  });
});
