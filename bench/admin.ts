// npm run bench:admin: the administration app in Debian's headless Chromium against the service
// holding 100,000 orders. For each first screen, the home screen (#/, its figures and chart from
// GET /summary) and the orders list (#/orders, its first page of 20), prints the time from
// navigation to the screen drawn with its data, p50 and p90 of 10 first visits (each in a new
// browser context: nothing cached) and of 10 later visits (new tabs of one context: the hashed
// assets cached), beside the floor measured in the same run (Chromium's first paint of
// /health/live) and the load average; then where the time went, from the page's own timeline; and
// the size of the JavaScript the app ships, gzipped as the service sends it (targets: under 500 ms
// at p50, and under 200 kB). BENCH_ADMIN_SCREENS=orders (or home) measures one screen alone.
//
// The orders are written straight into the embedded event store before the service opens it (a
// quarter each pending, paid, shipped and cancelled), so that loading takes seconds, not the
// minutes 100,000 POSTs would; the service then projects them before it reports ready. They are
// written as a store in steady use holds them (see loadOrders), so that no background work of the
// service runs while the bench measures.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { signDevToken } from '../api/auth.js';
import { SqliteReadStore } from '../read-side/adapters/sqlite-read-store.js';
import { SqliteEventStore } from '../write-side/adapters/sqlite-event-store.js';
import { encodeOrderEvent, orderStream } from '../write-side/orders/codec.js';
import type { OrderEvent } from '../write-side/orders/types.js';
import { RECONCILER_CHECKPOINT } from '../workers/stock-reconciler.js';
import { address } from './http/fixtures.js';
import { startService, stopServer, type BenchServer } from './http/servers.js';
import { READ_STORAGE } from '../projections/registry.js';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
// A data directory kept between runs (loaded on the first, then only reopened), to compare changes
// without loading and projecting the orders each time; by default a fresh one, removed at the end.
const KEPT_DIR = process.env.BENCH_ADMIN_DATA_DIR;
const VISITS = 10;
const DAY_MS = 86_400_000;
const PAGE = 20;
const TARGET_MS = 500;
const TARGET_KB = 200;
const TOKEN_KEY = 'order-service.admin.token';

/**
 * The screens measured: where each is opened, the request that brings its data, and when it is
 * drawn with it (a test run in the page on every DOM change: the home screen's sales section is
 * drawn in the same render as its figures, from the same answer).
 */
const ALL_SCREENS = [
  { name: 'home screen', hash: '#/', data: '/summary', drawn: `document.querySelector('main .sales') !== null` },
  { name: 'orders list', hash: '#/orders', data: '/orders', drawn: `document.querySelectorAll('tbody tr').length >= ${PAGE}` },
] as const;
type Screen = (typeof ALL_SCREENS)[number];
// BENCH_ADMIN_SCREENS=orders measures the orders list alone (an app built before the home screen has none).
const SCREENS: readonly Screen[] = ALL_SCREENS.filter((screen) => !process.env.BENCH_ADMIN_SCREENS || process.env.BENCH_ADMIN_SCREENS.split(',').some((name) => screen.name.startsWith(name)));

/**
 * Writes `count` orders into the event store in `dir`, as a store in steady use holds them: placed
 * over the last day, so that none is due for the payment timeout (48 h), which would otherwise
 * cancel a quarter of them in the background while the bench measures; and with the stock
 * reconciler's checkpoint at the head, since these orders reserved no stock and their
 * cancellations and shipments have nothing to settle (else it would work through all 50,000).
 */
