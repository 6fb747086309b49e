// The `all` role's background threads (the projections', the workers') and the threads they start
// run at BACKGROUND_NICE, below the thread that serves the requests and its event store's writer,
// which a placement waits on (bootstrap/thread-priority.ts). Linux only: elsewhere a nice value is
// the process's, and the service leaves it alone.
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { kernelThreadId } from '../../bootstrap/thread-priority.js';
import { servicesInTempDirs } from '../support/services.js';
import { until } from '../support/until.js';

const start = servicesInTempDirs('thread-priority-', { exportWorker: false });

interface Thread {
  readonly id: number;
  readonly name: string;
  readonly nice: number;
}

/** This process's threads as the kernel lists them (one that ends while it is read is left out). */
function threads(): Thread[] {
  return readdirSync('/proc/self/task').flatMap((entry) => {
    const id = Number(entry);
    try {
      return [{ id, name: readFileSync(`/proc/self/task/${entry}/comm`, 'utf8').trim(), nice: getPriority(id) }];
    } catch {
      return [];
    }
  });
}

const named = (list: readonly Thread[], name: string) => list.filter((thread) => thread.name === name);

/** Once the projections' thread has opened its read store (its checkpointer runs) and the workers' thread is up. */
const started = (list: readonly Thread[]) => ['projections', 'workers', 'checkpointer'].every((name) => named(list, name).length > 0);

describe.runIf(kernelThreadId() !== null)('the priority of the all role’s threads', () => {
  it('lowers the projections’ and the workers’ threads, and the threads they start, to BACKGROUND_NICE; not the requests’ thread nor its event writer', async () => {
    const services = await start({ BACKGROUND_NICE: '7' });
    const list = await until(threads, started);
    expect(getPriority(kernelThreadId()!)).toBe(0);
    for (const name of ['projections', 'workers', 'checkpointer']) expect(named(list, name).map((t) => t.nice), name).toEqual(named(list, name).map(() => 7));
    // The requests' thread's own writer, which every placement waits on, and the background threads' writers (inherited).
    const writers = named(list, 'event-writer').map((t) => t.nice);
    expect(writers).toContain(0);
    expect(writers).toContain(7);
    expect(services.reconciler).toBeNull(); // the reconciler is in the workers' thread, at its priority
  });

  it('leaves every thread at the requests’ priority with BACKGROUND_NICE=0', async () => {
    await start({ BACKGROUND_NICE: '0' });
    expect((await until(threads, started)).filter((t) => t.nice !== 0)).toEqual([]);
  });
});
