// Wiring: picks the adapters the config names and opens them. The only module that imports adapters.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { fulfilmentQueue } from '../projections/fulfilment-queue.js';
import { jobsView } from '../projections/jobs.js';
import { orderViews } from '../projections/order-views.js';
import { Projector } from '../projections/projector.js';
import type { Projection } from '../projections/projection.js';
import { MongoReadStore } from '../read-side/adapters/mongo-read-store.js';
import { SqliteReadStore } from '../read-side/adapters/sqlite-read-store.js';
import { Consistency } from '../read-side/consistency.js';
import { CursorCodec } from '../read-side/cursor.js';
import { OrderHistory } from '../read-side/order-history.js';
import { OrderQueries } from '../read-side/order-queries.js';
import { QueueFeed } from '../read-side/queue-feed.js';
import type { ProjectionName, ReadModelStore } from '../read-side/read-store.js';
import { EsdbEventStore } from '../write-side/adapters/esdb-event-store.js';
import { SqliteEventStore } from '../write-side/adapters/sqlite-event-store.js';
import type { EventStore } from '../write-side/event-store.js';
import { StoreHealth } from '../write-side/store-health.js';
import { JobService } from '../write-side/job-service.js';
import { OrderService } from '../write-side/order-service.js';
import { ExportWorker } from '../workers/export-worker.js';
import type { Config } from './config.js';
import { cursorSecret } from './secrets.js';

export const PROJECTIONS: { readonly [N in ProjectionName]: Projection<N> } = {
  'order-views': orderViews,
  'fulfilment-queue': fulfilmentQueue,
  jobs: jobsView,
};

export interface Stores {
  readonly eventStore: EventStore;
  readonly readModels: ReadModelStore;
  close(): Promise<void>;
}

/** How long a collection read waits for the write of a Consistency-Token (HTTP-CONTRACT.md). */
const CONSISTENCY_WAIT_MS = 5000;

/** all: API, projectors and export worker in one process; api: no worker; worker: the worker alone. */
export type Role = 'all' | 'api' | 'worker';

export interface Services extends Stores {
  readonly orders: OrderService;
  readonly jobs: JobService;
  readonly exportsDir: string;
  readonly queries: OrderQueries;
  readonly history: OrderHistory;
  readonly feed: QueueFeed;
  readonly projectors: { readonly [N in ProjectionName]: Projector<N> };
  checkReady(): Promise<void>;
}

export async function openEventStore(config: Config, logger: Logger): Promise<EventStore> {
  if (config.eventStore.kind === 'eventstoredb') {
    logger.info('event store: EventStoreDB');
    return EsdbEventStore.connect(config.eventStore.url, {
      onSubscriptionError: (error, retryInMs) => logger.warn({ err: error, retryInMs }, 'event store subscription dropped; resubscribing'),
    });
  }
  mkdirSync(config.dataDir, { recursive: true });
  const file = join(config.dataDir, 'events.sqlite3');
  const store = new SqliteEventStore({ file, synchronous: config.eventStore.synchronous });
  logger.info({ file, ...(await store.durability()) }, 'event store: embedded SQLite');
  return store;
}

export async function openReadStore(config: Config, logger: Logger): Promise<ReadModelStore> {
  if (config.readStore.kind === 'mongodb') {
    logger.info({ database: config.readStore.database }, 'read models: MongoDB');
    return MongoReadStore.connect(config.readStore.url, config.readStore.database);
  }
  mkdirSync(config.dataDir, { recursive: true });
  const file = join(config.dataDir, 'read-models.sqlite3');
  logger.info({ file }, 'read models: embedded SQLite');
  // A short lock wait: it blocks the event loop, and the projector retries anyway. Checkpoints
  // run in the background, so that the projections' commits do not stall the requests.
  return new SqliteReadStore(file, { busyTimeoutMs: 250, backgroundCheckpointMs: 100 });
}

export async function openStores(config: Config, logger: Logger): Promise<Stores> {
  const eventStore = await openEventStore(config, logger);
  const readModels = await openReadStore(config, logger);
  return {
    eventStore,
    readModels,
    close: async () => {
      await readModels.close();
      await eventStore.close();
    },
  };
}

export async function openServices(config: Config, logger: Logger, role: Role = 'all'): Promise<Services> {
  const stores = await openStores(config, logger);
  const health = new StoreHealth(stores.eventStore);
  const eventStore = health.watched();
  const { readModels } = stores;
  const jobs = new JobService(eventStore);
  const exportsDir = join(config.dataDir, 'exports');
  mkdirSync(exportsDir, { recursive: true });
  const worker =
    role === 'api'
      ? null
      : new ExportWorker(jobs, readModels, {
          exportsDir,
          leaseMs: config.exports.leaseMs,
          retentionMs: config.exports.retentionMs,
          onError: (error, what) => logger.error({ err: error }, `export worker: ${what}`),
        });
  worker?.start();
  const projector = <N extends ProjectionName>(projection: Projection<N>) =>
    new Projector(eventStore, readModels, projection, {
      onError: (error, retryInMs) => logger.error({ err: error, projection: projection.name, retryInMs }, 'projection failed; restarting from its checkpoint'),
    });
  const projectors = { 'order-views': projector(orderViews), 'fulfilment-queue': projector(fulfilmentQueue), jobs: projector(jobsView) };
  // The worker alone needs only the jobs view it reads.
  if (role !== 'worker') Object.values(projectors).forEach((p) => p.start());
  else projectors.jobs.start();

  const cursors = new CursorCodec(cursorSecret(config));
  let caughtUpOnce = false;
  return {
    ...stores,
    eventStore,
    orders: new OrderService(eventStore),
    jobs,
    exportsDir,
    queries: new OrderQueries(readModels, cursors, {
      orders: new Consistency(projectors['order-views'], 'collections', CONSISTENCY_WAIT_MS),
      queue: new Consistency(projectors['fulfilment-queue'], 'queue', CONSISTENCY_WAIT_MS),
    }),
    history: new OrderHistory(eventStore, cursors),
    feed: new QueueFeed(readModels, projectors['fulfilment-queue'], eventStore, CONSISTENCY_WAIT_MS),
    projectors,
    checkReady: async () => {
      await health.check();
      await readModels.activeGeneration('order-views');
      for (const p of Object.values(projectors)) {
        const failing = p.failing;
        if (failing) {
          const reason = failing.error instanceof Error ? failing.error.message : String(failing.error);
          throw new Error(`projection ${p.projection.name} cannot move on since ${failing.since.toISOString()}: ${reason}`);
        }
      }
      if (caughtUpOnce) return;
      const statuses = await Promise.all(Object.values(projectors).map((p) => p.status()));
      const behind = statuses.filter((s) => !s.caughtUp).map((s) => s.name);
      if (behind.length > 0) throw new Error(`projections catching up: ${behind.join(', ')}`);
      caughtUpOnce = true;
    },
    close: async () => {
      await worker?.stop();
      await Promise.all(Object.values(projectors).map((p) => p.stop()));
      await stores.close();
    },
  };
}
