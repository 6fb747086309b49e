// The `all` role's background threads run at BACKGROUND_NICE, below the thread that serves the
// requests and its event store's writer, which a placement waits on (bootstrap/thread-priority.ts):
// the workers' thread from its start, the projections' thread and its read store's checkpointer
// once every projection has caught up (readiness waits for that catch-up). Linux only: elsewhere a
// nice value is the process's, and the service leaves it alone.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../bootstrap/config.js';
import { openServices, type Services } from '../../bootstrap/services.js';
import { kernelThreadId } from '../../bootstrap/thread-priority.js';
import { SqliteEventStore } from '../../write-side/adapters/sqlite-event-store.js';
import { encodeOrderEvent, orderStream } from '../../write-side/orders/codec.js';
import { tempDir } from '../support/event-stores.js';
import { address } from '../support/seed.js';
import { until } from '../support/until.js';

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

const BACKGROUND = ['projections', 'workers', 'checkpointer'];
const named = (list: readonly Thread[], name: string) => list.filter((thread) => thread.name === name);
const niceOf = (list: readonly Thread[], name: string) => [...new Set(named(list, name).map((thread) => thread.nice))];

const opened: Array<{ services: Services; remove(): void }> = [];
afterEach(async () => {
  for (const { services, remove } of opened.splice(0)) {
    await services.close();
    remove();
  }
});

/** The `all` role's services on a data folder of their own, once `prepare` has written to it. */
async function start(env: Record<string, string>, prepare: (dir: string) => Promise<void> = async () => {}): Promise<Services> {
  const dir = tempDir('thread-priority-');
  await prepare(dir.path);
  const services = await openServices(parseConfig({ DATA_DIR: dir.path, ...env }), pino({ level: 'silent' }), 'all', { exportWorker: false });
  opened.push({ services, remove: dir.remove });
  return services;
}

async function caughtUp(services: Services): Promise<boolean> {
  return (await Promise.all(Object.values(services.progress).map((progress) => progress.status()))).every((status) => status.caughtUp);
}

/** Orders written straight into the log, for the projections to catch up with at the start. */
async function history(dir: string, orders: number): Promise<void> {
  const events = new SqliteEventStore({ file: join(dir, 'events.sqlite3'), synchronous: 'normal' });
  const meta = { principal: 'test', correlationId: 'thread-priority', causationId: null };
  const lines = [{ sku: 'SKU-1', name: 'Blue mug', quantity: 1, unitPrice: 1999, lineTotal: 1999 }];
  await Promise.all(
    Array.from({ length: orders }, () => {
      const orderId = randomUUID();
      const placed = encodeOrderEvent({ type: 'OrderPlaced', schemaVersion: 2, data: { orderId, customerId: 'cus_1', currency: 'EUR', lines, total: 1999, address, placedAt: new Date().toISOString() } }, meta);
      return events.appendToStream(orderStream(orderId), [placed], 'no_stream');
    }),
  );
  await events.close();
}

describe.runIf(kernelThreadId() !== null)('the priority of the all role’s threads', () => {
  it('lowers the workers’ and the projections’ threads, and the threads they start, to BACKGROUND_NICE; not the requests’ thread nor its writer', async () => {
    const services = await start({ BACKGROUND_NICE: '7' });
    await until(() => caughtUp(services));
    // Waited for until the two background threads have started their writers too (the workers' thread
    // lowers itself before it opens its stores, so its name is at 7 a moment before its writer exists).
    const writersStarted = (now: readonly Thread[]) => named(now, 'projections').length > 1 && named(now, 'workers').length > 1;
    const list = await until(threads, (now) => writersStarted(now) && BACKGROUND.every((name) => niceOf(now, name).join() === '7'));
    expect(getPriority(kernelThreadId()!)).toBe(0);
    // Every other thread (this one's event store writer among them, named as this thread is) stays at the requests' priority.
    expect(list.filter((thread) => !BACKGROUND.includes(thread.name) && thread.nice !== 0)).toEqual([]);
    // The writers of the two background threads are named as their threads are, and were lowered with them.
    expect(named(list, 'projections').length).toBeGreaterThan(1);
    expect(named(list, 'workers').length).toBeGreaterThan(1);
    expect(services.reconciler).toBeNull(); // the stock reconciler is in the workers' thread, at its priority
  });

  it('catches the projections up at the requests’ priority, and lowers them once they have caught up', async () => {
    const services = await start({ BACKGROUND_NICE: '7' }, (dir) => history(dir, 10_000));
    // Looked at while the ten thousand orders are still being projected: whether they were is asked after the look. (A
    // rebuild of ten thousand orders into every projection takes seconds; the thread is looked at within milliseconds of its start.)
    const during = await until(threads, (now) => named(now, 'projections').length > 0);
    expect(await caughtUp(services)).toBe(false);
    expect(niceOf(during, 'projections')).toEqual([0]);
    await until(() => caughtUp(services));
    expect(niceOf(await until(threads, (now) => niceOf(now, 'projections').join() === '7'), 'checkpointer')).toEqual([7]);
  });

  it('leaves every thread at the requests’ priority with BACKGROUND_NICE=0', async () => {
    const services = await start({ BACKGROUND_NICE: '0' });
    await until(() => caughtUp(services));
    const list = await until(threads, (now) => BACKGROUND.every((name) => named(now, name).length > 0));
    expect(list.filter((thread) => thread.nice !== 0)).toEqual([]);
  });
});
