// npm run bench:stock: placing an order for a SKU whose stock stream holds 1,000,000 past events,
// against placing one for a fresh SKU, in the same run, through the write side's order service
// (durable commits). The SKU's folded state is kept between placements with the store's change
// stamp: the first placement on the long stream folds it once (reported apart), the others read
// only what was appended since. Placements run one at a time, so the latencies are the service's.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteEventStore } from '../write-side/adapters/sqlite-event-store.js';
import { serviceViewer } from '../write-side/access.js';
import type { NewEvent } from '../write-side/event-store.js';
import { OrderService } from '../write-side/order-service.js';
import { StockService } from '../write-side/stock-service.js';
import { encodeStockEvent, stockStream } from '../write-side/stock/codec.js';

const PAST = Number(process.env.BENCH_PAST_EVENTS ?? 1_000_000);
const PLACEMENTS = Number(process.env.BENCH_PLACEMENTS ?? 2000);
const address = { name: 'Ada', line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' };

// Under the working directory, not /tmp: a tmpfs would make every flush free.
const dir = mkdtempSync(join(process.cwd(), '.bench-stock-'));
const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

try {
  const store = new SqliteEventStore({ file: join(dir, 'events.sqlite3') });
  const long = 'LONG-1';
  const fresh = 'FRESH-1';
  const started = performance.now();
  // The long SKU's history: units received one by one, as many small deliveries would record them.
  const metadata = { correlationId: 'bench', causationId: null, principal: 'bench' };
  for (let written = 0; written < PAST; ) {
    const batch: NewEvent[] = [];
    for (let i = 0; i < 1000 && written < PAST; i++, written++) {
      batch.push(encodeStockEvent({ type: 'StockAdjusted', schemaVersion: 1, data: { sku: long, adjustmentId: randomUUID(), delta: 1, reason: 'received', note: null, onHand: written + 1, reserved: 0, adjustedAt: new Date().toISOString() } }, metadata));
    }
    await store.appendToStream(stockStream(long), batch, written - batch.length - 1 < 0 ? 'no_stream' : written - batch.length - 1);
  }
  console.log(`wrote ${PAST.toLocaleString('en-US')} past events on ${stockStream(long)} in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const stock = new StockService(store);
  const orders = new OrderService(store, { reservations: stock });
  const staff = serviceViewer('bench');
  await stock.adjust(staff, fresh, { delta: PLACEMENTS + 10, reason: 'received', note: null }, { correlationId: 'bench', idempotency: { key: 'fresh', fingerprint: 'fresh' } });

  const buyer = serviceViewer(`buyer-${randomUUID()}`);
  const place = async (sku: string, i: number) => {
    const t = performance.now();
    await orders.place(buyer, { customerId: 'cus_1', currency: 'EUR', lines: [{ sku, quantity: 1, unitPrice: 100 }], address }, { correlationId: 'bench', idempotency: { key: `${sku}-${i}`, fingerprint: `${sku}-${i}` } });
    return performance.now() - t;
  };
  const first = await place(long, -1);
  console.log(`first placement on the long SKU (folds its ${PAST.toLocaleString('en-US')} events once): ${first.toFixed(0)} ms`);

  const rows: Array<[string, number[]]> = [];
  for (const [name, sku] of [['fresh SKU', fresh], [`SKU with ${PAST.toLocaleString('en-US')} past events`, long]] as const) {
    const times: number[] = [];
    for (let i = 0; i < PLACEMENTS; i++) times.push(await place(sku, i));
    rows.push([name, times.sort((a, b) => a - b)]);
  }
  console.log(`\n${PLACEMENTS} placements of one line each, one at a time (ms):`);
  console.log('| SKU | mean | p50 | p99 |');
  console.log('|---|---|---|---|');
  for (const [name, times] of rows) {
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    console.log(`| ${name} | ${mean.toFixed(2)} | ${percentile(times, 0.5).toFixed(2)} | ${percentile(times, 0.99).toFixed(2)} |`);
  }
  const [freshMean, longMean] = rows.map(([, t]) => t.reduce((a, b) => a + b, 0) / t.length) as [number, number];
  console.log(`\nlong / fresh mean: ${(longMean / freshMean).toFixed(2)} (target: no more than the fresh SKU's, within noise)`);
  const levels = await stock.get(staff, long);
  console.log(`long SKU afterwards: onHand ${levels?.onHand}, reserved ${levels?.reserved}`);
  await store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
