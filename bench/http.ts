// npm run bench:http: the real service (bootstrap/main.ts, embedded stores) with 100,000 orders
// loaded, beside a bare Koa app answering a fixed order-sized JSON, both driven by autocannon in
// the same run (50 connections, BENCH_SECONDS each, default 10). Prints requests/s, p50 and p99
// per route and each route's ratio to the bare baseline.
//
// The servers run as child processes; autocannon runs here. On a small machine (2 cores) the
// load generator and the server under test compete for the same CPUs, and they compete the same
// way for every route and for the baseline, so the ratios stay fair even where the absolute
// figures are the machine's. The baseline also sends the same headers and builds each request
// dynamically (a random /orders/{id} path), so the client-side cost is the same as for the routes.
//
// A third server, the floor, shows how far a route's ratio can go at all on this machine: bare
// Koa doing only the store work of a route, through the same embedded stores: for POST /orders
// one durable append; for GET /orders/{id} the order folded by the write side's order service
// (with its cache of folded orders); for the page one read-model query. None of the service's
// own work: no token, no validation, no idempotency, no projections, no signed cursors, no logs,
// no metrics. A route cannot beat its floor; the gap between the two is the service's own cost.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signDevToken } from '../api/auth.js';
import { SqliteReadStore } from '../read-side/adapters/sqlite-read-store.js';
import { SqliteEventStore } from '../write-side/adapters/sqlite-event-store.js';
import { serviceViewer } from '../write-side/access.js';
import { encodeOrderEvent, orderStream } from '../write-side/orders/codec.js';
import type { Address, OrderEvent } from '../write-side/orders/types.js';

const address: Address = { name: 'Ada Lovelace', line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' };
// The contract's example order (~400 bytes of JSON): what the bare baseline answers.
const EXAMPLE_ORDER = {
  id: '7c1d2f9e-3b4a-4c5d-8e6f-0a1b2c3d4e5f', customerId: 'cus_42', status: 'paid', currency: 'EUR',
  lines: [{ sku: 'SKU-1', quantity: 2, unitPrice: 1999, lineTotal: 3998 }], total: 3998, address,
  createdAt: '2026-11-22T10:00:00.000Z', updatedAt: '2026-11-22T10:05:00.000Z', revision: 1,
};

// ---- autocannon (CommonJS, no bundled types): the part of its API used here ----

interface AcRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: AcRequest, context: Record<string, unknown>) => AcRequest | null;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}
interface AcResult {
  requests: { average: number; total: number; sent: number };
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
  duration: number;
}
interface AcOptions {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  requests: AcRequest[];
}
interface AcInstance extends Promise<AcResult> {
  stop(): void;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: AcOptions) => AcInstance;

// ---- the run ----

