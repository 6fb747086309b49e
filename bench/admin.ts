// npm run bench:admin: the administration app in Debian's headless Chromium against the service
// holding 100,000 orders. Prints the time from navigation to the first page of orders drawn
// (the first visit, with nothing cached, and later visits with the hashed assets cached), and the
// size of the JavaScript the app ships, gzipped as the service sends it (targets: under 500 ms
// and under 200 kB).
//
// The orders are written straight into the embedded event store before the service opens it (a
// quarter each pending, paid, shipped and cancelled), so that loading takes seconds, not the
// minutes 100,000 POSTs would; the service then projects them before it reports ready.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { signDevToken } from '../api/auth.js';
import { SqliteEventStore } from '../write-side/adapters/sqlite-event-store.js';
import { encodeOrderEvent, orderStream } from '../write-side/orders/codec.js';
import type { OrderEvent } from '../write-side/orders/types.js';
import { address } from './http/fixtures.js';
import { startService, stopServer, type BenchServer } from './http/servers.js';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
const VISITS = 10;
const PAGE = 20;
const TARGET_MS = 500;
const TARGET_KB = 200;
const TOKEN_KEY = 'order-service.admin.token';

async function loadOrders(file: string, count: number): Promise<void> {
  const meta = { principal: 'bench-admin', correlationId: 'bench-admin', causationId: null };
  const t0 = Date.UTC(2026, 0, 1);
  const events = new SqliteEventStore({ file, synchronous: 'normal' });
  try {
    for (let base = 0; base < count; base += 10_000) {
      await Promise.all(
        Array.from({ length: Math.min(10_000, count - base) }, (_, k) => {
          const i = base + k;
          const orderId = randomUUID();
          const at = (seconds: number) => new Date(t0 + i * 1000 + seconds * 1000).toISOString();
          const lifecycle: OrderEvent[] = [
            { type: 'OrderPlaced', schemaVersion: 2, data: { orderId, customerId: `cus_${i % 5000}`, currency: 'EUR', lines: [{ sku: `SKU-${i % 300}`, name: `Product ${i % 300}`, quantity: 1 + (i % 3), unitPrice: 1299, lineTotal: 1299 * (1 + (i % 3)) }], total: 1299 * (1 + (i % 3)), address, placedAt: at(0) } },
          ];
          if (i % 4 === 1 || i % 4 === 2) lifecycle.push({ type: 'PaymentRecorded', schemaVersion: 2, data: { orderId, paymentId: randomUUID(), amount: 1299 * (1 + (i % 3)), reference: `psp-${i}`, method: 'card', recordedAt: at(1) } });
          if (i % 4 === 2) lifecycle.push({ type: 'ShipmentCreated', schemaVersion: 1, data: { orderId, shipmentId: randomUUID(), carrier: 'DHL', trackingNumber: `T${i}`, createdAt: at(2) } });
          if (i % 4 === 3) lifecycle.push({ type: 'OrderCancelled', schemaVersion: 1, data: { orderId, reason: null, cancelledAt: at(1) } });
          return events.appendToStream(orderStream(orderId), lifecycle.map((event) => encodeOrderEvent(event, meta)), 'no_stream');
        }),
      );
    }
  } finally {
    await events.close();
  }
}

function shippedJavaScript(): { files: number; raw: number; gzipped: number } {
  const dir = new URL('../admin/dist/assets/', import.meta.url);
  const scripts = readdirSync(dir).filter((name) => name.endsWith('.js'));
  const bytes = scripts.map((name) => readFileSync(new URL(name, dir)));
  return { files: scripts.length, raw: bytes.reduce((sum, b) => sum + b.length, 0), gzipped: bytes.reduce((sum, b) => sum + gzipSync(b, { level: 9 }).length, 0) };
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

async function main(): Promise<void> {
  const secret = `bench-admin-${randomUUID()}-${randomUUID()}`;
  const dir = mkdtempSync(join(process.cwd(), '.bench-admin-'));
  let service: BenchServer | null = null;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    console.log(`loading ${ORDERS.toLocaleString('en-US')} orders into the embedded event store ...`);
    let started = performance.now();
    await loadOrders(join(dir, 'events.sqlite3'), ORDERS);
    console.log(`  written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    started = performance.now();
    service = await startService(dir, secret, 600_000);
    await service.ready;
    console.log(`  service ready (projections caught up) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);

    const token = await signDevToken(secret, { sub: 'bench-admin', scope: 'orders:read orders:write payments:write shipments:write exports:write audit:read' }, 3600);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // Signed in before any script of the page runs, and a clock on the first page's rows: the
    // instant (since navigation began) of the first frame painted after they are all in the table.
    await context.addInitScript(`
      sessionStorage.setItem(${JSON.stringify(TOKEN_KEY)}, ${JSON.stringify(token)});
      new MutationObserver((_, observer) => {
        if (document.querySelectorAll('tbody tr').length < ${PAGE}) return;
        observer.disconnect();
        requestAnimationFrame(() => setTimeout(() => (window.__drawn = performance.now())));
      }).observe(document, { childList: true, subtree: true });`);
    const visit = async () => {
      const page = await context.newPage();
      await page.goto(`${service!.url}/admin#/orders`);
      // A function, not a string: the page's CSP forbids eval, which a string predicate would need.
      const drawn = (await (await page.waitForFunction(() => (globalThis as { __drawn?: number }).__drawn, null, { timeout: 30_000 })).jsonValue())!;
      await page.close();
      return drawn;
    };
    // The floor: Chromium's own first paint of the smallest page the service serves (/health/live,
    // no script), on this machine at this moment. No page of the app can be drawn sooner.
    const floor = async () => {
      const page = await context.newPage();
      await page.goto(`${service!.url}/health/live`);
      const painted = (await (await page.waitForFunction(() => (globalThis as unknown as { performance: { getEntriesByName(name: string): Array<{ startTime: number }> } }).performance.getEntriesByName('first-contentful-paint')[0]?.startTime, null, { timeout: 30_000 })).jsonValue())!;
      await page.close();
      return painted;
    };
    const first = await visit();
    const later: number[] = [];
    const floors: number[] = [];
    for (let i = 0; i < VISITS; i++) {
      later.push(await visit());
      floors.push(await floor());
    }
    const js = shippedJavaScript();

    const ms = (n: number) => `${Math.round(n)} ms`;
    console.log(`navigation → first page of ${PAGE} orders drawn, ${ORDERS.toLocaleString('en-US')} orders in the store (Chromium ${browser.version()}):`);
    console.log(`  first visit (nothing cached)       ${ms(first).padStart(8)}   ${first < TARGET_MS ? 'within' : 'OVER'} the ${TARGET_MS} ms target`);
    console.log(`  later visits (assets cached), p50  ${ms(percentile(later, 50)).padStart(8)}   p90 ${ms(percentile(later, 90))}   (${VISITS} visits)`);
    console.log(`  floor: first paint of /health/live, p50  ${ms(percentile(floors, 50)).padStart(8)}   p90 ${ms(percentile(floors, 90))}   (the machine's own cost of a navigation now)`);
    console.log(`shipped JavaScript: ${js.files} file(s), ${(js.raw / 1024).toFixed(1)} kB, ${(js.gzipped / 1024).toFixed(1)} kB gzipped   ${js.gzipped / 1024 < TARGET_KB ? 'within' : 'OVER'} the ${TARGET_KB} kB target`);
    if (first >= TARGET_MS || js.gzipped / 1024 >= TARGET_KB) process.exitCode = 1;
  } finally {
    await browser.close();
    if (service) await stopServer(service);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
