// npm run bench:scale: how the service behaves when a shop has been open for years (issue 36), on
// the embedded default. One data folder grows through the sizes: preload up to the first size,
// measure, preload more up to the next, measure, and so on. At each size:
//  - the preload: the events the service writes (products with stock received, customers with
//    sealed personal data, orders of 1 to 3 lines over 10,000 SKUs with each line's StockReserved,
//    half of them paid and a quarter shipped, each with its idempotency key; the unpaid half
//    cancelled by the payment timeout once past it, as the service's own timeout cancels them),
//    appended straight through the event-store port in large group commits, not through HTTP;
//  - the service started on it: time from spawn to /health/ready (catching up the new events),
//    then started again with nothing new (start-up on existing data, no rebuild);
//  - on that second process: resident memory at rest, then placement, single read and the walk
//    down the paid orders under load (autocannon, as ../shared/peers/emmett-pg/bench/compare.ts
//    drives them), its peak resident memory, a deep page reached by cursor, and how fast a new
//    subscriber reads the fulfilment queue's feed from its start. The routes run first on the
//    process just started (its folds, kept bodies and pages empty: the first minute after a
//    deploy), reported apart as "after the start"; then the measured rounds, on a process that
//    has served a round of each route, as the harnesses' service has served their preload;
//  - the floor, once the service has stopped: bench:http's bare Koa (bench/http/floor.ts) on the
//    same folder, driven alike: placements by the write side's order service alone (prices, stock,
//    key, order; no HTTP work of the service's, no customer standing, no sealing, no projections),
//    the order folded by the order service, and the page query on the read models (its rounds after
//    its start left out, as the service's are). The same reads and writes of the same files: where
//    a route's p99 grows with the data and its floor's grows as much, what grew is the stores (and
//    the disk under them), not the service's own work;
//  - bytes on disk per order, then `npm run projections -- rebuild` (every projection) in a child
//    process: events/s and its peak RSS.
// It prints progress as it goes and one table at the end; figures only, no verdicts.
//
//   npm run bench:scale                                         # 10,000, 100,000 and 1,000,000 orders
//   BENCH_SIZES=10000,100000,1000000,10000000 npm run bench:scale
//   BENCH_SECONDS=10 BENCH_WARMUP_SECONDS=1 BENCH_CONNECTIONS=50 # the load of each route (defaults)
//   BENCH_ROUNDS=2                                              # rounds of the three routes; the table holds their mean, as the harnesses' does
//   BENCH_COLD_ROUNDS=1                                         # rounds run first, on the process just started, reported apart (0: none)
//   BENCH_DEEP_PAGE=1000                                        # how far down the deep page lies (or the last page)
//   BENCH_READY_TIMEOUT_SECONDS=14400                           # the longest a start may take to be ready
//   BENCH_FLOOR=0                                               # no floor rounds
//   BENCH_KEEP=1                                                # keep the data folder (.bench-scale-*)
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { signDevToken } from '../api/auth.js';
import { fingerprint } from '../api/idempotency.js';
import { READ_STORAGE } from '../projections/registry.js';
import { SqliteReadStore } from '../read-side/adapters/sqlite-read-store.js';
import { expiryContext, PAYMENT_TIMEOUT_PRINCIPAL } from '../workers/pending-expiry.js';
import { RECONCILER_CHECKPOINT } from '../workers/stock-reconciler.js';
import { SqliteEventStore } from '../write-side/adapters/sqlite-event-store.js';
import { SqliteKeyStore } from '../write-side/adapters/sqlite-key-store.js';
import { PERSONAL_DATA } from '../write-side/areas.js';
import { productDecider } from '../write-side/catalogue/decider.js';
import { encodeProductEvent, productStream } from '../write-side/catalogue/codec.js';
import { customerStream, encodeCustomerEvent } from '../write-side/customers/codec.js';
import { customerDecider } from '../write-side/customers/decider.js';
import { CUSTOMER_EMAILS, customerIdFor } from '../write-side/customers/service.js';
import { serviceViewer } from '../write-side/kernel/access.js';
import type { EventMetadata, ExpectedRevision, JsonValue, NewEvent } from '../write-side/kernel/event-store.js';
import { keyId, takeKey } from '../write-side/kernel/idempotency.js';
import { decodePosition } from '../write-side/kernel/position.js';
import { claimStream, VALUE_CLAIMED } from '../write-side/kernel/unique-values.js';
import { encodeOrderEvent, orderStream } from '../write-side/orders/codec.js';
import { orderDecider } from '../write-side/orders/decider.js';
import { releaseReason, stockTargets } from '../write-side/orders/rules.js';
import type { Address, CataloguedLine, Order, OrderCommand, PlacedOrder } from '../write-side/orders/types.js';
import { newKey } from '../write-side/personal-data/cipher.js';
import { Keyring } from '../write-side/personal-data/keyring.js';
import { PersonalData } from '../write-side/personal-data/personal-data.js';
import { placeOf } from '../write-side/personal-data/rules.js';
import { encodeStockEvent, stockStream } from '../write-side/stock/codec.js';
import { decideStock, initialStock } from '../write-side/stock/decider.js';
import { StockService } from '../write-side/stock/service.js';
import type { Stock, StockCommand } from '../write-side/stock/types.js';
import { autocannon, pageChain, type AcRequest, type AcResult } from './http/load.js';
import { startFloor, startService, stopServer, tail, type BenchServer } from './http/servers.js';

// ---- settings ----

