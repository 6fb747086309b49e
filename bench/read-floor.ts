// npm run bench:read-floor: the service's GET /orders/{id}, as the peer harnesses drive it (50
// connections, random preloaded orders), beside the two floors any Node server meets on this
// machine, in one run, alternately: bare Koa answering the example order (bench/http/baseline.ts),
// and bare node:http writing the very headers and body one of the service's answers had
// (bench/http/bare-node.ts). No route can beat bare node:http: read against a peer measured by its
// harness on the same machine, its rate bounds the ratio any read route of ours can reach.
//
//   npm run bench:read-floor            # BENCH_ORDERS=10000 BENCH_ROUNDS=2 BENCH_SECONDS=10 BENCH_CONNECTIONS=50

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signDevToken } from '../api/auth.js';
import { autocannon, loadOrders, type AcRequest, type AcResult } from './http/load.js';
import { startBareNode, startBaseline, startService, stopServer, type BenchServer } from './http/servers.js';
import { median } from './support/median.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const ORDERS = env('BENCH_ORDERS', 10_000);
const ROUNDS = env('BENCH_ROUNDS', 2);
const SECONDS = env('BENCH_SECONDS', 10);
const CONNECTIONS = env('BENCH_CONNECTIONS', 50);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

const dir = mkdtempSync(join(process.cwd(), '.bench-read-floor-'));
const servers: BenchServer[] = [];
try {
  const secret = 'bench-read-floor-secret-0123456789abcdef';
  console.log(`writing ${fmt(ORDERS)} orders (addresses sealed) ...`);
  const ids = await loadOrders(join(dir, 'service'), ORDERS, true);
  const service = await startService(join(dir, 'service'), secret, 120_000);
  servers.push(service);
  await service.ready;
  const token = await signDevToken(secret, { sub: 'bench', scope: 'orders:read' }, 3600);
  const headers = { authorization: `Bearer ${token}` };
  // One answer of the service, recorded with its headers, for bare node:http to write.
  const sample = await fetch(`${service.url}/orders/${ids[0]}`, { headers });
  if (sample.status !== 200) throw new Error(`GET /orders/{id} answered ${sample.status}`);
  const recorded = { headers: Object.fromEntries([...sample.headers].filter(([name]) => !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name))), body: await sample.text() };
  writeFileSync(join(dir, 'recorded.json'), JSON.stringify(recorded));
  const bare = await startBareNode(join(dir, 'recorded.json'));
  const koa = await startBaseline();
  servers.push(bare, koa);
  await Promise.all([bare.ready, koa.ready]);
  console.log(`the service's answer: ${Buffer.byteLength(recorded.body)} bytes of body, ${Object.keys(recorded.headers).length} headers: ${Object.keys(recorded.headers).join(', ')}`);

  const requests: AcRequest[] = [{ method: 'GET', headers, setupRequest: (req) => ({ ...req, path: `/orders/${ids[Math.floor(Math.random() * ids.length)]}` }) }];
  const drive = (server: BenchServer, duration: number) => autocannon({ url: server.url, connections: CONNECTIONS, duration, requests });
  const results = new Map<string, AcResult[]>();
  for (let round = 1; round <= ROUNDS; round++) {
    for (const server of [service, koa, bare]) {
      await drive(server, 1);
      const result = await drive(server, SECONDS);
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${server.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      results.set(server.name, [...(results.get(server.name) ?? []), result]);
      console.log(`  round ${round}  ${server.name.padEnd(16)} ${fmt(result.requests.average).padStart(7)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms`);
    }
  }
  const rate = (name: string) => median(results.get(name)!.map((r) => r.requests.average));
  console.log(`\n${fmt(ORDERS)} orders; ${CONNECTIONS} connections; ${SECONDS} s a run; median of ${ROUNDS} round(s)\n`);
  console.log('  server            req/s   p50 ms  p99 ms  share of bare node:http');
  for (const server of [service, koa, bare]) {
    const list = results.get(server.name)!;
    console.log(`  ${server.name.padEnd(16)} ${fmt(rate(server.name)).padStart(7)}  ${String(median(list.map((r) => r.latency.p50))).padStart(6)}  ${String(median(list.map((r) => r.latency.p99))).padStart(6)}  ${((100 * rate(server.name)) / rate(bare.name)).toFixed(1).padStart(6)}%`);
  }
  console.log('\nA peer at P req/s on this route (its harness, same machine) puts any Node server of ours at most bare/P times it.');
} finally {
  for (const server of servers) await stopServer(server).catch(() => {});
  rmSync(dir, { recursive: true, force: true });
}

