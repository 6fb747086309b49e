// npm run bench:placement-ab: this checkout's POST /orders (or, with BENCH_ROUTE, a read) against another checkout's, in the same
// run. A change worth 5% cannot be seen in bench:http, where one route's rate varies by ±15% from
// one run to the next with whatever else the machine runs; here both services run side by side.
//
// BENCH_BASE=<dir> is the other checkout, for example
//   git worktree add /tmp/base <commit> && ln -s "$PWD/node_modules" /tmp/base/node_modules
// Without it, this checkout runs against itself: an A/A run, which shows how far two identical
// services differ here (the noise any A/B difference must clear).
//
// Both services start on copies of one data directory (BENCH_ORDERS orders, default 20,000, and
// bench:http's catalogue of 1,000 products with ample stock), wait until idle, and are then driven
// with bench:http's many-SKU placements (1 to 3 lines of 1,000 SKUs, a fresh Idempotency-Key
// each), 50 connections, BENCH_ROUNDS rounds (default 6) of BENCH_SECONDS (default 10) each,
// in alternate order each round (after a 5 s warm-up of each, and 1 s before every round). After
// each run the projections are let catch up, so that their work is billed to the run that made it.
//
// Printed per round and service: requests/s and the server's CPU per response (every thread, from
// /proc); then, paired by round, this checkout's rate as a share of the other's and its CPU per
// response minus the other's, with their medians. The CPU per response varies far less with the
// machine's load than the rate does.
//
// BENCH_ROUTE picks what both are driven with, as the peer harnesses drive them (../shared/peers/):
//   placement   the many-SKU placements above (the default)
//   hot         one line of one SKU, the same for every placement (the harnesses' POST /orders)
//   read        GET /orders/{id} of a loaded order at random
//   page        GET /orders?status=paid&limit=20, each connection following nextCursor to the end
import { randomUUID } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { signDevToken } from '../api/auth.js';
import { autocannon, loadOrders, pageChain, type AcRequest } from './http/load.js';
import { startService, stopServer, tail, type BenchServer } from './http/servers.js';
import { cpuProfileArgs } from './support/cpu-profile.js';
import { benchSku, defineCatalogue, manySkuPlacementBody, placementBody, RECONCILER_ORPHAN_WINDOW_MS, settle, untilIdle } from './http/setup.js';
import { busiestThreads, cpuMs, threadCpuMs } from './support/cpu-time.js';
import { median } from './support/median.js';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const ROUTE = process.env.BENCH_ROUTE ?? 'placement';
if (!['placement', 'hot', 'read', 'page'].includes(ROUTE)) throw new Error(`BENCH_ROUTE=${ROUTE}: give placement, hot, read or page`);
const PRODUCTS = 1_000;
const SECRET = `bench-placement-ab-${randomUUID()}-${randomUUID()}`;
/** BENCH_CPU_PROF=<dir>: each service writes a V8 CPU profile per thread there (node --cpu-prof), to see where its CPU goes. */
const PROFILE_ARGS = cpuProfileArgs(process.env.BENCH_CPU_PROF);
const base = process.env.BENCH_BASE ? resolve(process.env.BENCH_BASE) : null;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

