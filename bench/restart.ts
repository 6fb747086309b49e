// bench:restart: an operator's restart on a store with history. Writes N orders (half paid,
// addresses sealed) into an event store, then starts the service on a copy of it with no read
// models (catch-up from zero), polls /health/ready and /metrics until ready, and starts it again
// on the caught-up store. Prints, per size: time to ready, the catch-up rate, the slowest probe
// answers, the largest WAL of each SQLite file, and whether any log line said "database is locked".
//
//   npm run bench:restart                              # 100,000 and 1,000,000 orders
//   BENCH_ORDERS=200000 npm run bench:restart          # other sizes, comma-separated
//   BENCH_CACHE=/var/tmp/restart npm run bench:restart # where the written stores are kept for the next run
//   BENCH_FLOORS=0 npm run bench:restart               # without the per-projection catch-up and the commit floor
//   BENCH_ROOT=../other-checkout npm run bench:restart  # the service of another checkout (with its node_modules), for a before and after
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteReadStore } from '../read-side/adapters/sqlite-read-store.js';
import type { OrderView } from '../read-side/orders/views.js';
import { Projector } from '../projections/projector.js';
import { SqliteEventStore } from '../write-side/adapters/sqlite-event-store.js';
import type { Position } from '../write-side/kernel/event-store.js';
import { encodeSequence } from '../write-side/kernel/position.js';
import { PROJECTIONS_BUSY_TIMEOUT_MS, READ_STORE_CHECKPOINT_MS as CHECKPOINT_MS } from '../bootstrap/services.js';
import { loadOrders } from './http/load.js';
import { startService, stopServer, tail, type BenchServer } from './http/servers.js';
import { PROJECTION_NAMES, PROJECTIONS, READ_STORAGE } from '../projections/registry.js';

const SIZES = (process.env.BENCH_ORDERS ?? '100000,1000000').split(',').map(Number);
const CACHE = process.env.BENCH_CACHE ?? join(tmpdir(), 'order-service-bench-restart');
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 1000);
/** Past this, a start is reported as not ready (the issue's run gave up after 5 minutes). */
const READY_LIMIT_MS = Number(process.env.BENCH_READY_LIMIT_SECONDS ?? 900) * 1000;
const SECRET = 'bench-restart-secret-that-is-at-least-32-bytes';
const ROOT = process.env.BENCH_ROOT ?? process.cwd();

interface Start {
  readonly readyMs: number | null;
  readonly probes: number;
  readonly readyP99Ms: number;
  readonly readyMaxMs: number;
  readonly metricsMaxMs: number;
  readonly maxLagS: number;
  readonly maxWal: Record<string, number>;
  readonly locked: boolean;
}

const MB = 1024 * 1024;

function wals(dir: string): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const file of readdirSync(dir)) if (file.endsWith('-wal')) sizes[file.replace('.sqlite3-wal', '')] = statSync(join(dir, file)).size;
  return sizes;
}

async function timed(url: string): Promise<{ ms: number; status: number; text: string }> {
  const started = performance.now();
  const response = await fetch(url, { signal: AbortSignal.timeout(60_000) });
  const text = await response.text();
  return { ms: performance.now() - started, status: response.status, text };
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
};

