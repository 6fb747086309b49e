// A read store made before the fulfilment queue recorded its changes is upgraded on open: its
// queue starts a fresh generation, so that the projector records every change from the start.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteReadStore } from '../../read-side/adapters/sqlite-read-store.js';
import { encodePosition } from '../../write-side/kernel/position.js';
import { tempDir } from '../support/event-stores.js';
import { READ_STORAGE } from '../../projections/registry.js';

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
