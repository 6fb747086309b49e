// A real service on the embedded stores, listening on port 0, for tests that go through HTTP.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pino } from 'pino';
import { createApp, type AppDeps } from '../../api/app.js';
import { createTokenVerifier, signDevToken } from '../../api/auth.js';
import { answerClientErrors } from '../../api/client-errors.js';
import { createMetrics } from '../../api/metrics.js';
import { SqliteReadStore } from '../../read-side/adapters/sqlite-read-store.js';
import { Consistency } from '../../read-side/consistency.js';
import { CursorCodec } from '../../read-side/cursor.js';
import { OrderHistory } from '../../read-side/order-history.js';
import { OrderQueries } from '../../read-side/order-queries.js';
import { QueueFeed } from '../../read-side/queue-feed.js';
import { fulfilmentQueue } from '../../projections/fulfilment-queue.js';
import { jobsView } from '../../projections/jobs.js';
import { orderViews } from '../../projections/order-views.js';
import { Projector } from '../../projections/projector.js';
import { SqliteEventStore } from '../../write-side/adapters/sqlite-event-store.js';
import { OrderService } from '../../write-side/order-service.js';
import { JobService } from '../../write-side/job-service.js';
import { ExportWorker, type ExportWorkerOptions } from '../../workers/export-worker.js';
import type { ReadModelStore } from '../../read-side/read-store.js';
import { mkdirSync } from 'node:fs';
import { tempDir } from './event-stores.js';

export const SECRET = 'test-secret-that-is-at-least-32-bytes-long!!';
export const ALL_SCOPES = 'orders:read orders:write payments:write shipments:write exports:write audit:read';

export interface TestService {
  readonly url: string;
  readonly events: SqliteEventStore;
  readonly reads: SqliteReadStore;
  readonly projector: Projector<'order-views'>;
  readonly logs: string[];
  readonly jobs: JobService;
  readonly exportsDir: string;
  /** The export worker, when the service was started with one. */
  readonly worker: ExportWorker | null;
  token(options?: { sub?: string; scope?: string; customerId?: string | null; ttlSeconds?: number }): Promise<string>;
  stop(): Promise<void>;
}

export interface WorkerSettings extends Partial<Omit<ExportWorkerOptions, 'exportsDir'>> {
  /** The read models the worker reads, when a test wants them to misbehave. */
  readonly readModels?: (real: ReadModelStore) => ReadModelStore;
}

export async function startService(overrides: Partial<AppDeps> & { consistencyWaitMs?: number } = {}, worker?: WorkerSettings): Promise<TestService> {
  const dir = tempDir('api-');
  const events = new SqliteEventStore({ file: join(dir.path, 'events.sqlite3') });
  const reads = new SqliteReadStore(join(dir.path, 'read-models.sqlite3'));
  const projector = new Projector(events, reads, orderViews);
  projector.start();
  const queueProjector = new Projector(events, reads, fulfilmentQueue);
  queueProjector.start();
  const jobsProjector = new Projector(events, reads, jobsView);
  jobsProjector.start();
  const jobs = new JobService(events);
  const exportsDir = join(dir.path, 'exports');
  mkdirSync(exportsDir);
  const exportWorker = worker
    ? new ExportWorker(jobs, worker.readModels ? worker.readModels(reads) : reads, { pollMs: 50, ...worker, exportsDir })
    : null;
  exportWorker?.start();
  const logs: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(line) });
  const app = createApp({
    orders: new OrderService(events),
    queries: new OrderQueries(reads, new CursorCodec('cursor-secret'), {
      orders: new Consistency(projector, 'collections', overrides.consistencyWaitMs ?? 5000),
      queue: new Consistency(queueProjector, 'queue', overrides.consistencyWaitMs ?? 5000),
    }),
    history: new OrderHistory(events, new CursorCodec('cursor-secret')),
    auth: createTokenVerifier({ secret: SECRET }),
    logger,
    metrics: createMetrics([projector]),
    checkReady: async () => {},
    rateLimit: { perSecond: 100_000, burst: 100_000 },
    exports: { jobs, exportsDir, retentionMs: worker?.retentionMs ?? 24 * 3600_000 },
    fulfilment: { feed: new QueueFeed(reads, queueProjector, events, overrides.consistencyWaitMs ?? 5000), heartbeatMs: 200 },
    ...overrides,
  });
  const server = createServer({ headersTimeout: 1_000, requestTimeout: 5_000, connectionsCheckingInterval: 200 }, app.callback());
  answerClientErrors(server);
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    events,
    reads,
    projector,
    logs,
    jobs,
    exportsDir,
    worker: exportWorker,
    token: ({ sub = 'user-1', scope = ALL_SCOPES, customerId = null, ttlSeconds = 600 } = {}) =>
      signDevToken(SECRET, { sub, scope, customerId }, ttlSeconds),
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await exportWorker?.stop();
      await projector.stop();
      await queueProjector.stop();
      await jobsProjector.stop();
      await reads.close();
      await events.close();
      dir.remove();
    },
  };
}

export const newOrder = (customerId = 'cus_42') => ({
  customerId,
  currency: 'EUR',
  lines: [{ sku: 'SKU-1', quantity: 2, unitPrice: 1999 }],
  address: { name: 'Ada Lovelace', line1: '1 Main St', city: 'Berlin', postalCode: '10115', country: 'DE' },
});

/** A small client: JSON in, status/headers/body out. */
export function client(service: TestService, token: string | null) {
  return async (method: string, path: string, options: { body?: unknown; raw?: string; headers?: Record<string, string> } = {}) => {
    const headers: Record<string, string> = { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...options.headers };
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const response = await fetch(service.url + path, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await response.text();
    let json: unknown = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = text;
    }
    return { status: response.status, headers: response.headers, body: json as Record<string, any> };
  };
}
