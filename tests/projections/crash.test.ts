// A projector killed with SIGKILL at random moments, mid-batch or not, leaves views that equal a fresh replay.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteReadStore } from '../../read-side/adapters/sqlite-read-store.js';
import { fulfilmentQueue } from '../../projections/orders/fulfilment-queue.js';
import { orderViews } from '../../projections/orders/order-views.js';
import { Projector } from '../../projections/projector.js';
import { verify, type Difference } from '../../projections/rebuild.js';
import { SqliteEventStore } from '../../write-side/adapters/sqlite-event-store.js';
import { tempDir } from '../support/event-stores.js';
import { seedOrders } from '../support/seed.js';
import { READ_STORAGE } from '../../projections/registry.js';

// These tests start the service (or a command) as processes: node with tsx, seconds of CPU each,
// which a loaded 2-core machine stretches past the default 30 s (half a minute at load 16 was seen);
// 3 minutes is generous.
const PROCESS_TEST_MS = 180_000;

async function runAndKill(eventsFile: string, readsFile: string, afterBatches: number): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fixtures/project-until-killed.ts'), eventsFile, readsFile], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let ticks = 0;
  await new Promise<void>((resolve, reject) => {
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`exited with ${code}`))));
    child.stdout.on('data', (chunk: Buffer) => {
      ticks += chunk.toString().split('\n').length - 1;
      if (ticks >= afterBatches && !child.killed) child.kill('SIGKILL');
    });
  });
}

describe('projector crash safety (embedded)', () => {
  it('views equal a fresh replay after SIGKILLs at random moments', async () => {
    const dir = tempDir('crash-');
    const eventsFile = join(dir.path, 'events.sqlite3');
    const readsFile = join(dir.path, 'read-models.sqlite3');
    const events = new SqliteEventStore({ file: eventsFile });
    await seedOrders(events, 1500);

    const progress: Array<string | null> = [];
    for (let kill = 0; kill < 4; kill++) {
      await runAndKill(eventsFile, readsFile, 1 + Math.floor(Math.random() * 200));
      const reads = new SqliteReadStore(readsFile, READ_STORAGE);
      progress.push(await reads.views('order-views', 1).checkpoint());
      await reads.close();
    }
    // Killed part-way at least once: otherwise nothing was interrupted.
    const head = await events.headPosition();
    expect(progress.some((p) => p !== null && p !== head)).toBe(true);

    const reads = new SqliteReadStore(readsFile, READ_STORAGE);
    const projectors = [new Projector(events, reads, orderViews), new Projector(events, reads, fulfilmentQueue as unknown as typeof orderViews)];
    projectors.forEach((p) => p.start());
    for (const p of projectors) expect(await p.waitFor(head!, 60_000)).toBe(true); // as soon as they are there; 60 s (was 20) only bounds a catch-up that never ends
    await Promise.all(projectors.map((p) => p.stop()));

    for (const projection of [orderViews, fulfilmentQueue as unknown as typeof orderViews]) {
      const differences: Difference[] = [];
      const result = await verify(events, reads, projection, (d) => differences.push(d));
      expect(differences).toEqual([]);
      expect(result.checked).toBe(1500);
    }
    await reads.close();
    await events.close();
    dir.remove();
  }, PROCESS_TEST_MS);
});
