import { describe, it } from 'vitest';
import { mongoUrl, openEmbeddedReadStore, openMongoReadStore } from '../support/read-stores.js';
import { readStoreContract } from './read-store.contract.js';

readStoreContract('embedded (SQLite)', openEmbeddedReadStore);

if (mongoUrl) readStoreContract('MongoDB', openMongoReadStore);
else describe.skip('ReadModelStore contract: MongoDB — skipped, MONGO_URL is not set', () => it('runs against a live MongoDB', () => {}));