const number = (name: string, fallback: number): number => {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, not "${text}"`);
  return value;
};
const SIZES = (process.env.BENCH_SIZES ?? '10000,100000,1000000').split(',').map((s) => Number(s.trim()));
if (SIZES.some((size, i) => !Number.isSafeInteger(size) || size < 1 || (i > 0 && size <= SIZES[i - 1]!))) {
  throw new Error(`BENCH_SIZES must be increasing whole numbers of orders, not "${process.env.BENCH_SIZES}"`);
}
const SECONDS = number('BENCH_SECONDS', 10);
const WARMUP = number('BENCH_WARMUP_SECONDS', 1);
const CONNECTIONS = number('BENCH_CONNECTIONS', 50);
const ROUNDS = Math.max(1, Math.floor(number('BENCH_ROUNDS', 2)));
const COLD_ROUNDS = Math.floor(number('BENCH_COLD_ROUNDS', 1));
const DEEP_PAGE = number('BENCH_DEEP_PAGE', 1000);
const READY_TIMEOUT_MS = number('BENCH_READY_TIMEOUT_SECONDS', 4 * 3600) * 1000;
const KEEP = process.env.BENCH_KEEP === '1';
const FLOOR = process.env.BENCH_FLOOR !== '0';

const SECRET = `bench-scale-${randomUUID()}-${randomUUID()}`;
const SKUS = 10_000;
/** Units of each SKU received when its product is defined: far more than 10 million orders reserve of it. */
const RECEIVED = 1_000_000;
/** One customer registers for about every this many orders; an order picks any customer registered by then. */
const ORDERS_PER_CUSTOMER = 10;
/** Orders per group commit: each brings some 6 events (its reservations, its key, the order, a share of payments, shipments and customers). */
const BATCH = 2000;
/**
 * A payment is recorded this many orders after its order was placed, and a shipment this many
 * orders after the placement, so that an order's events lie apart in the log as they do in
 * production. What is still due at the end of a size is recorded then (every second order paid,
 * every fourth shipped).
 */
const PAY_LAG = 300;
const SHIP_LAG = 1500;
/**
 * An order left unpaid is cancelled by the payment timeout (reason payment-timeout, its stock
 * released) this many orders after its placement: the service's own timeout (48 h by default) in
 * a shop that takes a million orders in about three years (some 1,800 orders in 48 h). What is
 * still within it at the end of a size stays pending. (Until session 37 the unpaid half stayed
 * pending for good, which no running shop has: their reservations, some 750,000 at a million
 * orders, outgrew the stock folds' budget and measured that instead; see docs/benchmarks.md.)
 */
const EXPIRE_LAG = 2000;
/**
 * The payment timeout the service runs with (see start()): the preload has cancelled what its
 * own timeout would have, and what it left pending is the service's to leave, not to cancel all
 * at the start (the preload's clock is compressed: a size's orders span minutes, not years).
 */
const PENDING_TTL_SECONDS = String(10 * 365 * 86_400);
/** What an order takes on disk before a size has been measured: 3.7 kB of events and 4.1 kB of read models per order added (10,000 → 20,000, November 2026). */
const EXPECTED_BYTES_PER_ORDER = 8000;
const PAGE = 20;
const DEEP_SAMPLES = 500;
const FEED_PAGE = 1000;

// Who wrote the preloaded events: the principals of the requests the service would have taken.
const STAFF = 'bench-scale-backoffice';
const SHOP = 'bench-scale-shop';
const PSP = 'bench-scale-psp';
const FULFILMENT = 'bench-scale-fulfilment';
/** The load's principal: its keys never meet the preload's. */
const LOAD = 'bench-scale';

const MB = 1024 * 1024;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const seconds = (ms: number) => (ms / 1000).toFixed(1);
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

// ---- the shop, deterministic: its SKUs, customers and order lines ----

/** mulberry32: the same shop at every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(36);
const below = (n: number, rand = random) => Math.floor(rand() * n);

const sku = (n: number) => `SKU-${String(n).padStart(5, '0')}`;
const SKU_IDS = Array.from({ length: SKUS }, (_, n) => sku(n));
const PRICES = SKU_IDS.map((_, n) => 499 + ((n * 7919) % 9500));
const productName = (n: number) => `${['Blue', 'Green', 'Red', 'Grey', 'Oak', 'Steel'][n % 6]} ${['mug', 'lamp', 'chair', 'bowl', 'shelf', 'clock', 'vase'][n % 7]} ${n}`;

const orderId = (i: number) => keyId(SHOP, `order-${i}`);
const customerId = (c: number) => customerIdFor(STAFF, `customer-${c}`);

const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'John', 'Margaret', 'Niklaus'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Backus', 'Hamilton', 'Wirth'];
const CITIES: ReadonlyArray<readonly [string, string, string]> = [['Berlin', '10115', 'DE'], ['Paris', '75002', 'FR'], ['Madrid', '28013', 'ES'], ['Rome', '00184', 'IT'], ['Vienna', '1010', 'AT'], ['Lisbon', '1100-148', 'PT']];
const nameOf = (c: number) => `${FIRST[c % 10]} ${LAST[Math.floor(c / 10) % 10]}`;
function addressOf(c: number): Address {
  const [city, postalCode, country] = CITIES[c % CITIES.length]!;
  return { name: nameOf(c), line1: `${1 + (c % 180)} ${['Main St', 'Station Rd', 'Market Sq', 'Park Ave'][c % 4]}`, line2: c % 5 === 0 ? `Flat ${c % 40}` : null, city, postalCode, region: null, country };
}
/** The address as a client sends it (members left out rather than null), for the fingerprint and the load's bodies. */
const sentAddress = (a: Address) => ({ name: a.name, line1: a.line1, ...(a.line2 ? { line2: a.line2 } : {}), city: a.city, postalCode: a.postalCode, country: a.country });

/** 1 to 3 lines of distinct SKUs, 1 to 3 units each, in the order a client lists them. */
function linesOf(rand = random): Array<{ n: number; quantity: number }> {
  const count = 1 + below(3, rand);
  const lines: Array<{ n: number; quantity: number }> = [];
  while (lines.length < count) {
    const n = below(SKUS, rand);
    if (!lines.some((line) => line.n === n)) lines.push({ n, quantity: 1 + below(3, rand) });
  }
  return lines;
}

// ---- the preload: events as the service writes them, through the event-store port ----

type Seal = (place: string, value: JsonValue) => JsonValue;

/** The event with its personal members sealed, exactly as the service's SealingEventStore seals them on the way in. */
function sealed(stream: string, event: NewEvent, seal: Seal): NewEvent {
  const fields = PERSONAL_DATA.find((rule) => stream.startsWith(rule.streamPrefix))?.fields[event.type];
  if (!fields) return event;
  const data: Record<string, JsonValue> = { ...event.data };
  for (const { name } of fields) if (data[name] !== undefined) data[name] = seal(placeOf(stream, name), data[name]);
  return { ...event, data };
}

/** A request's metadata as the API gives it: its correlation id, which also caused it (api/middleware/context.ts). */
function request(principal: string) {
  const correlationId = randomUUID();
  return { principal, correlationId, causationId: correlationId };
}

/** An order between its placement and its last event of the preload. */
interface Placed {
  readonly order: PlacedOrder;
  readonly revision: number;
}

class Preloader {
  private readonly events: SqliteEventStore;
  private readonly keyStore: SqliteKeyStore;
  /** The key store's file, for making a batch's keys in one transaction (see makeKeys). */
  private readonly keysFile: Database.Database;
  private readonly insertKey: Database.Statement<[string, Buffer]>;
  private readonly personal: PersonalData;
  private appends: Promise<unknown>[] = [];
  /** Each SKU's stock on hand and reserved, as the preload left it: what the stock decider decides on. */
  private readonly onHand = new Array<number>(SKUS).fill(0);
  private readonly reserved = new Array<number>(SKUS).fill(0);
  /** The stock service of the same store: it reads the levels a grown store starts from, and writes the snapshots (see finish). */
  private readonly stock: StockService;
  /** Orders placed and not yet through their last event (at most SHIP_LAG of them). */
  private readonly open = new Map<number, Placed>();
  appended = 0;
  customers = 0;

  constructor(private readonly dir: string) {
    // NORMAL: a file written before the service opens it (with its own FULL) needs to survive no power loss.
    this.events = new SqliteEventStore({ file: join(dir, 'events.sqlite3'), synchronous: 'normal' });
    this.keyStore = new SqliteKeyStore(join(dir, 'keys.sqlite3'));
    this.keysFile = new Database(join(dir, 'keys.sqlite3'));
    this.insertKey = this.keysFile.prepare('INSERT INTO keys (subject, key) VALUES (?, ?)');
    this.personal = new PersonalData(new Keyring(this.keyStore));
    this.stock = new StockService(this.events);
  }

  /** On a store grown before (whose load reserved stock too): each SKU's levels as its stream has them. */
  async readLevels(): Promise<void> {
    const viewer = serviceViewer(STAFF);
    for (let n = 0; n < SKUS; n++) {
      const levels = (await this.stock.get(viewer, SKU_IDS[n]!))!;
      this.onHand[n] = levels.onHand;
      this.reserved[n] = levels.reserved;
    }
  }

  private append(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): void {
    this.appends.push(this.events.appendToStream(stream, events, expected));
    this.appended += events.length;
  }

  /** Everything appended since the last call, committed together (the store's group commit). */
  private committed(): Promise<unknown> {
    const batch = Promise.all(this.appends);
    this.appends = [];
    return batch;
  }

  /** The catalogue: every product defined (PUT /products/{sku}) and its stock received (POST /stock/{sku}/adjustments). */
  async setUp(at: number): Promise<void> {
    const definedAt = new Date(at - 2 * 3600_000).toISOString();
    const receivedAt = new Date(at - 3600_000).toISOString();
    for (let n = 0; n < SKUS; n++) {
      const id = SKU_IDS[n]!;
      const product = { name: productName(n), description: null, prices: { EUR: PRICES[n]! }, status: 'active' as const };
      const events = productDecider.decide({ type: 'PutProduct', data: { sku: id, product, onlyIfAbsent: false }, metadata: { now: definedAt } }, productDecider.initialState());
      this.append(productStream(id), events.map((e) => encodeProductEvent(e, request(STAFF))), 'no_stream');
    }
    for (let n = 0; n < SKUS; n++) {
      const id = SKU_IDS[n]!;
      const key = `receive-${id}`;
      const body = { delta: RECEIVED, reason: 'received', note: 'opening stock' } as const;
      const idempotency = { key, fingerprint: fingerprint('POST', `/stock/${id}/adjustments`, body) };
      const metadata = { ...request(STAFF), idempotency };
      const command: StockCommand = { type: 'AdjustStock', data: { sku: id, adjustmentId: keyId(STAFF, key), ...body, lowStockThreshold: 0 }, metadata: { now: receivedAt } };
      this.appends.push(takeKey(this.events, { ...metadata, target: stockStream(id), fromRevision: 0 }));
      this.appended++;
      this.append(stockStream(id), decideStock(command, this.levelsOf(n)).map((e) => encodeStockEvent(e, metadata)), 'no_stream');
      this.onHand[n]! += RECEIVED;
    }
    await this.committed();
  }

  /**
   * Orders `from` … `to` - 1, placed evenly between `startMs` and `endMs` (every event at the time
   * of the order it comes with, so that times increase through the log), in group commits of
   * BATCH orders, each built while the one before commits.
   */
  async grow(from: number, to: number, startMs: number, endMs: number): Promise<void> {
    const timeOf = (i: number) => new Date(startMs + ((i - from + 1) * (endMs - startMs)) / (to - from + 1)).toISOString();
    let previous: Promise<unknown> = Promise.resolve();
    let reported = performance.now();
    const started = performance.now();
    const appendedBefore = this.appended;
    for (let first = from; first < to; first += BATCH) {
      const end = Math.min(to, first + BATCH);
      // Who orders what: customers register as the shop grows, and an order picks any of those registered by then.
      const plans = [];
      const newcomers: number[] = [];
      for (let i = first; i < end; i++) {
        if (i % ORDERS_PER_CUSTOMER === 0) newcomers.push(i / ORDERS_PER_CUSTOMER);
        plans.push({ i, customer: below(Math.floor(i / ORDERS_PER_CUSTOMER) + 1), lines: linesOf() });
      }
      this.makeKeys(newcomers.map(customerId));
      const seals = new Map<number, Seal>();
      for (const c of new Set([...newcomers, ...plans.map((p) => p.customer)])) seals.set(c, await this.personal.sealer(customerId(c)));
      for (const plan of plans) {
        const at = timeOf(plan.i);
        if (plan.i % ORDERS_PER_CUSTOMER === 0) this.register(plan.i / ORDERS_PER_CUSTOMER, at, seals.get(plan.i / ORDERS_PER_CUSTOMER)!);
        this.place(plan.i, plan.customer, plan.lines, at, seals.get(plan.customer)!);
        if (plan.i - PAY_LAG >= from) this.pay(plan.i - PAY_LAG, at);
        if (plan.i - SHIP_LAG >= from) this.ship(plan.i - SHIP_LAG, at);
        if (plan.i - EXPIRE_LAG >= from) this.expire(plan.i - EXPIRE_LAG, at);
      }
      const batch = this.committed();
      batch.catch(() => undefined); // awaited below, once the batch before it is in: not an unhandled rejection meanwhile
      await previous;
      previous = batch;
      if (performance.now() - reported > 10_000) {
        reported = performance.now();
        const rate = (this.appended - appendedBefore) / ((reported - started) / 1000);
        log(`  preloaded ${fmt(end)} of ${fmt(to)} orders, ${fmt(this.appended)} events (${fmt(rate)} events/s)`);
      }
    }
    await previous;
    // What is still due: recorded at the end of the stretch of time.
    const last = new Date(endMs).toISOString();
    for (let i = Math.max(from, to - PAY_LAG); i < to; i++) this.pay(i, last);
    for (let i = Math.max(from, to - SHIP_LAG); i < to; i++) this.ship(i, last);
    // Unpaid within the payment window: pending, their stock held.
    for (let i = Math.max(from, to - EXPIRE_LAG); i < to; i++) if (i % 2 !== 0) this.open.delete(i);
    await this.committed();
    if (this.open.size > 0) throw new Error(`${this.open.size} orders left open after the preload`);
    this.customers = Math.floor((to - 1) / ORDERS_PER_CUSTOMER) + 1;
  }

  /**
   * The keys that will seal the newcomers' personal data, made in one transaction. The key store's
   * own createOrGet makes each in a durable transaction of its own (a few ms): a million customers
   * would take over an hour. These are the same rows (a random key per subject, newKey's), which
   * the preload's keyring and the service then read as they read any other.
   */
  private makeKeys(subjects: readonly string[]): void {
    this.keysFile.transaction(() => {
      for (const subject of subjects) this.insertKey.run(subject, newKey());
    })();
  }

  /** POST /customers: the email claimed, the key taken, the registration with its personal members sealed. */
  private register(c: number, at: string, seal: Seal): void {
    const id = customerId(c);
    const stream = customerStream(id);
    const profile = { email: `${nameOf(c).toLowerCase().replace(' ', '.')}.${c}@example.com`, name: nameOf(c), phone: c % 3 === 0 ? null : `+49 30 ${String(1_000_000 + c).slice(-7)}`, defaultAddress: addressOf(c) };
    const key = `customer-${c}`;
    const idempotency = { key, fingerprint: fingerprint('POST', '/customers', { ...profile, defaultAddress: sentAddress(profile.defaultAddress) }) };
    const context = request(STAFF);
    this.append(claimStream(CUSTOMER_EMAILS.name, profile.email), [{ type: VALUE_CLAIMED, data: { owner: stream }, metadata: { schemaVersion: 1, ...context } }], 'no_stream');
    this.appends.push(takeKey(this.events, { ...context, idempotency, target: stream }));
    this.appended++;
    const events = customerDecider.decide({ type: 'RegisterCustomer', data: { customerId: id, ...profile }, metadata: { now: at, principal: STAFF } }, customerDecider.initialState());
    this.append(stream, events.map((e) => sealed(stream, encodeCustomerEvent(e, { ...context, idempotency }), seal)), 'no_stream');
  }

  /** POST /orders: each line's stock reserved (in SKU order, one append a SKU), the key taken, the order placed with its address sealed. */
  private place(i: number, c: number, picked: ReadonlyArray<{ n: number; quantity: number }>, at: string, seal: Seal): void {
    const id = orderId(i);
    const customer = customerId(c);
    const stream = orderStream(id);
    const address = addressOf(c);
    const lines: CataloguedLine[] = picked.map(({ n, quantity }) => ({ sku: SKU_IDS[n]!, name: productName(n), quantity, unitPrice: PRICES[n]!, lowStockThreshold: 0 }));
    const body = { customerId: customer, currency: 'EUR', lines: picked.map(({ n, quantity }) => ({ sku: SKU_IDS[n]!, quantity })), address: sentAddress(address) };
    const key = `order-${i}`;
    const idempotency = { key, fingerprint: fingerprint('POST', '/orders', body) };
    const context = request(SHOP);
    for (const { n, quantity } of [...picked].sort((a, b) => SKU_IDS[a.n]!.localeCompare(SKU_IDS[b.n]!))) {
      const command: StockCommand = { type: 'ReserveStock', data: { sku: SKU_IDS[n]!, orderId: id, quantity, lowStockThreshold: 0 }, metadata: { now: at } };
      this.append(stockStream(SKU_IDS[n]!), decideStock(command, this.levelsOf(n)).map((e) => encodeStockEvent(e, context)), 'any');
      this.reserved[n]! += quantity;
    }
    this.appends.push(takeKey(this.events, { ...context, idempotency, target: stream }));
    this.appended++;
    const command: OrderCommand = { type: 'PlaceOrder', data: { orderId: id, customerId: customer, currency: 'EUR', lines, address }, metadata: { now: at, principal: SHOP } };
    this.decideAndAppend(i, stream, command, { ...context, idempotency }, seal);
  }

  /** POST /orders/{id}/payments, for every second order. */
  private pay(i: number, at: string): void {
    if (i % 2 !== 0) return;
    const { order } = this.open.get(i)!;
    const body = { amount: order.total, reference: `psp-${i}`, method: 'card' } as const;
    const idempotency = { key: randomUUID(), fingerprint: fingerprint('POST', `/orders/${order.id}/payments`, body) };
    const context = request(PSP);
    this.appends.push(takeKey(this.events, { ...context, idempotency, target: orderStream(order.id) }));
    this.appended++;
    this.decideAndAppend(i, orderStream(order.id), { type: 'RecordPayment', data: { orderId: order.id, paymentId: randomUUID(), ...body }, metadata: { now: at, principal: PSP } }, { ...context, idempotency });
    if (i % 4 !== 0) this.open.delete(i);
  }

  /** POST /orders/{id}/shipments, for every fourth order: the shipment, then each SKU's reservation committed (settled). */
  private ship(i: number, at: string): void {
    if (i % 4 !== 0) return;
    const { order } = this.open.get(i)!;
    const body = { carrier: 'DHL', trackingNumber: `00340434${String(i).padStart(10, '0')}` };
    const idempotency = { key: randomUUID(), fingerprint: fingerprint('POST', `/orders/${order.id}/shipments`, body) };
    const context = request(FULFILMENT);
    this.appends.push(takeKey(this.events, { ...context, idempotency, target: orderStream(order.id) }));
    this.appended++;
    this.decideAndAppend(i, orderStream(order.id), { type: 'CreateShipment', data: { orderId: order.id, shipmentId: randomUUID(), ...body }, metadata: { now: at, principal: FULFILMENT } }, { ...context, idempotency });
    const { order: shipped, revision } = this.open.get(i)!;
    this.settle(shipped, revision, at, context);
    this.open.delete(i);
  }

  /**
   * The payment timeout, for an order left unpaid (every second one): the order cancelled as the
   * service's PendingOrderExpiry cancels it, then each SKU's reservation released (settled).
   */
  private expire(i: number, at: string): void {
    if (i % 2 === 0) return;
    const { order } = this.open.get(i)!;
    const context = { principal: PAYMENT_TIMEOUT_PRINCIPAL, ...expiryContext(order.id) };
    this.decideAndAppend(i, orderStream(order.id), { type: 'ExpirePendingOrder', data: { orderId: order.id }, metadata: { now: at, principal: PAYMENT_TIMEOUT_PRINCIPAL } }, context);
    const { order: cancelled, revision } = this.open.get(i)!;
    if (cancelled.status !== 'cancelled') throw new Error(`order ${i} was not cancelled by its payment timeout`);
    this.settle(cancelled, revision, at, context);
    this.open.delete(i);
  }

  /** Each SKU's reservation of the order brought to what the order says now (OrderService's settle after a shipment or a cancellation). */
  private settle(order: PlacedOrder, revision: number, at: string, context: Omit<EventMetadata, 'schemaVersion'>): void {
    for (const [id, target] of [...stockTargets(order)].sort(([a], [b]) => a.localeCompare(b))) {
      const n = Number(id.slice(4));
      const held = order.lines.find((line) => line.sku === id)!.quantity;
      const state: Stock = { ...this.levelsOf(n), live: initialStock(id).live.set(order.id, held) };
      const how = { reason: releaseReason(order), orderRevision: revision, raise: false };
      const command: StockCommand = { type: 'SettleReservation', data: { sku: id, orderId: order.id, ...target, ...how, lowStockThreshold: 0 }, metadata: { now: at } };
      this.append(stockStream(id), decideStock(command, state).map((e) => encodeStockEvent(e, context)), 'any');
      // Held before, what is held after: the rest was committed (left stock on hand) or released.
      this.onHand[n]! -= target.shipped;
      this.reserved[n]! -= held - target.reserved;
    }
  }

  /** The command decided on the order as the preload left it, appended at its revision (the command handler's way). */
  private decideAndAppend(i: number, stream: string, command: OrderCommand, metadata: Omit<EventMetadata, 'schemaVersion'>, seal?: Seal): void {
    const before = this.open.get(i);
    const state: Order = before?.order ?? orderDecider.initialState();
    const events = orderDecider.decide(command, state);
    const next = events.reduce(orderDecider.evolve, state);
    if (next.status === 'absent') throw new Error(`order ${i} is not placed`);
    const revision = (before?.revision ?? -1) + events.length;
    this.open.set(i, { order: next, revision });
    this.append(stream, events.map((e) => (seal ? sealed(stream, encodeOrderEvent(e, metadata), seal) : encodeOrderEvent(e, metadata))), before ? before.revision : 'no_stream');
  }

  /** What the stock decider needs of a SKU to decide a reservation: its levels (the decisions here never depend on the other orders' reservations). */
  private levelsOf(n: number): Stock {
    return { ...initialStock(SKU_IDS[n]!), onHand: this.onHand[n]!, reserved: this.reserved[n]! };
  }

  /**
   * What a shop open for years has beside its log: each SKU's stock snapshot, written by the stock
   * service's own rule (once enough events gathered since the last) as it folds the SKU; and the
   * stock reconciler's checkpoint at the head, since it would have handled every event but the
   * last half minute's. (Left at the start, its first pass would read the whole log on the thread
   * that serves requests, which a running shop never does.)
   */
  async finish(): Promise<void> {
    const viewer = serviceViewer(STAFF);
    for (const id of SKU_IDS) await this.stock.get(viewer, id);
    await this.stock.idle();
    const head = await this.events.headPosition();
    const reads = new SqliteReadStore(join(this.dir, 'read-models.sqlite3'), READ_STORAGE);
    if (head) await reads.saveProcessCheckpoint(RECONCILER_CHECKPOINT, head);
    await reads.close();
  }

  async close(): Promise<void> {
    await this.events.close();
    await this.keyStore.close();
    this.keysFile.close();
  }
}

/** The orders the load placed: OrderPlaced events after `position` (a read of the file, of the load's events only). */
function ordersPlacedAfter(dir: string, position: number): number {
  const db = new Database(join(dir, 'events.sqlite3'), { readonly: true });
  try {
    return db.prepare("SELECT count(*) FROM events WHERE position > ? AND type = 'OrderPlaced'").pluck().get(position) as number;
  } finally {
    db.close();
  }
}

/** The log's length: its last position (the embedded store's positions are row ids, with no gaps but trimmed snapshots). */
async function logLength(dir: string): Promise<number> {
  const events = new SqliteEventStore({ file: join(dir, 'events.sqlite3') });
  try {
    const head = await events.headPosition();
    return head ? Number(decodePosition(head).commit) : 0;
  } finally {
    await events.close();
  }
}

// ---- measuring the service ----

/** Resident memory of a process now and at its peak so far, in MB. */
function memory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

const servers = new Set<BenchServer>();

/** The service on `dir`, timed from its spawn to /health/ready answering 200 (polled every 250 ms). */
async function start(dir: string, label: string): Promise<{ service: BenchServer; readyMs: number }> {
  const began = performance.now();
  // Pending orders stay pending, as the shape asks: in a shop they would have been cancelled one
  // by one as they fell due, not all at this start (bench:restart does the same).
  const service = await startService(dir, SECRET, READY_TIMEOUT_MS, { PENDING_ORDER_TTL_SECONDS: PENDING_TTL_SECONDS });
  servers.add(service);
  const waiting = setInterval(() => {
    if (service.child.exitCode !== null) return;
    log(`  ${label}: not ready after ${seconds(performance.now() - began)} s (RSS ${memory(service.child.pid!).rss.toFixed(0)} MB)`);
  }, 30_000);
  try {
    await service.ready;
  } finally {
    clearInterval(waiting);
  }
  return { service, readyMs: performance.now() - began };
}

async function stop(service: BenchServer): Promise<void> {
  await stopServer(service);
  servers.delete(service);
}

interface RouteFigures {
  readonly rate: number;
  readonly p50: number;
  readonly p99: number;
  readonly failed: string | null;
}

/** One route driven by autocannon: a warm-up, then the measured run. */
async function drive(url: string, name: string, requests: () => AcRequest[], round: string): Promise<RouteFigures> {
  if (WARMUP > 0) await autocannon({ url, connections: CONNECTIONS, duration: WARMUP, requests: requests() });
  const result: AcResult = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, requests: requests() });
  const failures = result.non2xx + result.errors;
  const failed = failures > 0 ? `${fmt(failures)} of ${fmt(result.requests.total + result.errors)} failed, status codes ${JSON.stringify(result.statusCodeStats)}` : null;
  log(`  ${round}  ${name.padEnd(34)} ${fmt(result.requests.average).padStart(7)} req/s  p50 ${result.latency.p50.toFixed(1)} ms  p99 ${result.latency.p99.toFixed(1)} ms${failed ? `  (${failed})` : ''}`);
  return { rate: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, failed };
}

/** The rounds of one route as the harnesses report them: the mean of each figure. */
function meanOf(runs: readonly RouteFigures[], label: string): RouteFigures {
  const mean = (pick: (run: RouteFigures) => number) => runs.reduce((sum, run) => sum + pick(run), 0) / runs.length;
  const failed = runs.flatMap((run, i) => (run.failed ? [`${label} ${i + 1}: ${run.failed}`] : []));
  return { rate: mean((run) => run.rate), p50: mean((run) => run.p50), p99: mean((run) => run.p99), failed: failed.length > 0 ? failed.join('; ') : null };
}

/** One more order, then a collection read that waits on its Consistency-Token: the load's writes are projected before the next run. */
async function settle(url: string, headers: Record<string, string>, body: string): Promise<void> {
  const placed = await fetch(`${url}/orders`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': randomUUID() }, body });
  await placed.arrayBuffer();
  const token = placed.headers.get('consistency-token');
  if (placed.status !== 201 || !token) throw new Error(`settling: POST /orders answered ${placed.status}`);
  for (let attempt = 0; attempt < 60; attempt++) {
    const read = await fetch(`${url}/orders?limit=1`, { headers: { ...headers, 'consistency-token': token } });
    await read.arrayBuffer();
    if (read.ok) return;
    if (read.status !== 503) throw new Error(`settling: GET /orders answered ${read.status}`);
  }
  throw new Error('settling: the projections did not catch up within five minutes');
}

const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** Follows nextCursor down the paid orders to page `depth` (or the last), then times DEEP_SAMPLES reads of that page, one at a time. */
async function deepPage(url: string, headers: Record<string, string>, depth: number): Promise<{ page: number; p50: number; p99: number }> {
  const first = `/orders?status=paid&limit=${PAGE}`;
  let path = first;
  let page = 1;
  for (; page < depth; page++) {
    const response = await fetch(`${url}${path}`, { headers });
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${await response.text()}`);
    const { nextCursor } = (await response.json()) as { nextCursor: string | null };
    if (!nextCursor) break;
    path = `${first}&cursor=${encodeURIComponent(nextCursor)}`;
  }
  const times: number[] = [];
  for (let i = -50; i < DEEP_SAMPLES; i++) {
    const began = performance.now();
    const response = await fetch(`${url}${path}`, { headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
    if (i >= 0) times.push(performance.now() - began);
  }
  times.sort((a, b) => a - b);
  return { page, p50: quantile(times, 0.5), p99: quantile(times, 0.99) };
}

/** A new subscriber of the fulfilment queue's feed (JSON long-poll, as examples/fulfilment-worker.ts reads it) reading it from the start: entries/s. */
async function feedCatchUp(url: string, headers: Record<string, string>): Promise<{ entries: number; rate: number }> {
  let after: string | null = null;
  let entries = 0;
  const began = performance.now();
  for (;;) {
    const query = new URLSearchParams({ limit: String(FEED_PAGE), ...(after ? { after } : {}) });
    const response = await fetch(`${url}/fulfilment-queue/changes?${query}`, { headers });
    if (!response.ok) throw new Error(`GET /fulfilment-queue/changes answered ${response.status}: ${await response.text()}`);
    const page = (await response.json()) as { changes: unknown[]; next: string | null };
    entries += page.changes.length;
    if (page.changes.length === 0) break;
    after = page.next;
  }
  return { entries, rate: entries / ((performance.now() - began) / 1000) };
}

/**
 * `npm run projections -- rebuild` (every projection) in a child: its wall time, and its peak RSS
 * as it reports it on exit. A run that fails (the CLI's commits give up after 250 ms behind a WAL
 * checkpoint: "database is locked") is reported and tried again, up to REBUILD_TRIES in all.
 */
async function rebuildAll(dir: string): Promise<{ ms: number; peakMb: number; tries: number } | null> {
  for (let tries = 1; tries <= REBUILD_TRIES; tries++) {
    try {
      return { ...(await rebuildOnce(dir)), tries };
    } catch (error) {
      if (interrupted) throw error;
      const message = error instanceof Error ? error.message : String(error);
      log(`  projections rebuild failed (try ${tries} of ${REBUILD_TRIES}): ${/^\w*Error: .*$/m.exec(message)?.[0] ?? message.slice(-300)}`);
    }
  }
  return null;
}
const REBUILD_TRIES = 3;

async function rebuildOnce(dir: string): Promise<{ ms: number; peakMb: number }> {
  const exitHook = 'data:text/javascript,process.on("exit",()=>process.stderr.write("bench-scale max RSS kB "+process.resourceUsage().maxRSS+"\\n"))';
  const began = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', exitHook, 'bootstrap/projections-cli.ts', 'rebuild'], {
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  rebuilding = child;
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    // Its progress lines are rewritten in place; the summary of each projection ends a line.
    for (const line of chunk.split(/[\r\n]/)) if (/rebuilt generation/.test(line)) log(`    ${line.trim()}`);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  rebuilding = null;
  if (code !== 0) throw new Error(`projections rebuild ended with ${code}:\n${out.slice(-2000)}\n${err.slice(-2000)}`);
  const kb = Number(/bench-scale max RSS kB (\d+)/.exec(err)?.[1] ?? NaN);
  return { ms: performance.now() - began, peakMb: kb / 1024 };
}
let rebuilding: ReturnType<typeof spawn> | null = null;

/** Bytes on disk: the event store's file and WAL; everything else under DATA_DIR (read models, keys, secrets, exports). */
function disk(dir: string): { events: number; rest: number; files: Map<string, number> } {
  const files = new Map<string, number>();
  const walk = (at: string, prefix: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(at, entry.name), `${prefix}${entry.name}/`);
      else files.set(`${prefix}${entry.name}`, statSync(join(at, entry.name)).size);
    }
  };
  walk(dir, '');
  let events = 0;
  let rest = 0;
  for (const [name, size] of files) {
    if (name.startsWith('events.sqlite3')) events += size;
    else rest += size;
  }
  return { events, rest, files };
}

