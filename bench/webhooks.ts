// npm run bench:webhooks (issue 33): the webhook delivery worker under load. The service runs as a
// process (role all, embedded stores under the working directory, WEBHOOK_ALLOWED_HOSTS=127.0.0.1);
// a receiver here, on 127.0.0.1, verifies every message's signature with standardwebhooks (a
// failure is counted, and must be 0) and drops repeats by webhook-id. Orders are placed and paid
// through the API at BENCH_RATE orders/s (default 200) for BENCH_SECONDS (default 20) by a paced
// loop with bounded concurrency, each order giving an order.placed and an order.paid.
//
// The delay of a message is measured from its event's commit to its arrival at the receiver. The
// commit instant is the message's `occurredAt`: messages.ts writes the recorded event's
// `recordedAt`, which the embedded store stamps (Date.now() in its writer thread) in the commit's
// own transaction, on the same machine and wall clock as the receiver (ms resolution). Beside it,
// the delay from the API's acknowledgement (the response received here) to the arrival, on the
// monotonic clock: the acknowledgement comes after the commit, so that delay is the smaller.
//
// Two services, each on fresh stores, one after the other:
// - A: one subscription (order.placed, order.paid) to a healthy receiver. The paced run, then a
//   stretch at saturation (BENCH_SATURATION_CONNECTIONS place-and-pay loops as fast as the
//   service answers, for BENCH_SATURATION_SECONDS): events committed/s beside deliveries/s, then
//   the time the backlog left at the end takes to drain.
// - B: two subscriptions side by side, the same healthy one and one to a receiver that answers
//   500 to 20% of attempts at random; the paced run again: the healthy subscription's delay beside
//   A's, and beside B0's.
// - B0, the control for B (run before it): the same two subscriptions, both receivers healthy. Two
//   subscriptions are twice the delivery work of A on the same two cores; B0 holds that work and
//   leaves out the failures, so B against B0 shows what the failing receiver alone costs its
//   neighbour.
// A floor, in the same run: a message of the same size signed here and POSTed to the same
// receiver over loopback (on kept-alive connections, as the sender's), verified there: what the
// sending and the receiving cost without the worker.
//
// - Replay: a third service, on fresh stores, takes BENCH_REPLAY_EVENTS (default 100,000) events
//   (orders placed and paid at saturation, no subscription yet); then a subscription to a healthy
//   receiver asks for a replay from before the first order (POST …/replays): the time from the
//   request to the job's success, and to the receiver holding every message, beside A's drain rate.
// - None: a service with no subscription, the same paced run: the service's CPU without webhooks,
//   the floor the runs with subscriptions add to.
// BENCH_PHASES (default "none,A,B0,B,replay") runs some of them (B needs A).
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { signDevToken } from '../api/auth.js';
import { startService, stopServer, tail, type BenchServer } from './http/servers.js';
import { benchSku, defineCatalogue, placementBody, RECONCILER_ORPHAN_WINDOW_MS, untilIdle } from './http/setup.js';
import { cpuProfileArgs } from './support/cpu-profile.js';
import { cpuMs } from './support/cpu-time.js';

const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
/** Orders under way at once in the paced run: the loop waits for a slot rather than pile up requests. */
const MAX_CONCURRENT = 64;
const SATURATION_CONNECTIONS = Number(process.env.BENCH_SATURATION_CONNECTIONS ?? 32);
const SATURATION_SECONDS = Number(process.env.BENCH_SATURATION_SECONDS ?? 10);
const PRODUCTS = 1000;
/** The second receiver of run B answers 500 to this share of attempts (BENCH_FLAKY_SHARE; 0: two healthy subscriptions). */
const FLAKY_SHARE = Number(process.env.BENCH_FLAKY_SHARE ?? 0.2);
const TARGET_P99_MS = 100;
const REPLAY_EVENTS = Number(process.env.BENCH_REPLAY_EVENTS ?? 100_000);
const PHASES = new Set((process.env.BENCH_PHASES ?? 'none,A,B0,B,replay').split(',').map((p) => p.trim()));
/** BENCH_CPU_PROF=<dir>: each service writes a V8 CPU profile there (node --cpu-prof), to see where a run's CPU goes. */
const PROFILE_ARGS = cpuProfileArgs(process.env.BENCH_CPU_PROF);
const SECRET = `bench-webhooks-${randomUUID()}-${randomUUID()}`;

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? '—' : n < 10 ? n.toFixed(1) : fmt(n));
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));
const percentile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