// Under the working directory, not /tmp: a tmpfs would make every flush free.
const dir = mkdtempSync(join(process.cwd(), '.bench-ab-'));
const servers: BenchServer[] = [];
try {
  console.log(`loading ${fmt(ORDERS)} orders and ${fmt(PRODUCTS)} products with stock ...`);
  const source = join(dir, 'source');
  mkdirSync(source);
  const ids = await loadOrders(source, ORDERS, true);
  await defineCatalogue(join(source, 'events.sqlite3'), PRODUCTS);
  for (const side of ['a', 'b']) cpSync(source, join(dir, side), { recursive: true });

  const started = performance.now();
  const own = await startService(join(dir, 'a'), SECRET, 600_000, {}, PROFILE_ARGS, process.cwd(), 'this checkout');
  const other = await startService(join(dir, 'b'), SECRET, 600_000, {}, PROFILE_ARGS, base ?? process.cwd(), base ? `base (${base})` : 'this checkout again (A/A)');
  servers.push(own, other);
  await Promise.all(servers.map((server) => server.ready));
  const idle = await untilIdle(servers, started + RECONCILER_ORPHAN_WINDOW_MS + 1_000);
  console.log(`  both services ready and idle ${((performance.now() - started) / 1000).toFixed(1)} s after start (idle wait ${idle.toFixed(1)} s)\n`);

  const token = await signDevToken(SECRET, { sub: 'bench', scope: 'orders:read orders:write catalogue:read' }, 3600);
  const auth = { authorization: `Bearer ${token}` };
  const settleOrder = placementBody([{ sku: benchSku(0), quantity: 1 }]);
  let failed = '';
  const onResponse = (status: number, body: string) => {
    if ((status < 200 || status > 299) && failed === '') failed = `${status} ${body.slice(0, 300)}`;
  };
  const placing = (body: () => string): AcRequest[] => [{
    method: 'POST', path: '/orders',
    headers: { ...auth, 'content-type': 'application/json' },
    setupRequest: (req) => ({ ...req, body: body(), headers: { ...req.headers, 'idempotency-key': randomUUID() } }),
    onResponse,
  }];
  const hotOrder = placementBody([{ sku: benchSku(0), quantity: 2 }]);
  const requests: AcRequest[] =
    ROUTE === 'placement' ? placing(() => manySkuPlacementBody(PRODUCTS))
    : ROUTE === 'hot' ? placing(() => hotOrder)
    : ROUTE === 'read' ? [{ method: 'GET', headers: auth, setupRequest: (req) => ({ ...req, path: `/orders/${ids[Math.floor(Math.random() * ids.length)]}` }), onResponse }]
    : pageChain('/orders?status=paid&limit=20', Math.ceil(ORDERS / 2 / 20) + 2, auth, onResponse);
  const drive = async (server: BenchServer, seconds: number) => {
    const result = await autocannon({ url: server.url, connections: CONNECTIONS, duration: seconds, requests });
    if (failed !== '' || result.errors > 0 || result.non2xx > 0) {
      throw new Error(`${server.name}: ${result.non2xx} non-2xx, ${result.errors} errors; a sample: ${failed}\n${tail(server)}`);
    }
    if (ROUTE === 'placement' || ROUTE === 'hot') await settle(server.url, auth, settleOrder);
    return result;
  };

  for (const server of servers) await drive(server, 5);
  const runs = new Map<BenchServer, Array<{ rate: number; cpuUs: number; p99: number }>>(servers.map((s) => [s, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const server of round % 2 === 0 ? servers : [...servers].reverse()) {
      await drive(server, 1);
      const pid = server.child.pid!;
      const [before, threadsBefore] = [cpuMs(pid), threadCpuMs(pid)];
      const result = await drive(server, SECONDS);
      const [cpu, threads] = [cpuMs(pid) - before, busiestThreads(threadsBefore, threadCpuMs(pid), SECONDS * 1000)];
      const run = { rate: result.requests.average, cpuUs: (cpu * 1000) / result.requests.total, p99: result.latency.p99 };
      runs.get(server)!.push(run);
      console.log(`  round ${round + 1}, ${server.name}: ${fmt(run.rate)} req/s, p99 ${run.p99.toFixed(0)} ms, ${fmt(run.cpuUs)} CPU µs/req; threads ${threads}`);
    }
  }

  const driven = { placement: `POST /orders, 1-3 lines of ${fmt(PRODUCTS)} SKUs`, hot: 'POST /orders, one line of one SKU', read: 'GET /orders/{id}', page: 'GET /orders?status=paid&limit=20 following cursors' }[ROUTE];
  console.log(`\n${driven}; ${CONNECTIONS} connections, ${ROUNDS} × ${SECONDS} s each; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} at the end\n`);
  for (const [server, list] of runs) {
    console.log(`  ${server.name.padEnd(40)} median ${fmt(median(list.map((r) => r.rate))).padStart(6)} req/s, ${fmt(median(list.map((r) => r.cpuUs))).padStart(5)} CPU µs/req, p99 ${median(list.map((r) => r.p99)).toFixed(0)} ms`);
  }
  const [mine, theirs] = [runs.get(own)!, runs.get(other)!];
  const shares = mine.map((run, i) => run.rate / theirs[i]!.rate);
  const differences = mine.map((run, i) => run.cpuUs - theirs[i]!.cpuUs);
  console.log(`\n  this checkout's rate as a share of the other's, by round: median ${(median(shares) * 100).toFixed(1)}% (${shares.map((s) => `${(s * 100).toFixed(0)}%`).join(', ')}); higher in ${shares.filter((s) => s > 1).length} of ${shares.length}`);
  console.log(`  this checkout's CPU per response minus the other's, by round: median ${fmt(median(differences))} µs (${differences.map(fmt).join(', ')}); lower in ${differences.filter((d) => d < 0).length} of ${differences.length}`);
} finally {
  await Promise.all(servers.map(stopServer));
  rmSync(dir, { recursive: true, force: true });
}
