// Single-order reads stay current when another process writes: the folded order kept in this
// process is checked against the embedded store's change stamp (SQLite's data_version), which
// moves on every other connection's commit, another process's included.
import { defineProducts } from '../../support/catalogue.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteEventStore } from '../../../write-side/adapters/sqlite-event-store.js';
import { serviceViewer } from '../../../write-side/kernel/access.js';
import { OrderService } from '../../../write-side/orders/service.js';
import { tempDir } from '../../support/event-stores.js';
import { receiveStock } from '../../support/seed.js';
import { runScript } from '../../support/service-process.js';

const address = { name: 'Ada', line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' };

describe('order reads across processes (embedded)', () => {
  it("sees another process's change to an order it has kept folded", async () => {
    const dir = tempDir('processes-');
    const file = join(dir.path, 'events.sqlite3');
    const store = new SqliteEventStore({ file });
    try {
      await defineProducts(store);
      await receiveStock(store, ['A']);
      const service = new OrderService(store);
      const viewer = serviceViewer('p');
      const placed = await service.place(
        viewer,
        { customerId: 'cus_1', currency: 'EUR', lines: [{ sku: 'A', quantity: 1 }], address },
        { correlationId: 'c', idempotency: { key: 'k', fingerprint: 'f' } },
      );
      const id = (placed.state as { id: string }).id;
      expect(await service.get(viewer, id)).toMatchObject({ revision: 0 });
      expect(service.foldedKept.orders).toBe(1);
      const stamp = await store.changeStamp();

      for (const [revision, line1] of [[1, '2 Other Rd'], [2, '3 Third Way']] as const) {
        const other = runScript('tests/write-side/fixtures/change-address.ts', [file, id, line1], {});
        expect(other.stderr).toBe('');
        expect(other.stdout.trim()).toBe(String(revision));
        expect(await store.changeStamp()).not.toBe(stamp);
        expect(await service.get(viewer, id)).toMatchObject({ revision, order: { address: { line1 } } });
      }
    } finally {
      await store.close();
      dir.remove();
    }
  }, 30_000);
});