// ---- the receiver ----

interface Arrival {
  /** Date.now() and performance.now() at the request's end. */
  readonly wall: number;
  readonly mono: number;
  readonly occurredAt: number;
  /** `<order id>|<type>`: what the acknowledgements are kept by. */
  readonly key: string;
}

/** What one subscription's endpoint saw. */
class Endpoint {
  webhook: Webhook | null = null;
  attempts = 0;
  verifyFailures = 0;
  answered500 = 0;
  repeats = 0;
  bytes = 0;
  /** The first successful arrival of each message, by webhook-id. */
  readonly delivered = new Map<string, Arrival>();
  constructor(readonly failShare: number) {}

  take(headers: IncomingHttpHeaders, body: string): number {
    this.attempts++;
    this.bytes += Buffer.byteLength(body);
    const wall = Date.now();
    const mono = performance.now();
    try {
      if (!this.webhook) throw new Error('no secret yet');
      this.webhook.verify(body, { 'webhook-id': String(headers['webhook-id']), 'webhook-timestamp': String(headers['webhook-timestamp']), 'webhook-signature': String(headers['webhook-signature']) });
    } catch {
      this.verifyFailures++;
    }
    if (this.failShare > 0 && Math.random() < this.failShare) {
      this.answered500++;
      return 500;
    }
    const id = String(headers['webhook-id']);
    if (this.delivered.has(id)) this.repeats++;
    else {
      const message = JSON.parse(body) as { type: string; occurredAt: string; data: { id: string } };
      this.delivered.set(id, { wall, mono, occurredAt: Date.parse(message.occurredAt), key: `${message.data.id}|${message.type}` });
    }
    return 204;
  }
}

