// The HTTP layer of bench:http-layer, run as a child process: the API's Koa app (api/app.ts) of
// the checkout at argv[2], wired as bootstrap/http-app.ts wires it (every router mounted, the
// real token verifier, metrics, rate limiter, load shedding and request timeout), but with a
// write side that answers at once: its placement returns the order it was asked for, priced as
// sent. What a request costs here is the HTTP layer's own work, and Node's HTTP server's.
// Listens on PORT and prints {"port":N} once listening.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { serveOnPort } from '../support/free-port.js';

const root = process.argv[2]!;
const load = <T>(path: string) => import(pathToFileURL(join(root, path)).href) as Promise<T>;
const { createApp } = await load<typeof import('../../api/app.js')>('api/app.ts');
const { createTokenVerifier } = await load<typeof import('../../api/auth.js')>('api/auth.ts');
const { createMetrics } = await load<typeof import('../../api/metrics.js')>('api/metrics.ts');

interface Line { sku: string; quantity: number; unitPrice: number }
interface NewOrder { customerId: string; currency: string; lines: Line[]; address: Record<string, unknown> }

// Nothing but what POST /orders calls: place() answers the order it was given, as placed now.
const orders = {
  place(_viewer: unknown, input: NewOrder) {
    const now = new Date().toISOString();
    const lines = input.lines.map((l) => ({ sku: l.sku, name: `Product ${l.sku}`, quantity: l.quantity, unitPrice: l.unitPrice, lineTotal: l.quantity * l.unitPrice }));
    const state = {
      status: 'pending', id: randomUUID(), customerId: input.customerId, currency: input.currency, lines,
      total: lines.reduce((sum, l) => sum + l.lineTotal, 0), address: input.address, createdAt: now, updatedAt: now,
      payment: null, shipment: null, cancellationReason: null,
    };
    return Promise.resolve({ state, revision: 0, events: [], position: `0000000000000000:${Date.now()}`, replayed: false });
  },
};
const unused = {} as never;
const logger = pino({ level: 'warn' });
const app = createApp({
  orders: orders as never,
  queries: unused,
  history: unused,
  returns: unused,
  auth: createTokenVerifier({ secret: process.env.BENCH_SECRET!, accountSecret: process.env.BENCH_SECRET! }),
  accounts: { accounts: unused, queries: unused, issueToken: unused },
  logger,
  metrics: createMetrics([]),
  checkReady: () => Promise.resolve(),
  rateLimit: { perSecond: 100_000_000, burst: 100_000_000 },
  requestTimeoutMs: 10_000,
  corsOrigins: [],
  maxInFlight: 512,
  exports: { jobs: unused, exportsDir: '/nonexistent', retentionMs: 1 },
  fulfilment: { feed: unused },
  stock: { stock: unused, stockQueries: unused },
  catalogue: { products: unused, productQueries: unused },
  customers: { customers: unused, customerQueries: unused },
  adminAppDir: join(root, 'admin', 'dist'),
});
const server = createServer({ headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000, connectionsCheckingInterval: 1_000 }, app.callback());
await serveOnPort(server);
