// `npm run projections -- rebuild|verify` as an operator runs it, on the embedded default.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteEventStore } from '../../write-side/adapters/sqlite-event-store.js';
import { tempDir } from '../support/event-stores.js';
import { seedOrders, seedOrdersAfterPayment } from '../support/seed.js';
import { runScript } from '../support/service-process.js';

// These tests start the service (or a command) as processes: node with tsx, seconds of CPU each,
// which a loaded 2-core machine stretches past the default 30 s (half a minute at load 16 was seen);
// 3 minutes is generous.
const PROCESS_TEST_MS = 180_000;

const cli = (dataDir: string, ...args: string[]) => runScript('bootstrap/projections-cli.ts', args, { DATA_DIR: dataDir });

describe('projections command', () => {
  it('verify finds stale views, rebuild fixes them, verify then passes', async () => {
    const dir = tempDir('cli-');
    const events = new SqliteEventStore({ file: join(dir.path, 'events.sqlite3') });
    const ids = await seedOrders(events, 25);
    await events.close();

    const stale = cli(dir.path, 'verify', 'order-views');
    expect(stale.status).toBe(1);
    expect(stale.stdout).toContain(`${ids[0]} differs`);
    expect(stale.stdout).toContain('order-views: 25 orders checked, 25 difference(s)');

    const rebuilt = cli(dir.path, 'rebuild');
    expect(rebuilt.status).toBe(0);
    expect(rebuilt.stdout).toMatch(/order-views: rebuilt generation 2 from \d+ events/);
    expect(rebuilt.stdout).toMatch(/fulfilment-queue: rebuilt generation 2 from \d+ events/);

    const clean = cli(dir.path, 'verify');
    expect(clean.status).toBe(0);
    expect(clean.stdout).toContain('order-views: 25 orders checked, 0 difference(s)');
    expect(clean.stdout).toContain('fulfilment-queue: 25 orders checked, 0 difference(s)');
    dir.remove();
  }, PROCESS_TEST_MS);

  it('covers orders after payment: the lines\' shipped, cancelled and returned, the balance, and the status older versions read', async () => {
    const dir = tempDir('cli-');
    const events = new SqliteEventStore({ file: join(dir.path, 'events.sqlite3') });
    const [partly, returned, cancelled] = await seedOrdersAfterPayment(events);
    await events.close();

    expect(cli(dir.path, 'rebuild').status).toBe(0);
    const clean = cli(dir.path, 'verify');
    expect(clean.stdout).toContain('order-views: 4 orders checked, 0 difference(s)');
    expect(clean.stdout).toContain('fulfilment-queue: 4 orders checked, 0 difference(s)');
    expect(clean.status).toBe(0);

    const db = new Database(join(dir.path, 'read-models.sqlite3'));
    const generation = db.prepare("SELECT active FROM projections WHERE name = 'order-views'").pluck().get() as number;
    const table = `order_views_g${generation}`;
    const stored = (id: string) => db.prepare(`SELECT status, legacy_status AS legacyStatus, doc FROM ${table} WHERE key = ?`).get(id) as { status: string; legacyStatus: string; doc: string };
    expect(stored(partly!)).toMatchObject({ status: 'partially_shipped', legacyStatus: 'paid' });
    expect(JSON.parse(stored(returned!).doc)).toMatchObject({
      status: 'shipped',
      lines: [{ sku: 'SEED-1', quantity: 2, shipped: 2, returned: 0 }, { sku: 'SEED-3', quantity: 2, shipped: 2, returned: 2 }],
      balance: { charged: 202, paid: 202, refunded: 50, due: 50 },
    });
    expect(JSON.parse(stored(cancelled!).doc)).toMatchObject({ status: 'shipped', lines: [{ quantity: 4, shipped: 1, cancelled: 3 }], balance: { charged: 102, paid: 408, refunded: 306, due: 0 } });
    // Tampered: what came back of a line, a balance, and the status older versions read (a field beside the view).
    db.prepare(`UPDATE ${table} SET doc = json_set(doc, '$.lines[1].returned', 0) WHERE key = ?`).run(returned);
    db.prepare(`UPDATE ${table} SET doc = json_set(doc, '$.balance.refunded', 0) WHERE key = ?`).run(cancelled);
    db.prepare(`UPDATE ${table} SET legacy_status = 'partially_shipped' WHERE key = ?`).run(partly);
    db.close();

    const tampered = cli(dir.path, 'verify', 'order-views');
    expect(tampered.status).toBe(1);
    expect(tampered.stdout).toContain(`${returned} differs`);
    expect(tampered.stdout).toContain(`${cancelled} differs`);
    expect(tampered.stdout).toContain(`${partly} (fields) differs`);
    expect(tampered.stdout).toContain('order-views: 4 orders checked, 3 difference(s)');

    expect(cli(dir.path, 'rebuild', 'order-views').status).toBe(0);
    const fixed = cli(dir.path, 'verify');
    expect(fixed.stdout).toContain('order-views: 4 orders checked, 0 difference(s)');
    expect(fixed.status).toBe(0);
    dir.remove();
  }, PROCESS_TEST_MS);

  it('explains its usage on a wrong command', () => {
    const dir = tempDir('cli-');
    const result = cli(dir.path, 'rebuild', 'no-such-projection');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('usage: npm run projections');
    dir.remove();
  }, PROCESS_TEST_MS);
});
