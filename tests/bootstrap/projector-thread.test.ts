// The `all` role applies its projections in a worker thread of its own (PROJECTOR_THREAD, on by
// default), so that the thread serving the requests spends none of its time on them.
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../bootstrap/config.js';
import { startProjectorThread } from '../../bootstrap/projector-thread.js';
import { openStores, PROJECTIONS, type Services } from '../../bootstrap/services.js';
import { serviceViewer } from '../../write-side/kernel/access.js';
import { comparePositions } from '../../write-side/kernel/position.js';
import { tempDir } from '../support/event-stores.js';
import { servicesInTempDirs } from '../support/services.js';
import { until } from '../support/until.js';

const silent = pino({ level: 'silent' });
const start = servicesInTempDirs('projector-thread-', { exportWorker: false, stockWorkers: false });

/** Blocks this thread in steps of 100 ms (no timer, no message can run here meanwhile) until the products' checkpoint reaches `position`, or `steps` are done. */
async function checkpointWhileBlocked(services: Services, position: string, steps: number): Promise<boolean> {
  const generation = await services.readModels.activeGeneration('products');
  const views = services.readModels.views('products', generation);
  const cell = new Int32Array(new SharedArrayBuffer(4));
  for (let step = 0; step < steps; step++) {
    Atomics.wait(cell, 0, 0, 100);
    // The embedded read store answers at once: awaiting it runs no timer and no message of this thread.
    const checkpoint = await views.checkpoint();
    if (checkpoint !== null && comparePositions(checkpoint, position as never) >= 0) return true;
  }
  return false;
}

const product = { name: 'Lamp', description: null, prices: { EUR: 1999 }, status: 'active' as const };

describe('the projections thread of the all role', () => {
  it('applies a write to the views while the thread that serves the requests is blocked, and reports how far it got', async () => {
    const services = await start();
    const { position } = await services.products.put(serviceViewer('test'), 'LAMP-1', product, { correlationId: 'c' });
    // Up to 60 s blocked (was 10): it returns as soon as the thread got there, which a loaded machine may take long over (starting the thread included).
    expect(await checkpointWhileBlocked(services, position!, 600)).toBe(true);
    expect(await services.progress.products.waitFor(position!, 60_000)).toBe(true); // as soon as it is there; 60 s (was 5) only bounds a wait that never ends
    await expect(services.checkReady()).resolves.toBeUndefined();
  });

  it('applies a write at once for a read that waits for it with its Consistency-Token, however long the batch would wait for more', async () => {
    // A batch waits ten minutes for more events after its first: only the read's hurry applies it within the test.
    // The read waits up to a minute (not 5 s): the thread is told by a message, which a loaded machine may take a while to run.
    const services = await start({ PROJECTOR_BATCH_WAIT_MS: '600000', PROJECTOR_MAX_BATCH_WAIT_MS: '600000', CONSISTENCY_WAIT_MS: '60000' });
    const { position } = await services.products.put(serviceViewer('test'), 'LAMP-1', product, { correlationId: 'c' });
    // The batch holds it: a second is nothing against its ten minutes.
    expect(await services.progress.products.waitFor(position!, 1_000)).toBe(false);
    const page = await services.productQueries.list(serviceViewer('test'), { sort: 'sku', limit: 10, consistencyToken: position! });
    expect(page.items.map((item) => item.sku)).toEqual(['LAMP-1']);
    expect(comparePositions(page.reflects, position!)).toBeGreaterThanOrEqual(0);
    // The hurry ends there: the next write waits for its batch again.
    const second = await services.products.put(serviceViewer('test'), 'LAMP-2', product, { correlationId: 'c' });
    expect(await services.progress.products.waitFor(second.position!, 1_000)).toBe(false);
  });

  it('is not there with PROJECTOR_THREAD=false: the projections run on the thread that serves the requests', async () => {
    const services = await start({ PROJECTOR_THREAD: 'false' });
    const { position } = await services.products.put(serviceViewer('test'), 'LAMP-1', product, { correlationId: 'c' });
    expect(await checkpointWhileBlocked(services, position!, 10)).toBe(false);
    expect(await services.progress.products.waitFor(position!, 60_000)).toBe(true); // as soon as it is there; 60 s (was 5) only bounds a wait that never ends
  });

  it('is started again when it dies, and the service is not ready meanwhile: the failure names the thread', async () => {
    const dir = tempDir('projector-thread-');
    const config = parseConfig({ DATA_DIR: dir.path });
    const stores = await openStores(config, silent);
    const thread = startProjectorThread(config, stores.eventStore, PROJECTIONS, silent, {
      // Not ready for 2 s (was 0.5) before the restart: long enough that the polling below, however delayed by a loaded machine, sees it.
      restartMs: 2_000,
      entry: new URL('./fixtures/thread-that-dies-once.ts', import.meta.url),
    });
    try {
      const seen: string[] = [];
      // Polled until it has failed and recovered, with no deadline but the test's (was 10 s).
      await until(() => {
        const failing = thread.failing();
        if (failing) seen.push(failing.what);
        return seen.length > 0 && failing === null;
      }, Boolean, 20);
      expect(seen[0]).toBe("the projections' thread");
      expect(thread.failing()).toBeNull();
      // Started again: every projection reported, and the (empty) log holds nothing more for them.
      await thread.started(60_000); // as soon as it has; 60 s (was 10) only bounds a start that never comes
      expect((await thread.progress.products.status()).caughtUp).toBe(true);
    } finally {
      await thread.stop();
      await stores.close();
      dir.remove();
    }
  });
});
