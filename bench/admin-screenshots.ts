// npm run screenshots:admin: the home screen's screenshots in docs/screenshots/ (home-1280.png,
// home-390.png), taken in Debian's headless Chromium against a service holding a month of a small
// store's orders. The orders of the past 30 days are written straight into the embedded event store
// before the service opens it (the API records everything at the present time), in EUR and in USD,
// paid on the day they were placed, some refunded, some cancelled; the products with their
// low-stock thresholds, their stock and a return waiting to be received go through the API.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { signDevToken } from '../api/auth.js';
import { ROLE_SCOPES } from '../write-side/kernel/access.js';
import { SqliteEventStore } from '../write-side/adapters/sqlite-event-store.js';
import { encodeOrderEvent, orderStream } from '../write-side/orders/codec.js';
import type { OrderEvent } from '../write-side/orders/types.js';
import { address } from './http/fixtures.js';
import { startService, stopServer } from './http/servers.js';

const OUT = join(process.cwd(), 'docs/screenshots');
const DAY_MS = 86_400_000;
const TOKEN_KEY = 'order-service.admin.token';
const PRODUCTS = [
  { sku: 'MUG-BLUE', name: 'Blue mug', EUR: 1299, USD: 1399, threshold: 10, onHand: 4 },
  { sku: 'PLATE-WHITE', name: 'White plate', EUR: 899, USD: 999, threshold: 20, onHand: 12 },
  { sku: 'BOWL-GREEN', name: 'Green bowl', EUR: 699, USD: 799, threshold: 5, onHand: 40 },
] as const;

/** A month of orders, day by day: a few a day in EUR and fewer in USD, paid the same day; every seventh refunded in part, every ninth cancelled unpaid. */
async function loadMonth(dir: string): Promise<void> {
  const meta = { principal: 'screenshots', correlationId: 'screenshots', causationId: null };
  const events = new SqliteEventStore({ file: join(dir, 'events.sqlite3'), synchronous: 'normal' });
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  let n = 0;
  try {
    for (let daysAgo = 29; daysAgo >= 1; daysAgo--) {
      const perDay = 3 + ((daysAgo * 7) % 6) + (daysAgo % 7 < 2 ? 4 : 0);
      for (let k = 0; k < perDay; k++, n++) {
        const currency = k % 4 === 3 ? 'USD' : 'EUR';
        const product = PRODUCTS[n % PRODUCTS.length]!;
        const quantity = 1 + (n % 3);
        const total = product[currency] * quantity;
        const orderId = randomUUID();
        const at = (minutes: number) => new Date(today - daysAgo * DAY_MS + (8 * 60 + k * 40 + minutes) * 60_000).toISOString();
        const lifecycle: OrderEvent[] = [
          { type: 'OrderPlaced', schemaVersion: 2, data: { orderId, customerId: `cus_${n % 40}`, currency, lines: [{ sku: product.sku, name: product.name, quantity, unitPrice: product[currency], lineTotal: total }], total, address, placedAt: at(0) } },
        ];
        if (n % 9 === 8) lifecycle.push({ type: 'OrderCancelled', schemaVersion: 1, data: { orderId, reason: null, cancelledAt: at(30) } });
        else {
          lifecycle.push({ type: 'PaymentRecorded', schemaVersion: 2, data: { orderId, paymentId: randomUUID(), amount: total, reference: `psp-${n}`, method: 'card', recordedAt: at(5) } });
          lifecycle.push({ type: 'ShipmentCreated', schemaVersion: 2, data: { orderId, lines: null, shipmentId: randomUUID(), carrier: 'DHL', trackingNumber: `T${n}`, createdAt: at(25) } });
          if (n % 7 === 6) lifecycle.push({ type: 'RefundRecorded', schemaVersion: 1, data: { orderId, refundId: randomUUID(), amount: product[currency], reason: 'goodwill', note: null, recordedAt: at(26 * 60) } });
        }
        await events.appendToStream(orderStream(orderId), lifecycle.map((event) => encodeOrderEvent(event, meta)), 'no_stream');
      }
    }
  } finally {
    await events.close();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(process.cwd(), '.bench-screenshots-'));
  const secret = `screenshots-${randomUUID()}-${randomUUID()}`;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  let service: Awaited<ReturnType<typeof startService>> | null = null;
  try {
    await loadMonth(dir);
    service = await startService(dir, secret, 120_000);
    await service.ready;
    const token = await signDevToken(secret, { sub: 'admin@shop.example', scope: ROLE_SCOPES.admin.join(' ') }, 3600);
    const call = async (method: string, path: string, body?: unknown, keyed = false) => {
      const response = await fetch(service!.url + path, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...(keyed ? { 'Idempotency-Key': randomUUID() } : {}) },
        body: body === undefined ? null : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return (await response.json().catch(() => null)) as { id: string } | null;
    };
    for (const p of PRODUCTS) {
      await call('PUT', `/products/${p.sku}`, { name: p.name, prices: { EUR: p.EUR, USD: p.USD }, status: 'active', lowStockThreshold: p.threshold });
      await call('POST', `/stock/${p.sku}/adjustments`, { delta: p.onHand + 10, reason: 'received' }, true);
    }
    // Today: orders placed, two paid and one of them shipped and returned, the rest waiting.
    const placed: string[] = [];
    for (let i = 0; i < 5; i++) placed.push((await call('POST', '/orders', { customerId: `cus_${i}`, currency: 'EUR', lines: [{ sku: PRODUCTS[i % 3]!.sku, quantity: 1 + (i % 2) }], address }, true))!.id);
    const order = async (id: string) => (await fetch(`${service!.url}/orders/${id}`, { headers: { Authorization: `Bearer ${token}` } }).then((r) => r.json())) as { total: number; lines: Array<{ sku: string }> };
    for (const id of placed.slice(0, 3)) await call('POST', `/orders/${id}/payments`, { amount: (await order(id)).total, reference: `psp-${id.slice(0, 8)}` }, true);
    await call('POST', `/orders/${placed[0]}/shipments`, { carrier: 'DHL', trackingNumber: 'T-TODAY' }, true);
    await call('POST', `/orders/${placed[0]}/returns`, { lines: [{ sku: (await order(placed[0]!)).lines[0]!.sku, quantity: 1 }], reason: 'arrived chipped' }, true);
    // Units taken out again, so that two products are below their thresholds.
    for (const p of PRODUCTS) await call('POST', `/stock/${p.sku}/adjustments`, { delta: -10, reason: 'count' }, true);

    mkdirSync(OUT, { recursive: true });
    for (const [width, height] of [[1280, 900], [390, 844]] as const) {
      const context = await browser.newContext({ viewport: { width, height }, locale: 'en-GB', timezoneId: 'Europe/Berlin' });
      await context.addInitScript(`sessionStorage.setItem(${JSON.stringify(TOKEN_KEY)}, ${JSON.stringify(token)})`);
      const page = await context.newPage();
      await page.goto(`${service.url}/admin#/`);
      await page.locator('[data-figure="lowStock"] .value').waitFor();
      await page.locator('[data-currency="USD"] svg').waitFor();
      // The figures of today's writes: the returns' and the low stock's projections may follow a moment later.
      await page.locator('[data-figure="returnsAwaitingReceipt"] .value', { hasText: '1' }).waitFor({ timeout: 30_000 });
      await page.locator('[data-figure="lowStock"] .value', { hasText: '2' }).waitFor({ timeout: 30_000 });
      const file = join(OUT, `home-${width}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(`wrote ${file}`);
      await context.close();
    }
  } finally {
    await browser.close();
    if (service) await stopServer(service);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
