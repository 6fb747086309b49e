// One projector process projects, a standby takes over when it stops or dies.
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SqliteReadStore } from '../../read-side/adapters/sqlite-read-store.js';
import { PROJECTOR_LEASE, ProjectorLease, type Runnable } from '../../projections/projector-lease.js';
import { tempDir } from '../support/event-stores.js';
import { READ_STORAGE } from '../../projections/registry.js';
import { until } from '../support/until.js';

class Counting implements Runnable {
  running = false;
  starts = 0;
  /** When it last started: what a test checks, rather than when it got round to looking. */
  startedAt: number | null = null;
  start(): void {
    this.running = true;
    this.starts++;
    this.startedAt = Date.now();
  }
  async stop(): Promise<void> {
    this.running = false;
  }
}

describe('projector lease', () => {
  const dir = tempDir('lease-');
  const stores: SqliteReadStore[] = [];
  const open = () => {
    const store = new SqliteReadStore(join(dir.path, 'read-models.sqlite3'), READ_STORAGE);
    stores.push(store);
    return store;
  };
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });
  afterAll(() => dir.remove());

  it('runs the projectors in one process only, and hands over at once on a clean stop', async () => {
    // 3 s to live, renewed every second: a loaded machine can delay a renewal by much more than
    // the 400 ms a 600 ms lease would allow before it lapsed, and then the standby rightly takes over.
    const ttlMs = 3_000;
    const [a, b] = [new Counting(), new Counting()];
    const first = new ProjectorLease(open(), [a], { holder: 'first', ttlMs });
    first.start();
    await until(() => a.running);
    const second = new ProjectorLease(open(), [b], { holder: 'second', ttlMs });
    second.start();
    // At least one time to live (a loaded machine only makes it longer, which tests the renewals more).
    await new Promise((r) => setTimeout(r, ttlMs + 100));
    // Past one time to live: the renewals kept the lease with the first.
    expect([a.running, b.running]).toEqual([true, false]);
    const stopped = Date.now();
    await first.stop();
    expect(a.running).toBe(false);
    // Released, not lapsed: free the moment the stop is over (the first renewed within the last
    // second, its lease had two more to run), so the standby's own name takes it.
    expect(await open().acquireLease(PROJECTOR_LEASE, 'second', ttlMs)).toBe(true);
    await until(() => b.running);
    // The standby took over at its next ask (every second), in less than one time to live: generous for a loaded machine.
    expect(b.startedAt! - stopped).toBeLessThan(ttlMs);
    await second.stop();
    expect(b.starts).toBe(1);
  });

  it('takes over a lease whose holder stopped renewing, once it lapses', async () => {
    const store = open();
    // Before the crashed holder's lease is taken: it lapses no earlier than 500 ms after this.
    const started = Date.now();
    expect(await store.acquireLease(PROJECTOR_LEASE, 'crashed', 500)).toBe(true);
    const standby = new Counting();
    // The standby's own lease lives 3 s (asking every second), so that no delayed renewal lets the crashed holder back in below.
    const lease = new ProjectorLease(open(), [standby], { holder: 'standby', ttlMs: 3_000 });
    lease.start();
    await until(() => standby.running);
    // Not before the lapse: judged by when it started, not by when a loaded machine let the test look
    // (which also covers the old look at 250 ms, when it had to be standing by).
    expect(standby.startedAt! - started).toBeGreaterThanOrEqual(450);
    expect(await store.acquireLease(PROJECTOR_LEASE, 'crashed', 500)).toBe(false);
    await lease.stop();
  });
});
