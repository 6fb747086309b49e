// npm run bench:overload: the service on the embedded default, first at its measured capacity,
// then offered twice that from many connections, then back to normal. Prints how the excess was
// answered (503/429 with Retry-After, and how fast), the service's peak RSS, and the recovery.
// BENCH_MAX_IN_FLIGHT (default 64) sets the service's MAX_IN_FLIGHT: a low limit answers the
// excess fastest, a high one places more orders during the flood with a longer tail.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { signDevToken } from '../api/auth.js';
import { freePort, HOST } from './support/free-port.js';

interface AcResult { requests: { average: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number; timeouts: number; statusCodeStats: Record<string, { count: number }> }
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: object) => Promise<AcResult>;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const MAX_IN_FLIGHT = Number(process.env.BENCH_MAX_IN_FLIGHT ?? 64);
const SECRET = `bench-overload-${randomUUID()}-${randomUUID()}`;

const peakRssMb = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

const dir = mkdtempSync(join(process.cwd(), '.bench-overload-'));
const port = await freePort();
const service = spawn(process.execPath, ['--import', 'tsx', 'bootstrap/main.ts'], {
  env: { PATH: process.env.PATH, DATA_DIR: dir, PORT: String(port), LOG_LEVEL: 'warn', AUTH_JWT_SECRET: SECRET, MAX_IN_FLIGHT: String(MAX_IN_FLIGHT), RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const url = `http://${HOST}:${port}`;
try {
  for (let i = 0; !(await fetch(`${url}/health/ready`).then((r) => r.ok, () => false)); i++) {
    if (i > 300) throw new Error('service did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  const token = await signDevToken(SECRET, { sub: 'bench', scope: 'orders:read orders:write' }, 3600);
  const body = JSON.stringify({ customerId: 'cus_1', currency: 'EUR', lines: [{ sku: 'A', quantity: 1, unitPrice: 500 }], address: { name: 'A', line1: 'B', city: 'C', postalCode: '1', country: 'DE' } });
  const run = (connections: number, overallRate?: number) =>
    autocannon({
      url, connections, duration: SECONDS, timeout: 10, ...(overallRate ? { overallRate } : {}),
      requests: [{ method: 'POST', path: '/orders', body, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, setupRequest: (req: { headers: Record<string, string> }) => ({ ...req, headers: { ...req.headers, 'idempotency-key': randomUUID() } }) }],
    });

  const normal = await run(50);
  const capacity = normal.requests.average;
  const flood = await run(1000, Math.round(capacity * 2));
  const rssAfterFlood = peakRssMb(service.pid!);
  const after = await run(50);

  const count = (r: AcResult, code: string) => r.statusCodeStats[code]?.count ?? 0;
  console.log(`POST /orders, MAX_IN_FLIGHT=${MAX_IN_FLIGHT}, ${SECONDS} s per phase\n`);
  console.log(`  capacity (50 connections):  ${Math.round(capacity)} req/s, p99 ${normal.latency.p99} ms`);
  console.log(`  offered 2× from 1,000 connections (${Math.round(capacity * 2)} req/s):`);
  console.log(`    201: ${count(flood, '201')}, 503: ${count(flood, '503')}, 429: ${count(flood, '429')}, other non-2xx: ${flood.non2xx - count(flood, '503') - count(flood, '429')}, errors: ${flood.errors}, timeouts: ${flood.timeouts}`);
  console.log(`    latency over all answers: p50 ${flood.latency.p50} ms, p99 ${flood.latency.p99} ms`);
  console.log(`  service peak RSS through the flood: ${rssAfterFlood.toFixed(0)} MB`);
  console.log(`  after the flood (50 connections): ${Math.round(after.requests.average)} req/s, p99 ${after.latency.p99} ms, non-2xx ${after.non2xx} (recovered: ${after.non2xx === 0 && after.requests.average > capacity * 0.8 ? 'yes' : 'NO'})`);
} finally {
  service.kill('SIGTERM');
  await new Promise((r) => service.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
}