async function main(): Promise<void> {
  const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
  const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
  const WARMUP_SECONDS = 1;
  const CONNECTIONS = 50;
  const PAGE = 20;
  const SECRET = `bench-http-${randomUUID()}-${randomUUID()}`; // > 32 bytes
  const MAX_ERROR_SHARE = 0.01;
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

  // Under the working directory, not /tmp: a tmpfs would make every flush free.
  const dir = mkdtempSync(join(process.cwd(), '.bench-http-'));
  const children: Array<{ name: string; child: ChildProcess }> = [];
  let current: AcInstance | null = null;
  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      await Promise.all(children.map(({ child }) => stopChild(child)));
      rmSync(dir, { recursive: true, force: true });
    })());
  let interrupted = false;
  const onSigint = () => {
    interrupted = true;
    console.error('\ninterrupted: stopping the servers and removing the data');
    current?.stop();
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSigint);

  try {
    // 1. Load the orders straight into the embedded event store, before the service opens it.
    console.log(`loading ${fmt(ORDERS)} orders (half of them paid) into the embedded event store ...`);
    const loadStarted = performance.now();
    const ids = await loadOrders(join(dir, 'events.sqlite3'), ORDERS);
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const paid = Math.ceil(ORDERS / 2);
    console.log(`  ${fmt(ORDERS)} orders, ${fmt(ORDERS + paid)} events written in ${loadSeconds.toFixed(1)} s`);

    // 2. Start both servers.
    const bare = startChild('bare koa', [fileURLToPath(import.meta.url), '--bare'], { PATH: process.env.PATH ?? '' });
    children.push(bare);
    // Listened for from the start: a child may print its port before it is awaited.
    const barePort = portFromStdout(bare, 30_000);
    // The service logs its port at info level, which LOG_LEVEL=warn (no per-request log lines,
    // to measure the service rather than the log pipe) suppresses: give it a free port instead.
    const servicePort = await freePort();
    const service = startChild('service', ['bootstrap/main.ts'], {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dir,
      PORT: String(servicePort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      AUTH_JWT_SECRET: SECRET,
      // The per-principal limiter must not cap the benchmark (every request here has one sub).
      RATE_LIMIT_PER_SECOND: '100000000',
      RATE_LIMIT_BURST: '100000000',
    });
    children.push(service);
    // The floor appends to an event store of its own and reads the service's orders and read models.
    const floor = startChild('floor', [fileURLToPath(import.meta.url), '--floor', join(dir, 'floor'), dir], { PATH: process.env.PATH ?? '' });
    children.push(floor);
    const floorPort = portFromStdout(floor, 30_000);
    const bareUrl = `http://127.0.0.1:${await barePort}`;
    const serviceUrl = `http://127.0.0.1:${servicePort}`;
    const floorUrl = `http://127.0.0.1:${await floorPort}`;

    const readyStarted = performance.now();
    await waitReady(service, `${serviceUrl}/health/ready`, 600_000);
    const readySeconds = (performance.now() - readyStarted) / 1000;
    console.log(`  service ready (projections caught up over ${fmt(ORDERS + paid)} events) ${readySeconds.toFixed(1)} s after start\n`);

    // 3. Drive each target.
    const token = await signDevToken(SECRET, { sub: 'bench', scope: 'orders:read orders:write payments:write shipments:write' }, 3600);
    const auth = { authorization: `Bearer ${token}` };
    const randomId = () => ids[Math.floor(Math.random() * ids.length)]!;
    const samples = new Map<string, { status: number; body: string }>();
    const sampler = (route: string) => (status: number, body: string) => {
      if ((status < 200 || status > 299) && !samples.has(route)) samples.set(route, { status, body: body.slice(0, 300) });
    };
    const newOrder = JSON.stringify({
      customerId: 'cus_42', currency: 'EUR', lines: [{ sku: 'SKU-1', quantity: 2, unitPrice: 1999 }],
      address: { name: 'Ada Lovelace', line1: '1 Main St', city: 'Berlin', postalCode: '10115', country: 'DE' },
    });
    const firstPage = `/orders?status=paid&limit=${PAGE}`;
    // The requests a route and its floor (or the baseline) are driven with alike; `route` names the samples.
    const randomReads = (route: string): AcRequest[] => [
      { method: 'GET', headers: auth, setupRequest: (req) => ({ ...req, path: `/orders/${randomId()}` }), onResponse: sampler(route) },
    ];
    const placements = (route: string): AcRequest[] => [{
      method: 'POST', path: '/orders', body: newOrder,
      headers: { ...auth, 'content-type': 'application/json' },
      setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'idempotency-key': randomUUID() } }),
      onResponse: sampler(route),
    }];

    interface Target {
      route: string;
      url: string;
      /** The requests to drive it with, given its route (which names the samples). */
      requests: (route: string) => AcRequest[];
      minRatio: number | null;
      settle?: boolean;
      note?: () => string;
    }
    let walk = { firstPages: 0, deepest: 0 };
    const targets: Target[] = [
      {
        route: 'bare Koa baseline',
        url: bareUrl,
        minRatio: null,
        requests: randomReads,
      },
      {
        route: 'POST /orders',
        url: serviceUrl,
        minRatio: 0.35,
        settle: true,
        requests: placements,
      },
      {
        route: 'floor: Koa + the append only',
        url: floorUrl,
        minRatio: null,
        requests: placements,
      },
      {
        route: 'GET /orders/{id}',
        url: serviceUrl,
        minRatio: 0.5,
        requests: randomReads,
      },
      {
        route: 'floor: Koa + the fold only',
        url: floorUrl,
        minRatio: null,
        requests: randomReads,
      },
      {
        route: `GET ${firstPage} (cursors)`,
        url: serviceUrl,
        minRatio: 0.4,
        requests: (route) => pageChain(firstPage, Math.ceil(paid / PAGE) + 2, auth, sampler(route), (walk = { firstPages: 0, deepest: 0 })),
        note: () => `; ${fmt(walk.firstPages)} first pages, deepest page reached ${fmt(walk.deepest)} of ${fmt(Math.ceil(paid / PAGE))}`,
      },
      {
        route: 'floor: Koa + the page query only',
        url: floorUrl,
        minRatio: null,
        requests: (route) => pageChain(firstPage, Math.ceil(paid / PAGE) + 2, auth, sampler(route)),
      },
      {
        route: 'PATCH /orders/{id}',
        url: serviceUrl,
        minRatio: null,
        settle: true,
        requests: (route) => [{
          method: 'PATCH', headers: { ...auth, 'content-type': 'application/merge-patch+json' },
          setupRequest: (req) => ({ ...req, path: `/orders/${randomId()}`, body: JSON.stringify({ address: { city: `City ${Math.floor(Math.random() * 1e6)}` } }) }),
          onResponse: sampler(route),
        }],
      },
    ];

    const rows: Array<{ target: Target; result: AcResult }> = [];
    for (const target of targets) {
      process.stdout.write(`  ${target.route}: warm-up ${WARMUP_SECONDS} s, then ${SECONDS} s ... `);
      current = autocannon({ url: target.url, connections: CONNECTIONS, duration: WARMUP_SECONDS, requests: target.requests(target.route) });
      await current;
      if (interrupted) return;
      samples.delete(target.route);
      current = autocannon({ url: target.url, connections: CONNECTIONS, duration: SECONDS, requests: target.requests(target.route) });
      const result = await current;
      current = null;
      if (interrupted) return;
      const failed = result.non2xx + result.errors;
      const total = result.requests.total + result.errors;
      console.log(`${fmt(result.requests.total)} responses, ${fmt(result.non2xx)} non-2xx, ${fmt(result.errors)} errors (${fmt(result.timeouts)} timeouts)${target.note?.() ?? ''}`);
      if (total === 0 || failed / total > MAX_ERROR_SHARE) {
        const sample = samples.get(target.route);
        throw new Error(
          `${target.route}: ${fmt(failed)} of ${fmt(total)} requests failed (non-2xx or connection errors), over ${MAX_ERROR_SHARE * 100}%; ` +
            `status codes ${JSON.stringify(result.statusCodeStats)}` +
            (sample ? `; a sample: ${sample.status} ${sample.body}` : '') +
            `\n${children.map(({ name, child }) => `--- ${name} output ---\n${tail(child)}`).join('\n')}`,
        );
      }
      rows.push({ target, result });
      // Writes leave projection work behind: let it finish so that it is not billed to the next route.
      if (target.settle) await settle(serviceUrl, auth, newOrder);
    }

    // 4. Report.
    const base = rows[0]!.result.requests.average;
    const P99_MS = 50;
    console.log(`\nservice on the embedded stores with ${fmt(ORDERS)} orders; ${CONNECTIONS} connections, ${SECONDS} s per route\n`);
    const header = ['route', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'ratio', 'target', 'met'];
    const table = rows.map(({ target, result }, index) => {
      const ratio = result.requests.average / base;
      const ratioOk = target.minRatio === null || ratio >= target.minRatio;
      const p99Ok = result.latency.p99 < P99_MS;
      const goal = [target.minRatio === null ? null : `>= ${Math.round(target.minRatio * 100)}%`, `p99 < ${P99_MS} ms`].filter(Boolean).join(', ');
      return [
        target.route,
        fmt(result.requests.average),
        result.latency.p50.toFixed(1),
        result.latency.p99.toFixed(1),
        fmt(result.non2xx),
        index === 0 ? '(base)' : `${(ratio * 100).toFixed(1)}%`,
        goal,
        ratioOk && p99Ok ? 'met' : `NOT met${ratioOk ? '' : ' (ratio)'}${p99Ok ? '' : ' (p99)'}`,
      ];
    });
    const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
    const line = (cells: string[]) => '  ' + cells.map((c, i) => (i === 0 || i >= 6 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
    console.log(line(header));
    console.log(line(widths.map((w) => '-'.repeat(w))));
    for (const row of table) console.log(line(row));
    console.log('\n  A floor is bare Koa doing only the store work of its route (see the top of bench/http.ts): no route can beat it.');
    console.log(`\n  loading: ${loadSeconds.toFixed(1)} s to write the events, ${readySeconds.toFixed(1)} s until /health/ready`);
  } catch (error) {
    // Stopping the servers on SIGINT makes whatever was waiting on them fail: not worth a report.
    if (!interrupted) throw error;
  } finally {
    process.removeListener('SIGINT', onSigint);
    await cleanup();
  }
}

