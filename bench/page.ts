// npm run bench:page: the page of paid orders (GET /orders?status=paid&limit=20, following
// nextCursor) on the service against its floor (bench/http/floor.ts: bare Koa plus the same
// read-model query), driven alternately in one run, ROUNDS times. Besides req/s and latency it
// reads each server's CPU time (/proc/<pid>/stat, every thread) around each run: CPU time per
// request is what the route costs, and its ratio to the floor's varies less with what else the
// machine runs than req/s does.
//
// Environment: BENCH_ORDERS (20,000; half of them paid), BENCH_SECONDS (10), BENCH_ROUNDS (2),
// BENCH_CONNECTIONS (50), BENCH_PAGE_PROFILE=1: the service runs under --cpu-prof, and the top
// self-time entries of its page runs (samples outside them left out) are printed at the end;
// BENCH_PAGE_PROFILE=<file.cpuprofile> does the same and keeps the whole profile in that file.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signDevToken } from '../api/auth.js';
import { autocannon, loadOrders, pageChain, type AcInstance, type AcResult } from './http/load.js';
import { startFloor, startService, stopServer, type BenchServer } from './http/servers.js';
import { cpuProfileArgs, monotonicUs, printProfile, readProfile } from './support/cpu-profile.js';
import { cpuMs } from './support/cpu-time.js';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 20_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PROFILE = (process.env.BENCH_PAGE_PROFILE ?? '') !== '';
const PROFILE_FILE = PROFILE && process.env.BENCH_PAGE_PROFILE !== '1' ? process.env.BENCH_PAGE_PROFILE! : null;
const WARMUP_SECONDS = 1;
const PAGE = 20;
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

interface Run {
  readonly result: AcResult;
  readonly cpuMs: number;
  readonly window: readonly [number, number];
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(process.cwd(), '.bench-page-'));
  const profileDir = join(dir, 'profile');
  const servers: BenchServer[] = [];
  let current: AcInstance | null = null;
  const cleanup = async () => {
    current?.stop();
    await Promise.all(servers.map(stopServer));
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));
  try {
    console.log(`loading ${fmt(ORDERS)} orders (half of them paid, addresses sealed) ...`);
    await loadOrders(dir, ORDERS, true);
    const secret = `bench-page-${randomUUID()}-${randomUUID()}`;
    const service = await startService(dir, secret, 600_000, {}, cpuProfileArgs(PROFILE ? profileDir : null));
    servers.push(service);
    const floor = await startFloor(join(dir, 'floor'), dir);
    servers.push(floor);
    await Promise.all([service.ready, floor.ready]);
    const token = await signDevToken(secret, { sub: 'bench', scope: 'orders:read' }, 3600);
    const auth = { authorization: `Bearer ${token}` };
    const firstPage = `/orders?status=paid&limit=${PAGE}`;
    const pages = Math.ceil(ORDERS / 2 / PAGE) + 2;
    let failed = '';
    const sample = (status: number, body: string) => {
      if (status !== 200 && failed === '') failed = `${status} ${body.slice(0, 300)}`;
    };

    const drive = async (server: BenchServer): Promise<Run> => {
      const pid = server.child.pid!;
      current = autocannon({ url: server.url, connections: CONNECTIONS, duration: WARMUP_SECONDS, requests: pageChain(firstPage, pages, auth, sample) });
      await current;
      const [cpuBefore, from] = [cpuMs(pid), monotonicUs()];
      current = autocannon({ url: server.url, connections: CONNECTIONS, duration: SECONDS, requests: pageChain(firstPage, pages, auth, sample) });
      const result = await current;
      const [cpuAfter, to] = [cpuMs(pid), monotonicUs()];
      if (failed !== '' || result.non2xx > 0 || result.errors > 0) throw new Error(`${server.name}: ${result.non2xx} non-2xx, ${result.errors} errors; a sample: ${failed}`);
      return { result, cpuMs: cpuAfter - cpuBefore, window: [from, to] };
    };

    console.log(`driving: ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up then ${SECONDS} s per run, ${ROUNDS} round(s), the route and its floor alternately\n`);
    const runs = { route: [] as Run[], floor: [] as Run[] };
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [name, server] of [['route', service], ['floor', floor]] as const) {
        const run = await drive(server);
        runs[name].push(run);
        const perRequest = run.cpuMs / run.result.requests.total;
        console.log(`  round ${round}  ${name}: ${fmt(run.result.requests.average)} req/s, p50 ${run.result.latency.p50} ms, p99 ${run.result.latency.p99} ms, ${fmt(perRequest, 3)} ms CPU per request`);
      }
    }

    const sum = (list: Run[], pick: (run: Run) => number) => list.reduce((total, run) => total + pick(run), 0);
    const rate = (list: Run[]) => sum(list, (r) => r.result.requests.average) / list.length;
    const cpuPerRequest = (list: Run[]) => sum(list, (r) => r.cpuMs) / sum(list, (r) => r.result.requests.total);
    const p99 = (list: Run[]) => Math.max(...list.map((r) => r.result.latency.p99));
    console.log(`\n${fmt(ORDERS)} orders; ${CONNECTIONS} connections; ${SECONDS} s per run; ${ROUNDS} round(s); load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
    console.log('  side                               req/s   worst p99 ms   CPU ms/request');
    for (const [name, list] of [[`GET ${firstPage} (cursors)`, runs.route], ['floor: Koa + the page query only', runs.floor]] as const) {
      console.log(`  ${name.padEnd(32)} ${fmt(rate(list)).padStart(7)}   ${fmt(p99(list), 1).padStart(12)}   ${fmt(cpuPerRequest(list), 3).padStart(14)}`);
    }
    const byRate = rate(runs.route) / rate(runs.floor);
    const byCpu = cpuPerRequest(runs.floor) / cpuPerRequest(runs.route);
    console.log(`\n  the page at ${(byRate * 100).toFixed(1)}% of its floor by req/s, ${(byCpu * 100).toFixed(1)}% by server CPU per request (target >= 60%: ${byRate >= 0.6 ? 'met' : 'NOT met'} by req/s)`);

    if (PROFILE) {
      await stopServer(service);
      const profile = readProfile(profileDir);
      if (PROFILE_FILE) writeFileSync(PROFILE_FILE, JSON.stringify(profile));
      printProfile(profile, runs.route.map((r) => r.window), "the service's page runs");
    }
  } finally {
    await cleanup();
  }
}

await main();
