// npm run bench:login: GET /orders/{id} p99 alone, then with 20 sign-ins per second running
// beside it, in the same run against the same service. A sign-in checks an argon2id hash (19 MiB,
// 2 passes: tens of milliseconds of CPU); @node-rs/argon2 does that on libuv's thread pool, so the
// event loop keeps answering the reads. Had the hash run on the event loop, each sign-in would
// hold every read behind it for its whole duration, and the p99 would grow by about that much.
//
// The service runs as a child process (bootstrap/main.ts, embedded stores), its first
// administrator made from ADMIN_EMAIL/ADMIN_PASSWORD; autocannon and the sign-in loop run here.
// On a 2-core machine the hashing still takes CPU from the reads and the load generator: the
// difference between the two p99s is that share, not a blocked event loop.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { signDevToken } from '../api/auth.js';
import { SqliteEventStore } from '../write-side/adapters/sqlite-event-store.js';
import { encodeOrderEvent, orderStream } from '../write-side/orders/codec.js';
import { address } from './http/fixtures.js';
import { startService, stopServer, tail, type BenchServer } from './http/servers.js';

interface AcResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (opts: { url: string; connections: number; duration: number; requests: object[] }) => Promise<AcResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const ORDERS = 10_000;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CONNECTIONS = 10;
const SIGN_INS_PER_SECOND = 20;
const EMAIL = 'bench-admin@shop.example';
const PASSWORD = `bench password ${randomUUID()}`;

async function loadOrders(file: string): Promise<string[]> {
  const events = new SqliteEventStore({ file, synchronous: 'normal' });
  const ids = Array.from({ length: ORDERS }, () => randomUUID());
  const meta = { principal: 'bench', correlationId: 'bench', causationId: null };
  try {
    await Promise.all(ids.map((orderId, i) => {
      const data = { orderId, customerId: `cus_${i % 100}`, currency: 'EUR', lines: [{ sku: 'SKU-1', name: 'Blue mug', quantity: 1, unitPrice: 1999, lineTotal: 1999 }], total: 1999, address, placedAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString() };
      return events.appendToStream(orderStream(orderId), [encodeOrderEvent({ type: 'OrderPlaced', schemaVersion: 2, data }, meta)], 'no_stream');
    }));
  } finally {
    await events.close();
  }
  return ids;
}

/** Sign-ins at a steady rate until stopped: how many, how many answered 200, and their p50/p99 in ms. */
function signInLoop(url: string) {
  const times: number[] = [];
  let sent = 0;
  let ok = 0;
  const inFlight = new Set<Promise<void>>();
  const timer = setInterval(() => {
    sent++;
    const started = performance.now();
    const request = fetch(`${url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: EMAIL, password: PASSWORD }) })
      .then(async (response) => {
        await response.arrayBuffer();
        if (response.status === 200) ok++;
        times.push(performance.now() - started);
      })
      .catch(() => undefined)
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
  }, 1000 / SIGN_INS_PER_SECOND);
  return async () => {
    clearInterval(timer);
    await Promise.all(inFlight);
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
    return { sent, ok, p50: at(0.5), p99: at(0.99) };
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(process.cwd(), '.bench-login-'));
  const secret = `bench-login-${randomUUID()}-${randomUUID()}`;
  let service: BenchServer | null = null;
  try {
    console.log(`loading ${ORDERS.toLocaleString('en-US')} orders ...`);
    const ids = await loadOrders(join(dir, 'events.sqlite3'));
    service = await startService(dir, secret, 300_000, { ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD });
    await service.ready;
    const token = await signDevToken(secret, { sub: 'bench', scope: 'orders:read' }, 3600);
    const reads = [{ method: 'GET', headers: { authorization: `Bearer ${token}` }, setupRequest: (req: object) => ({ ...req, path: `/orders/${ids[Math.floor(Math.random() * ids.length)]}` }) }];
    const drive = () => autocannon({ url: service!.url, connections: CONNECTIONS, duration: SECONDS, requests: reads });
    // Warm up: the folded orders' cache, the JIT, the first sign-in's dummy hash.
    await autocannon({ url: service.url, connections: CONNECTIONS, duration: 2, requests: reads });
    const check = await fetch(`${service.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: EMAIL, password: PASSWORD }) });
    if (check.status !== 200) throw new Error(`sign-in answered ${check.status}: ${await check.text()}`);

    const alone = await drive();
    const stopSignIns = signInLoop(service.url);
    const beside = await drive();
    const signIns = await stopSignIns();

    const row = (name: string, r: AcResult) =>
      `${name.padEnd(34)} ${Math.round(r.requests.average).toLocaleString('en-US').padStart(8)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   max ${String(r.latency.max).padStart(5)} ms   non-2xx ${r.non2xx}`;
    console.log(`\nGET /orders/{id}, ${CONNECTIONS} connections, ${SECONDS} s each, ${ORDERS.toLocaleString('en-US')} orders`);
    console.log(row('alone', alone));
    console.log(row(`with ${SIGN_INS_PER_SECOND} sign-ins/s beside it`, beside));
    console.log(`sign-ins: ${signIns.sent} sent, ${signIns.ok} answered 200, p50 ${signIns.p50.toFixed(0)} ms, p99 ${signIns.p99.toFixed(0)} ms (argon2id m=19456 KiB, t=2, p=1)`);
    console.log(`p99 ratio (with / alone): ${(beside.latency.p99 / Math.max(alone.latency.p99, 1)).toFixed(2)}`);
  } catch (error) {
    if (service) console.error(tail(service));
    throw error;
  } finally {
    if (service) await stopServer(service);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