async function receiver(endpoints: Map<string, Endpoint>): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => {
      const endpoint = endpoints.get(req.url ?? '');
      res.writeHead(endpoint ? endpoint.take(req.headers, body) : 404).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

// ---- the service's API ----

interface Api {
  readonly url: string;
  readonly admin: Record<string, string>;
  readonly shop: Record<string, string>;
}

async function subscribe(api: Api, url: string, events: readonly string[]): Promise<{ id: string; secret: string }> {
  const response = await fetch(`${api.url}/webhook-subscriptions`, { method: 'POST', headers: { ...api.admin, 'Idempotency-Key': randomUUID() }, body: JSON.stringify({ url, events }) });
  if (response.status !== 201) throw new Error(`POST /webhook-subscriptions answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { id: string; secret: string };
}

/** Acknowledgements (performance.now() at the response) by `<order id>|<type>`. */
type Acks = Map<string, number>;

let orderCount = 0;

/** Places an order of 1 to 3 catalogue lines and pays it; records each 201's acknowledgement. Failures counted. */
async function placeAndPay(api: Api, acks: Acks | null, failures: { count: number }): Promise<void> {
  const lines = Array.from({ length: 1 + (orderCount++ % 3) }, () => ({ sku: benchSku(Math.floor(Math.random() * PRODUCTS)), quantity: 1 }));
  const placed = await fetch(`${api.url}/orders`, { method: 'POST', headers: { ...api.shop, 'Idempotency-Key': randomUUID() }, body: placementBody(lines) });
  if (placed.status !== 201) {
    failures.count++;
    await placed.arrayBuffer();
    return;
  }
  const { id, total } = (await placed.json()) as { id: string; total: number };
  acks?.set(`${id}|order.placed`, performance.now());
  const paid = await fetch(`${api.url}/orders/${id}/payments`, { method: 'POST', headers: { ...api.shop, 'Idempotency-Key': randomUUID() }, body: JSON.stringify({ amount: total, reference: 'psp' }) });
  await paid.arrayBuffer();
  if (paid.status !== 201) failures.count++;
  else acks?.set(`${id}|order.paid`, performance.now());
}

/** Waits until `done` holds (checked every 50 ms), at most `timeoutMs`; whether it did. */
async function until(done: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

// ---- the runs ----

interface Paced {
  readonly achievedRate: number;
  readonly failures: number;
  readonly lateStarts: number;
  readonly acks: Acks;
  readonly cpuShare: number;
  /** This process's CPU (the load, the receivers, the verification), share of a core. */
  readonly benchCpuShare: number;
  /** Place-and-pay round trips, ms, sorted. */
  readonly roundTrips: readonly number[];
  readonly loadAtEnd: string;
}

/** Places and pays RATE orders/s for SECONDS, at most MAX_CONCURRENT at once. */
async function pacedRun(api: Api, service: BenchServer): Promise<Paced> {
  const acks: Acks = new Map();
  const failures = { count: 0 };
  const total = RATE * SECONDS;
  let inFlight = 0;
  let lateStarts = 0;
  const running = new Set<Promise<void>>();
  const roundTrips: number[] = [];
  const cpuBefore = cpuMs(service.child.pid!);
  const benchBefore = process.cpuUsage();
  const began = performance.now();
  for (let i = 0; i < total; i++) {
    const wait = began + (i * 1000) / RATE - performance.now();
    if (wait > 0) await sleep(wait);
    if (inFlight >= MAX_CONCURRENT) {
      lateStarts++;
      await Promise.race(running);
    }
    inFlight++;
    const t = performance.now();
    const task: Promise<void> = placeAndPay(api, acks, failures).catch(() => void failures.count++).finally(() => {
      roundTrips.push(performance.now() - t);
      inFlight--;
      running.delete(task);
    });
    running.add(task);
  }
  await Promise.all(running);
  const seconds = (performance.now() - began) / 1000;
  const bench = process.cpuUsage(benchBefore);
  return {
    achievedRate: total / seconds, failures: failures.count, lateStarts, acks, cpuShare: (cpuMs(service.child.pid!) - cpuBefore) / 1000 / seconds,
    benchCpuShare: (bench.user + bench.system) / 1e6 / seconds, roundTrips: roundTrips.sort((a, b) => a - b), loadAtEnd: load(),
  };
}

interface Delays {
  readonly count: number;
  readonly missing: number;
  readonly commit: readonly number[];
  readonly ack: readonly number[];
  /** Arrivals with a gap of over 100 ms before them (bursts), per second of the run. */
  readonly burstsPerSecond: number;
}

function delaysOf(endpoint: Endpoint, acks: Acks): Delays {
  const commit: number[] = [];
  const ack: number[] = [];
  const arrivals: number[] = [];
  for (const arrival of endpoint.delivered.values()) {
    const acked = acks.get(arrival.key);
    if (acked === undefined) continue;
    commit.push(arrival.wall - arrival.occurredAt);
    ack.push(arrival.mono - acked);
    arrivals.push(arrival.mono);
  }
  arrivals.sort((a, b) => a - b);
  let bursts = arrivals.length > 0 ? 1 : 0;
  for (let i = 1; i < arrivals.length; i++) if (arrivals[i]! - arrivals[i - 1]! > 100) bursts++;
  const span = arrivals.length > 1 ? (arrivals.at(-1)! - arrivals[0]!) / 1000 : 1;
  return { count: commit.length, missing: acks.size - commit.length, commit: commit.sort((a, b) => a - b), ack: ack.sort((a, b) => a - b), burstsPerSecond: bursts / span };
}

interface Saturation {
  readonly seconds: number;
  readonly committedPerSecond: number;
  readonly deliveredDuringPerSecond: number;
  readonly backlogAtEnd: number;
  readonly drainSeconds: number;
  readonly drainPerSecond: number;
  readonly drained: boolean;
  readonly failures: number;
  readonly cpuShare: number;
  readonly loadAtEnd: string;
}

/** SATURATION_CONNECTIONS place-and-pay loops for SATURATION_SECONDS, then the drain of what is left. */
async function saturationRun(api: Api, service: BenchServer, endpoint: Endpoint): Promise<Saturation> {
  const acks: Acks = new Map();
  const failures = { count: 0 };
  const cpuBefore = cpuMs(service.child.pid!);
  const began = performance.now();
  const stopAt = began + SATURATION_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: SATURATION_CONNECTIONS }, async () => {
      while (performance.now() < stopAt) await placeAndPay(api, acks, failures).catch(() => void failures.count++);
    }),
  );
  const ended = performance.now();
  const cpuShare = (cpuMs(service.child.pid!) - cpuBefore) / (ended - began);
  const loadAtEnd = load();
  const arrivedOf = () => [...endpoint.delivered.values()].filter((a) => acks.has(a.key));
  const during = arrivedOf().filter((a) => a.mono <= ended).length;
  const backlogAtEnd = acks.size - during;
  const drained = await until(() => arrivedOf().length >= acks.size, 300_000);
  const last = Math.max(ended, ...arrivedOf().map((a) => a.mono));
  const drainSeconds = (last - ended) / 1000;
  const seconds = (ended - began) / 1000;
  return {
    seconds,
    committedPerSecond: acks.size / seconds,
    deliveredDuringPerSecond: during / seconds,
    backlogAtEnd,
    drainSeconds,
    drainPerSecond: drainSeconds > 0 ? (arrivedOf().length - during) / drainSeconds : NaN,
    drained,
    failures: failures.count,
    cpuShare,
    loadAtEnd,
  };
}

interface Replay {
  readonly events: number;
  readonly seedSeconds: number;
  readonly jobSeconds: number;
  readonly receivedSeconds: number;
  readonly received: number;
  readonly job: { status: string; result: { count: number } | null; progress: { processed: number; total: number } };
  readonly cpuShare: number;
  readonly loadAtEnd: string;
}

/** REPLAY_EVENTS events committed (orders placed and paid, no subscription yet), then a replay of them all to a new subscription. */
async function replayRun(api: Api, service: BenchServer, endpoint: Endpoint, url: string): Promise<Replay> {
  const from = new Date().toISOString();
  const acks: Acks = new Map();
  const failures = { count: 0 };
  const seeding = performance.now();
  await Promise.all(
    Array.from({ length: SATURATION_CONNECTIONS }, async () => {
      while (acks.size < REPLAY_EVENTS) await placeAndPay(api, acks, failures).catch(() => void failures.count++);
    }),
  );
  const seedSeconds = (performance.now() - seeding) / 1000;
  const events = acks.size;
  const subscription = await subscribe(api, url, ['order.placed', 'order.paid']);
  endpoint.webhook = new Webhook(subscription.secret);
  const cpuBefore = cpuMs(service.child.pid!);
  const asked = performance.now();
  const response = await fetch(`${api.url}/webhook-subscriptions/${subscription.id}/replays`, {
    method: 'POST', headers: { ...api.admin, 'Idempotency-Key': randomUUID() }, body: JSON.stringify({ from }),
  });
  if (response.status !== 202) throw new Error(`POST …/replays answered ${response.status}: ${await response.text()}`);
  const location = response.headers.get('location')!;
  let job: Replay['job'] = (await response.json()) as Replay['job'];
  let jobSeconds = NaN;
  const deadline = asked + 1_800_000;
  while (performance.now() < deadline) {
    job = (await (await fetch(`${api.url}${location}`, { headers: api.admin })).json()) as Replay['job'];
    if (job.status === 'succeeded' || job.status === 'failed') {
      jobSeconds = (performance.now() - asked) / 1000;
      break;
    }
    await sleep(200);
  }
  await until(() => endpoint.delivered.size >= events, 60_000);
  const last = Math.max(...[...endpoint.delivered.values()].map((a) => a.mono));
  return {
    events, seedSeconds, jobSeconds, receivedSeconds: (last - asked) / 1000, received: endpoint.delivered.size, job,
    cpuShare: (cpuMs(service.child.pid!) - cpuBefore) / (performance.now() - asked), loadAtEnd: load(),
  };
}

/** A service on fresh stores (a catalogue of PRODUCTS with ample stock), its API's tokens. */
async function serviceOn(dir: string): Promise<{ service: BenchServer; api: Api }> {
  await defineCatalogue(join(dir, 'events.sqlite3'), PRODUCTS);
  const startedAt = performance.now();
  const service = await startService(dir, SECRET, 120_000, { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }, PROFILE_ARGS, process.cwd(), 'service');
  await service.ready;
  // The stock reconciler reads the whole log once, 30 s after the start: not billed to the runs.
  const idle = await untilIdle([service], startedAt + RECONCILER_ORPHAN_WINDOW_MS + 1_000);
  console.log(`  service idle (its start-up work done) ${idle.toFixed(0)} s after ready`);
  const admin = { Authorization: `Bearer ${await signDevToken(SECRET, { sub: 'bench-hooks-admin', scope: 'webhooks:admin' }, 3600)}`, 'Content-Type': 'application/json' };
  const shop = { Authorization: `Bearer ${await signDevToken(SECRET, { sub: 'bench-shop', scope: 'orders:read orders:write payments:write' }, 3600)}`, 'Content-Type': 'application/json' };
  return { service, api: { url: service.url, admin, shop } };
}

/** An order placed and paid, then waited for at every endpoint: the worker has taken each subscription (it looks every 10 s). */
async function warmUp(api: Api, endpoints: readonly Endpoint[]): Promise<void> {
  const before = endpoints.map((e) => e.attempts);
  await placeAndPay(api, null, { count: 0 });
  if (!(await until(() => endpoints.every((e, i) => e.attempts >= before[i]! + 2), 60_000))) throw new Error('the warm-up order did not reach every receiver within 60 s');
  await sleep(2_000);
}

/** The floor: the same receiver and verification, a signed message of that size POSTed from here on kept-alive connections. */
async function floorRun(size: number): Promise<number[]> {
  const endpoint = new Endpoint(0);
  const secret = `whsec_${Buffer.from(randomUUID().replaceAll('-', '')).toString('base64')}`;
  endpoint.webhook = new Webhook(secret);
  const { server, base: url } = await receiver(new Map([['/floor', endpoint]]));
  const signer = new Webhook(secret);
  const times: number[] = [];
  // Kept-alive connections, as the sender's (sender.ts Connections).
  const agent = new Agent({ keepAlive: true });
  try {
    for (let i = -100; i < 2000; i++) {
      const id = `evt_${randomUUID()}`;
      const now = new Date();
      const payload = JSON.stringify({ id, type: 'order.paid', occurredAt: now.toISOString(), data: { id: randomUUID(), pad: 'x'.repeat(Math.max(0, size - 150)) } });
      const t = performance.now();
      const headers = { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signer.sign(id, now, payload) };
      await new Promise<void>((resolve, reject) => {
        const req = request(`${url}/floor`, { method: 'POST', headers, agent }, (res) => res.resume().on('end', resolve));
        req.on('error', reject).end(payload);
      });
      if (i >= 0) times.push(performance.now() - t);
      if (i % 20 === 0) await sleep(5); // paced, not a tight loop
    }
  } finally {
    agent.destroy();
    server.close();
  }
  if (endpoint.verifyFailures > 0) throw new Error(`the floor's receiver failed ${endpoint.verifyFailures} verifications`);
  return times.sort((a, b) => a - b);
}

/** What the service logged (LOG_LEVEL warn: warnings and errors only), if anything. */
function logOf(server: BenchServer): void {
  // The readiness checks before the start-up catch-up ended answer 503, which the service logs as errors.
  const lines = tail(server).split('\n').filter((l) => l !== '' && !l.includes('"path":"/health/ready"')).join('\n');
  if (lines !== '') console.log(`  the service logged (last lines):\n${lines.split('\n').map((l) => `    ${l.slice(0, 400)}`).join('\n')}`);
}

// ---- main ----

/** Thrown to end a run of some phases only. */
class Done extends Error {}

const started = new Date();
console.log(`bench:webhooks ${started.toISOString()}: ${RATE} orders/s (placed and paid) for ${SECONDS} s; load average ${load()} (1, 5, 15 min)`);
const dirs: string[] = [];
const servers: BenchServer[] = [];
const endpoints = new Map<string, Endpoint>();
const { server: receiverServer, base } = await receiver(endpoints);
let messageSize = 0;
try {
  let none: Paced | null = null;
  if (PHASES.has('none')) {
    const dirN = mkdtempSync(join(process.cwd(), '.bench-webhooks-'));
    dirs.push(dirN);
    console.log('\nNone: no subscription, the same paced run (the service\'s CPU without webhooks)');
    const n = await serviceOn(dirN);
    servers.push(n.service);
    await placeAndPay(n.api, null, { count: 0 });
    none = await pacedRun(n.api, n.service);
    console.log(`  ${none.achievedRate.toFixed(0)} orders/s placed and paid; service CPU ${(none.cpuShare * 100).toFixed(0)}% of a core, this process's ${(none.benchCpuShare * 100).toFixed(0)}%; round trips p50 ${ms(percentile(none.roundTrips, 0.5))} ms, p99 ${ms(percentile(none.roundTrips, 0.99))} ms; load average ${none.loadAtEnd}`);
    logOf(n.service);
    await stopServer(n.service);
  }
  let replay: Replay | null = null;
  if (PHASES.has('replay') && REPLAY_EVENTS > 0) {
    const dirR = mkdtempSync(join(process.cwd(), '.bench-webhooks-'));
    dirs.push(dirR);
    console.log(`\nReplay: ${fmt(REPLAY_EVENTS)} events committed with no subscription, then replayed to a new one`);
    const r = await serviceOn(dirR);
    servers.push(r.service);
    const healthyR = new Endpoint(0);
    endpoints.set('/replay/healthy', healthyR);
    replay = await replayRun(r.api, r.service, healthyR, `${base}/replay/healthy`);
    console.log(`  ${fmt(replay.events)} events committed in ${replay.seedSeconds.toFixed(0)} s; the replay's job ${replay.job.status} after ${replay.jobSeconds.toFixed(1)} s (total ${fmt(replay.job.progress.total)}, count ${fmt(replay.job.result?.count ?? 0)}); ${fmt(replay.received)} messages at the receiver ${replay.receivedSeconds.toFixed(1)} s after the request; service CPU ${(replay.cpuShare * 100).toFixed(0)}% of a core; load average ${replay.loadAtEnd}`);
    logOf(r.service);
    await stopServer(r.service);
  }
  if (!PHASES.has('A') || !PHASES.has('B')) {
    if (replay && replay.received < replay.events) process.exitCode = 1;
    throw new Done();
  }
  // ---- A: one healthy subscription ----
  const dirA = mkdtempSync(join(process.cwd(), '.bench-webhooks-'));
  dirs.push(dirA);
  console.log('\nA: one subscription to a healthy receiver');
  const a = await serviceOn(dirA);
  servers.push(a.service);
  const healthyA = new Endpoint(0);
  endpoints.set('/a/healthy', healthyA);
  healthyA.webhook = new Webhook((await subscribe(a.api, `${base}/a/healthy`, ['order.placed', 'order.paid'])).secret);
  await warmUp(a.api, [healthyA]);
  console.log(`  subscription taken by the worker; paced run (load average ${load()}) ...`);
  const pacedA = await pacedRun(a.api, a.service);
  await until(() => delaysOf(healthyA, pacedA.acks).missing === 0, 60_000);
  const delaysA = delaysOf(healthyA, pacedA.acks);
  console.log(`  saturation: ${SATURATION_CONNECTIONS} place-and-pay loops for ${SATURATION_SECONDS} s (load average ${load()}) ...`);
  const saturation = await saturationRun(a.api, a.service, healthyA);
  messageSize = Math.round(healthyA.bytes / healthyA.attempts);
  logOf(a.service);
  await stopServer(a.service);

  // ---- B0 (the control): two healthy subscriptions; B: the healthy one beside one to a receiver failing FLAKY_SHARE of attempts ----
  const runB = async (label: 'B0' | 'B', share: number) => {
    const dirB = mkdtempSync(join(process.cwd(), '.bench-webhooks-'));
    dirs.push(dirB);
    console.log(share > 0 ? `\n${label}: a healthy subscription beside one whose receiver answers 500 to ${share * 100}% of attempts` : `\n${label}: two subscriptions to healthy receivers (the control for B: the same work, nothing failing)`);
    const b = await serviceOn(dirB);
    servers.push(b.service);
    const healthy = new Endpoint(0);
    const other = new Endpoint(share);
    endpoints.set(`/${label}/healthy`, healthy);
    endpoints.set(`/${label}/other`, other);
    healthy.webhook = new Webhook((await subscribe(b.api, `${base}/${label}/healthy`, ['order.placed', 'order.paid'])).secret);
    other.webhook = new Webhook((await subscribe(b.api, `${base}/${label}/other`, ['order.placed', 'order.paid'])).secret);
    await warmUp(b.api, [healthy, other]);
    console.log(`  both subscriptions taken by the worker; paced run (load average ${load()}) ...`);
    const paced = await pacedRun(b.api, b.service);
    await until(() => delaysOf(healthy, paced.acks).missing === 0, 60_000);
    const delaysHealthy = delaysOf(healthy, paced.acks);
    // The failing receiver's retries come 5 s (±) after their first attempt, then a minute after: wait for the first round.
    await until(() => delaysOf(other, paced.acks).missing === 0, 20_000);
    const delaysOther = delaysOf(other, paced.acks);
    logOf(b.service);
    await stopServer(b.service);
    return { paced, healthy, other, delaysHealthy, delaysOther };
  };
  const control = PHASES.has('B0') && FLAKY_SHARE > 0 ? await runB('B0', 0) : null;
  const { paced: pacedB, healthy: healthyB, other: flakyB, delaysHealthy: delaysB, delaysOther: delaysFlaky } = await runB('B', FLAKY_SHARE);

  console.log(`\n  floor: a signed message of ${fmt(messageSize)} bytes POSTed to the same receiver from here, on kept-alive connections (load average ${load()}) ...`);
  const floor = await floorRun(messageSize);

  // ---- the table ----
  const all = [healthyA, healthyB, flakyB, ...(control ? [control.healthy, control.other] : [])];
  const verifyFailures = all.reduce((n, e) => n + e.verifyFailures, 0);
  console.log(`\nwebhook deliveries, service on the embedded stores (role all); ${RATE} orders/s placed and paid (${RATE * 2} events/s) for ${SECONDS} s; load average ${load()} (1, 5, 15 min) at the end\n`);
  const header = ['run', 'subscription', 'orders/s', 'service CPU', 'delivered', 'commit → arrival p50', 'p99', 'max', 'ack → arrival p50', 'p99', 'arrival bursts/s', 'load at end'];
  const row = (run: string, name: string, paced: Paced, d: Delays) => [
    run, name, paced.achievedRate.toFixed(0), `${(paced.cpuShare * 100).toFixed(0)}%`, `${fmt(d.count)} of ${fmt(paced.acks.size)}`,
    ms(percentile(d.commit, 0.5)), ms(percentile(d.commit, 0.99)), ms(d.commit.at(-1)), ms(percentile(d.ack, 0.5)), ms(percentile(d.ack, 0.99)), d.burstsPerSecond.toFixed(1), paced.loadAtEnd.split(' ')[0]!,
  ];
  const rows = [
    row('A', 'healthy', pacedA, delaysA),
    ...(control ? [row('B0', 'healthy', control.paced, control.delaysHealthy), row('B0', 'the other, healthy too', control.paced, control.delaysOther)] : []),
    row('B', 'healthy', pacedB, delaysB),
    row('B', `${FLAKY_SHARE * 100}% answered 500`, pacedB, delaysFlaky),
    ['floor', 'POST from here, verified', '', '', fmt(floor.length), '', '', '', ms(percentile(floor, 0.5)), ms(percentile(floor, 0.99)), '', ''],
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => '  ' + cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(r));
  console.log('\n  delays in ms. commit: the message\'s occurredAt (the event\'s recordedAt, stamped in the commit\'s transaction); ack: the API\'s response received here.');
  const histogram = (d: Delays) => [250, 500, 750, 1000, 1250, Infinity].map((upTo, i, all) => {
    const from = i === 0 ? -Infinity : all[i - 1]!;
    const share = d.commit.filter((x) => x > from && x <= upTo).length / Math.max(1, d.count);
    return `${Number.isFinite(upTo) ? `${i === 0 ? 0 : from}–${upTo}` : `>${from}`} ${(share * 100).toFixed(0)}%`;
  }).join(', ');
  console.log(`  commit → arrival, share by 250 ms: A ${histogram(delaysA)}; B healthy ${histogram(delaysB)}`);
  console.log('  arrival bursts/s: arrivals after a gap of over 100 ms, per second: about 1 when the worker reads the log once per poll (pollMs).');
  const trips = (p: Paced) => `p50 ${ms(percentile(p.roundTrips, 0.5))} ms, p99 ${ms(percentile(p.roundTrips, 0.99))} ms; this process's CPU ${(p.benchCpuShare * 100).toFixed(0)}% of a core`;
  console.log(`  place-and-pay round trips (two requests): A ${trips(pacedA)}; B ${trips(pacedB)}`);
  console.log(`  the paced loop fell behind its schedule (${MAX_CONCURRENT} orders under way) ${fmt(pacedA.lateStarts)} times in A, ${fmt(pacedB.lateStarts)} in B; API failures ${pacedA.failures} in A, ${pacedB.failures} in B.`);
  const p99A = percentile(delaysA.commit, 0.99) ?? Infinity;
  const p99B = percentile(delaysB.commit, 0.99) ?? Infinity;
  console.log(`\n  target p99 commit → arrival < ${TARGET_P99_MS} ms at ${RATE} orders/s: A ${p99A < TARGET_P99_MS ? 'met' : 'NOT met'} (${ms(p99A)} ms), B healthy ${p99B < TARGET_P99_MS ? 'met' : 'NOT met'} (${ms(p99B)} ms)`);
  console.log(`  B's healthy subscription beside the failing one: p50 ${ms(percentile(delaysB.commit, 0.5))} ms against A's ${ms(percentile(delaysA.commit, 0.5))} ms, p99 ${ms(p99B)} ms against ${ms(p99A)} ms`);
  if (control) {
    const p99B0 = percentile(control.delaysHealthy.commit, 0.99) ?? Infinity;
    console.log(`  against the control B0 (the same two subscriptions' work, neither failing): p50 ${ms(percentile(delaysB.commit, 0.5))} ms against ${ms(percentile(control.delaysHealthy.commit, 0.5))} ms, p99 ${ms(p99B)} ms against ${ms(p99B0)} ms; service CPU ${(pacedB.cpuShare * 100).toFixed(0)}% against ${(control.paced.cpuShare * 100).toFixed(0)}%`);
  }
  console.log(`  the failing receiver: ${fmt(flakyB.attempts)} attempts, ${fmt(flakyB.answered500)} answered 500, ${fmt(delaysFlaky.count)} of ${fmt(pacedB.acks.size)} messages delivered ${delaysFlaky.missing > 0 ? '(the rest wait for a retry)' : ''}; repeats dropped ${flakyB.repeats}`);
  console.log(`  signatures verified with standardwebhooks: ${fmt(all.reduce((n, e) => n + e.attempts, 0))} messages, ${verifyFailures} failures; repeats of a delivered webhook-id: ${healthyA.repeats + healthyB.repeats + (control ? control.healthy.repeats + control.other.repeats : 0)} at the healthy receivers`);
  console.log(`\n  saturation (A, ${SATURATION_CONNECTIONS} place-and-pay loops, ${saturation.seconds.toFixed(1)} s): ${fmt(saturation.committedPerSecond)} events committed/s (acknowledged), ${fmt(saturation.deliveredDuringPerSecond)} deliveries/s received meanwhile; service CPU ${(saturation.cpuShare * 100).toFixed(0)}% of a core; load average ${saturation.loadAtEnd}`);
  console.log(`  backlog at the end ${fmt(saturation.backlogAtEnd)} messages, drained ${saturation.drained ? '' : 'NOT all '}in ${saturation.drainSeconds.toFixed(1)} s (${saturation.backlogAtEnd > 0 ? fmt(saturation.drainPerSecond) : '—'} deliveries/s with nothing else to do); API failures ${saturation.failures}`);
  const backlogSeconds = saturation.backlogAtEnd / saturation.committedPerSecond;
  console.log(
    backlogSeconds <= 2
      ? `  the backlog at the end was ${backlogSeconds.toFixed(1)} s of commits (two poll intervals or less): the deliveries kept up, but for the poll's lag; the commits (the API) limit`
      : `  the backlog at the end was ${backlogSeconds.toFixed(1)} s of commits: the deliveries fell behind; the worker limits (its drain, the API idle: ${fmt(saturation.drainPerSecond)}/s)`,
  );
  if (none) {
    const perDelivery = (paced: Paced, deliveries: number) => (((paced.cpuShare - none!.cpuShare) * SECONDS * 1000) / deliveries).toFixed(2);
    console.log(`\n  the service without any subscription, the same paced run: CPU ${(none.cpuShare * 100).toFixed(0)}% of a core; the webhooks' share: A ${((pacedA.cpuShare - none.cpuShare) * 100).toFixed(0)}% (${perDelivery(pacedA, pacedA.acks.size)} ms per delivery), B ${((pacedB.cpuShare - none.cpuShare) * 100).toFixed(0)}% (${perDelivery(pacedB, 2 * pacedB.acks.size)} ms per delivery, two subscriptions)`);
  }
  if (replay) {
    console.log(`\n  replay of ${fmt(replay.events)} events (order.placed and order.paid) to a new subscription: the job ${replay.job.status} ${replay.jobSeconds.toFixed(1)} s after the request (${fmt(replay.events / replay.jobSeconds)} events/s), every message received after ${replay.receivedSeconds.toFixed(1)} s; A's live drain with nothing else to do: ${fmt(saturation.drainPerSecond)} deliveries/s`);
  }
  const allEndpoints = [...endpoints.values()];
  if (allEndpoints.some((e) => e.verifyFailures > 0) || (replay && replay.received < replay.events)) process.exitCode = 1;
} catch (error) {
  if (!(error instanceof Done)) {
    for (const server of servers) console.error(`--- ${server.name}'s last lines ---\n${tail(server)}`);
    throw error;
  }
} finally {
  for (const server of servers) await stopServer(server);
  receiverServer.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