/** Starts the service on `dir` and polls both probes until it is ready; stops it after. */
async function start(dir: string, label: string): Promise<Start> {
  const began = performance.now();
  // The written orders were placed one a second up to now: a store's pending orders older than the
  // payment timeout were cancelled one by one as they expired, not all at this start.
  const service: BenchServer = await startService(dir, SECRET, READY_LIMIT_MS, { LOG_LEVEL: 'info', PENDING_ORDER_TTL_SECONDS: String(10 * 365 * 86_400) }, [], ROOT);
  const readyTimes: number[] = [];
  let metricsMaxMs = 0;
  let maxLagS = 0;
  const maxWal: Record<string, number> = {};
  let readyMs: number | null = null;
  try {
    while (performance.now() - began < READY_LIMIT_MS) {
      if (service.child.exitCode !== null) throw new Error(`the service exited:\n${tail(service)}`);
      const ready = await timed(`${service.url}/health/ready`).catch(() => null);
      if (ready) {
        readyTimes.push(ready.ms);
        const metrics = await timed(`${service.url}/metrics`);
        metricsMaxMs = Math.max(metricsMaxMs, metrics.ms);
        for (const [, lag] of metrics.text.matchAll(/^projection_lag_seconds\{[^}]*\} ([\d.e+-]+)$/gm)) maxLagS = Math.max(maxLagS, Number(lag));
      }
      for (const [file, size] of Object.entries(wals(dir))) maxWal[file] = Math.max(maxWal[file] ?? 0, size);
      const seconds = ((performance.now() - began) / 1000).toFixed(0);
      console.error(`  ${label} ${seconds} s: ready ${ready?.status ?? 'no answer'} in ${ready?.ms.toFixed(0) ?? '-'} ms, WAL ${Object.entries(wals(dir)).map(([f, s]) => `${f} ${(s / MB).toFixed(0)} MB`).join(', ')}`);
      if (ready?.status === 200) {
        readyMs = performance.now() - began;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    await stopServer(service);
  }
  return {
    readyMs,
    probes: readyTimes.length,
    readyP99Ms: quantile(readyTimes, 0.99),
    readyMaxMs: Math.max(0, ...readyTimes),
    metricsMaxMs,
    maxLagS,
    maxWal,
    locked: /database is locked/.test(tail(service)),
  };
}

/**
 * What bounds the catch-up: each projection alone over the same log, in this process, on a
 * fresh read store set up as the service's projections' thread sets up its own (events/s of the log); and the floor under the
 * order views: committing the views already built, in the batches the projector commits
 * (a row a view) into a generation without indexes, then building them, without any event
 * read or folded.
 */
async function floors(source: string, count: number): Promise<string[][]> {
  const rows: string[][] = [];
  const events = new SqliteEventStore({ file: join(source, 'events.sqlite3') });
  const head = (await events.headPosition())!;
  let sample: OrderView[] = [];
  try {
    for (const name of PROJECTION_NAMES) {
      const dir = mkdtempSync(join(tmpdir(), 'order-service-floor-'));
      const reads = new SqliteReadStore(join(dir, 'read-models.sqlite3'), READ_STORAGE, { busyTimeoutMs: PROJECTIONS_BUSY_TIMEOUT_MS, backgroundCheckpointMs: CHECKPOINT_MS });
      const projector = new Projector(events, reads, PROJECTIONS[name], { fillFromNothing: true });
      const started = performance.now();
      projector.start();
      await projector.waitFor(head, READY_LIMIT_MS);
      const seconds = (performance.now() - started) / 1000;
      await projector.stop();
      if (name === 'order-views') sample = (await reads.views<OrderView>('order-views', await reads.activeGeneration('order-views')).scan(null, 5000)).map(({ view }) => view);
      await reads.close();
      rmSync(dir, { recursive: true, force: true });
      rows.push([name, seconds.toFixed(1), Math.round(count / seconds).toLocaleString('en')]);
    }
  } finally {
    await events.close();
  }
  // The same number of order views, committed in batches of 660 (the views a 1,000-event batch of this log makes).
  const views = Math.round(count / 1.5);
  const dir = mkdtempSync(join(tmpdir(), 'order-service-floor-'));
  const reads = new SqliteReadStore(join(dir, 'read-models.sqlite3'), READ_STORAGE, { busyTimeoutMs: PROJECTIONS_BUSY_TIMEOUT_MS, backgroundCheckpointMs: CHECKPOINT_MS });
  // Into a generation without indexes, built at its activation, as the catch-up from nothing fills it.
  const started = performance.now();
  const generation = await reads.createGeneration('order-views');
  const store = reads.views('order-views', generation);
  for (let i = 0, batch = 0; i < views; batch++) {
    const rows = [];
    for (const end = Math.min(views, i + 660); i < end; i++) {
      const view = sample[i % sample.length]!;
      rows.push({ key: randomUUID(), view: { ...view, id: `${i}` } });
    }
    await store.commit(rows, encodeSequence(batch + 1) as Position);
  }
  await reads.activateGeneration('order-views', generation);
  const seconds = (performance.now() - started) / 1000;
  await reads.close();
  rmSync(dir, { recursive: true, force: true });
  rows.push(['floor: commit the order views only, then index them', seconds.toFixed(1), Math.round(count / seconds).toLocaleString('en')]);
  return rows;
}

function events(dir: string): number {
  const db = new Database(join(dir, 'events.sqlite3'), { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM events').pluck().get() as number;
  } finally {
    db.close();
  }
}

const rows: string[][] = [];
const floorRows: string[][] = [];
for (const size of SIZES) {
  const source = join(CACHE, `orders-${size}`);
  if (!existsSync(join(source, 'events.sqlite3'))) {
    rmSync(source, { recursive: true, force: true });
    const loading = performance.now();
    console.error(`writing ${size.toLocaleString('en')} orders into ${source}`);
    await loadOrders(source, size, true);
    console.error(`  written in ${((performance.now() - loading) / 1000).toFixed(0)} s`);
  }
  const count = events(source);
  const dir = mkdtempSync(join(tmpdir(), 'order-service-restart-'));
  mkdirSync(dir, { recursive: true });
  for (const file of ['events.sqlite3', 'keys.sqlite3']) copyFileSync(join(source, file), join(dir, file));
  try {
    const fromZero = await start(dir, `${size} from zero`);
    const restart = await start(dir, `${size} restart`);
    for (const [what, run] of [['from zero', fromZero], ['restart, caught up', restart]] as const) {
      rows.push([
        size.toLocaleString('en'),
        what,
        run.readyMs === null ? `not within ${READY_LIMIT_MS / 1000} s` : (run.readyMs / 1000).toFixed(1),
        what === 'from zero' && run.readyMs !== null ? Math.round(count / (run.readyMs / 1000)).toLocaleString('en') : '',
        `${run.readyP99Ms.toFixed(0)} / ${run.readyMaxMs.toFixed(0)}`,
        run.metricsMaxMs.toFixed(0),
        run.maxLagS.toFixed(0),
        Object.entries(run.maxWal).map(([file, bytes]) => `${file} ${(bytes / MB).toFixed(0)}`).join(', '),
        run.locked ? 'YES' : 'no',
      ]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (process.env.BENCH_FLOORS !== '0') for (const row of await floors(source, count)) floorRows.push([size.toLocaleString('en'), ...row]);
}

const header = ['orders', 'start', 'ready after s', 'events/s to ready', 'ready p99 / max ms', 'metrics max ms', 'max lag s', 'largest WAL MB', 'locked'];
console.log(`| ${header.join(' | ')} |`);
console.log(`|${header.map(() => '---').join('|')}|`);
for (const row of rows) console.log(`| ${row.join(' | ')} |`);

if (floorRows.length > 0) {
  console.log('\nWhat bounds the catch-up (each projection alone, in one thread, on the same log; events/s of the whole log):\n');
  console.log('| orders | projection | s | events/s |');
  console.log('|---|---|---|---|');
  for (const row of floorRows) console.log(`| ${row.join(' | ')} |`);
}
