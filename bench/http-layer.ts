// npm run bench:http-layer: what the API's HTTP layer costs per POST /orders, without the write
// side. The app of api/app.ts, wired as the service wires it, runs before a write side that
// answers at once (bench/http/layer-server.ts); it is driven with bench:http's many-SKU
// placements (1 to 3 lines, a fresh Idempotency-Key each), 50 connections, by autocannon here.
// Beside it, bare Koa answering a fixed order: Node's and Koa's own share of the figure.
//
// BENCH_LAYER_BASE=<dir> compares with the HTTP layer of another checkout of the project (for
// example `git archive <commit> | tar -x -C <dir>`, with node_modules linked in): both run in
// the same run, in alternate order each round, so that whatever else the machine runs weighs
// on both alike. The CPU a server process spends per response, read from /proc, varies far less
// with the machine's load than its requests per second.
//
// BENCH_ROUNDS (default 4) rounds of BENCH_SECONDS (default 5) per server. BENCH_PROFILE=1
// profiles this checkout's layer and prints where its CPU went.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signDevToken } from '../api/auth.js';
import { autocannon, type AcRequest } from './http/load.js';
import { startBaseline, startLayer, stopServer, type BenchServer } from './http/servers.js';
import { manySkuPlacementBody } from './http/setup.js';
import { cpuProfileArgs, monotonicUs, printProfile, readProfile } from './support/cpu-profile.js';
import { cpuMs } from './support/cpu-time.js';
import { median } from './support/median.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const SECRET = `bench-http-layer-${randomUUID()}-${randomUUID()}`;
const PROFILE = (process.env.BENCH_PROFILE ?? '') !== '';
const here = resolve(fileURLToPath(new URL('..', import.meta.url)));
const base = process.env.BENCH_LAYER_BASE ? resolve(process.env.BENCH_LAYER_BASE) : null;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

const profileDir = mkdtempSync(join(tmpdir(), 'bench-http-layer-'));
const servers: BenchServer[] = [];
try {
  const own = await startLayer('this checkout', here, SECRET, cpuProfileArgs(PROFILE ? profileDir : null));
  servers.push(own);
  if (base) servers.push(await startLayer(`base (${base})`, base, SECRET));
  servers.push(await startBaseline());
  await Promise.all(servers.map((server) => server.ready));

  const token = await signDevToken(SECRET, { sub: 'bench', scope: 'orders:read orders:write' }, 3600);
  let failed = '';
  const requests: AcRequest[] = [{
    method: 'POST', path: '/orders',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    setupRequest: (req) => ({ ...req, body: manySkuPlacementBody(1000), headers: { ...req.headers, 'idempotency-key': randomUUID() } }),
    onResponse: (status, body) => {
      if (status !== 201 && status !== 200 && failed === '') failed = `${status} ${body.slice(0, 300)}`;
    },
  }];

  // Each server once untimed first, long enough for the JIT to settle.
  for (const server of servers) await autocannon({ url: server.url, connections: CONNECTIONS, duration: 3, requests });
  const runs = new Map<BenchServer, Array<{ rate: number; cpuUs: number; total: number; cpu: number }>>(servers.map((s) => [s, []]));
  const windows: Array<[number, number]> = [];
  for (let round = 0; round < ROUNDS; round++) {
    const sequence = round % 2 === 0 ? servers : [...servers].reverse();
    for (const server of sequence) {
      await autocannon({ url: server.url, connections: CONNECTIONS, duration: 1, requests });
      const [before, from] = [cpuMs(server.child.pid!), monotonicUs()];
      const result = await autocannon({ url: server.url, connections: CONNECTIONS, duration: SECONDS, requests });
      const [cpu, to] = [cpuMs(server.child.pid!) - before, monotonicUs()];
      if (failed !== '' && server.name !== 'bare koa') throw new Error(`${server.name}: ${failed}`);
      if (result.errors > 0) throw new Error(`${server.name}: ${result.errors} connection errors`);
      runs.get(server)!.push({ rate: result.requests.average, cpuUs: (cpu * 1000) / result.requests.total, total: result.requests.total, cpu });
      if (server === own) windows.push([from, to]);
      console.log(`  round ${round + 1}, ${server.name}: ${fmt(result.requests.average)} req/s, ${fmt((cpu * 1000) / result.requests.total)} CPU µs/req`);
    }
  }
  console.log(`\nPOST /orders (1-3 lines) through the HTTP layer only; ${CONNECTIONS} connections, ${ROUNDS} × ${SECONDS} s each; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} at the end\n`);
  for (const [server, list] of runs) {
    const cpuUs = (list.reduce((s, r) => s + r.cpu, 0) * 1000) / list.reduce((s, r) => s + r.total, 0);
    const rate = list.reduce((s, r) => s + r.rate, 0) / list.length;
    console.log(`  ${server.name.padEnd(40)} ${fmt(rate).padStart(7)} req/s  ${fmt(cpuUs).padStart(5)} CPU µs/req  (rounds: ${list.map((r) => fmt(r.cpuUs)).join(', ')})`);
  }
  if (base) {
    // Paired by round: both ran within seconds of each other, under the same outside load.
    const [mine, theirs] = [runs.get(own)!, runs.get(servers[1]!)!];
    const differences = mine.map((run, i) => run.cpuUs - theirs[i]!.cpuUs).sort((a, b) => a - b);
    console.log(`\n  this checkout minus base, by round: median ${fmt(median(differences))} CPU µs/req (${differences.map(fmt).join(', ')}); lower in ${differences.filter((d) => d < 0).length} of ${differences.length} rounds`);
  }
  if (PROFILE) {
    await stopServer(own);
    printProfile(readProfile(profileDir), windows, 'POST /orders (this checkout\'s layer)', 30);
  }
} finally {
  await Promise.all(servers.map(stopServer));
  rmSync(profileDir, { recursive: true, force: true });
}
