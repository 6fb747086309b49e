// The embedded read store's background checkpoints: the commits leave the WAL alone, and a thread
// of its own copies it into the database file.
import Database from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteReadStore } from '../../read-side/adapters/sqlite-read-store.js';
import type { OrderView } from '../../read-side/orders/views.js';
import type { Position } from '../../write-side/kernel/event-store.js';
import { encodeSequence } from '../../write-side/kernel/position.js';
import { tempDir } from '../support/event-stores.js';
import { READ_STORAGE } from '../../projections/registry.js';

const view = (id: string): OrderView => ({
  id, customerId: 'cus_1', status: 'pending', currency: 'EUR', lines: [{ sku: 'SKU-1', name: 'Blue mug', quantity: 1, unitPrice: 100, lineTotal: 100, shipped: 0, cancelled: 0, returned: 0 }], total: 100, balance: { charged: 100, paid: 0, refunded: 0, due: 100 },
  address: { name: 'Ada', line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' },
  createdAt: '2026-11-22T10:00:00.000Z', updatedAt: '2026-11-22T10:00:00.000Z', revision: 0,
});

describe('SqliteReadStore with background checkpoints', () => {
  it('copies committed views into the database file while the store stays open, and closes cleanly', async () => {
    const dir = tempDir('checkpoints-');
    const file = join(dir.path, 'read-models.sqlite3');
    const store = new SqliteReadStore(file, READ_STORAGE, { backgroundCheckpointMs: 10 });
    try {
      const before = statSync(file).size;
      const views = store.views('order-views', await store.activeGeneration('order-views'));
      for (let i = 0; i < 20; i++) {
        const batch = Array.from({ length: 50 }, (_, k) => ({ key: `o-${i}-${k}`, view: view(`o-${i}-${k}`) }));
        await views.commit(batch, encodeSequence(i + 1) as Position);
      }
      // As soon as a background checkpoint (every 10 ms) copied them; 60 s (was 5) only bounds one that never does, on a loaded machine.
      await expect.poll(() => statSync(file).size, { timeout: 60_000 }).toBeGreaterThan(before);
      expect((await store.find('order-views', ['o-19-49'])).get('o-19-49')).toMatchObject({ id: 'o-19-49' });
    } finally {
      await store.close();
      dir.remove();
    }
  });
});

describe('SqliteReadStore WAL bound', () => {
  const walSize = (file: string) => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
  const commitMany = async (store: SqliteReadStore, batches: number, onCommit: () => void) => {
    const views = store.views('order-views', await store.activeGeneration('order-views'));
    for (let i = 0; i < batches; i++) {
      const batch = Array.from({ length: 200 }, (_, k) => ({ key: `o-${i}-${k}`, view: view(`o-${i}-${k}`) }));
      await views.commit(batch, encodeSequence(i + 1) as Position);
      onCommit();
    }
  };

  it('keeps the WAL within its bound while commits follow each other with no pause (a catch-up), whatever the store grows to', async () => {
    const dir = tempDir('wal-bound-');
    const file = join(dir.path, 'read-models.sqlite3');
    // The background checkpointer as good as never runs here (once an hour), as when the commits
    // never leave it a moment: what bounds the WAL is the committing connection's own checkpoint.
    const limit = 1024 * 1024;
    const store = new SqliteReadStore(file, READ_STORAGE, { backgroundCheckpointMs: 3_600_000, walLimitBytes: limit });
    let largest = 0;
    try {
      // About 40 MB of views through the WAL, forty times the bound.
      await commitMany(store, 150, () => (largest = Math.max(largest, walSize(file))));
      expect(store.walStats.restarts).toBeGreaterThan(0);
      // Past the bound by at most one commit's pages (200 views, well under 1 MiB).
      expect(largest).toBeLessThan(2 * limit);
      expect((await store.find('order-views', ['o-149-199'])).get('o-149-199')).toMatchObject({ id: 'o-149-199' });
    } finally {
      await store.close();
      dir.remove();
    }
  });

  it('starts the WAL again once a reader that held it has gone, not only if none ever reads', async () => {
    const dir = tempDir('wal-bound-');
    const file = join(dir.path, 'read-models.sqlite3');
    const limit = 1024 * 1024;
    const store = new SqliteReadStore(file, READ_STORAGE, { backgroundCheckpointMs: 3_600_000, walLimitBytes: limit, busyTimeoutMs: 50 });
    const reader = new Database(file);
    try {
      await commitMany(store, 5, () => {});
      // A reader in the middle of a read transaction: the checkpoint cannot start the WAL again meanwhile.
      reader.exec('BEGIN');
      reader.prepare('SELECT count(*) FROM projections').get();
      await commitMany(store, 10, () => {});
      expect(store.walStats.busy).toBeGreaterThan(0);
      reader.exec('COMMIT');
      let after = Infinity;
      await commitMany(store, 2, () => (after = walSize(file)));
      expect(after).toBeLessThan(2 * limit);
    } finally {
      reader.close();
      await store.close();
      dir.remove();
    }
  });
});

describe('SqliteReadStore background writes', () => {
  it("waits out another connection's write lock held longer than its busy timeout, without blocking the thread, instead of failing as locked", async () => {
    const dir = tempDir('background-write-');
    const file = join(dir.path, 'read-models.sqlite3');
    const store = new SqliteReadStore(file, READ_STORAGE, { busyTimeoutMs: 50 });
    const other = new Database(file);
    try {
      // Another thread's long commit (a catch-up batch, a WAL checkpoint): held for six busy timeouts.
      other.exec('BEGIN IMMEDIATE');
      const released = new Promise<void>((resolve) =>
        setTimeout(() => {
          other.exec('COMMIT');
          resolve();
        }, 300),
      );
      await store.saveProcessCheckpoint('stock-reconciler', encodeSequence(7) as Position);
      await released;
      expect(await store.processCheckpoint('stock-reconciler')).toBe(encodeSequence(7));
      expect(await store.acquireLease('exports', 'me', 10_000)).toBe(true);
    } finally {
      other.close();
      await store.close();
      dir.remove();
    }
  });
});
