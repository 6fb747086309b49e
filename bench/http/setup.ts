// What the drivers of bench:http and bench:placement-ab do to the services they start, beside
// the orders load.ts writes: the catalogue with stock that placements buy from, the wait until a
// service's start-up work is done, and the settling after a run of writes.
import { randomUUID } from 'node:crypto';
import { serviceViewer } from '../../write-side/kernel/access.js';
import { SqliteEventStore } from '../../write-side/adapters/sqlite-event-store.js';
import { ProductService } from '../../write-side/catalogue/service.js';
import { encodeStockEvent, stockStream } from '../../write-side/stock/codec.js';
import { cpuMs } from '../support/cpu-time.js';
import type { BenchServer } from './servers.js';

/** The address every placement the benches send is for, as a client writes it (no null members). */
const ADDRESS = { name: 'Ada Lovelace', line1: '1 Main St', city: 'Berlin', postalCode: '10115', country: 'DE' };

/** A placement's body: these lines of the catalogue's products, each at BENCH_PRICE. */
export const placementBody = (lines: ReadonlyArray<{ readonly sku: string; readonly quantity: number }>): string =>
  JSON.stringify({ customerId: 'cus_42', currency: 'EUR', lines: lines.map((line) => ({ ...line, unitPrice: BENCH_PRICE })), address: ADDRESS });

/** bench:http's many-SKU placement: 1 to 3 lines, one unit each, of the catalogue's first `skus` products at random. */
export const manySkuPlacementBody = (skus: number): string =>
  placementBody(Array.from({ length: 1 + Math.floor(Math.random() * 3) }, () => ({ sku: benchSku(Math.floor(Math.random() * skus)), quantity: 1 })));

/** The stock reconciler's default orphan window (workers/stock-reconciler.ts): it does nothing before. */
export const RECONCILER_ORPHAN_WINDOW_MS = 30_000;

/**
 * Waits until `notBefore` (a performance.now() instant), then until each server has used under 5%
 * of a core over two seconds in a row (at most two minutes); how many seconds that took in all.
 */
export async function untilIdle(servers: readonly BenchServer[], notBefore: number): Promise<number> {
  const started = performance.now();
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  await sleep(Math.max(0, notBefore - started));
  let quiet = 0;
  while (quiet < 2 && performance.now() - started < 120_000) {
    const before = servers.map((server) => cpuMs(server.child.pid!));
    await sleep(1_000);
    const busy = servers.some((server, i) => cpuMs(server.child.pid!) - before[i]! > 50);
    quiet = busy ? 0 : quiet + 1;
  }
  return (performance.now() - started) / 1000;
}

export const BENCH_PRICE = 1999;
export const benchSku = (i: number) => `BENCH-${String(i).padStart(5, '0')}`;

/** Defines `count` active products at BENCH_PRICE through the write side's product service, each with ample stock received. */
export async function defineCatalogue(file: string, count: number): Promise<void> {
  const events = new SqliteEventStore({ file, synchronous: 'normal' });
  try {
    const products = new ProductService(events);
    const viewer = serviceViewer('bench');
    for (let base = 0; base < count; base += 500) {
      await Promise.all(
        Array.from({ length: Math.min(500, count - base) }, (_, k) =>
          products.put(viewer, benchSku(base + k), { name: `Bench product ${base + k}`, description: null, prices: { EUR: BENCH_PRICE, USD: BENCH_PRICE + 200 }, status: 'active' }, { correlationId: 'bench' }),
        ),
      );
    }
    // Ample stock for every product: every placement row buys from the catalogue (the hot row, its first product only).
    const meta = { principal: 'bench', correlationId: 'bench', causationId: null };
    for (let i = 0; i < count; i++) {
      const sku = benchSku(i);
      const received = { type: 'StockAdjusted' as const, schemaVersion: 1 as const, data: { sku, adjustmentId: randomUUID(), delta: 1_000_000_000, reason: 'received' as const, note: null, onHand: 1_000_000_000, reserved: 0, adjustedAt: new Date().toISOString() } };
      await events.appendToStream(stockStream(sku), [encodeStockEvent(received, meta)], 'no_stream');
    }
  } finally {
    await events.close();
  }
}

/** After a write run: one more write, then a collection read that waits for its Consistency-Token. */
export async function settle(url: string, auth: Record<string, string>, newOrder: string): Promise<void> {
  const placed = await fetch(`${url}/orders`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': randomUUID() }, body: newOrder });
  const position = placed.headers.get('consistency-token');
  await placed.arrayBuffer();
  if (!placed.ok || !position) throw new Error(`settling: POST /orders answered ${placed.status}`);
  for (let attempt = 0; attempt < 12; attempt++) {
    const read = await fetch(`${url}/orders?limit=1`, { headers: { ...auth, 'consistency-token': position } });
    await read.arrayBuffer();
    if (read.ok) return;
    if (read.status !== 503) throw new Error(`settling: GET /orders answered ${read.status}`);
  }
  throw new Error('settling: the projections did not catch up within a minute');
}

/** Switches the peer without catalogue and stock (without-stock.ts) to reserve nothing or to append each line's reservation blind. */
export async function peerReservations(peer: BenchServer, mode: 'none' | 'appended'): Promise<void> {
  const response = await fetch(`${peer.url}/bench-peer/reservations/${mode}`, { method: 'PUT' });
  if (response.status !== 204) throw new Error(`${peer.name}: reservations ${mode} answered ${response.status}`);
}
