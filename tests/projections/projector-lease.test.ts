// One projector process projects, a standby takes over when it stops or dies.
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SqliteReadStore } from '../../read-side/adapters/sqlite-read-store.js';
import { PROJECTOR_LEASE, ProjectorLease, type Runnable } from '../../projections/projector-lease.js';
import { tempDir } from '../support/event-stores.js';
import { READ_STORAGE } from '../../projections/registry.js';

class Counting implements Runnable {
  running = false;
  starts = 0;
  start(): void {
    this.running = true;
    this.starts++;
  }
  async stop(): Promise<void> {
    this.running = false;
  }
}

const until = async (condition: () => boolean, timeoutMs: number) => {
  for (const deadline = Date.now() + timeoutMs; !condition() && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 10));
  return condition();
};

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
    const [a, b] = [new Counting(), new Counting()];
    const first = new ProjectorLease(open(), [a], { holder: 'first', ttlMs: 600 });
    first.start();
    expect(await until(() => a.running, 2000)).toBe(true);
    const second = new ProjectorLease(open(), [b], { holder: 'second', ttlMs: 600 });
    second.start();
    await new Promise((r) => setTimeout(r, 700));
    // Past one time to live: the renewals kept the lease with the first.
    expect([a.running, b.running]).toEqual([true, false]);
    const stopped = Date.now();
    await first.stop();
    expect(a.running).toBe(false);
    expect(await until(() => b.running, 2000)).toBe(true);
    // Released, not lapsed: the standby took over at its next ask, within a third of the time to live.
    expect(Date.now() - stopped).toBeLessThan(450);
    await second.stop();
    expect(b.starts).toBe(1);
  });

  it('takes over a lease whose holder stopped renewing, once it lapses', async () => {
    const store = open();
    expect(await store.acquireLease(PROJECTOR_LEASE, 'crashed', 500)).toBe(true);
    const standby = new Counting();
    const lease = new ProjectorLease(open(), [standby], { holder: 'standby', ttlMs: 500 });
    const started = Date.now();
    lease.start();
    await new Promise((r) => setTimeout(r, 250));
    expect(standby.running).toBe(false);
    expect(await until(() => standby.running, 3000)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    expect(await store.acquireLease(PROJECTOR_LEASE, 'crashed', 500)).toBe(false);
    await lease.stop();
  });
});
