import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../../write-side/adapters/sqlite-event-store.js';
import { eventStoreContract } from './event-store.contract.js';

eventStoreContract('embedded (SQLite)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'events-'));
  const store = new SqliteEventStore({ file: join(dir, 'events.sqlite3') });
  return {
    store,
    dispose: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
