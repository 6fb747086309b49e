// `npm run projections -- rebuild|verify` as an operator runs it, on the embedded default.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteEventStore } from '../../write-side/adapters/sqlite-event-store.js';
import { tempDir } from '../support/event-stores.js';
import { seedOrders } from '../support/seed.js';
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

  it('explains its usage on a wrong command', () => {
    const dir = tempDir('cli-');
    const result = cli(dir.path, 'rebuild', 'no-such-projection');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('usage: npm run projections');
    dir.remove();
  }, PROCESS_TEST_MS);
});