/** Writes `count` orders (every second one paid) and returns their ids. */
async function loadOrders(file: string, count: number): Promise<string[]> {
  const CHUNK = 10_000;
  const meta = { principal: 'bench', correlationId: 'bench', causationId: null };
  const t0 = Date.UTC(2026, 0, 1);
  const ids: string[] = [];
  // NORMAL is enough for a file written once before the service opens it (with its own FULL).
  const events = new SqliteEventStore({ file, synchronous: 'normal' });
  try {
    for (let base = 0; base < count; base += CHUNK) {
      const chunk = Array.from({ length: Math.min(CHUNK, count - base) }, () => randomUUID());
      ids.push(...chunk);
      await Promise.all(
        chunk.map((orderId, k) => {
          const i = base + k;
          const placedAt = new Date(t0 + i * 1000).toISOString();
          const placed: OrderEvent = {
            type: 'OrderPlaced', schemaVersion: 1,
            data: { orderId, customerId: `cus_${i % 1000}`, currency: 'EUR', lines: [{ sku: 'SKU-1', quantity: 2, unitPrice: 1999, lineTotal: 3998 }], total: 3998, address, placedAt },
          };
          const recorded = [encodeOrderEvent(placed, meta)];
          if (i % 2 === 0) {
            const payment: OrderEvent = {
              type: 'PaymentRecorded', schemaVersion: 2,
              data: { orderId, paymentId: randomUUID(), amount: 3998, reference: `psp-${i}`, method: 'card', recordedAt: new Date(t0 + i * 1000 + 500).toISOString() },
            };
            recorded.push(encodeOrderEvent(payment, meta));
          }
          return events.appendToStream(orderStream(orderId), recorded, 'no_stream');
        }),
      );
    }
  } finally {
    await events.close();
  }
  return ids;
}