async function loadOrders(dir: string, count: number): Promise<void> {
  const meta = { principal: 'bench-admin', correlationId: 'bench-admin', causationId: null };
  const step = Math.floor(DAY_MS / count);
  const t0 = Date.now() - DAY_MS;
  const events = new SqliteEventStore({ file: join(dir, 'events.sqlite3'), synchronous: 'normal' });
  try {
    for (let base = 0; base < count; base += 10_000) {
      await Promise.all(
        Array.from({ length: Math.min(10_000, count - base) }, (_, k) => {
          const i = base + k;
          const orderId = randomUUID();
          const at = (seconds: number) => new Date(t0 + i * step + seconds * 1000).toISOString();
          const lifecycle: OrderEvent[] = [
            { type: 'OrderPlaced', schemaVersion: 2, data: { orderId, customerId: `cus_${i % 5000}`, currency: 'EUR', lines: [{ sku: `SKU-${i % 300}`, name: `Product ${i % 300}`, quantity: 1 + (i % 3), unitPrice: 1299, lineTotal: 1299 * (1 + (i % 3)) }], total: 1299 * (1 + (i % 3)), address, placedAt: at(0) } },
          ];
          if (i % 4 === 1 || i % 4 === 2) lifecycle.push({ type: 'PaymentRecorded', schemaVersion: 2, data: { orderId, paymentId: randomUUID(), amount: 1299 * (1 + (i % 3)), reference: `psp-${i}`, method: 'card', recordedAt: at(1) } });
          if (i % 4 === 2) lifecycle.push({ type: 'ShipmentCreated', schemaVersion: 2, data: { orderId, lines: null, shipmentId: randomUUID(), carrier: 'DHL', trackingNumber: `T${i}`, createdAt: at(2) } });
          if (i % 4 === 3) lifecycle.push({ type: 'OrderCancelled', schemaVersion: 1, data: { orderId, reason: null, cancelledAt: at(1) } });
          return events.appendToStream(orderStream(orderId), lifecycle.map((event) => encodeOrderEvent(event, meta)), 'no_stream');
        }),
      );
    }
    const head = await events.headPosition();
    const reads = new SqliteReadStore(join(dir, 'read-models.sqlite3'), READ_STORAGE);
    try {
      if (head) await reads.saveProcessCheckpoint(RECONCILER_CHECKPOINT, head);
    } finally {
      await reads.close();
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

// The bench compiles without the DOM's types: the members of a timing entry read here.
interface Entry {
  readonly name: string;
  readonly startTime: number;
  readonly requestStart: number;
  readonly responseStart: number;
  readonly responseEnd: number;
  readonly transferSize: number;
  readonly responseStatus?: number;
}
interface RawTimeline {
  readonly navigation: Entry[];
  readonly resources: Entry[];
  readonly paints: Entry[];
  readonly shell?: number;
  readonly rows?: number;
  readonly drawn?: number;
}

/** The page's own timeline: Navigation and Resource Timing, paint entries and the instants the init script noted. */
const rawTimeline = (page: Page): Promise<RawTimeline> =>
  // One anonymous function and no helper inside: it is sent to the page as it is compiled here.
  page.evaluate(() => {
    const g = globalThis as unknown as { performance: { getEntriesByType(type: string): unknown[] }; __shell?: number; __rows?: number; __drawn?: number };
    return JSON.parse(
      JSON.stringify({ navigation: g.performance.getEntriesByType('navigation'), resources: g.performance.getEntriesByType('resource'), paints: g.performance.getEntriesByType('paint'), shell: g.__shell, rows: g.__rows, drawn: g.__drawn }),
    ) as RawTimeline;
  });

/** Where a visit's time went, every instant in ms since navigation began; `data` is the path of the request that brings the screen's data. */
function timeline(raw: RawTimeline, data: string) {
  const nav = raw.navigation[0]!;
  const named = (pattern: RegExp) => raw.resources.find((entry) => pattern.test(new URL(entry.name).pathname));
  const span = (entry: Entry | undefined) =>
    entry
      ? { start: entry.startTime, sent: entry.requestStart, firstByte: entry.responseStart, end: entry.responseEnd, cached: entry.transferSize === 0, size: entry.transferSize, status: entry.responseStatus ?? 0 }
      : null;
  return {
    html: span(nav)!,
    js: span(named(/^\/admin\/assets\/.*\.js$/)),
    css: span(named(/^\/admin\/assets\/.*\.css$/)),
    shell: raw.shell ?? NaN,
    firstPaint: raw.paints.find((entry) => entry.name === 'first-contentful-paint')?.startTime ?? NaN,
    data: span(raw.resources.find((entry) => new URL(entry.name).pathname === data)),
    otherRequests: raw.resources.filter((entry) => { const path = new URL(entry.name).pathname; return path !== data && !path.startsWith('/admin/assets/'); }).map((entry) => new URL(entry.name).pathname),
    rows: raw.rows ?? NaN,
    drawn: raw.drawn ?? NaN,
  };
}
type Timeline = ReturnType<typeof timeline>;

function printPhases(first: Timeline[], later: Timeline[], data: string): void {
  const p50 = (visits: Timeline[], pick: (t: Timeline) => number | undefined) => {
    const values = visits.map(pick).filter((n): n is number => n !== undefined && Number.isFinite(n));
    return values.length === 0 ? NaN : percentile(values, 50);
  };
  const rows: Array<[string, (t: Timeline) => number | undefined]> = [
    ['HTML request sent', (t) => t.html.sent],
    ['HTML response end', (t) => t.html.end],
    ['JS fetch begins', (t) => t.js?.start],
    ['JS fetch ends', (t) => t.js?.end],
    ['CSS fetch ends', (t) => t.css?.end],
    [`GET ${data} begins`, (t) => t.data?.start],
    [`GET ${data} sent`, (t) => t.data?.sent],
    [`GET ${data} first byte`, (t) => t.data?.firstByte],
    [`GET ${data} ends`, (t) => t.data?.end],
    ['app drawn into the page (no data yet)', (t) => t.shell],
    ['first contentful paint', (t) => t.firstPaint],
    ['data in the DOM', (t) => t.rows],
    ['next frame after the data: DRAWN', (t) => t.drawn],
    [`  GET ${data}: sent → first byte (server)`, (t) => (t.data ? t.data.firstByte - t.data.sent : undefined)],
    [`  GET ${data}: begins → ends`, (t) => (t.data ? t.data.end - t.data.start : undefined)],
    [`  GET ${data} ends → data in the DOM`, (t) => (t.data ? t.rows - t.data.end : undefined)],
  ];
  const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '—');
  console.log(`where the time went: p50 of each instant, in ms since navigation began (indented: durations)`);
  console.log(`  ${''.padEnd(44)} ${'first'.padStart(7)}   ${'later'.padStart(7)}`);
  for (const [label, pick] of rows) console.log(`  ${label.padEnd(44)} ${fmt(p50(first, pick)).padStart(7)}   ${fmt(p50(later, pick)).padStart(7)}`);
  const how = (t: Timeline) =>
    [
      `HTML ${t.html.status} (${t.html.size} B transferred)`,
      `JS ${t.js ? (t.js.cached ? 'from cache' : `${t.js.status} (${t.js.size} B)`) : '—'}`,
      `CSS ${t.css ? (t.css.cached ? 'from cache' : `${t.css.status} (${t.css.size} B)`) : '—'}`,
      `other requests: ${t.otherRequests.join(' ') || 'none'}`,
    ].join(', ');
  console.log(`  a first visit fetched: ${how(first.at(-1)!)}`);
  console.log(`  a later visit fetched: ${how(later.at(-1)!)}`);
}

async function main(): Promise<void> {
  const secret = `bench-admin-${randomUUID()}-${randomUUID()}`;
  const dir = KEPT_DIR ?? mkdtempSync(join(process.cwd(), '.bench-admin-'));
  const loaded = KEPT_DIR !== undefined && existsSync(join(KEPT_DIR, 'events.sqlite3'));
  if (KEPT_DIR) mkdirSync(KEPT_DIR, { recursive: true });
  let service: BenchServer | null = null;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    let started = performance.now();
    if (loaded) console.log(`reopening the orders kept in ${dir}`);
    else {
      console.log(`loading ${ORDERS.toLocaleString('en-US')} orders into the embedded event store ...`);
      await loadOrders(dir, ORDERS);
      console.log(`  written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    started = performance.now();
    service = await startService(dir, secret, 600_000);
    await service.ready;
    console.log(`  service ready (projections caught up) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);

    // stock:read too: the home screen shows the products below their threshold, as staff sees it.
    const token = await signDevToken(secret, { sub: 'bench-admin', scope: 'orders:read orders:write payments:write shipments:write exports:write audit:read stock:read' }, 3600);
    // Signed in before any script of the page runs, and a clock on the screen's data: the instant
    // (since navigation began) of the first frame painted after it is all in the DOM.
    // It is told through the console: polling the page (waitForFunction) would inject Playwright's
    // own script and run it every frame while the page is still loading, on the measured path.
    // On /health/live, the floor, the instant of the first contentful paint is told the same way.
    const clock = `
      if (location.pathname === '/admin') {
        sessionStorage.setItem(${JSON.stringify(TOKEN_KEY)}, ${JSON.stringify(token)});
        // Written into the script as functions: the page's CSP allows no eval.
        const drawn = { ${SCREENS.map((screen) => `${JSON.stringify(screen.hash)}: () => ${screen.drawn}`).join(', ')} }[location.hash];
        new MutationObserver((_, observer) => {
          if (window.__shell === undefined && document.querySelector('#app > *')) window.__shell = performance.now();
          if (!drawn || !drawn()) return;
          observer.disconnect();
          window.__rows = performance.now();
          requestAnimationFrame(() => setTimeout(() => { window.__drawn = performance.now(); console.debug('bench:done ' + window.__drawn); }));
        }).observe(document, { childList: true, subtree: true });
      } else if (location.pathname === '/health/live') {
        new PerformanceObserver((list, observer) => {
          const paint = list.getEntriesByName('first-contentful-paint')[0];
          if (paint) { observer.disconnect(); console.debug('bench:done ' + paint.startTime); }
        }).observe({ type: 'paint', buffered: true });
      }`;
    const newContext = async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript(clock);
      return context;
    };
    /** Navigates a new tab of `context` to `path`; the instant the init script told, in ms since navigation began. */
    const open = async (context: BrowserContext, path: string) => {
      const page = await context.newPage();
      const done = page.waitForEvent('console', { predicate: (message) => message.text().startsWith('bench:done '), timeout: 30_000 });
      await page.goto(`${service!.url}${path}`);
      return { page, at: Number((await done).text().slice('bench:done '.length)) };
    };
    const visit = async (context: BrowserContext, screen: Screen) => {
      const { page, at } = await open(context, `/admin${screen.hash}`);
      const phases = timeline(await rawTimeline(page), screen.data);
      await page.close();
      return { drawn: at, phases };
    };
    // The floor: Chromium's own first paint of the smallest page the service serves (/health/live,
    // no script), on this machine at this moment. No page of the app can be drawn sooner.
    const floor = async (context: BrowserContext) => {
      const { page, at } = await open(context, '/health/live');
      await page.close();
      return at;
    };
    // A first visit: a new context, nothing cached. Later visits: new tabs of one context that has
    // the app's assets cached. The screens take turns within each round, and the floor is measured
    // once a round, in the later visits' context.
    type Visit = Awaited<ReturnType<typeof visit>>;
    const visits = SCREENS.map(() => ({ first: [] as Visit[], later: [] as Visit[] }));
    const floors: number[] = [];
    const warm = await newContext();
    for (const screen of SCREENS) await visit(warm, screen);
    for (let i = 0; i < VISITS; i++) {
      for (const [k, screen] of SCREENS.entries()) {
        const cold = await newContext();
        visits[k]!.first.push(await visit(cold, screen));
        await cold.close();
        visits[k]!.later.push(await visit(warm, screen));
      }
      floors.push(await floor(warm));
    }
    const js = shippedJavaScript();

    const ms = (n: number) => `${Math.round(n)} ms`;
    const within = (n: number) => `${n < TARGET_MS ? 'within' : 'OVER'} the ${TARGET_MS} ms target`;
    let over = false;
    console.log(`navigation → first screen drawn with its data, ${ORDERS.toLocaleString('en-US')} orders in the store (Chromium ${browser.version()}, ${VISITS} visits each):`);
    for (const [k, screen] of SCREENS.entries()) {
      const first = visits[k]!.first.map((v) => v.drawn);
      const later = visits[k]!.later.map((v) => v.drawn);
      over ||= percentile(first, 50) >= TARGET_MS || percentile(later, 50) >= TARGET_MS;
      console.log(`  ${screen.name} (${screen.hash}, GET ${screen.data}):`);
      console.log(`    first visits (nothing cached), p50 ${ms(percentile(first, 50)).padStart(8)}   p90 ${ms(percentile(first, 90)).padStart(7)}   ${within(percentile(first, 50))}`);
      console.log(`    later visits (assets cached), p50  ${ms(percentile(later, 50)).padStart(8)}   p90 ${ms(percentile(later, 90)).padStart(7)}   ${within(percentile(later, 50))}`);
    }
    console.log(`  floor: first paint of /health/live   ${ms(percentile(floors, 50)).padStart(8)}   p90 ${ms(percentile(floors, 90)).padStart(7)}   (the machine's own cost of a navigation now)`);
    for (const [k, screen] of SCREENS.entries()) {
      console.log(`${screen.name}:`);
      printPhases(visits[k]!.first.map((v) => v.phases), visits[k]!.later.map((v) => v.phases), screen.data);
    }
    console.log(`load average (1, 5, 15 min) at the end: ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
    console.log(`shipped JavaScript: ${js.files} file(s), ${(js.raw / 1024).toFixed(1)} kB, ${(js.gzipped / 1024).toFixed(1)} kB gzipped   ${js.gzipped / 1024 < TARGET_KB ? 'within' : 'OVER'} the ${TARGET_KB} kB target`);
    if (over || js.gzipped / 1024 >= TARGET_KB) process.exitCode = 1;
  } finally {
    await browser.close();
    if (service) await stopServer(service);
    if (!KEPT_DIR) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
