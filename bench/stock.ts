// npm run bench:stock: placing an order for a SKU whose stock stream holds 1,000,000 past events,
// against placing one for a fresh SKU, in the same run, through the write side's order service
// (durable commits). Three figures:
// - the SKU's first fold without a snapshot, once (the stream written before the service ever
//   snapshotted it): it reads every event, and leaves a snapshot behind;
// - the first placement after a restart (a new store connection and new services: nothing folded
//   yet), on the long SKU and on the fresh one, several restarts each: the long SKU starts from
//   its snapshot and reads only the events after it;
// - warm placements, one at a time: the fold is kept with the store's change stamp.
// Then a hot SKU's other growth: a SKU holding BENCH_LIVE (default 100,000) live reservations (as
// many orders pending or paid, not yet shipped), against the fresh SKU: warm placements, one at a
// time, wall and CPU time each. Its state keeps them all; a new reservation must not cost more.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteEventStore } from '../write-side/adapters/sqlite-event-store.js';
import { serviceViewer } from '../write-side/kernel/access.js';
import type { NewEvent } from '../write-side/kernel/event-store.js';
import { OrderService } from '../write-side/orders/service.js';
import { ProductService } from '../write-side/catalogue/service.js';
import { STOCK_SNAPSHOT_EVERY, StockService } from '../write-side/stock/service.js';
import { encodeStockEvent, stockStream } from '../write-side/stock/codec.js';
import type { StockEvent } from '../write-side/stock/types.js';
import { stockSnapshotStream } from '../write-side/stock/snapshot.js';