/**
 * One connection's walk through the paid orders: autocannon resets a connection's context each
 * time it wraps around its `requests` array, so the array holds one entry per page of the walk.
 * Each response's nextCursor sets the next entry's path; a null cursor (or an error) restarts
 * the walk from the first page.
 */
function pageChain(
  firstPage: string,
  pages: number,
  headers: Record<string, string>,
  sample: (status: number, body: string) => void,
  walk: { firstPages: number; deepest: number } = { firstPages: 0, deepest: 0 },
): AcRequest[] {
  const onResponse = (status: number, body: string, context: Record<string, unknown>) => {
    sample(status, body);
    const depth = typeof context.depth === 'number' ? context.depth : 1;
    if (depth === 1) walk.firstPages++;
    walk.deepest = Math.max(walk.deepest, depth);
    let next: unknown = null;
    if (status === 200) {
      try {
        next = (JSON.parse(body) as { nextCursor?: unknown }).nextCursor ?? null;
      } catch {
        next = null;
      }
    }
    context.cursor = typeof next === 'string' ? next : null;
  };
  const first: AcRequest = { method: 'GET', headers, path: firstPage, onResponse };
  const following: AcRequest = {
    method: 'GET', headers, onResponse,
    // null: back to the first request, with a fresh context.
    setupRequest: (req, context) => {
      if (typeof context.cursor !== 'string') return null;
      context.depth = (typeof context.depth === 'number' ? context.depth : 1) + 1;
      return { ...req, path: `${firstPage}&cursor=${encodeURIComponent(context.cursor)}` };
    },
  };
  return [first, ...Array.from({ length: pages - 1 }, () => ({ ...following }))];
}

/** After a write run: one more write, then a collection read that waits for its Consistency-Token. */
async function settle(url: string, auth: Record<string, string>, newOrder: string): Promise<void> {
  const placed = await fetch(`${url}/orders`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': randomUUID() }, body: newOrder });
  const position = placed.headers.get('consistency-token');
  await placed.arrayBuffer();
  if (!placed.ok || !position) throw new Error(`settling: POST /orders answered ${placed.status}`);
  for (let attempt = 0; attempt < 12; attempt++) {
    const read = await fetch(`${url}/orders?limit=1`, { headers: { ...auth, 'consistency-token': position } });
    await read.arrayBuffer();
    if (read.ok) return;
    if (read.status !== 503) throw new Error(`settling: GET /orders answered ${read.status}`);
  }
  throw new Error('settling: the projections did not catch up within a minute');
}

// ---- child processes ----

const output = new WeakMap<ChildProcess, string[]>();

function startChild(name: string, args: string[], env: Record<string, string>): { name: string; child: ChildProcess } {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  output.set(child, lines);
  // Keep draining both pipes (a full pipe would block the child), remembering the last lines.
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      lines.push(...chunk.split('\n').filter((l) => l !== ''));
      if (lines.length > 200) lines.splice(0, lines.length - 200);
    });
  }
  return { name, child };
}

