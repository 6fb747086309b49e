// The embedded stores never bind a LIMIT bare (shared/adapters/sqlite-sql.ts): SQLite would plan
// such a statement again at every run. Every statement the three adapters prepare while they page,
// scan, subscribe and list erasures is looked at as it is prepared.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { READ_STORAGE } from '../../projections/registry.js';
import { SqliteReadStore } from '../../read-side/adapters/sqlite-read-store.js';
import { BOUND_LIMIT } from '../../shared/adapters/sqlite-sql.js';
import { SqliteEventStore } from '../../write-side/adapters/sqlite-event-store.js';
import { SqliteKeyStore } from '../../write-side/adapters/sqlite-key-store.js';
import { tempDir } from '../support/event-stores.js';

const meta = { schemaVersion: 1, correlationId: 'c', causationId: null, principal: 'test' };

/** A LIMIT or OFFSET whose value is a bare bound parameter (`?`, `?1`, `:n`, `@n`, `$n`). */
const BARE_BOUND = /\b(LIMIT|OFFSET)\s+[?:@$]/i;

describe('the embedded stores’ statements', () => {
  const dir = tempDir('sqlite-sql-');
  afterEach(() => vi.restoreAllMocks());

  it('catches a bare bound LIMIT or OFFSET, and passes BOUND_LIMIT and literals', () => {
    expect(BARE_BOUND.test('SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?')).toBe(true);
    expect(BARE_BOUND.test('SELECT 1 LIMIT 5 OFFSET :skip')).toBe(true);
    expect(BARE_BOUND.test(`SELECT * FROM events ORDER BY position ${BOUND_LIMIT}`)).toBe(false);
    expect(BARE_BOUND.test('SELECT * FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1')).toBe(false);
  });

  it('bind no LIMIT bare, in the event store, the read store or the key store', async () => {
    const prepared: string[] = [];
    const prepare = Database.prototype.prepare;
    vi.spyOn(Database.prototype, 'prepare').mockImplementation(function (this: Database.Database, source: string) {
      prepared.push(source);
      return prepare.call(this, source);
    } as typeof prepare);

    const events = new SqliteEventStore({ file: join(dir.path, 'events.sqlite3') });
    const reads = new SqliteReadStore(join(dir.path, 'read-models.sqlite3'), READ_STORAGE);
    const keys = new SqliteKeyStore(join(dir.path, 'keys.sqlite3'));
    try {
      await events.appendToStream('order-1', [{ type: 'Probe', data: {}, metadata: meta }], 'no_stream');
      await events.appendToStream('stock-1', [{ type: 'Probe', data: {}, metadata: meta }], 'no_stream');
      expect(await events.readAll({ maxCount: 1 })).toHaveLength(1);
      expect(await events.readAll({ maxCount: 5, streamPrefixes: ['stock-'] })).toHaveLength(1);
      const subscription = events.subscribeToAll({ streamPrefixes: ['order-'] });
      for await (const event of subscription) {
        expect(event.streamName).toBe('order-1');
        break;
      }
      await subscription.close();

      const generation = await reads.activeGeneration('fulfilment-queue');
      const queue = reads.views('fulfilment-queue', generation);
      expect(await queue.scan(null, 10)).toEqual([]);
      expect(await queue.changes(null, 10)).toEqual([]);
      expect(await reads.page('order-views', { where: [{ field: 'status', op: '=', value: 'paid' }], order: { by: ['createdAt'], direction: 'desc' }, limit: 21 })).toEqual([]);
      expect(await reads.listOrderJson({ where: [{ field: 'sku', op: '=', value: 'SKU-1' }], order: { by: ['createdAt'], direction: 'asc' }, after: { values: ['2026-01-01'], key: 'a' }, limit: 5 })).toEqual([]);
      expect(await keys.erasuresSince(new Date(0), 10)).toEqual([]);
    } finally {
      await events.close();
      await reads.close();
      await keys.close();
      dir.remove();
    }

    // What was looked at: the keyset reads of each store, each with its limit bound.
    const limited = prepared.filter((sql) => /\bLIMIT\b/i.test(sql) && !/\bLIMIT\s+1\b/.test(sql));
    expect(limited.length).toBeGreaterThanOrEqual(6);
    expect(prepared.filter((sql) => BARE_BOUND.test(sql))).toEqual([]);
  });
});
