// npm run bench:reconciler: what the stock reconciler costs the thread that serves requests, per
// placement it looks over. It runs in the API's process (the `all` and `worker` roles), 30 s behind
// the head of the log, every 5 s, over every reservation and order event since its checkpoint.
//
// BENCH_ORDERS (default 20,000) placements of 1 to 3 lines over bench:http's 1,000 SKUs are made
// through the write side's order service on an embedded store; then one reconciler pass, its clock
// 31 s on, handles all of them, as it would once they fell due under a steady load. Printed: the
// pass's wall and CPU time per placement, how many streams it read, and the longest stretches in
// which the event loop ran nothing else meanwhile (what a request arriving then would wait).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteReadStore } from '../read-side/adapters/sqlite-read-store.js';
import { serviceViewer } from '../write-side/kernel/access.js';
import { SqliteEventStore } from '../write-side/adapters/sqlite-event-store.js';
import type { EventStore } from '../write-side/kernel/event-store.js';
import { OrderService } from '../write-side/orders/service.js';
import { StockService } from '../write-side/stock/service.js';
import { StockReconciler } from '../workers/stock-reconciler.js';
import { benchSku, defineCatalogue } from './http/setup.js';
import { READ_STORAGE } from '../projections/registry.js';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 20_000);
const PRODUCTS = 1_000;
const CONCURRENCY = 50;
const address = { name: 'Ada', line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' };
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

// Under the working directory, not /tmp: a tmpfs would make every flush free.
const dir = mkdtempSync(join(process.cwd(), '.bench-reconciler-'));
try {
  const file = join(dir, 'events.sqlite3');
  await defineCatalogue(file, PRODUCTS);
  const store = new SqliteEventStore({ file, synchronous: 'normal' });
  const readModels = new SqliteReadStore(join(dir, 'read-models.sqlite3'), READ_STORAGE);
  const stock = new StockService(store);
  const buyer = serviceViewer(`buyer-${randomUUID()}`);
  const placing = new OrderService(store, { reservations: stock });
  const started = performance.now();
  let placed = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (placed < ORDERS) {
        const key = `order-${placed++}`;
        const lines = Array.from({ length: 1 + Math.floor(Math.random() * 3) }, () => ({ sku: benchSku(Math.floor(Math.random() * PRODUCTS)), quantity: 1 }));
        await placing.place(buyer, { customerId: 'cus_42', currency: 'EUR', lines, address }, { correlationId: 'bench', idempotency: { key, fingerprint: key } });
      }
    }),
  );
  console.log(`placed ${fmt(ORDERS)} orders of 1-3 lines over ${fmt(PRODUCTS)} SKUs in ${fmt((performance.now() - started) / 1000, 1)} s`);

  // The reconciler's own services, as the service gives it (nothing of the placements kept), over a store that counts its reads.
  let reads = 0;
  const counted = new Proxy<EventStore>(store, {
    get(target, name) {
      if (name === 'readStream') return (...args: Parameters<EventStore['readStream']>) => (reads++, target.readStream(...args));
      const value: unknown = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const reservations = new StockService(counted);
  const reconciler = new StockReconciler(counted, readModels, new OrderService(counted, { reservations }), reservations, {
    clock: () => new Date(Date.now() + 31_000),
    startedAt: new Date(Date.now() - 60_000),
  });
  // A timer every millisecond: the gaps between its runs are how long the loop could not run anything else.
  let last = performance.now();
  const gaps: number[] = [];
  const ticker = setInterval(() => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
  }, 1);
  await new Promise((resolve) => setTimeout(resolve, 5));
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const handled = await reconciler.runOnce();
  const ms = performance.now() - wall;
  const used = process.cpuUsage(cpu);
  // A pass that never let the loop turn shows here: the timer runs, late, only now.
  await new Promise((resolve) => setTimeout(resolve, 5));
  clearInterval(ticker);
  console.log(`one reconciler pass over ${fmt(handled)} events (${fmt(ORDERS)} placements):`);
  console.log(`  wall ${fmt(ms)} ms, CPU ${fmt((used.user + used.system) / 1000)} ms: ${fmt(((used.user + used.system) / ORDERS), 1)} µs of CPU per placement`);
  console.log(`  stream reads: ${fmt(reads)} (${fmt(reads / ORDERS, 2)} per placement)`);
  gaps.sort((a, b) => b - a);
  console.log(`  the event loop meanwhile: longest time it ran nothing else ${fmt(gaps[0] ?? 0, 1)} ms, next ${fmt(gaps[1] ?? 0, 1)} ms; ${gaps.filter((gap) => gap > 10).length} stretches over 10 ms`);
  await reservations.idle();
  await stock.idle();
  await readModels.close();
  await store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