const PAST = Number(process.env.BENCH_PAST_EVENTS ?? 1_000_000);
const PLACEMENTS = Number(process.env.BENCH_PLACEMENTS ?? 2000);
const LIVE = Number(process.env.BENCH_LIVE ?? 100_000);
const address = { name: 'Ada', line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' };

// Under the working directory, not /tmp: a tmpfs would make every flush free.
const dir = mkdtempSync(join(process.cwd(), '.bench-stock-'));
const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

const RESTARTS = Number(process.env.BENCH_RESTARTS ?? 9);
/**
 * Events appended after the snapshot, as sales since it would, and as many as there can be before
 * the next one is due (the worst case): a cold fold reads them too.
 */
const SINCE_SNAPSHOT = STOCK_SNAPSHOT_EVERY - 1;
const mean = (times: number[]) => times.reduce((a, b) => a + b, 0) / times.length;
const median = (times: number[]) => percentile([...times].sort((a, b) => a - b), 0.5);

try {
  const file = join(dir, 'events.sqlite3');
  let store = new SqliteEventStore({ file });
  const long = 'LONG-1';
  const fresh = 'FRESH-1';
  const started = performance.now();
  // The long SKU's history: units received one by one, as many small deliveries would record them.
  const metadata = { correlationId: 'bench', causationId: null, principal: 'bench' };
  /** `count` events appended to the SKU's stream from revision `from` on, a thousand a commit; `event` makes the one at each revision. */
  const appendMany = async (sku: string, count: number, from: number, event: (revision: number) => StockEvent) => {
    for (let written = from; written < from + count; ) {
      const batch: NewEvent[] = [];
      for (let i = 0; i < 1000 && written < from + count; i++, written++) batch.push(encodeStockEvent(event(written), metadata));
      await store.appendToStream(stockStream(sku), batch, written - batch.length - 1 < 0 ? 'no_stream' : written - batch.length - 1);
    }
  };
  const receive = (count: number, from: number) =>
    appendMany(long, count, from, (revision) => ({ type: 'StockAdjusted', schemaVersion: 1, data: { sku: long, adjustmentId: randomUUID(), delta: 1, reason: 'received', note: null, onHand: revision + 1, reserved: 0, adjustedAt: new Date().toISOString() } }));
  await receive(PAST - SINCE_SNAPSHOT, 0);
  console.log(`wrote ${(PAST - SINCE_SNAPSHOT).toLocaleString('en-US')} past events on ${stockStream(long)} in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const staff = serviceViewer('bench');
  const buyer = serviceViewer(`buyer-${randomUUID()}`);
  const open = () => {
    const stock = new StockService(store);
    return { stock, orders: new OrderService(store, { reservations: stock }) };
  };
  let services = open();
  for (const sku of [long, fresh]) {
    await new ProductService(store).put(staff, sku, { name: sku, description: null, prices: { EUR: 100 }, status: 'active' }, { correlationId: 'bench' });
  }
  await services.stock.adjust(staff, fresh, { delta: PLACEMENTS + RESTARTS + 10, reason: 'received', note: null }, { correlationId: 'bench', idempotency: { key: 'fresh', fingerprint: 'fresh' } });
  let placed = 0;
  const place = async (sku: string) => {
    const i = placed++;
    const t = performance.now();
    await services.orders.place(buyer, { customerId: 'cus_1', currency: 'EUR', lines: [{ sku, quantity: 1, unitPrice: 100 }], address }, { correlationId: 'bench', idempotency: { key: `${sku}-${i}`, fingerprint: `${sku}-${i}` } });
    return performance.now() - t;
  };
  const restart = async () => {
    await services.stock.idle();
    await store.close();
    store = new SqliteEventStore({ file });
    services = open();
  };

  const before = process.cpuUsage();
  const unsnapshotted = await place(long);
  const unsnapshottedCpu = process.cpuUsage(before);
  await services.stock.idle();
  console.log(`first placement on the long SKU with no snapshot yet (once: it folds all ${(PAST - SINCE_SNAPSHOT).toLocaleString('en-US')} events, and snapshots them): ${unsnapshotted.toFixed(0)} ms (CPU ${((unsnapshottedCpu.user + unsnapshottedCpu.system) / 1000).toFixed(0)} ms)`);
  /** Sales since the last snapshot, up to SINCE_SNAPSHOT: every cold fold reads the longest tail there can be. */
  const topUp = async () => {
    const snapshot = Number((await store.readLastEvent(stockSnapshotStream(long)))!.data.revision);
    const head = (await store.readLastEvent(stockStream(long)))!.revision;
    await receive(snapshot + SINCE_SNAPSHOT - head, head + 1);
  };
  await topUp();

  // Beside the wall time, the process's CPU time (both threads): on a shared machine the wall time
  // mostly measures the other processes.
  const cold: Record<'long' | 'fresh', number[]> = { long: [], fresh: [] };
  const coldCpu: Record<'long' | 'fresh', number[]> = { long: [], fresh: [] };
  for (let r = 0; r < RESTARTS; r++) {
    // Alternated, so that neither SKU is always the first of a run of restarts.
    for (const which of r % 2 === 0 ? (['long', 'fresh'] as const) : (['fresh', 'long'] as const)) {
      if (which === 'long') await topUp();
      await restart();
      const cpu = process.cpuUsage();
      cold[which].push(await place(which === 'long' ? long : fresh));
      const used = process.cpuUsage(cpu);
      coldCpu[which].push((used.user + used.system) / 1000);
    }
  }
  const pastNow = (await store.readLastEvent(stockStream(long)))!.revision + 1;
  console.log(`\nfirst placement after a restart (new store connection, new services; OS page cache warm), ${RESTARTS} restarts each;`);
  console.log(`the long SKU's last snapshot ${SINCE_SNAPSHOT} events behind its head each time, the most there can be (ms):`);
  console.log('| SKU | median | min | max | CPU median | CPU max |');
  console.log('|---|---|---|---|---|---|');
  for (const [name, which] of [['fresh SKU', 'fresh'], [`SKU with ${pastNow.toLocaleString('en-US')} past events (from its snapshot)`, 'long']] as const) {
    const [times, cpu] = [cold[which], coldCpu[which]];
    console.log(`| ${name} | ${median(times).toFixed(2)} | ${Math.min(...times).toFixed(2)} | ${Math.max(...times).toFixed(2)} | ${median(cpu).toFixed(2)} | ${Math.max(...cpu).toFixed(2)} |`);
  }
  console.log(`long / fresh median: ${(median(cold.long) / median(cold.fresh)).toFixed(2)} wall, ${(median(coldCpu.long) / median(coldCpu.fresh)).toFixed(2)} CPU`);

  /** PLACEMENTS warm placements on each SKU, one at a time, printed as a table: wall times (sorted) and the process's CPU (both threads), in ms. */
  const warm = async (skus: ReadonlyArray<readonly [name: string, sku: string]>) => {
    const rows: Array<{ name: string; times: number[]; cpu: number[] }> = [];
    for (const [name, sku] of skus) {
      const times: number[] = [];
      const cpu: number[] = [];
      for (let i = 0; i < PLACEMENTS; i++) {
        const used = process.cpuUsage();
        times.push(await place(sku));
        const { user, system } = process.cpuUsage(used);
        cpu.push((user + system) / 1000);
      }
      rows.push({ name, times: times.sort((a, b) => a - b), cpu });
    }
    console.log(`\nwarm: ${PLACEMENTS} placements of one line each, one at a time (ms; CPU of the process, both threads):`);
    console.log('| SKU | mean | p50 | p99 | CPU mean |');
    console.log('|---|---|---|---|---|');
    for (const { name, times, cpu } of rows) {
      console.log(`| ${name} | ${mean(times).toFixed(2)} | ${percentile(times, 0.5).toFixed(2)} | ${percentile(times, 0.99).toFixed(2)} | ${mean(cpu).toFixed(3)} |`);
    }
    return rows as [(typeof rows)[number], (typeof rows)[number]];
  };

  const [freshRun, longRun] = await warm([['fresh SKU', fresh], [`SKU with ${pastNow.toLocaleString('en-US')} past events`, long]]);
  console.log(`\nlong / fresh mean: ${(mean(longRun.times) / mean(freshRun.times)).toFixed(2)} (target: no more than the fresh SKU's, within noise)`);
  const levels = await services.stock.get(staff, long);
  console.log(`long SKU afterwards: onHand ${levels?.onHand}, reserved ${levels?.reserved}`);

  // A SKU that many pending orders hold: received once, then LIVE reservations, each its own order's.
  const busy = 'BUSY-1';
  const quiet = 'FRESH-2';
  for (const sku of [busy, quiet]) await new ProductService(store).put(staff, sku, { name: sku, description: null, prices: { EUR: 100 }, status: 'active' }, { correlationId: 'bench' });
  await services.stock.adjust(staff, quiet, { delta: PLACEMENTS, reason: 'received', note: null }, { correlationId: 'bench', idempotency: { key: 'quiet', fingerprint: 'quiet' } });
  const stocked = encodeStockEvent({ type: 'StockAdjusted', schemaVersion: 1, data: { sku: busy, adjustmentId: randomUUID(), delta: 10 * (LIVE + PLACEMENTS), reason: 'received', note: null, onHand: 10 * (LIVE + PLACEMENTS), reserved: 0, adjustedAt: new Date().toISOString() } }, metadata);
  await store.appendToStream(stockStream(busy), [stocked], 'no_stream');
  await appendMany(busy, LIVE, 1, () => ({ type: 'StockReserved', schemaVersion: 1, data: { sku: busy, orderId: randomUUID(), quantity: 1, reservedAt: new Date().toISOString() } }));
  await place(busy); // its one fold of the whole stream, kept from here on
  const [quietRun, busyRun] = await warm([['fresh SKU', quiet], [`SKU holding ${LIVE.toLocaleString('en-US')} live reservations`, busy]]);
  console.log(`\nheld / fresh: mean ${(mean(busyRun.times) / mean(quietRun.times)).toFixed(2)} wall, ${(mean(busyRun.cpu) / mean(quietRun.cpu)).toFixed(2)} CPU (target: no more than the fresh SKU's, within noise)`);
  await services.stock.idle();
  await store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