/** The free pages inside each SQLite file (a dropped generation's, say): on disk, but reused before the file grows. */
function freePages(dir: string): string {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.sqlite3'))
    .map((file) => {
      const db = new Database(join(dir, file), { readonly: true });
      try {
        const free = (db.pragma('freelist_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
        return `${file} ${fmt(free / MB)} MB`;
      } finally {
        db.close();
      }
    })
    .join(', ');
}

function freeBytes(dir: string): number {
  const { bavail, bsize } = statfsSync(dir);
  return bavail * bsize;
}

// ---- one size ----

interface Row {
  readonly orders: number;
  readonly events: number;
  readonly preloadRate: number;
  readonly catchUpMs: number;
  readonly catchUpRate: number;
  readonly restartMs: number;
  readonly routes: readonly RouteFigures[];
  /** The routes on the process just started (COLD_ROUNDS of them, their mean); empty with none. */
  readonly cold: readonly RouteFigures[];
  /** The same routes on the floor (BENCH_FLOOR), the mean of ROUNDS rounds; empty with none. */
  readonly floor: readonly RouteFigures[];
  readonly deep: { page: number; p50: number; p99: number };
  readonly feedRate: number;
  /** Null when every try failed; `tries` says how many it took. */
  readonly rebuild: { readonly rate: number; readonly peakMb: number; readonly tries: number } | null;
  readonly restMb: number;
  readonly loadMb: number;
  readonly eventBytes: number;
  readonly readBytes: number;
}

const CUSTOMER_SAMPLE = 5000;
const ORDER_SAMPLE = 20_000;

/** The service on the grown data: the starts, memory, the routes under load, the deep page, the feed. */
async function measure(dir: string, orders: number, customers: number, newEvents: number): Promise<Omit<Row, 'orders' | 'events' | 'preloadRate' | 'rebuild' | 'eventBytes' | 'readBytes'>> {
  const first = await start(dir, 'catch-up');
  log(`  ready after the preload in ${seconds(first.readyMs)} s (catching up ${fmt(newEvents)} new events: ${fmt(newEvents / (first.readyMs / 1000))} events/s)`);
  await stop(first.service);
  const { service, readyMs } = await start(dir, 'restart');
  log(`  ready again on existing data in ${seconds(readyMs)} s (no new events)`);
  try {
    const pid = service.child.pid!;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const rest = memory(pid);
    log(`  resident memory at rest ${rest.rss.toFixed(0)} MB (peak since start ${rest.hwm.toFixed(0)} MB)`);

    const token = await signDevToken(SECRET, { sub: LOAD, scope: 'orders:read orders:write payments:write shipments:write' }, 6 * 3600);
    const headers = { authorization: `Bearer ${token}` };
    // The load's own choices come from a generator of their own, so the preload's next size is the same at every run.
    const rand = prng(orders);
    const buyers = Array.from({ length: Math.min(CUSTOMER_SAMPLE, customers) }, () => {
      const c = below(customers, rand);
      return { customerId: customerId(c), address: sentAddress(addressOf(c)) };
    });
    const orderIds = Array.from({ length: ORDER_SAMPLE }, () => orderId(below(orders, rand)));
    const newOrder = () => {
      const { customerId, address } = buyers[below(buyers.length, rand)]!;
      return JSON.stringify({ customerId, currency: 'EUR', lines: linesOf(rand).map(({ n, quantity }) => ({ sku: SKU_IDS[n]!, quantity })), address });
    };
    const samples = new Map<string, string>();
    const sampler = (route: string) => (status: number, body: string) => {
      if ((status < 200 || status > 299) && !samples.has(route)) samples.set(route, `${status} ${body.slice(0, 300)}`);
    };
    const firstPage = `/orders?status=paid&limit=${PAGE}`;
    // A connection's walk restarts from the first page after this many (autocannon holds one request object a page).
    const walk = Math.min(2000, Math.ceil(orders / 4 / PAGE) + 2);
    const url = service.url;
    log(`  load: ${CONNECTIONS} connections, ${WARMUP} s warm-up then ${SECONDS} s per route; ${COLD_ROUNDS} round(s) of the three routes after the start, reported apart, then ${ROUNDS} measured`);
    const routes: { readonly name: string; readonly writes?: true; readonly requests: (placing?: string) => AcRequest[] }[] = [
      {
        name: 'POST /orders',
        writes: true,
        requests: (placing = '/orders') => [{
          method: 'POST', path: placing, headers: { ...headers, 'content-type': 'application/json' }, onResponse: sampler('POST /orders'),
          setupRequest: (req) => ({ ...req, body: newOrder(), headers: { ...req.headers, 'idempotency-key': randomUUID() } }),
        }],
      },
      {
        name: 'GET /orders/{id}',
        requests: () => [{
          method: 'GET', headers, onResponse: sampler('GET /orders/{id}'),
          setupRequest: (req) => ({ ...req, path: `/orders/${orderIds[below(orderIds.length, rand)]}` }),
        }],
      },
      { name: `GET ${firstPage} (walk)`, requests: () => pageChain(firstPage, walk, headers, sampler('page')) },
    ];
    /** `count` rounds of the three routes, named `label` 1, 2, ...: each route's figures, the mean of its rounds. */
    const rounds = async (count: number, label: string): Promise<RouteFigures[]> => {
      const runs = routes.map((): RouteFigures[] => []);
      for (let round = 1; round <= count; round++) {
        for (const [i, route] of routes.entries()) {
          runs[i]!.push(await drive(url, route.name, route.requests, `${label} ${round}`));
          // What a write run leaves behind (projection work) is not billed to the next run.
          if (route.writes) await settle(url, headers, newOrder());
        }
      }
      return count > 0 ? runs.map((route) => meanOf(route, label)) : [];
    };
    const cold = await rounds(COLD_ROUNDS, 'start');
    const figures = await rounds(ROUNDS, 'round');
    if (ROUNDS > 1) log(`  the mean of ${ROUNDS} rounds: ${routes.map((route, i) => `${route.name} ${fmt(figures[i]!.rate)} req/s p99 ${figures[i]!.p99.toFixed(1)} ms`).join('; ')}`);
    const load = memory(pid);
    log(`  resident memory under load: peak ${load.hwm.toFixed(0)} MB (now ${load.rss.toFixed(0)} MB)`);
    for (const [route, sample] of samples) log(`  a failed ${route}: ${sample}`);

    const deep = await deepPage(url, headers, DEEP_PAGE);
    log(`  deep page ${fmt(deep.page)} of ${firstPage}, ${DEEP_SAMPLES} reads one at a time: p50 ${deep.p50.toFixed(2)} ms, p99 ${deep.p99.toFixed(2)} ms`);
    const feed = await feedCatchUp(url, headers);
    log(`  fulfilment feed from the start: ${fmt(feed.entries)} changes at ${fmt(feed.rate)} entries/s`);
    // The floor on the same files once this service has stopped (stopping it again below changes nothing); its placements join the log as the load's do.
    await stop(service);
    const floor = FLOOR ? await floorRounds(dir, routes, samples) : [];
    return {
      catchUpMs: first.readyMs, catchUpRate: newEvents / (first.readyMs / 1000), restartMs: readyMs, routes: figures, cold, floor, deep, feedRate: feed.rate,
      restMb: rest.rss, loadMb: load.hwm,
    };
  } catch (error) {
    console.error(tail(service));
    throw error;
  } finally {
    await stop(service);
  }
}

/** The service's routes driven alike on the floor (bench/http/floor.ts) on `dir`: each route's mean over ROUNDS rounds, after COLD_ROUNDS left out. */
async function floorRounds(dir: string, routes: readonly { readonly name: string; readonly requests: (placing?: string) => AcRequest[] }[], samples: ReadonlyMap<string, string>): Promise<RouteFigures[]> {
  const bare = await startFloor(dir, dir);
  servers.add(bare);
  try {
    await bare.ready;
    // As the service's: first the rounds on the process just started (its folds empty), which the mean leaves out.
    log(`  the floor (bare Koa, the stores' work alone; bench/http/floor.ts), ${COLD_ROUNDS} round(s) after its start, then ${ROUNDS} measured:`);
    const runs = routes.map((): RouteFigures[] => []);
    for (let round = 1 - COLD_ROUNDS; round <= ROUNDS; round++) {
      for (const [i, route] of routes.entries()) {
        const figures = await drive(bare.url, `floor: ${route.name}`, () => route.requests('/placements'), round > 0 ? `floor ${round}` : `floor start ${round + COLD_ROUNDS}`);
        if (round > 0) runs[i]!.push(figures);
      }
    }
    for (const [route, sample] of samples) log(`  a failed ${route}: ${sample}`);
    return runs.map((route) => meanOf(route, 'floor'));
  } catch (error) {
    console.error(tail(bare));
    throw error;
  } finally {
    await stop(bare);
  }
}

// ---- the run ----

const table = (rows: readonly Row[]): string => {
  const header = [
    'orders', 'events', 'preload events/s', 'ready after preload s (catch-up events/s)', 'ready on existing data s',
    'POST /orders req/s', 'p50 / p99 ms', 'GET /orders/{id} req/s', 'p50 / p99 ms', 'page walk req/s', 'p50 / p99 ms',
    'after the start: POST / GET / walk req/s (p99 ms)', 'floor: POST / GET / walk req/s (p99 ms)', 'deep page (n) p50 / p99 ms', 'feed entries/s', 'rebuild events/s', 'rebuild peak RSS MB', 'RSS at rest MB', 'RSS under load MB',
    'event store B/order', 'read models B/order',
  ];
  const ms = (f: { p50: number; p99: number }) => `${f.p50.toFixed(1)} / ${f.p99.toFixed(1)}`;
  const lines = rows.map((r) => [
    fmt(r.orders), fmt(r.events), fmt(r.preloadRate), `${seconds(r.catchUpMs)} (${fmt(r.catchUpRate)})`, seconds(r.restartMs),
    ...r.routes.flatMap((route) => [`${fmt(route.rate)}${route.failed ? ' (!)' : ''}`, ms(route)]),
    ...[r.cold, r.floor].map((runs) => (runs.length > 0 ? runs.map((route) => `${fmt(route.rate)}${route.failed ? ' (!)' : ''} (${route.p99.toFixed(1)})`).join(' / ') : 'not run')),
    `(${fmt(r.deep.page)}) ${r.deep.p50.toFixed(2)} / ${r.deep.p99.toFixed(2)}`, fmt(r.feedRate),
    r.rebuild ? `${fmt(r.rebuild.rate)}${r.rebuild.tries > 1 ? ` (try ${r.rebuild.tries})` : ''}` : 'failed', r.rebuild ? fmt(r.rebuild.peakMb) : '',
    fmt(r.restMb), fmt(r.loadMb), fmt(r.eventBytes), fmt(r.readBytes),
  ]);
  return [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
};

const dir = mkdtempSync(join(process.cwd(), '.bench-scale-'));
const rows: Row[] = [];
const began = performance.now();
let interrupted = false;

async function run(): Promise<void> {
  log(`bench:scale in ${dir}: sizes ${SIZES.map(fmt).join(', ')}; node ${process.version}`);
  let orders = 0;
  let placedByLoad = 0;
  let events = 0;
  // The first stretch of orders came in one a second up to now; each later one between the end of the last measurement and now.
  let lastMs = Date.now() - SIZES[0]! * 1000;
  let previous: { orders: number; events: number; rest: number } | null = null;
  for (const size of SIZES) {
    if (interrupted) return;
    // The disk must hold the next size, and a rebuild's second copy of the read models: half again to spare.
    const perOrder = rows.length > 0 ? rows.at(-1)!.eventBytes + rows.at(-1)!.readBytes : EXPECTED_BYTES_PER_ORDER;
    const need = perOrder * (size - orders) * 1.5;
    if (need > freeBytes(dir)) {
      log(`stopping before ${fmt(size)} orders: at ${fmt(perOrder)} bytes/order they need about ${(need / 1024 ** 3).toFixed(0)} GB more, ${(freeBytes(dir) / 1024 ** 3).toFixed(0)} GB are free`);
      break;
    }
    log(`--- ${fmt(size)} orders ---`);
    const loader = new Preloader(dir);
    // After every event in the log (the last load's orders among them), however quick the rebuild was.
    const endMs = Math.max(Date.now() - 1000, lastMs + 1000);
    if (orders > 0) {
      const reading = performance.now();
      await loader.readLevels();
      log(`  each SKU's stock levels read in ${seconds(performance.now() - reading)} s`);
    }
    const preloadBegan = performance.now();
    const before = loader.appended;
    if (orders === 0) await loader.setUp(lastMs);
    await loader.grow(orders, size, lastMs, endMs);
    const preloadMs = performance.now() - preloadBegan;
    const preloaded = loader.appended - before;
    log(`  preloaded ${fmt(size - orders)} orders, ${fmt(preloaded)} events in ${seconds(preloadMs)} s: ${fmt(preloaded / (preloadMs / 1000))} events/s, ${fmt((size - orders) / (preloadMs / 1000))} orders/s`);
    const finishing = performance.now();
    await loader.finish();
    log(`  stock snapshots and the reconciler's checkpoint in ${seconds(performance.now() - finishing)} s`);
    const customers = loader.customers;
    await loader.close();
    const logBefore = events;
    events = await logLength(dir);
    orders = size;

    const measured = await measure(dir, orders, customers, events - logBefore);
    lastMs = Date.now();
    placedByLoad += ordersPlacedAfter(dir, events);
    events = await logLength(dir);

    // Per order of the log: the preloaded ones and those the load placed. Beside it, per order added since the last size (the catalogue's share gone).
    const onDisk = disk(dir);
    const inLog = orders + placedByLoad;
    log(`  on disk: ${[...onDisk.files].filter(([, bytes]) => bytes > MB).map(([file, bytes]) => `${file} ${fmt(bytes / MB)} MB`).join(', ')} (${fmt(inLog)} orders in the log); free pages in them: ${freePages(dir)}`);
    if (previous) {
      const added = inLog - previous.orders;
      log(`  bytes per order added since ${fmt(previous.orders)}: event store ${fmt((onDisk.events - previous.events) / added)}, read models ${fmt((onDisk.rest - previous.rest) / added)}`);
    }
    previous = { orders: inLog, events: onDisk.events, rest: onDisk.rest };
    log('  projections rebuild (child process):');
    const rebuilt = await rebuildAll(dir);
    if (rebuilt) log(`  rebuilt every projection over ${fmt(events)} events in ${seconds(rebuilt.ms)} s: ${fmt(events / (rebuilt.ms / 1000))} events/s, peak RSS ${rebuilt.peakMb.toFixed(0)} MB`);
    rows.push({
      orders, events, preloadRate: preloaded / (preloadMs / 1000), ...measured, rebuild: rebuilt && { rate: events / (rebuilt.ms / 1000), peakMb: rebuilt.peakMb, tries: rebuilt.tries },
      eventBytes: onDisk.events / inLog, readBytes: onDisk.rest / inLog,
    });
  }
}

async function cleanup(): Promise<void> {
  for (const service of [...servers]) await stop(service).catch(() => undefined);
  rebuilding?.kill('SIGKILL');
  if (KEEP) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    console.error(`\n${signal}: stopping the children`);
    void cleanup().finally(() => process.exit(130));
  });
}

try {
  await run();
} catch (error) {
  if (!interrupted) {
    console.error(error instanceof Error ? error.stack : error);
    process.exitCode = 1;
  }
} finally {
  if (!interrupted) await cleanup();
}
if (rows.length > 0) {
  console.log(`\nbench:scale, embedded stores, ${CONNECTIONS} connections, ${SECONDS} s a route after ${WARMUP} s warm-up, the mean of ${ROUNDS} round(s) after ${COLD_ROUNDS} round(s) on the process just started; ${seconds(performance.now() - began)} s in all\n`);
  console.log(table(rows));
  if (rows.some((r) => [...r.routes, ...r.cold, ...r.floor].some((route) => route.failed))) console.log('\n(!): some requests of that run failed (see its progress line)');
  if (rows.length > 1) {
    const ratios = (pick: (row: Row) => readonly RouteFigures[]) => ['POST', 'GET', 'page'].map((name, i) => `${name} ${(pick(rows.at(-1)!)[i]!.p99 / pick(rows[0]!)[i]!.p99).toFixed(2)}`).join(', ');
    console.log(`\np99 at ${fmt(rows.at(-1)!.orders)} / p99 at ${fmt(rows[0]!.orders)}, measured rounds: ${ratios((row) => row.routes)}`);
    if (COLD_ROUNDS > 0) console.log(`p99 at ${fmt(rows.at(-1)!.orders)} / p99 at ${fmt(rows[0]!.orders)}, after the start: ${ratios((row) => row.cold)}`);
    if (FLOOR) console.log(`p99 at ${fmt(rows.at(-1)!.orders)} / p99 at ${fmt(rows[0]!.orders)}, the floor: ${ratios((row) => row.floor)}`);
  }
}
