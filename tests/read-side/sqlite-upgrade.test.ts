// A read store made before the fulfilment queue recorded its changes is upgraded on open: its
// queue starts a fresh generation, so that the projector records every change from the start.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteReadStore } from '../../read-side/adapters/sqlite-read-store.js';
import { encodePosition } from '../../write-side/kernel/position.js';
import { tempDir } from '../support/event-stores.js';
import { READ_STORAGE } from '../../projections/registry.js';
import { order } from './read-store.contract.js';

describe('the embedded read store, opened on a store from before the queue recorded its changes', () => {
  it('starts the fulfilment queue afresh, and keeps the other projections as they are', async () => {
    const dir = tempDir('upgrade-');
    const file = join(dir.path, 'read-models.sqlite3');
    const before = new SqliteReadStore(file, READ_STORAGE);
    await before.views('fulfilment-queue', 1).commit([], encodePosition(40n));
    await before.views('order-views', 1).commit([], encodePosition(40n));
    await before.close();
    const raw = new Database(file);
    raw.exec('DROP TABLE fulfilment_queue_changes_g1');
    raw.close();

    const upgraded = new SqliteReadStore(file, READ_STORAGE);
    try {
      const generation = await upgraded.activeGeneration('fulfilment-queue');
      expect(generation).toBe(2);
      expect(await upgraded.views('fulfilment-queue', generation).checkpoint()).toBeNull();
      expect(await upgraded.changesAfter('fulfilment-queue', null, 10)).toEqual({ changes: [], checkpoint: null });
      expect(await upgraded.activeGeneration('order-views')).toBe(1);
      expect(await upgraded.views('order-views', 1).checkpoint()).toBe(encodePosition(40n));
    } finally {
      await upgraded.close();
    }
    // Opened again, it is not started afresh a second time.
    const again = new SqliteReadStore(file, READ_STORAGE);
    expect(await again.activeGeneration('fulfilment-queue')).toBe(2);
    await again.close();
    dir.remove();
  });
});

describe('the embedded read store, opened on a store from before projections declared storage versions', () => {
  it('starts afresh each projection whose storage changed since (the orders\' views, the queue, the jobs), and keeps the others', async () => {
    const dir = tempDir('upgrade-');
    const file = join(dir.path, 'read-models.sqlite3');
    const before = new SqliteReadStore(file, READ_STORAGE);
    for (const name of ['order-views', 'fulfilment-queue', 'jobs', 'accounts'] as const) await before.views(name, 1).commit([], encodePosition(40n));
    await before.close();
    // As that build made it: no versions, and the orders' views with the four indexes of then alone, without the
    // legacyStatus column (nor the currency, total and SKUs that came later).
    const raw = new Database(file);
    const later = raw.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name LIKE 'order_views_g1%' AND name LIKE 'order_views_g1_i%'").pluck().all() as string[];
    raw.exec(`ALTER TABLE projections DROP COLUMN version;
      ${later.filter((index) => !/_i[0-3]$/.test(index)).map((index) => `DROP INDEX ${index};`).join(' ')}
      DROP TABLE order_views_g1_sku;
      ALTER TABLE order_views_g1 DROP COLUMN legacy_status; ALTER TABLE order_views_g1 DROP COLUMN currency; ALTER TABLE order_views_g1 DROP COLUMN total;`);
    raw.close();

    const upgraded = new SqliteReadStore(file, READ_STORAGE);
    try {
      for (const name of ['order-views', 'fulfilment-queue', 'jobs'] as const) {
        expect(await upgraded.activeGeneration(name), name).toBe(2);
        expect(await upgraded.views(name, 2).checkpoint(), name).toBeNull();
      }
      expect(await upgraded.activeGeneration('accounts')).toBe(1);
      expect(await upgraded.views('accounts', 1).checkpoint()).toBe(encodePosition(40n));
      // The fresh generation has the new field: its views are written and selected by it.
      const view = { ...order(1), status: 'partially_shipped' as const };
      await upgraded.views('order-views', 2).commit([{ key: view.id, view }], encodePosition(41n));
      expect(await upgraded.page('order-views', { where: [{ field: 'legacyStatus', op: '=', value: 'paid' }], limit: 10 })).toEqual([view]);
    } finally {
      await upgraded.close();
    }
    const again = new SqliteReadStore(file, READ_STORAGE);
    expect(await again.activeGeneration('order-views')).toBe(2);
    expect(await again.views('order-views', 2).checkpoint()).toBe(encodePosition(41n));
    await again.close();
    const tables = new Database(file);
    expect(tables.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'order_views_g%' ORDER BY name").pluck().all()).toEqual(['order_views_g2', 'order_views_g2_sku']);
    tables.close();
    dir.remove();
  });
});