function tail(child: ChildProcess): string {
  return (output.get(child) ?? []).slice(-20).join('\n');
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

function portFromStdout({ name, child }: { name: string; child: ChildProcess }, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => done(new Error(`${name} did not report its port within ${timeoutMs / 1000} s:\n${tail(child)}`)), timeoutMs);
    const onData = (chunk: string) => {
      seen += chunk;
      const match = /"port":(\d+)/.exec(seen);
      if (match) done(null, Number(match[1]));
    };
    const onExit = (code: number | null) => done(new Error(`${name} exited (${code}) before listening:\n${tail(child)}`));
    function done(error: Error | null, port?: number) {
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(port!);
    }
    child.stdout!.on('data', onData);
    child.on('exit', onExit);
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitReady({ name, child }: { name: string; child: ChildProcess }, url: string, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let last = 'no answer';
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}):\n${tail(child)}`);
    try {
      const response = await fetch(url);
      last = `${response.status} ${await response.text()}`;
      if (response.status === 200) return;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${name} was not ready within ${timeoutMs / 1000} s (last: ${last}):\n${tail(child)}`);
}

if (process.argv[2] === '--bare') {
  // Child: the bare Koa baseline. Any GET answers the fixed order, serialised per request as the
  // service serialises its own. Prints {"port":N} once listening.
  const { default: Koa } = await import('koa');
  const app = new Koa();
  app.use((ctx) => {
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = EXAMPLE_ORDER;
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} else if (process.argv[2] === '--floor') {
  await floorServer(process.argv[3]!, process.argv[4]!);
} else {
  await main();
}

/**
 * Child: the floor. POST /orders appends one OrderPlaced, made from the body as it comes, to a
 * new stream of its own event store (durable, as the service's); GET /orders/{id} answers the
 * service's order as the order service folds it; GET /orders answers a page of paid orders from
 * the service's read models, with the last key as a plain base64url cursor. Prints {"port":N}
 * once listening.
 */
async function floorServer(dataDir: string, serviceDir: string): Promise<void> {
  const { default: Koa } = await import('koa');
  const { mkdirSync } = await import('node:fs');
  const { OrderService } = await import('../write-side/order-service.js');
  const { orderRepresentation } = await import('../read-side/views.js');
  mkdirSync(dataDir, { recursive: true });
  const events = new SqliteEventStore({ file: join(dataDir, 'events.sqlite3') });
  const serviceEvents = new SqliteEventStore({ file: join(serviceDir, 'events.sqlite3') });
  const orders = new OrderService(serviceEvents);
  const reads = new SqliteReadStore(join(serviceDir, 'read-models.sqlite3'), { busyTimeoutMs: 250 });
  const meta = { principal: 'floor', correlationId: 'floor', causationId: null };
  const app = new Koa();
  app.use(async (ctx) => {
    ctx.type = 'application/json; charset=utf-8';
    if (ctx.method === 'POST') {
      let text = '';
      for await (const chunk of ctx.req) text += chunk;
      const body = JSON.parse(text) as { customerId: string; currency: string; lines: { sku: string; quantity: number; unitPrice: number }[]; address: Partial<Address> };
      const orderId = randomUUID();
      const lines = body.lines.map((l) => ({ ...l, lineTotal: l.quantity * l.unitPrice }));
      const data = {
        orderId, customerId: body.customerId, currency: body.currency, lines, total: lines.reduce((sum, l) => sum + l.lineTotal, 0),
        address: { ...address, ...body.address }, placedAt: new Date().toISOString(),
      };
      const appended = await events.appendToStream(orderStream(orderId), [encodeOrderEvent({ type: 'OrderPlaced', schemaVersion: 1, data }, meta)], 'no_stream');
      ctx.status = 201;
      ctx.body = JSON.stringify({ ...data, revision: appended.nextRevision });
      return;
    }
    if (ctx.path !== '/orders') {
      const snapshot = await orders.get(serviceViewer('bench'), ctx.path.slice('/orders/'.length));
      if (snapshot) ctx.body = orderRepresentation(snapshot.order, snapshot.revision);
      else ctx.status = 404;
      return;
    }
    const cursor = typeof ctx.query.cursor === 'string' ? (JSON.parse(Buffer.from(ctx.query.cursor, 'base64url').toString()) as [string, string]) : null;
    const rows = await reads.listOrderJson({ status: 'paid' }, 'desc', cursor && { createdAt: cursor[0], id: cursor[1] }, 21);
    const items = rows.slice(0, 20);
    const last = items.at(-1);
    const next = rows.length > 20 && last ? Buffer.from(JSON.stringify([last.createdAt, last.id])).toString('base64url') : null;
    ctx.body = `{"items":[${items.map((row) => row.json).join(',')}],"nextCursor":${JSON.stringify(next)}}`;
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
  const stop = () => server.close(() => void Promise.all([events.close(), serviceEvents.close(), reads.close()]).then(() => process.exit(0)));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
