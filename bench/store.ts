// npm run bench:store: the embedded event store with durable commits (synchronous=FULL),
// beside raw better-sqlite3 inserting the same rows in one transaction, in the same run. Then
// single-order reads through the write side's order service: the first read of each order
// (from the store) is the baseline for reading them all again while they are kept, and for
// reading more orders than the kept budget holds (every read then drops the least recent).
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteEventStore } from '../write-side/adapters/sqlite-event-store.js';
import type { NewEvent } from '../write-side/kernel/event-store.js';
import { serviceViewer } from '../write-side/kernel/access.js';
import { OrderService } from '../write-side/orders/service.js';
import { encodeOrderEvent, orderStream } from '../write-side/orders/codec.js';

const WRITERS = 64;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const READS = 20_000;
const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);

// Under the working directory, not /tmp: a tmpfs would make every flush free.
const dir = mkdtempSync(join(process.cwd(), '.bench-store-'));
const event: NewEvent = {
  type: 'OrderPlaced',
  data: { orderId: 'x', customerId: 'cus_42', currency: 'EUR', total: 3998, lines: [{ sku: 'SKU-1', quantity: 2, unitPrice: 1999, lineTotal: 3998 }] },
  metadata: { schemaVersion: 1, correlationId: 'bench', causationId: null, principal: 'bench' },
};

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function concurrentAppends(store: SqliteEventStore, writers: number, seconds: number) {
  const deadline = performance.now() + seconds * 1000;
  let appends = 0;
  const statsBefore = { ...store.stats };
  const start = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; performance.now() < deadline; i++) {
        await store.appendToStream(`order-w${writers}-${w}-${i}`, [event], 'no_stream');
        appends++;
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  const commits = store.stats.commits - statsBefore.commits;
  return { appends, rate: appends / elapsed, perCommit: appends / commits };
}

function rawInsertRate(rows: number): number {
  const db = new Database(join(dir, 'raw.sqlite3'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(`CREATE TABLE events (position INTEGER PRIMARY KEY, stream TEXT NOT NULL, revision INTEGER NOT NULL,
    type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, recorded_at INTEGER NOT NULL, UNIQUE (stream, revision)) STRICT`);
  const insert = db.prepare('INSERT INTO events (stream, revision, type, data, metadata, recorded_at) VALUES (?, 0, ?, ?, ?, ?)');
  const data = JSON.stringify(event.data);
  const metadata = JSON.stringify(event.metadata);
  const start = performance.now();
  db.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run(`order-raw-${i}`, event.type, data, metadata, Date.now());
  })();
  const rate = rows / ((performance.now() - start) / 1000);
  db.close();
  return rate;
}

async function readLatency(store: SqliteEventStore) {
  const streams = 1000;
  await Promise.all(
    Array.from({ length: streams }, (_, s) => store.appendToStream(`order-read-${s}`, Array(10).fill(event), 'no_stream')),
  );
  const times: number[] = [];
  for (let i = 0; i < READS; i++) {
    const start = performance.now();
    const events = await store.readStream(`order-read-${i % streams}`);
    times.push(performance.now() - start);
    if (events.length !== 10) throw new Error('short read');
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

/** CPU µs per order read through the order service: a first pass, then two more passes. */
async function foldedReads(store: SqliteEventStore, ids: readonly string[], foldedBudget: number) {
  const service = new OrderService(store, { foldedBudget });
  const pass = async () => {
    const started = process.cpuUsage();
    for (const id of ids) if (!(await service.get(serviceViewer('bench'), id))) throw new Error(`order ${id} not found`);
    const used = process.cpuUsage(started);
    return (used.user + used.system) / ids.length;
  };
  const first = await pass();
  const again = [await pass(), await pass()];
  return { first, again: Math.max(...again), kept: service.foldedKept };
}

async function placeOrders(store: SqliteEventStore, count: number): Promise<string[]> {
  const meta = { principal: 'bench', correlationId: 'bench', causationId: null };
  const address = { name: 'Ada Lovelace', line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' };
  const ids = Array.from({ length: count }, () => randomUUID());
  for (let base = 0; base < count; base += 10_000) {
    await Promise.all(
      ids.slice(base, base + 10_000).map((orderId) => {
        const lines = [{ sku: 'SKU-1', name: 'Blue mug', quantity: 2, unitPrice: 1999, lineTotal: 3998 }];
        const data = { orderId, customerId: 'cus_42', currency: 'EUR', lines, total: 3998, address, placedAt: new Date().toISOString() };
        return store.appendToStream(orderStream(orderId), [encodeOrderEvent({ type: 'OrderPlaced', schemaVersion: 2, data }, meta)], 'no_stream');
      }),
    );
  }
  return ids;
}

try {
  const store = new SqliteEventStore({ file: join(dir, 'events.sqlite3') });
  if ((await store.durability()).synchronous !== 'full') throw new Error('benchmark needs synchronous=FULL');
  const one = await concurrentAppends(store, 1, Math.min(2, SECONDS));
  const many = await concurrentAppends(store, WRITERS, SECONDS);
  const raw = rawInsertRate(many.appends);
  const reads = await readLatency(store);
  const ids = await placeOrders(store, ORDERS);
  // One-line orders weigh 2 units each: 2 × ORDERS keeps them all, ORDERS keeps half.
  const allKept = await foldedReads(store, ids, 2 * ORDERS);
  const halfKept = await foldedReads(store, ids, ORDERS);
  await store.close();

  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  console.log(`embedded event store, synchronous=FULL, WAL, ${SECONDS}s per run`);
  console.log(`  1 writer  (one commit per append): ${fmt(one.rate)} appends/s`);
  console.log(`  ${WRITERS} writers (group commit):         ${fmt(many.rate)} appends/s, ${many.perCommit.toFixed(1)} appends per commit`);
  console.log(`  raw better-sqlite3, same ${fmt(many.appends)} rows in one transaction: ${fmt(raw)} rows/s`);
  console.log(`  group commit reaches ${((many.rate / raw) * 100).toFixed(1)}% of the raw single-transaction rate`);
  console.log(`  read a 10-event stream (${fmt(READS)} reads): p50 ${reads.p50.toFixed(3)} ms, p99 ${reads.p99.toFixed(3)} ms`);
  console.log(`  target >= 20,000 durable appends/s: ${many.rate >= 20_000 ? 'met' : 'NOT met'}`);
  const keptRatio = allKept.again / allKept.first;
  const overRatio = halfKept.again / halfKept.first;
  console.log(`\norder reads through the order service, ${fmt(ORDERS)} one-line orders, CPU µs per read (worst of two passes after the first)`);
  console.log(`  all kept (budget ${fmt(2 * ORDERS)}): first read ${allKept.first.toFixed(1)}, again ${allKept.again.toFixed(1)} (${(keptRatio * 100).toFixed(0)}% of the first); kept ${fmt(allKept.kept.orders)} orders`);
  console.log(`  half kept (budget ${fmt(ORDERS)}): first read ${halfKept.first.toFixed(1)}, again ${halfKept.again.toFixed(1)} (${(overRatio * 100).toFixed(0)}% of the first); kept ${fmt(halfKept.kept.orders)} orders`);
  console.log(`  target: a kept order reads in < 25% of a first read: ${keptRatio < 0.25 ? 'met' : 'NOT met'}`);
  console.log(`  target: beyond the budget a read costs < 150% of a first read: ${overRatio < 1.5 ? 'met' : 'NOT met'}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
