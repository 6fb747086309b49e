// npm run bench:projections: on the embedded default, the rebuild rate and peak RSS over
// 1,000,000 events (250,000 orders), and 20-item page query times at 10k, 100k and 1M orders.
// The rebuild runs in a child process so that its peak RSS is its own.
import { OpenedViews } from '../read-side/orders/opened-views.js';
import { SqliteKeyStore } from '../write-side/adapters/sqlite-key-store.js';
import { Keyring } from '../write-side/personal-data/keyring.js';
import { PersonalData } from '../write-side/personal-data/personal-data.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqliteReadStore } from '../read-side/adapters/sqlite-read-store.js';
import { Consistency } from '../read-side/kernel/consistency.js';
import { CursorCodec } from '../read-side/kernel/cursor.js';
import { OrderQueries } from '../read-side/orders/queries.js';
import type { OrderView } from '../read-side/orders/views.js';
import { fulfilmentQueue } from '../projections/orders/fulfilment-queue.js';
import { orderViews } from '../projections/orders/order-views.js';
import { rebuild } from '../projections/rebuild.js';
import { SqliteEventStore } from '../write-side/adapters/sqlite-event-store.js';
import { encodeOrderEvent, orderStream } from '../write-side/orders/codec.js';
import type { OrderEvent } from '../write-side/orders/types.js';
import { encodePosition } from '../write-side/kernel/position.js';
import { READ_STORAGE } from '../projections/registry.js';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 250_000);
const CHUNK = 10_000;
const SAMPLES = 2000;
const address = { name: 'Ada Lovelace', line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' };
const meta = { principal: 'bench', correlationId: 'bench', causationId: null };
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

if (process.argv[2] === '--rebuild') {
  // Child: rebuild one projection over the given data and report.
  const [dir, name] = process.argv.slice(3) as [string, 'order-views' | 'fulfilment-queue'];
  const events = new SqliteEventStore({ file: join(dir, 'events.sqlite3') });
  const reads = new SqliteReadStore(join(dir, 'read-models.sqlite3'), READ_STORAGE);
  const started = performance.now();
  const result = await rebuild(events, reads, (name === 'order-views' ? orderViews : fulfilmentQueue) as typeof orderViews);
  const seconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({ events: result.events, seconds, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
  await reads.close();
  await events.close();
  process.exit(0);
}

const dir = mkdtempSync(join(process.cwd(), '.bench-projections-'));
try {
  console.log(`generating ${fmt(ORDERS)} orders (${fmt(ORDERS * 4)} events) ...`);
  const events = new SqliteEventStore({ file: join(dir, 'events.sqlite3'), synchronous: 'normal' });
  const t0 = Date.UTC(2026, 0, 1);
  for (let base = 0; base < ORDERS; base += CHUNK) {
    const ids = Array.from({ length: Math.min(CHUNK, ORDERS - base) }, (_, i) => `bench-${String(base + i).padStart(7, '0')}`);
    // Each order's four events lie a chunk apart in the log, as they would in production.
    const phases: Array<(id: string, i: number) => OrderEvent> = [
      (orderId, i) => ({ type: 'OrderPlaced', schemaVersion: 2, data: { orderId, customerId: `cus_${i % 1000}`, currency: 'EUR', lines: [{ sku: 'SKU-1', name: 'Blue mug', quantity: 2, unitPrice: 1999, lineTotal: 3998 }], total: 3998, address, placedAt: new Date(t0 + (base + i) * 1000).toISOString() } }),
      (orderId, i) => ({ type: 'OrderAddressChanged', schemaVersion: 1, data: { orderId, address: { ...address, line1: `${i} Side St` }, changedAt: new Date(t0 + (base + i) * 1000 + 10).toISOString() } }),
      (orderId, i) => ({ type: 'PaymentRecorded', schemaVersion: 2, data: { orderId, paymentId: `pay-${orderId}`, amount: 3998, reference: 'psp', method: 'card', recordedAt: new Date(t0 + (base + i) * 1000 + 20).toISOString() } }),
      // Half the orders ship; the other half change address again and stay in the queue.
      (orderId, i) => i % 2 === 0
        ? { type: 'ShipmentCreated', schemaVersion: 2, data: { orderId, lines: null, shipmentId: `shp-${orderId}`, carrier: 'DHL', trackingNumber: `T${i}`, createdAt: new Date(t0 + (base + i) * 1000 + 30).toISOString() } }
        : { type: 'OrderAddressChanged', schemaVersion: 1, data: { orderId, address: { ...address, line1: `${i} Other St` }, changedAt: new Date(t0 + (base + i) * 1000 + 30).toISOString() } },
    ];
    for (const [phase, make] of phases.entries()) {
      await Promise.all(ids.map((id, i) => events.appendToStream(orderStream(id), [encodeOrderEvent(make(id, i), meta)], phase === 0 ? 'no_stream' : 'any')));
    }
  }
  const head = await events.headPosition();
  const total = head ? Number(BigInt('0x' + head.slice(16))) : 0;
  await events.close();
  console.log(`${fmt(total)} events written\n`);

  console.log('rebuild (child process, from an empty read store):');
  for (const name of ['order-views', 'fulfilment-queue']) {
    const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--rebuild', dir, name], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`rebuild child ended with ${child.status ?? child.signal}: ${child.stderr}`);
    const r = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { events: number; seconds: number; maxRssMb: number };
    const rate = r.events / r.seconds;
    console.log(`  ${name.padEnd(17)} ${fmt(r.events)} events in ${r.seconds.toFixed(1)} s = ${fmt(rate)} events/s, peak RSS ${r.maxRssMb.toFixed(0)} MB` +
      `  (targets: >= 50,000 events/s ${rate >= 50_000 ? 'met' : 'NOT met'}, < 300 MB ${r.maxRssMb < 300 ? 'met' : 'NOT met'})`);
  }

  console.log('\n20-item pages, GET /orders?status=paid&sort=-createdAt&limit=20 from a cursor at a random depth:');
  const reads = new SqliteReadStore(join(dir, 'page-bench.sqlite3'), READ_STORAGE);
  const views = reads.views('order-views', 1);
  const idle = new Consistency({ position: null, waitFor: async () => true }, 'collections', 0);
  const queries = new OrderQueries(reads, new CursorCodec('bench'), { orders: idle, queue: idle }, new OpenedViews(new PersonalData(new Keyring(new SqliteKeyStore(':memory:')))));
  const codec = new CursorCodec('bench');
  const sizes = [10_000, 100_000, 1_000_000];
  const p99s: number[] = [];
  let filled = 0;
  for (const size of sizes) {
    for (; filled < size; filled += 10_000) {
      const batch: Array<{ key: string; view: OrderView }> = [];
      for (let i = filled; i < filled + 10_000; i++) {
        const id = `page-${String(i).padStart(7, '0')}`;
        const at = new Date(t0 + i * 1000).toISOString();
        batch.push({ key: id, view: { id, customerId: `cus_${i % 1000}`, status: (['pending', 'paid', 'shipped', 'cancelled'] as const)[i % 4]!, currency: 'EUR', lines: [{ sku: 'SKU-1', name: 'Blue mug', quantity: 2, unitPrice: 1999, lineTotal: 3998, shipped: 0, cancelled: 0, returned: 0 }], total: 3998, balance: { charged: 3998, paid: 0, refunded: 0, due: 3998 }, address, createdAt: at, updatedAt: at, revision: 2 } });
      }
      await views.commit(batch, encodePosition(BigInt(filled + 1)));
    }
    const times: number[] = [];
    for (let s = 0; s < SAMPLES; s++) {
      const i = Math.floor(Math.random() * size);
      const cursor = codec.encode({ collection: 'orders', status: 'paid', sort: '-createdAt' }, { createdAt: new Date(t0 + i * 1000).toISOString(), id: `page-${String(i).padStart(7, '0')}` });
      const start = performance.now();
      await queries.listOrders({ sub: 'bench', scopes: new Set(), customerId: null }, { apiVersion: '2026-12-01', status: 'paid', sort: '-createdAt', limit: 20, cursor });
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
    p99s.push(p(0.99));
    console.log(`  ${fmt(size).padStart(9)} orders: p50 ${p(0.5).toFixed(3)} ms, p99 ${p(0.99).toFixed(3)} ms`);
  }
  const ratio = p99s[2]! / p99s[0]!;
  console.log(`  p99 at 1,000,000 / p99 at 10,000 = ${ratio.toFixed(2)} (target <= 2: ${ratio <= 2 ? 'met' : 'NOT met'})`);
  await reads.close();
} finally {
  if (!process.env.BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
}
