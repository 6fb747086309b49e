// A real service on the embedded stores, listening on port 0, for tests that go through HTTP.
// It is wired by the composition root (bootstrap/), as `npm start` wires it: a test changes
// only what it names (an AppDeps override, the export worker's timings).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import { pino } from 'pino';
import type { AppDeps } from '../../api/app.js';
import { signDevToken } from '../../api/auth.js';
import { answerClientErrors } from '../../api/client-errors.js';
import { parseConfig } from '../../bootstrap/config.js';
import { createHttpApp } from '../../bootstrap/http-app.js';
import { openServices, type ProjectionProgress } from '../../bootstrap/services.js';
import type { ReadModelStore } from '../../read-side/read-store.js';
import type { EventStore } from '../../write-side/kernel/event-store.js';
import type { JobService } from '../../write-side/jobs/service.js';
import type { CustomerErasure } from '../../write-side/personal-data/erasure.js';
import type { KeyStore } from '../../write-side/personal-data/key-store.js';
import type { PersonalData } from '../../write-side/personal-data/personal-data.js';
import type { ExportWorker, ExportWorkerOptions } from '../../workers/export-worker.js';
import { defineProducts } from './catalogue.js';
import { tempDir } from './event-stores.js';

export const SECRET = 'test-secret-that-is-at-least-32-bytes-long!!';
export const ALL_SCOPES = 'orders:read orders:write payments:write shipments:write refunds:write returns:write exports:write audit:read catalogue:read catalogue:write customers:read customers:write customers:erase stock:read stock:write';

export interface TestService {
  readonly url: string;
  /** The service's DATA_DIR (its store files live there). */
  readonly dataDir: string;
  /** The Koa app as bootstrap/ wired it: its middleware holds the routers and their route lists. */
  readonly app: Koa;
  readonly events: EventStore;
  readonly reads: ReadModelStore;
  /** How far the orders' views are (their projector runs in the service's projections thread). */
  readonly projector: ProjectionProgress;
  readonly logs: string[];
  readonly jobs: JobService;
  readonly exportsDir: string;
  /** The export worker, when the service was started with one. */
  readonly worker: ExportWorker | null;
  readonly keys: KeyStore;
  readonly personalData: PersonalData;
  readonly erasure: CustomerErasure;
  token(options?: { sub?: string; scope?: string; customerId?: string | null; ttlSeconds?: number }): Promise<string>;
  stop(): Promise<void>;
  /** Stops the service and closes its stores, leaving DATA_DIR in place (for a look at its files); stop() then removes it. */
  halt(): Promise<void>;
}

export interface WorkerSettings extends Partial<Omit<ExportWorkerOptions, 'exportsDir'>> {
  /** The read models the worker reads, when a test wants them to misbehave. */
  readonly readModels?: (real: ReadModelStore) => ReadModelStore;
}

/**
 * Starts the service as bootstrap/ wires it, in the `all` role; without worker settings it runs no
 * export worker. The test catalogue (support/catalogue.ts) is defined first, unless `products` is false.
 */
