// What the embedded read store leaves in its file when a rebuilt generation replaces the active
// one: the old generation's pages are overwritten with zeros for views that may hold personal data
// in clear (the customers'), and go to the free list as they are for views that declare none.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteReadStore } from '../../read-side/adapters/sqlite-read-store.js';
import type { ReadStorage } from '../../read-side/read-store.js';
import { encodePosition } from '../../write-side/kernel/position.js';
import { tempDir } from '../support/event-stores.js';

const storage: ReadStorage = [
  { name: 'customers', fields: [], indexes: [] },
  { name: 'daily-sales', fields: [], indexes: [], noClearPersonalData: true },
];

describe('the embedded read store, dropping a generation it no longer serves', () => {
  it("zeroes the pages of views that may hold personal data in clear, and leaves the others' on the free list", async () => {
    const dir = tempDir('generations-');
    const marker = { customers: 'CLEAR-7f3a9c-ada@example.test', 'daily-sales': 'SEALED-51d0e2-no-clear-data' } as const;
    /** What the file holds after a generation of `name`'s views, each with its marker, was replaced (a file of its own, so no later write reuses the freed pages). */
    const leftOf = async (name: 'customers' | 'daily-sales') => {
      const file = join(dir.path, `${name}.sqlite3`);
      const store = new SqliteReadStore(file, storage);
      // Rows enough to fill pages of their own, each with the marker.
      const views = Array.from({ length: 50 }, (_, i) => ({ key: `k${i}`, view: { revision: 0, note: `${marker[name]} ${'x'.repeat(200)}` } }));
      await store.views(name, 1).commit(views, encodePosition(1n));
      const generation = await store.createGeneration(name);
      await store.views(name, generation).commit([], encodePosition(1n));
      await store.activateGeneration(name, generation);
      await store.close();
      return Buffer.concat([file, `${file}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)));
    };
    expect((await leftOf('customers')).includes(marker.customers)).toBe(false);
    expect((await leftOf('daily-sales')).includes(marker['daily-sales'])).toBe(true);
    dir.remove();
  });
});
