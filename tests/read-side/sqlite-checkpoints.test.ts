// The embedded read store's background checkpoints: the commits leave the WAL alone, and a thread
// of its own copies it into the database file.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteReadStore } from '../../read-side/adapters/sqlite-read-store.js';
import type { OrderView } from '../../read-side/views.js';
import type { Position } from '../../write-side/event-store.js';
import { encodeSequence } from '../../write-side/position.js';
import { tempDir } from '../support/event-stores.js';

const view = (id: string): OrderView => ({
  id, customerId: 'cus_1', status: 'pending', currency: 'EUR', lines: [{ sku: 'SKU-1', name: 'Blue mug', quantity: 1, unitPrice: 100, lineTotal: 100 }], total: 100,
  address: { name: 'Ada', line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' },
  createdAt: '2026-11-22T10:00:00.000Z', updatedAt: '2026-11-22T10:00:00.000Z', revision: 0,
});

describe('SqliteReadStore with background checkpoints', () => {
  it('copies committed views into the database file while the store stays open, and closes cleanly', async () => {
    const dir = tempDir('checkpoints-');
    const file = join(dir.path, 'read-models.sqlite3');
    const store = new SqliteReadStore(file, { backgroundCheckpointMs: 10 });
    try {
      const before = statSync(file).size;
      const views = store.views('order-views', await store.activeGeneration('order-views'));
      for (let i = 0; i < 20; i++) {
        const batch = Array.from({ length: 50 }, (_, k) => ({ key: `o-${i}-${k}`, view: view(`o-${i}-${k}`) }));
        await views.commit(batch, encodeSequence(i + 1) as Position);
      }
      await expect.poll(() => statSync(file).size, { timeout: 5000 }).toBeGreaterThan(before);
      expect(await store.getOrder('o-19-49')).toMatchObject({ id: 'o-19-49' });
    } finally {
      await store.close();
      dir.remove();
    }
  });
});
