// `npm run audit` as an auditor runs it, on the embedded default.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteEventStore } from '../../write-side/adapters/sqlite-event-store.js';
import { tempDir } from '../support/event-stores.js';
import { seedOrders } from '../support/seed.js';
import { runScript } from '../support/service-process.js';

const run = (dataDir: string, script: string, ...args: string[]) => runScript(script, args, { DATA_DIR: dataDir });

describe('audit command', () => {
  it('verifies clean history, then reports an address change recorded after a shipment', async () => {
    const dir = tempDir('audit-');
    const events = new SqliteEventStore({ file: join(dir.path, 'events.sqlite3') });
    const ids = await seedOrders(events, 15, 'seed', { stock: true });
    await events.close();
    expect(run(dir.path, 'bootstrap/projections-cli.ts', 'rebuild').status).toBe(0);

    const clean = run(dir.path, 'bootstrap/audit-cli.ts', 'verify');
    expect(clean.stdout).toContain('domain rules: 15 orders checked, 0 finding(s)');
    expect(clean.stdout).toContain('read model order-views: 15 orders checked, 0 difference(s)');
    expect(clean.stdout).toContain('stock rules: 10 SKUs checked, 0 finding(s)');
    // The 10 SKUs stocked, and the 2 products of the seed's catalogue never stocked: the stock list has every SKU with a product.
    expect(clean.stdout).toContain('read model stock: 12 orders checked, 0 difference(s)');
    // The days' views only (one, or two should the seed straddle midnight UTC): nothing is kept per order.
    expect(clean.stdout).toMatch(/read model daily-sales: [12] orders checked, 0 difference\(s\)/);
    expect(clean.status).toBe(0);

    const replay = run(dir.path, 'bootstrap/audit-cli.ts', 'replay', '--order', ids[3]!);
    expect(replay.status).toBe(0);
    expect(replay.stdout).toMatch(/#0 .* OrderPlaced v2 by seeder/);
    expect(replay.stdout).toMatch(/#2 .* ShipmentCreated v2/);
    expect(replay.stdout).toContain('"status":"shipped"');

    // A write that skipped the expected-revision check, as a buggy or hostile client of the store might.
    const store = new SqliteEventStore({ file: join(dir.path, 'events.sqlite3') });
    await store.appendToStream(`order-${ids[3]}`, [{ type: 'OrderAddressChanged', data: { orderId: ids[3]!, address: { name: 'X', line1: 'Y', line2: null, city: 'Z', postalCode: '1', region: null, country: 'DE' }, changedAt: new Date().toISOString() }, metadata: { schemaVersion: 1, principal: 'rogue', correlationId: 'c', causationId: null } }], 'any');
    await store.close();
    const dirty = run(dir.path, 'bootstrap/audit-cli.ts', 'verify');
    expect(dirty.status).toBe(1);
    expect(dirty.stdout).toContain(`order-${ids[3]} #3 [nothing after the end] OrderAddressChanged after the order was shipped`);
    expect(run(dir.path, 'bootstrap/audit-cli.ts', 'replay').status).toBe(2);
    dir.remove();
  }, 120_000);

  it('reports stock reserved beyond what is on hand', async () => {
    const dir = tempDir('audit-stock-');
    const events = new SqliteEventStore({ file: join(dir.path, 'events.sqlite3') });
    await seedOrders(events, 3, 'seed', { stock: true });
    // A reservation appended past the decider, as a buggy writer might: more than SEED-1 has.
    const meta = { schemaVersion: 1, principal: 'rogue', correlationId: 'c', causationId: null };
    const now = new Date().toISOString();
    await events.appendToStream('stock-SEED-1', [{ type: 'StockReserved', data: { sku: 'SEED-1', orderId: 'nobody', quantity: 5000, reservedAt: now }, metadata: meta }], 'any');
    await events.close();
    const dirty = run(dir.path, 'bootstrap/audit-cli.ts', 'verify');
    expect(dirty.status).toBe(1);
    expect(dirty.stdout).toMatch(/stock-SEED-1 #\d+ \[0 ≤ reserved ≤ onHand\] onHand 1000, reserved 50\d\d/);
    dir.remove();
  }, 120_000);
});
