// npm run bench:feed: on the embedded default, with 500 writes/s running, how long after a
// write is acknowledged its change arrives on GET /fulfilment-queue/changes (Server-Sent
// Events), and how long reading the history of a 50-event order takes.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { signDevToken } from '../api/auth.js';
import { freePort, HOST } from './support/free-port.js';

const RATE = 500;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const HISTORY_READS = 2000;
const SECRET = `bench-feed-${randomUUID()}-${randomUUID()}`;

const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

const dir = mkdtempSync(join(process.cwd(), '.bench-feed-'));
const port = await freePort();
const service = spawn(process.execPath, ['--import', 'tsx', 'bootstrap/main.ts'], {
  env: { PATH: process.env.PATH, DATA_DIR: dir, PORT: String(port), LOG_LEVEL: 'warn', AUTH_JWT_SECRET: SECRET, RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const url = `http://${HOST}:${port}`;
try {
  for (let i = 0; ; i++) {
    const ready = await fetch(`${url}/health/ready`).then((r) => r.ok, () => false);
    if (ready) break;
    if (i > 300) throw new Error('service did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  const token = await signDevToken(SECRET, { sub: 'bench', scope: 'orders:read orders:write payments:write shipments:write audit:read' }, 3600);
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const order = JSON.stringify({ customerId: 'cus_1', currency: 'EUR', lines: [{ sku: 'A', quantity: 1, unitPrice: 500 }], address: { name: 'A', line1: 'B', city: 'C', postalCode: '1', country: 'DE' } });
  const place = async () => ((await (await fetch(`${url}/orders`, { method: 'POST', headers: { ...headers, 'Idempotency-Key': randomUUID() }, body: order })).json()) as { id: string }).id;

  const total = RATE * SECONDS;
  console.log(`placing ${total.toLocaleString('en-US')} orders to pay during the run ...`);
  const pending: string[] = [];
  for (let i = 0; i < total; i += 50) pending.push(...(await Promise.all(Array.from({ length: Math.min(50, total - i) }, place))));

  // Follow the changes from now on.
  const start = ((await (await fetch(`${url}/fulfilment-queue/changes?limit=1000`, { headers })).json()) as { next: string | null }).next;
  const arrived = new Map<string, number>();
  const abort = new AbortController();
  const stream = await fetch(`${url}/fulfilment-queue/changes`, { headers: { ...headers, Accept: 'text/event-stream', ...(start ? { 'Last-Event-ID': start } : {}) }, signal: abort.signal });
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (data) arrived.set((JSON.parse(data.slice(6)) as { orderId: string }).orderId, performance.now());
        }
      }
    } catch {
      // aborted at the end
    }
  })();

  console.log(`paying ${RATE} orders/s for ${SECONDS} s while the changes stream is read ...`);
  const acknowledged = new Map<string, number>();
  const writes: Promise<void>[] = [];
  const began = performance.now();
  for (let i = 0; i < total; i++) {
    const due = began + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const id = pending[i]!;
    writes.push(
      fetch(`${url}/orders/${id}/payments`, { method: 'POST', headers: { ...headers, 'Idempotency-Key': `pay-${id}` }, body: JSON.stringify({ amount: 500, reference: 'psp' }) }).then(async (r) => {
        await r.arrayBuffer();
        if (r.status === 201) acknowledged.set(id, performance.now());
      }),
    );
  }
  await Promise.all(writes);
  const achieved = total / ((performance.now() - began) / 1000);
  for (let i = 0; i < 100 && arrived.size < acknowledged.size; i++) await new Promise((r) => setTimeout(r, 50));
  abort.abort();
  await reading;
  // Negative: the change reached the stream before the client had read the write's response.
  const delays = [...acknowledged].map(([id, at]) => (arrived.get(id) ?? Infinity) - at).sort((a, b) => a - b);
  const missing = delays.filter((d) => d === Infinity).length;

  // History of a 50-event order.
  const id = await place();
  for (let i = 1; i < 50; i++) {
    await fetch(`${url}/orders/${id}`, { method: 'PATCH', headers: { ...headers, 'Content-Type': 'application/merge-patch+json' }, body: JSON.stringify({ address: { city: `City ${i}` } }) });
  }
  const times: number[] = [];
  for (let i = -200; i < HISTORY_READS; i++) {
    const t = performance.now();
    const response = await fetch(`${url}/orders/${id}/history?limit=100`, { headers });
    const body = (await response.json()) as { items: unknown[] };
    if (i >= 0) times.push(performance.now() - t); // the first 200 warm up both processes
    if (body.items.length !== 50) throw new Error(`history had ${body.items.length} events`);
  }
  times.sort((a, b) => a - b);

  console.log(`\nwrites: ${achieved.toFixed(0)} payments/s sustained, ${acknowledged.size.toLocaleString('en-US')} acknowledged, ${missing} never seen on the stream`);
  console.log(`acknowledgement → change on the SSE stream: p50 ${percentile(delays, 0.5).toFixed(1)} ms, p99 ${percentile(delays, 0.99).toFixed(1)} ms, max ${delays.at(-1)!.toFixed(1)} ms (negative: the change came first; target p99 < 100 ms: ${percentile(delays, 0.99) < 100 ? 'met' : 'NOT met'})`);
  console.log(`history of a 50-event order over HTTP (${HISTORY_READS} reads): p50 ${percentile(times, 0.5).toFixed(2)} ms, p99 ${percentile(times, 0.99).toFixed(2)} ms (target p99 < 5 ms: ${percentile(times, 0.99) < 5 ? 'met' : 'NOT met'})`);
} finally {
  service.kill('SIGTERM');
  await new Promise((r) => service.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
}