export async function startService(
  options: Partial<AppDeps> & {
    consistencyWaitMs?: number;
    products?: boolean;
    keyStore?: (real: KeyStore) => KeyStore;
    /** Starts again on the DATA_DIR of a service that was halted, which keeps owning (and removing) it. */
    dataDir?: string;
    /** How long a request head may take to arrive before the answer is 408 (the server's headersTimeout). */
    headersTimeoutMs?: number;
  } = {},
  worker?: WorkerSettings,
): Promise<TestService> {
  // A Consistency-Token read waits up to a minute here, not the service's 5 s: on a loaded machine
  // the projections may take a while to catch up, and a test must not fail on that. A test of the
  // 503 after the wait names its own (short) wait.
  // A request head gets 30 s, not the 1 s the slow-head test sets: on a loaded machine a test's own
  // client (the same process) may not be read for a second after it connected, and would get a 408.
  const { consistencyWaitMs = 60_000, products = true, keyStore, dataDir, headersTimeoutMs = 30_000, ...overrides } = options;
  const dir = dataDir ? { path: dataDir, remove: () => {} } : tempDir('api-');
  const config = parseConfig({
    DATA_DIR: dir.path,
    AUTH_JWT_SECRET: SECRET,
    RATE_LIMIT_PER_SECOND: '100000',
    RATE_LIMIT_BURST: '100000',
    // The deliveries on this thread, as the tests' timings expect; the thread of the `all` role has tests of its own.
    WEBHOOK_THREAD: 'false',
  });
  // `logs` holds the HTTP app's lines (one per request); the stores' and workers' go apart.
  const logs: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(line) });
  const serviceLogger = pino({ level: 'silent' });
  const { readModels, ...workerOptions } = worker ?? {};
  const services = await openServices(config, serviceLogger, 'all', {
    exportWorker: worker !== undefined,
    worker: { pollMs: 50, ...workerOptions },
    ...(readModels ? { workerReadModels: readModels } : {}),
    consistencyWaitMs,
    ...(keyStore ? { keyStore } : {}),
  });
  if (products) await defineProducts(services.products);
  const app = createHttpApp(config, services, logger, (composed) => ({
    // Heartbeats a test can wait for, and a result kept as long as the test's worker keeps it.
    fulfilment: { ...composed.fulfilment!, heartbeatMs: 200 },
    exports: { ...composed.exports!, ...(worker?.retentionMs === undefined ? {} : { retentionMs: worker.retentionMs }) },
    // A minute, not 10 s, before a request is answered 503 as too slow (so that the minute's wait above
    // can run); a test of that 503 names its own.
    requestTimeoutMs: 60_000,
    ...overrides,
  }));
  const server = createServer({ headersTimeout: headersTimeoutMs, requestTimeout: Math.max(5_000, headersTimeoutMs), connectionsCheckingInterval: 200 }, app.callback());
  answerClientErrors(server);
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  let halted: Promise<void> | null = null;
  const halt = () =>
    (halted ??= (async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await services.close();
    })());
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir: dir.path,
    app,
    events: services.eventStore,
    reads: services.readModels,
    projector: services.progress['order-views'],
    logs,
    jobs: services.jobs,
    exportsDir: services.exportsDir,
    worker: services.worker,
    keys: services.keys,
    personalData: services.personalData,
    erasure: services.erasure,
    token: ({ sub = 'user-1', scope = ALL_SCOPES, customerId = null, ttlSeconds = 600 } = {}) =>
      signDevToken(SECRET, { sub, scope, customerId }, ttlSeconds),
    stop: async () => {
      await halt();
      dir.remove();
    },
    halt,
  };
}

export const newOrder = (customerId = 'cus_42') => ({
  customerId,
  currency: 'EUR',
  lines: [{ sku: 'SKU-1', quantity: 2, unitPrice: 1999 }] as Array<{ sku: string; quantity: number; unitPrice?: number }>,
  address: { name: 'Ada Lovelace', line1: '1 Main St', city: 'Berlin', postalCode: '10115', country: 'DE' },
});

/**
 * Receives stock over HTTP, for the tests that start the service as a process: placing an order
 * reserves stock, which is 0 on hand until received.
 */
export async function receiveStockOverHttp(url: string, secret: string, skus: readonly string[], quantity = 1_000_000): Promise<void> {
  const token = await signDevToken(secret, { sub: 'stock-receiver', scope: 'stock:write', customerId: null }, 600);
  for (const sku of new Set(skus)) {
    const response = await fetch(`${url}/stock/${sku}/adjustments`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': `receive-${sku}-${Date.now()}-${Math.random()}` },
      body: JSON.stringify({ delta: quantity, reason: 'received' }),
    });
    if (response.status !== 201) throw new Error(`receiving ${sku}: ${response.status} ${await response.text()}`);
  }
}

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
