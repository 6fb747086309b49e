// The chaos run: the service as a child process on the embedded stores, a mixed load from
// retrying clients and the example fulfilment worker, and SIGKILLs at random moments, each
// followed by a restart. At the end the stores are opened and checked: every acknowledged
// write is there with exactly its acknowledged effect, no idempotency key did anything twice,
// a key reused for another request (another order, another operation) was refused and acted
// for its first request only, the audit finds nothing, the read models equal a fresh replay,
// every paid order was shipped once, and the service's log holds no token, secret or address.
// Customers with personal data (a marker of their own in name, email, phone and addresses) order
// meanwhile, and some of them are erased during the kills: once the service has stopped, no file
// under DATA_DIR and no log line holds an erased customer's marker, and the others' personal data
// and orders read back as acknowledged.
// Aftercare clients work on their orders after payment (2027-01-01): they edit them before paying,
// ship them in parts, request returns, receive (restocking or not) or cancel them, cancel the rest
// of a partly shipped order and refund: each acknowledged change is there once, every order's
// lines and balance keep the contract's invariants, and every SKU's stock agrees with the orders.
//
// Webhooks: a receiver in this process (it outlives every kill) and a subscription to `*` made over
// the API before the load: at the end every acknowledged write that is a webhook event type has
// reached it, signed (standardwebhooks), the first arrivals of each order in its revisions' order;
// repeats of a webhook-id are counted, not failed (delivery is at least once).
//
// `npm run chaos` runs it in full (20 kills); tests/chaos/chaos.test.ts runs a short one.
// `topology: 'scaled'` runs the service scaled out instead, as separate processes with the kills
// spread over them (tests/chaos/deployments.ts).
import { defineProductsIn } from '../support/catalogue.js';
import { markersOnDisk } from '../support/disk-scan.js';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signDevToken } from '../../api/auth.js';
import { SqliteEventStore } from '../../write-side/adapters/sqlite-event-store.js';
import type { Position, RecordedEvent } from '../../write-side/kernel/event-store.js';
import { KEY_STREAM_PREFIX, keyStream } from '../../write-side/kernel/idempotency.js';
import { decodeStockEvent, STOCK_STREAM_PREFIX, stockStream } from '../../write-side/stock/codec.js';
import { evolveStock, initialStock } from '../../write-side/stock/decider.js';
import { orderDecider, PAYMENT_TIMEOUT } from '../../write-side/orders/decider.js';
import { decodeOrderEvent } from '../../write-side/orders/codec.js';
import { restocked, stockTargets } from '../../write-side/orders/rules.js';
import type { Order } from '../../write-side/orders/types.js';
import { Webhook } from 'standardwebhooks';
import { eventIdOf } from '../../workers/webhooks/messages.js';
import { ROOT, runScript } from '../support/service-process.js';
import { deployment, type TopologyMode } from './deployments.js';

export interface ChaosOptions {
  /** SIGKILLs of the service (each followed by a restart). */
  readonly kills: number;
  /** Concurrent clients, each placing and working on its own orders. */
  readonly clients?: number;
  /** Further clients that reuse each Idempotency-Key for another request (another order or operation). */
  readonly reusers?: number;
  /** Further clients that all buy one hot SKU with little stock, while a stock clerk receives more now and then. */
  readonly buyers?: number;
  /** Clients that work on their orders after payment: edits, partial shipments, returns, receipts, refunds. */
  readonly aftercare?: number;
  /** Customers with personal data, each ordering now and then; every other one is erased during the kills. */
  readonly subjects?: number;
  /** How long the service runs between a restart and the next kill, at random within. */
  readonly uptimeMs?: readonly [number, number];
  readonly seed?: number;
  /** One process running everything (the default), or the scaled-out processes. */
  readonly topology?: TopologyMode;
  /** Progress lines; the result lines are returned either way. */
  readonly log?: (line: string) => void;
  /** How long the end waits for the webhook receiver to have every expected message (5 min by default: a delivery a kill failed is retried 5 s, then 1 min on). */
  readonly webhookWaitMs?: number;
}

export interface ChaosCheck {
  readonly name: string;
  readonly passed: boolean;
  readonly detail: string;
}

export interface ChaosResult {
  readonly checks: readonly ChaosCheck[];
  readonly passed: number;
  readonly failed: number;
  readonly stats: {
    kills: number;
    requests: number;
    retries: number;
    acknowledged: number;
    reusedKeys: number;
    erasures: number;
    slowestRestartMs: number;
    soldOut: number;
    aftercare: number;
    /** Webhook messages the receiver got, repeats included; expected ones; repeats of a webhook-id; signatures that did not verify. */
    webhookMessages: number;
    webhookExpected: number;
    webhookDuplicates: number;
    webhookBadSignatures: number;
  };
}

const HOT_SKU = 'HOT-1';
const SCOPES = 'orders:read orders:write payments:write shipments:write refunds:write returns:write exports:write customers:write stock:read stock:write audit:read';
/** The aftercare clients' SKUs: SKU-A0…A4. */
const AFTERCARE_SKUS = Array.from({ length: 5 }, (_, i) => `SKU-A${i}`);
const SHOP = 'chaos-shop';
const WORKER = 'fulfilment-worker';
/** Written into every address, so that the log check can look for it. */
const ADDRESS_MARK = 'Chaoslane';

interface Placed {
  readonly key: string;
  readonly id: string;
  readonly body: string;
  readonly total: number;
}
interface Ack {
  readonly id: string;
  readonly what: 'address' | 'payment' | 'cancellation';
  /** The revision the response named (address, cancellation) or the payment's id. */
  readonly revision?: number;
  readonly line1?: string;
  readonly key?: string;
  readonly paymentId?: string;
  readonly amount?: number;
}
/** A customer with personal data: its marker is in its name, email and addresses, its phone's digits are a marker too. */
interface Subject {
  readonly n: number;
  readonly marker: string;
  readonly phoneDigits: string;
  readonly profile: { readonly email: string; readonly name: string; readonly phone: string; readonly defaultAddress: Record<string, string> };
  readonly id: string;
  /** Picked to be erased; `erasing` once its DELETE was sent, `erased` once acknowledged (204). */
  readonly erase: boolean;
  erasing: boolean;
  erased: boolean;
  readonly orders: { readonly id: string; readonly total: number; readonly line1: string }[];
}
/** A change after payment that was acknowledged, and what it must have left in its order's history. */
interface AfterAck {
  readonly orderId: string;
  readonly what: 'edit' | 'shipment' | 'return' | 'receipt' | 'return-cancellation' | 'refund';
  /** The edit's, shipment's, return's or refund's id. */
  readonly id: string;
}
/** One request to send again: its method, path and body. */
interface Sent {
  readonly method: 'POST';
  readonly path: string;
  readonly body: string;
}
/** A key used for a first request, then sent with other requests that had to be refused. */
interface Reuse {
  readonly key: string;
  /** The request that took the key, and what it answered. */
  readonly first: Sent;
  readonly status: number;
  readonly id: string;
  /** The stream it acted on. */
  readonly target: string;
  /** The requests refused with 422 for the key. */
  readonly refused: readonly Sent[];
}

/** The SKUs the clients order: the regular clients' SKU-0…6, the key reusers' SKU-R0…4 and SKU-R9. */
const CHAOS_PRODUCTS = Object.fromEntries(
  [...Array.from({ length: 7 }, (_, i) => `SKU-${i}`), ...Array.from({ length: 5 }, (_, i) => `SKU-R${i}`), 'SKU-R9', ...AFTERCARE_SKUS].map((sku, i) => [
    sku,
    { name: `Chaos ${sku}`, description: null, prices: { EUR: 500 + i }, status: 'active' as const },
  ]).concat([[HOT_SKU, { name: 'Chaos hot product', description: null, prices: { EUR: 100 }, status: 'active' as const }]]),
);

export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const log = options.log ?? (() => {});
  const clients = options.clients ?? 6;
  const reusers = options.reusers ?? 2;
  const buyers = options.buyers ?? 2;
  const subjectCount = options.subjects ?? 4;
  const aftercareClients = options.aftercare ?? 2;
  const [minUp, maxUp] = options.uptimeMs ?? [300, 1500];
  const random = mulberry32(options.seed ?? Date.now());
  const dataDir = mkdtempSync(join(tmpdir(), 'chaos-'));
  const secret = `chaos-${Math.floor(random() * 1e12)}-secret-that-is-long-enough`;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    AUTH_JWT_SECRET: secret,
    RATE_LIMIT_PER_SECOND: '1000000',
    RATE_LIMIT_BURST: '1000000',
    // The first administrator is made on a start: its password must never reach the log.
    ADMIN_EMAIL: 'chaos-admin@shop.example',
    ADMIN_PASSWORD: `chaos admin password ${Math.floor(random() * 1e12)}`,
    // Short, so that the payment timeout runs during the run (a payment later than it is refused, never acknowledged).
    PENDING_ORDER_TTL_SECONDS: '20',
    // The receiver is on the loopback address.
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  };
  const shopToken = await signDevToken(secret, { sub: SHOP, scope: SCOPES }, 3600);
  const workerToken = await signDevToken(secret, { sub: WORKER, scope: 'shipments:write' }, 3600);
  // The data protection officer, who erases customers and checks what is left of them.
  const dpo = { Authorization: `Bearer ${await signDevToken(secret, { sub: 'chaos-dpo', scope: 'customers:read customers:erase audit:read' }, 3600)}` };
  const hooksAdmin = { Authorization: `Bearer ${await signDevToken(secret, { sub: 'chaos-hooks-admin', scope: 'webhooks:admin' }, 3600)}` };
  const stats = { kills: 0, requests: 0, retries: 0, acknowledged: 0, reusedKeys: 0, erasures: 0, slowestRestartMs: 0, soldOut: 0, aftercare: 0, webhookMessages: 0, webhookExpected: 0, webhookDuplicates: 0, webhookBadSignatures: 0 };
  /** The aftercare clients' acknowledged cancellations (of an order or of what it had left to ship), with their revisions. */
  const aftercareCancellations: { readonly id: string; readonly revision: number }[] = [];
  const afterAcks: AfterAck[] = [];
  const outputs: string[] = [];
  const placed: Placed[] = [];
  const acks: Ack[] = [];
  const reuses: Reuse[] = [];
  const unexpected: string[] = [];
  const lostReads: string[] = [];
  const revisionsSeen = new Map<string, number>();

  await defineProductsIn(dataDir, CHAOS_PRODUCTS);
  // Started before the service, and in this process: it answers through every kill.
  const hooks = await webhookReceiver();
  const service = deployment(options.topology ?? 'single', env, port, [await freePort(), await freePort()]);
  await service.start();
  const worker = spawn(process.execPath, ['--import', 'tsx', 'examples/fulfilment-worker.ts', '--url', url, '--token', workerToken, '--state', join(dataDir, 'worker.position')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let workerOutput = '';
  worker.stdout.setEncoding('utf8').on('data', (chunk: string) => (workerOutput += chunk));
  worker.stderr.setEncoding('utf8').on('data', (chunk: string) => (workerOutput += chunk));

  /** One request, retried with the same key and body on connection failures, 429, 5xx and 409 idempotency-key-in-use. */
  async function send(method: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; json: any }> {
    const init = {
      method,
      // A current client: one Idempotency-Key, one request across every operation (the reusers rely on it).
      headers: { Authorization: `Bearer ${shopToken}`, 'Api-Version': '2026-12-01', ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    };
    for (let attempt = 0; ; attempt++) {
      stats.requests++;
      if (attempt > 0) stats.retries++;
      try {
        const response = await fetch(url + path, { ...init, signal: AbortSignal.timeout(15_000) });
        const text = await response.text();
        if (response.status === 429 || response.status >= 500 || (response.status === 409 && text.includes('idempotency-key-in-use'))) throw new Error(`status ${response.status}`);
        return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : null };
      } catch {
        await sleep(Math.min(50 * 2 ** attempt, 1000));
      }
    }
  }

  /** Stock adjustments acknowledged (201): the receipts of every SKU and the clerk's deliveries of the hot one. */
  const adjustments: { readonly sku: string; readonly id: string }[] = [];
  // Placing reserves stock: every SKU the clients order is received first (retried with its key until answered).
  for (const sku of [...Array.from({ length: 7 }, (_, i) => `SKU-${i}`), ...Array.from({ length: 5 }, (_, i) => `SKU-R${i}`), 'SKU-R9', ...AFTERCARE_SKUS]) {
    const { status, json } = await send('POST', `/stock/${sku}/adjustments`, { delta: 1_000_000, reason: 'received' }, { 'Idempotency-Key': `receive-${sku}` });
    if (status !== 201) unexpected.push(`receiving ${sku}: ${status}`);
    else adjustments.push({ sku, id: json.id as string });
  }

  // A payment for an order the payment timeout has cancelled is refused on its merits (409), before its key is looked at.
  const expiredOrder = (response: { status: number; json: any }) => response.status === 409 && response.json?.currentStatus === 'cancelled';
  const givenUp = (response: { status: number; json: any }) => response.status === 409 && String(response.json?.type).endsWith('/state-conflict');
  /** A problem's code and state, so that an unexpected answer says what it was. */
  const said = (response: { status: number; json: any }) =>
    [response.status, String(response.json?.type ?? '').split('/').pop(), response.json?.currentStatus].filter(Boolean).join(' ');
  const answered = (what: string, status: number, allowed: readonly number[], json?: unknown) => {
    if (!allowed.includes(status)) unexpected.push(`${what}: ${json === undefined ? status : said({ status, json })}`);
    return allowed.includes(status);
  };

  // The subscription, before any order is placed (a subscription gets what the log holds after its
  // creation); the same key on every retry, so that a creation a kill cut off is answered by its replay.
  const subscribed = await send('POST', '/webhook-subscriptions', { url: hooks.url, events: ['*'], description: 'chaos receiver' }, { ...hooksAdmin, 'Idempotency-Key': 'chaos-webhooks' });
  if (answered('POST /webhook-subscriptions', subscribed.status, [201], subscribed.json)) hooks.secret = subscribed.json.secret as string;

  async function readBack(id: string): Promise<void> {
    const { status, json } = await send('GET', `/orders/${id}`, undefined);
    const acknowledged = revisionsSeen.get(id) ?? 0;
    if (status !== 200) lostReads.push(`${id}: ${status}`);
    else if (json.revision < acknowledged) lostReads.push(`${id}: revision ${json.revision} after ${acknowledged} was acknowledged`);
  }

  const acknowledge = (id: string, revision: number) => {
    stats.acknowledged++;
    revisionsSeen.set(id, Math.max(revisionsSeen.get(id) ?? 0, revision));
  };

  /** One client's life: place an order, then work on it; all its requests retried until answered. */
  async function client(n: number, stop: () => boolean): Promise<void> {
    for (let i = 0; !stop(); i++) {
      const key = `place-${n}-${i}`;
      const order = {
        customerId: customerIds.get(`client-${n}`)!,
        currency: 'EUR',
        lines: [{ sku: `SKU-${i % 7}`, quantity: 1 + (i % 3) }],
        address: { name: `Person ${n}-${i}`, line1: `${i} ${ADDRESS_MARK}`, city: 'Berlin', postalCode: '10115', country: 'DE' },
      };
      const body = JSON.stringify(order);
      const response = await send('POST', '/orders', body, { 'Idempotency-Key': key });
      // A placement cut off by a kill after it reserved, and retried only after the service gave it
      // up (its reservations released): never acknowledged, so nothing is lost.
      if (givenUp(response)) continue;
      if (!answered('POST /orders', response.status, [201])) continue;
      const id = response.json.id as string;
      placed.push({ key, id, body, total: response.json.total });
      acknowledge(id, 0);
      await readBack(id);

      const roll = random();
      if (roll < 0.3) {
        const line1 = `${i} ${ADDRESS_MARK} ${Math.floor(random() * 1e6)}`;
        const patched = await send('PATCH', `/orders/${id}`, { address: { line1 } }, { 'Content-Type': 'application/merge-patch+json' });
        if (expiredOrder(patched)) continue;
        if (answered('PATCH /orders/{id}', patched.status, [200])) {
          acks.push({ id, what: 'address', revision: patched.json.revision, line1 });
          acknowledge(id, patched.json.revision);
        }
      }
      if (roll < 0.15) {
        const cancelled = await send('POST', `/orders/${id}/cancellation`, { reason: 'chaos' });
        if (answered('POST /orders/{id}/cancellation', cancelled.status, [200])) {
          acks.push({ id, what: 'cancellation', revision: cancelled.json.revision });
          acknowledge(id, cancelled.json.revision);
        }
      } else if (roll < 0.85) {
        const payKey = `pay-${id}`;
        const paid = await send('POST', `/orders/${id}/payments`, { amount: response.json.total, reference: `psp-${n}-${i}` }, { 'Idempotency-Key': payKey });
        // Past the payment timeout (a run of kills and restarts can take that long) the order is cancelled: refused, not acknowledged.
        if (paid.status === 409 && paid.json?.currentStatus === 'cancelled') continue;
        if (answered('POST /orders/{id}/payments', paid.status, [201])) {
          acks.push({ id, what: 'payment', key: payKey, paymentId: paid.json.id, amount: paid.json.amount });
          stats.acknowledged++;
        }
      }
      await readBack(id);
    }
  }

  /** Places an order of its own under a fresh key, for a reuser to pay; null when it was not placed. */
  async function placeFor(n: number, i: number, tag: string): Promise<{ id: string; total: number } | null> {
    const key = `reuse-place-${n}-${i}-${tag}`;
    const order = {
      customerId: customerIds.get(`reuser-${n}`)!,
      currency: 'EUR',
      lines: [{ sku: `SKU-R${i % 5}`, quantity: 1 }],
      address: { name: `Reuser ${n}-${i}`, line1: `${i} ${ADDRESS_MARK}`, city: 'Berlin', postalCode: '10115', country: 'DE' },
    };
    const body = JSON.stringify(order);
    const response = await send('POST', '/orders', body, { 'Idempotency-Key': key });
    if (givenUp(response)) return null;
    if (!answered('POST /orders', response.status, [201])) return null;
    placed.push({ key, id: response.json.id, body, total: response.json.total });
    acknowledge(response.json.id, 0);
    return { id: response.json.id, total: response.json.total };
  }

  const payment = (id: string, total: number, reference: string): Sent => ({ method: 'POST', path: `/orders/${id}/payments`, body: JSON.stringify({ amount: total, reference }) });
  const exportOf = (format: 'csv' | 'ndjson'): Sent => ({ method: 'POST', path: '/exports', body: JSON.stringify({ format, filter: { status: 'cancelled' } }) });
  const placement = (n: number, i: number): Sent => ({
    method: 'POST',
    path: '/orders',
    body: JSON.stringify({ customerId: customerIds.get(`reuser-${n}`)!, currency: 'EUR', lines: [{ sku: 'SKU-R9', quantity: 1 }], address: { name: `Reuser ${n}`, line1: `${i} ${ADDRESS_MARK}`, city: 'Berlin', postalCode: '10115', country: 'DE' } }),
  });
  const sendKeyed = (request: Sent, key: string) => send(request.method, request.path, request.body, { 'Idempotency-Key': key });
  /** The stream a first request acted on, from its answer. */
  const targetOf = (request: Sent, json: any) => (request.path === '/exports' ? `job-${json.id}` : request.path === '/orders' ? `order-${json.id}` : `order-${json.orderId}`);

  /** Sends the first request, then each other one with the same key, which must be refused. */
  async function firstThenRefused(key: string, first: Sent, others: readonly Sent[]): Promise<void> {
    const answer = await sendKeyed(first, key);
    // An order the payment timeout cancelled while the kills went on refuses its payment: nothing acknowledged, nothing to check.
    if (expiredOrder(answer)) return;
    if (!answered(`${first.method} ${first.path} (a key's first request)`, answer.status, [first.path === '/exports' ? 202 : 201], answer.json)) return;
    stats.acknowledged++;
    const refused: Sent[] = [];
    for (const other of others) {
      const reused = await sendKeyed(other, key);
      if (expiredOrder(reused)) continue;
      if (answered(`${other.method} ${other.path} with a key used for ${first.path}`, reused.status, [422]) && reused.json?.type?.endsWith('/idempotency-key-reused')) refused.push(other);
      else if (reused.status === 422) unexpected.push(`${other.path}: 422 ${reused.json?.type}`);
    }
    reuses.push({ key, first, status: answer.status, id: answer.json.id, target: targetOf(first, answer.json), refused });
  }

  /** A client that uses each key for a first request and then for others: another order, another operation, or both at once. */
  async function reuser(n: number, stop: () => boolean): Promise<void> {
    for (let i = 0; !stop(); i++) {
      const key = `reused-${n}-${i}`;
      const roll = random();
      const x = await placeFor(n, i, 'x');
      const y = await placeFor(n, i, 'y');
      if (!x || !y) continue;
      if (roll < 0.3) {
        // Pays one order, then the key is sent to pay another, to place an order and to export.
        await firstThenRefused(key, payment(x.id, x.total, `psp-${key}`), [payment(y.id, y.total, `psp-${key}`), placement(n, i), ...(roll < 0.05 ? [exportOf('ndjson')] : [])]);
      } else if (roll < 0.5) {
        // Places an order, then the key is sent to pay another.
        await firstThenRefused(key, placement(n, i), [payment(y.id, y.total, `psp-${key}`)]);
      } else if (roll < 0.6) {
        // Starts an export, then the key is sent to pay an order and to place one.
        await firstThenRefused(key, exportOf('csv'), [payment(x.id, x.total, `psp-${key}`), placement(n, i)]);
      } else {
        // The same key pays two orders at once: one is paid, the other refused.
        const [a, b] = [payment(x.id, x.total, `psp-${key}`), payment(y.id, y.total, `psp-${key}`)];
        const answers = await Promise.all([sendKeyed(a, key), sendKeyed(b, key)]);
        const won = answers.findIndex((r) => r.status === 201);
        const lost = answers.findIndex((r) => r.status === 422);
        // An order the payment timeout cancelled refuses its payment before the key is taken, so
        // the other payment, if its order is live, is the key's first request and must succeed.
        const expired = answers.findIndex((r) => expiredOrder(r));
        const bothExpired = expired !== -1 && answers.every((r) => expiredOrder(r));
        if (bothExpired) continue;
        if (won === -1 || (lost === -1 && expired === -1) || won === lost) {
          unexpected.push(`two payments with one key: ${answers.map(said).join(' and ')}`);
          continue;
        }
        stats.acknowledged++;
        const winner = [a, b][won]!;
        reuses.push({ key, first: winner, status: 201, id: answers[won]!.json.id, target: targetOf(winner, answers[won]!.json), refused: lost === -1 ? [] : [[a, b][lost]!] });
      }
    }
  }

  /** Placements of the hot SKU acknowledged (201), by id. */
  const hotOrders: string[] = [];
  const hotReceipt = await send('POST', `/stock/${HOT_SKU}/adjustments`, { delta: 5, reason: 'received' }, { 'Idempotency-Key': 'receive-hot' });
  if (hotReceipt.status !== 201) unexpected.push(`receiving ${HOT_SKU}: ${hotReceipt.status}`);
  else adjustments.push({ sku: HOT_SKU, id: hotReceipt.json.id as string });

  /** A buyer of the hot SKU: placed (201) or refused for want of stock (409); some cancel, some pay. */
  async function buyer(n: number, stop: () => boolean): Promise<void> {
    for (let i = 0; !stop(); i++) {
      const order = { customerId: `cus_h${n}`, currency: 'EUR', lines: [{ sku: HOT_SKU, quantity: 1 }], address: { name: `Buyer ${n}`, line1: `${i} ${ADDRESS_MARK}`, city: 'Berlin', postalCode: '10115', country: 'DE' } };
      const body = JSON.stringify(order);
      const key = `hot-${n}-${i}`;
      // Guest buyers: an older client (2026-11-01), for which a customer id needs no record.
      const response = await send('POST', '/orders', body, { 'Idempotency-Key': key, 'Api-Version': '2026-11-01' });
      if (givenUp(response)) continue;
      if (response.status === 409 && String(response.json?.type).endsWith('/insufficient-stock')) {
        stats.soldOut++;
        await sleep(50);
        continue;
      }
      if (!answered('POST /orders (hot SKU)', response.status, [201])) continue;
      const id = response.json.id as string;
      hotOrders.push(id);
      placed.push({ key, id, body, total: response.json.total });
      acknowledge(id, 0);
      if (random() < 0.5) {
        const cancelled = await send('POST', `/orders/${id}/cancellation`, { reason: 'chaos' });
        if (answered('POST /orders/{id}/cancellation (hot SKU)', cancelled.status, [200])) {
          acks.push({ id, what: 'cancellation', revision: cancelled.json.revision });
          acknowledge(id, cancelled.json.revision);
        }
      } else {
        const payKey = `pay-${id}`;
        const paid = await send('POST', `/orders/${id}/payments`, { amount: response.json.total, reference: `psp-${key}` }, { 'Idempotency-Key': payKey });
        if (paid.status === 409 && paid.json?.currentStatus === 'cancelled') continue;
        if (answered('POST /orders/{id}/payments (hot SKU)', paid.status, [201])) {
          acks.push({ id, what: 'payment', key: payKey, paymentId: paid.json.id, amount: paid.json.amount });
          stats.acknowledged++;
        }
      }
    }
  }

  /** The stock clerk: receives a little more of the hot SKU now and then. */
  async function clerk(stop: () => boolean): Promise<void> {
    for (let i = 0; !stop(); i++) {
      await sleep(100 + random() * 200);
      const response = await send('POST', `/stock/${HOT_SKU}/adjustments`, { delta: 2, reason: 'received', note: `delivery ${i}` }, { 'Idempotency-Key': `clerk-${i}` });
      if (answered('POST /stock/{sku}/adjustments', response.status, [201])) {
        adjustments.push({ sku: HOT_SKU, id: response.json.id as string });
        stats.acknowledged++;
      }
    }
  }

  /**
   * A customer with personal data ordering now and then, at a gentler pace than the clients. Once
   * its erasure is sent, a placement is refused (422 unknown-customer) or was made just before;
   * once the erasure is acknowledged, it orders no more.
   */
  async function subjectClient(subject: Subject, stop: () => boolean): Promise<void> {
    for (let i = 0; !stop() && !subject.erased; i++) {
      await sleep(100 + random() * 200);
      const line1 = `${i} ${subject.marker} Road`;
      const key = `subject-${subject.n}-${i}`;
      const body = JSON.stringify({ customerId: subject.id, currency: 'EUR', lines: [{ sku: `SKU-${i % 7}`, quantity: 1 }], address: { ...subject.profile.defaultAddress, line1 } });
      const response = await send('POST', '/orders', body, { 'Idempotency-Key': key });
      if (givenUp(response)) continue;
      if (subject.erasing && response.status === 422 && String(response.json?.type).endsWith('/unknown-customer')) break;
      if (!answered('POST /orders (a customer with personal data)', response.status, [201], response.json)) continue;
      const id = response.json.id as string;
      placed.push({ key, id, body, total: response.json.total });
      subject.orders.push({ id, total: response.json.total, line1 });
      acknowledge(id, 0);
      if (random() < 0.5) {
        const payKey = `pay-${id}`;
        const paid = await send('POST', `/orders/${id}/payments`, { amount: response.json.total, reference: `psp-${key}` }, { 'Idempotency-Key': payKey });
        if (expiredOrder(paid)) continue;
        if (answered('POST /orders/{id}/payments (a customer with personal data)', paid.status, [201], paid.json)) {
          acks.push({ id, what: 'payment', key: payKey, paymentId: paid.json.id, amount: paid.json.amount });
          stats.acknowledged++;
        }
      }
    }
  }

  /**
   * A client that works on its orders after payment, as a shop does: sometimes edits an order
   * before paying, pays, ships part of it (racing the fulfilment worker, which ships what remains),
   * sometimes cancels the rest, requests a return of a shipped unit, receives it (restocking or
   * not) or cancels it, and refunds. Every change is sent as a current client (2027-01-01). A
   * refusal the race explains (the worker shipped first, the payment timeout cancelled) is not
   * acknowledged; a receipt or a return's cancellation answered 409 with the state it asked for
   * was made by an attempt a kill cut off before its answer, so it is acknowledged.
   */
  async function aftercareClient(n: number, stop: () => boolean): Promise<void> {
    const v = { 'Api-Version': '2027-01-01' };
    const ack = (orderId: string, what: AfterAck['what'], id: string) => {
      afterAcks.push({ orderId, what, id });
      stats.acknowledged++;
      stats.aftercare++;
    };
    for (let i = 0; !stop(); i++) {
      const key = `after-${n}-${i}`;
      const skus = [AFTERCARE_SKUS[i % 5]!, AFTERCARE_SKUS[(i + 1 + n) % 5]!].filter((sku, k, all) => all.indexOf(sku) === k);
      const body = JSON.stringify({
        customerId: customerIds.get(`aftercare-${n}`)!,
        currency: 'EUR',
        lines: skus.map((sku, k) => ({ sku, quantity: 2 + ((i + k) % 3) })),
        address: { name: `Aftercare ${n}-${i}`, line1: `${i} ${ADDRESS_MARK}`, city: 'Berlin', postalCode: '10115', country: 'DE' },
      });
      const response = await send('POST', '/orders', body, { 'Idempotency-Key': key });
      if (givenUp(response)) continue;
      if (!answered('POST /orders (aftercare)', response.status, [201], response.json)) continue;
      const id = response.json.id as string;
      placed.push({ key, id, body, total: response.json.total });
      acknowledge(id, 0);
      let total = response.json.total as number;
      if (random() < 0.3) {
        // The complete new set of lines: one quantity changed, and a SKU added.
        const lines = [{ sku: skus[0]!, quantity: 1 + Math.floor(random() * 4) }, { sku: AFTERCARE_SKUS[(i + 3) % 5]!, quantity: 1 }].filter((l, k, all) => all.findIndex((x) => x.sku === l.sku) === k);
        const edited = await send('POST', `/orders/${id}/edits`, { lines }, { ...v, 'Idempotency-Key': `edit-${id}` });
        if (edited.status === 201) {
          ack(id, 'edit', edited.json.id);
          total = (edited.json.after as { lineTotal: number }[]).reduce((sum, line) => sum + line.lineTotal, 0);
        } else if (!expiredOrder(edited)) answered('POST /orders/{id}/edits', edited.status, [201], edited.json);
      }
      const paid = await send('POST', `/orders/${id}/payments`, { amount: total, reference: `psp-${key}` }, { 'Idempotency-Key': `pay-${id}` });
      if (expiredOrder(paid) || !answered('POST /orders/{id}/payments (aftercare)', paid.status, [201], paid.json)) continue;
      acks.push({ id, what: 'payment', key: `pay-${id}`, paymentId: paid.json.id, amount: paid.json.amount });
      stats.acknowledged++;
      // One unit of the first line that has two or more left; the worker may have shipped it all first.
      const order = await send('GET', `/orders/${id}`, undefined, v);
      const open = (order.json?.lines as { sku: string; quantity: number; shipped: number; cancelled: number }[] | undefined)?.find((l) => l.quantity - l.cancelled - l.shipped >= 2);
      if (open) {
        const shipped = await send('POST', `/orders/${id}/shipments`, { carrier: 'DHL', trackingNumber: `A${n}-${i}`, lines: [{ sku: open.sku, quantity: 1 }] }, { ...v, 'Idempotency-Key': `ship-${id}` });
        if (shipped.status === 201) ack(id, 'shipment', shipped.json.id);
        else if (!(shipped.status === 409 && /quantity-unavailable|state-conflict/.test(String(shipped.json?.type)))) answered('POST /orders/{id}/shipments with lines', shipped.status, [201], shipped.json);
      }
      if (random() < 0.2) {
        // The rest of a partly shipped order cancelled (or the whole order, when the worker has not shipped yet).
        const cancelled = await send('POST', `/orders/${id}/cancellation`, { reason: 'aftercare' }, v);
        if (cancelled.status === 200) {
          aftercareCancellations.push({ id, revision: cancelled.json.revision });
          acknowledge(id, cancelled.json.revision);
        }
        else if (!(cancelled.status === 409 && cancelled.json?.currentStatus === 'shipped')) answered('POST /orders/{id}/cancellation (aftercare)', cancelled.status, [200], cancelled.json);
      }
      const now = await send('GET', `/orders/${id}`, undefined, v);
      const back = (now.json?.lines as { sku: string; shipped: number; returned: number }[] | undefined)?.find((l) => l.shipped > l.returned);
      if (back) {
        const requested = await send('POST', `/orders/${id}/returns`, { lines: [{ sku: back.sku, quantity: 1 }], reason: 'chaos' }, { ...v, 'Idempotency-Key': `return-${id}` });
        if (answered('POST /orders/{id}/returns', requested.status, [201], requested.json)) {
          const returnId = requested.json.id as string;
          ack(id, 'return', returnId);
          if (random() < 0.7) {
            const received = await send('POST', `/orders/${id}/returns/${returnId}/receipt`, { lines: [{ sku: back.sku, quantity: 1, restock: random() < 0.5 }] }, v);
            if (received.status === 200 || (received.status === 409 && received.json?.currentStatus === 'received')) ack(id, 'receipt', returnId);
            else answered('POST /orders/{id}/returns/{returnId}/receipt', received.status, [200], received.json);
          } else {
            const dropped = await send('POST', `/orders/${id}/returns/${returnId}/cancellation`, undefined, v);
            if (dropped.status === 200 || (dropped.status === 409 && dropped.json?.currentStatus === 'cancelled')) ack(id, 'return-cancellation', returnId);
            else answered('POST /orders/{id}/returns/{returnId}/cancellation', dropped.status, [200], dropped.json);
          }
        }
      }
      if (random() < 0.6) {
        const refunded = await send('POST', `/orders/${id}/refunds`, { amount: 1 + Math.floor(random() * 600), reason: 'goodwill' }, { ...v, 'Idempotency-Key': `refund-${id}` });
        if (refunded.status === 201) ack(id, 'refund', refunded.json.id);
        else if (!(refunded.status === 409 && String(refunded.json?.type).endsWith('/refund-exceeds-payment'))) answered('POST /orders/{id}/refunds', refunded.status, [201], refunded.json);
      }
    }
  }

  /** Erases the customers picked for it, spread over the kills, each at a random moment of an uptime; retried until acknowledged. */
  async function eraser(): Promise<void> {
    const targets = subjects.filter((s) => s.erase);
    for (const [j, subject] of targets.entries()) {
      const afterKill = Math.floor((j * options.kills) / targets.length);
      while (stats.kills < afterKill && !stopping) await sleep(50);
      await sleep(random() * maxUp);
      subject.erasing = true;
      const response = await send('DELETE', `/customers/${subject.id}`, undefined, dpo);
      if (answered('DELETE /customers/{id}', response.status, [204], response.json)) {
        subject.erased = true;
        stats.erasures++;
        stats.acknowledged++;
      }
    }
  }

  // Under 2026-12-01 an order's customer must exist: each client orders for a customer of its own.
  const customerIds = new Map<string, string>();
  for (const who of [
    ...Array.from({ length: clients }, (_, n) => `client-${n}`),
    ...Array.from({ length: reusers }, (_, n) => `reuser-${n}`),
    ...Array.from({ length: aftercareClients }, (_, n) => `aftercare-${n}`),
  ]) {
    const registered = await send('POST', '/customers', { email: `${who}@chaos.example`, name: `Chaos ${who}` }, { 'Idempotency-Key': `customer-${who}` });
    if (answered(`POST /customers for ${who}`, registered.status, [201])) customerIds.set(who, registered.json.id as string);
  }
  const subjects: Subject[] = [];
  for (let n = 0; n < subjectCount; n++) {
    const marker = `ers${Math.floor(random() * 2 ** 48).toString(16).padStart(12, '0')}${n}`;
    const phoneDigits = String(Math.floor(random() * 1e12)).padStart(12, '7');
    const profile = {
      email: `${marker}@chaos.example`,
      name: `Private ${marker}`,
      phone: `+49 ${phoneDigits}`,
      defaultAddress: { name: `Private ${marker}`, line1: `1 ${marker} Lane`, city: 'Berlin', postalCode: '10115', country: 'DE' },
    };
    const registered = await send('POST', '/customers', profile, { 'Idempotency-Key': `subject-${n}` });
    if (!answered(`POST /customers for subject ${n}`, registered.status, [201])) continue;
    subjects.push({ n, marker, phoneDigits, profile, id: registered.json.id as string, erase: n % 2 === 0, erasing: false, erased: false, orders: [] });
  }

  let stopping = false;
  const load = [
    ...Array.from({ length: clients }, (_, n) => client(n, () => stopping)),
    ...Array.from({ length: reusers }, (_, n) => reuser(n, () => stopping)),
    ...Array.from({ length: buyers }, (_, n) => buyer(n, () => stopping)),
    ...Array.from({ length: aftercareClients }, (_, n) => aftercareClient(n, () => stopping)),
    clerk(() => stopping),
    ...subjects.map((subject) => subjectClient(subject, () => stopping)),
    eraser(),
  ];

  let lastRestart = Date.now();
  try {
    for (let kill = 1; kill <= options.kills; kill++) {
      await sleep(minUp + random() * (maxUp - minUp));
      const before = stats.acknowledged;
      const killedAt = performance.now();
      const killed = await service.killOne(random);
      lastRestart = Date.now();
      // From the SIGKILL to the new process being up: what a start-up timeout must allow on a busy machine.
      const restartMs = performance.now() - killedAt;
      stats.slowestRestartMs = Math.max(stats.slowestRestartMs, restartMs);
      stats.kills++;
      log(`kill ${kill}/${options.kills}: ${killed}, ${before} acknowledged writes so far; restarted in ${(restartMs / 1000).toFixed(1)} s`);
    }
    stopping = true;
    await Promise.all(load);

    // Every acknowledged placement and payment again, after all the crashes: each is answered
    // from its first outcome and nothing new is written.
    const replays: string[] = [];
    for (const p of placed) {
      const again = await send('POST', '/orders', p.body, { 'Idempotency-Key': p.key });
      if (again.status !== 201 || again.json.id !== p.id || again.headers.get('idempotent-replayed') !== 'true') replays.push(`${p.key}: ${again.status} ${again.json?.id}`);
    }
    for (const a of acks.filter((x) => x.what === 'payment')) {
      const order = placed.find((p) => p.id === a.id)!;
      const reference = order.key.startsWith('place-') ? `psp-${order.key.slice('place-'.length)}` : `psp-${order.key}`;
      // The amount it paid: an order edited before its payment paid its new total.
      const again = await send('POST', `/orders/${a.id}/payments`, { amount: a.amount, reference }, { 'Idempotency-Key': a.key! });
      if (again.status !== 201 || again.json.id !== a.paymentId || again.headers.get('idempotent-replayed') !== 'true') replays.push(`${a.key}: ${again.status} ${again.json?.id}`);
    }

    // Every reused key, sent again with its first request and with the refused ones.
    stats.reusedKeys = reuses.length;
    for (const r of reuses) {
      const again = await sendKeyed(r.first, r.key);
      if (again.status !== r.status || again.json.id !== r.id || again.headers.get('idempotent-replayed') !== 'true') replays.push(`${r.key}: ${again.status} ${again.json?.id}`);
      for (const other of r.refused) {
        const refused = await sendKeyed(other, r.key);
        if (refused.status !== 422 && !expiredOrder(refused)) replays.push(`${r.key} for ${other.path}: ${refused.status}`);
      }
    }

    // The worker has shipped every paid order once the queue is empty and stays so.
    const drained = await waitUntil(async () => {
      const queue = await send('GET', '/fulfilment-queue?limit=1', undefined, { Authorization: `Bearer ${shopToken}` });
      return queue.status === 200 && queue.json.items.length === 0;
    }, 60_000);
    // The stock reconciler repairs what a kill cut off between an order's and its SKUs' streams,
    // but only once its process has been up for its orphan window (30 s) and on its next pass
    // (5 s): kills that come faster never give it that. The audit excuses what changed in its
    // last 60 s; everything older must have been repaired, so the last restart gets that long.
    await sleep(Math.max(0, lastRestart + 40_000 - Date.now()));
    const hotLevels = await send('GET', `/stock/${HOT_SKU}`, undefined);
    // Addresses are sealed in the log: what each acknowledged change wrote is read back opened, as of its revision.
    const addressAt = new Map<string, string | null>();
    for (const a of acks) {
      if (a.what !== 'address') continue;
      const read = await send('GET', `/orders/${a.id}?revision=${a.revision}`, undefined);
      addressAt.set(`${a.id}@${a.revision}`, read.status === 200 ? (read.json.address?.line1 ?? null) : null);
    }
    // What is left of each customer with personal data, through the API: an erased one and its
    // orders read with every personal member null (the rest intact) and it cannot order again; the
    // others read as they were registered, their orders with their acknowledged addresses.
    const subjectFindings: string[] = [];
    for (const subject of subjects) {
      const customer = await send('GET', `/customers/${subject.id}`, undefined, dpo);
      const { email, name, phone, defaultAddress, status } = customer.json ?? {};
      if (subject.erase) {
        if (customer.status !== 200 || status !== 'erased' || [email, name, phone, defaultAddress].some((v) => v !== null)) subjectFindings.push(`erased customer ${subject.n}: ${customer.status} ${status}`);
      } else if (customer.status !== 200 || JSON.stringify({ email, name, phone, defaultAddress: pick(defaultAddress, Object.keys(subject.profile.defaultAddress)) }) !== JSON.stringify(subject.profile)) {
        subjectFindings.push(`customer ${subject.n}: ${customer.status} ${JSON.stringify(customer.json)}`);
      }
      for (const order of subject.orders) {
        const read = await send('GET', `/orders/${order.id}`, undefined);
        const address = read.json?.address as Record<string, unknown> | undefined;
        const intact = read.status === 200 && read.json.total === order.total && read.json.customerId === subject.id;
        const personal = subject.erase ? address !== undefined && Object.values(address).every((v) => v === null) : address?.line1 === order.line1;
        if (!intact || !personal) subjectFindings.push(`order ${order.id} of ${subject.erase ? 'erased ' : ''}customer ${subject.n}: ${read.status} ${JSON.stringify(address)}`);
      }
      if (subject.erase) {
        const again = await send('POST', '/orders', { customerId: subject.id, currency: 'EUR', lines: [{ sku: 'SKU-0', quantity: 1 }], address: subject.profile.defaultAddress }, { 'Idempotency-Key': `subject-${subject.n}-after` });
        if (again.status !== 422) subjectFindings.push(`erased customer ${subject.n} ordered again: ${again.status}`);
        const first = subject.orders[0];
        const history = first && (await send('GET', `/orders/${first.id}/history?limit=100`, undefined, dpo));
        if (history && !history.json?.items?.some((e: { type: string }) => e.type === 'CustomerErased')) subjectFindings.push(`history of ${first.id} without CustomerErased`);
      }
    }
    // Every acknowledged write that is a webhook event, as the harness recorded it; the receiver must
    // have a message for each before the service stops (deliveries a kill cut off are sent again
    // after the restart, or 5 s, 1 min … later for an attempt recorded as failed).
    const expectedHooks: ExpectedHook[] = [
      ...placed.map((p) => ({ orderId: p.id, type: 'order.placed', what: `placement ${p.key}` })),
      ...acks.map((a) => ({ orderId: a.id, type: ({ address: 'order.address_changed', payment: 'order.paid', cancellation: 'order.cancelled' } as const)[a.what], revision: a.revision, what: `${a.what} of ${a.id}${a.what === 'payment' ? '' : ` at ${a.revision}`}` })),
      ...aftercareCancellations.map((c) => ({ orderId: c.id, type: 'order.cancelled', revision: c.revision, what: `aftercare cancellation of ${c.id} at ${c.revision}` })),
      ...afterAcks.flatMap((a) => {
        const type = ({ edit: 'order.edited', shipment: 'order.shipped', return: 'return.requested', receipt: 'return.received', 'return-cancellation': null, refund: 'order.refunded' } as const)[a.what];
        return type === null ? [] : [{ orderId: a.orderId, type, what: `${a.what} ${a.id} of ${a.orderId}`, after: a }];
      }),
      ...reuses.flatMap((r) => (r.first.path === '/exports' ? [] : [{ orderId: r.target.slice('order-'.length), type: r.first.path === '/orders' ? 'order.placed' : 'order.paid', what: `${r.key}'s first request` }])),
      ...subjects.filter((s) => s.erased).map((s) => ({ customerId: s.id, type: 'customer.erased', what: `erasure of customer ${s.n}` })),
    ];
    stats.webhookExpected = expectedHooks.length;
    const hooksWaitStarted = Date.now();
    const hooksArrived = await waitUntil(async () => hookShortfall(expectedHooks, hooks.received).length === 0, options.webhookWaitMs ?? 300_000);
    log(`webhooks: ${hooks.received.length} messages received, ${expectedHooks.length} expected, ${hooksArrived ? 'all there' : 'not all there'} after waiting ${((Date.now() - hooksWaitStarted) / 1000).toFixed(1)} s`);
    worker.kill('SIGTERM');
    const stoppedAt = Date.now();
    const codes = await service.stop();
    outputs.push(service.output());
    await new Promise((r) => (worker.exitCode !== null || worker.signalCode !== null ? r(null) : worker.once('exit', r)));

    const history = await readHistory(join(dataDir, 'events.sqlite3'), ['order-']);
    const stock = await readHistory(join(dataDir, 'events.sqlite3'), [STOCK_STREAM_PREFIX]);
    const stockHistory = stock.get(stockStream(HOT_SKU)) ?? [];
    const keyed = await readHistory(join(dataDir, 'events.sqlite3'), ['job-', KEY_STREAM_PREFIX]);
    const accounts = await readHistory(join(dataDir, 'events.sqlite3'), ['account-']);
    const checks: ChaosCheck[] = [];
    const check = (name: string, failures: readonly string[], passedDetail = '') =>
      checks.push({ name, passed: failures.length === 0, detail: failures.length === 0 ? passedDetail : `${failures.length}: ${failures.slice(0, 5).join('; ')}` });

    check(`the service was killed ${options.kills} times and came back each time`, stats.kills === options.kills ? [] : [`${stats.kills} kills`], `${stats.requests} requests, ${stats.retries} retried`);
    check('the last stop on SIGTERM was clean', codes.every((code) => code === 0) ? [] : [`exit codes ${codes.join(', ')}`]);
    check('no request got an answer it should not have', unexpected);
    check('no read missed an acknowledged write', lostReads);
    check(
      'every acknowledged placement is there, once, with its idempotency key',
      placed.flatMap((p) => {
        const events = history.get(`order-${p.id}`) ?? [];
        const first = events[0];
        return first?.type === 'OrderPlaced' && first.metadata.idempotency?.key === p.key && (first.data as { total: number }).total === p.total ? [] : [`${p.key} → ${p.id}`];
      }),
      `${placed.length} orders`,
    );
    check(
      'every acknowledged address change, payment and cancellation is there with its effect',
      acks.flatMap((a) => {
        const events = history.get(`order-${a.id}`) ?? [];
        if (a.what === 'address') {
          const event = events[a.revision!];
          return event?.type === 'OrderAddressChanged' && addressAt.get(`${a.id}@${a.revision}`) === a.line1 ? [] : [`address of ${a.id} at ${a.revision}`];
        }
        if (a.what === 'cancellation') return events[a.revision!]?.type === 'OrderCancelled' ? [] : [`cancellation of ${a.id} at ${a.revision}`];
        const payments = events.filter((e) => e.type === 'PaymentRecorded');
        const data = payments[0]?.data as { paymentId: string; amount: number } | undefined;
        return payments.length === 1 && data?.paymentId === a.paymentId && data?.amount === a.amount ? [] : [`payment ${a.key}`];
      }),
      `${acks.length} changes`,
    );
    check('every acknowledged placement, payment and reused key, sent again, is answered from its first outcome (or refused again)', replays);
    check('every reused key was refused for other requests and acted once, on its first request\'s stream', reusedKeysActedOnce(reuses, history, keyed), `${reuses.length} keys, ${reuses.reduce((n, r) => n + r.refused.length, 0)} refusals`);
    check('no idempotency key produced a second order, payment or shipment', duplicateEffects(history));
    const created = [...accounts.values()].filter((events) => events.some((e) => e.type === 'AccountCreated'));
    check('however the starts were killed, ADMIN_EMAIL made exactly one administrator', created.length === 1 ? [] : [`${created.length} accounts created`]);
    check('the fulfilment queue drained', drained ? [] : ['orders still queued after 60 s']);
    check('every paid order that was not cancelled shipped all of it, and none shipped more than it held', shippedInFull(history));
    check('every acknowledged edit, shipment, return, receipt, return cancellation and refund is there exactly once', afterAckFindings(afterAcks, history), `${afterAcks.length} changes after payment`);
    check('every order keeps quantity − cancelled ≥ shipped ≥ returned on each line, and its balance as the contract defines it', orderInvariantFindings(history), `${history.size} orders`);
    check(
      "every SKU's stock agrees with the orders: reserved = Σ what live orders have left to ship, onHand = received − shipped + restocked",
      stockAgreementFindings(history, stock),
      `${stock.size} SKUs`,
    );
    check('the hot SKU was never oversold: 0 ≤ reserved ≤ onHand after every event, and its levels read as folded', hotSkuFindings(stockHistory, hotLevels.json), `${hotOrders.length} hot orders`);
    check(
      'no SKU was ever oversold: 0 ≤ reserved ≤ onHand after every event of every SKU',
      [...stock].flatMap(([stream, events]) => oversold(stream, events)),
      `${stock.size} SKUs, ${[...stock.values()].reduce((n, events) => n + events.length, 0)} stock events`,
    );
    check(
      'every acknowledged stock adjustment is there exactly once, and every acknowledged placement reserved each line once, released it once if cancelled, committed it once if shipped',
      [
        ...adjustments.filter(({ sku, id }) => (stock.get(stockStream(sku)) ?? []).filter((e) => e.type === 'StockAdjusted' && e.data.adjustmentId === id).length !== 1).map(({ id }) => `adjustment ${id}`),
        // The aftercare orders' stock moves by parts: the stock agreement check covers them.
        ...placed.filter((p) => !p.key.startsWith('after-')).flatMap((p) => reservationFindings(p, history.get(`order-${p.id}`) ?? [], stock)),
      ],
      `${adjustments.length} adjustments, ${placed.length} placements, ${hotOrders.length} of them of the hot SKU`,
    );
    const timeout = paymentTimeoutFindings(history, Number(env.PENDING_ORDER_TTL_SECONDS) * 1000, stoppedAt);
    check('every order left unpaid past the payment timeout was cancelled by it, once, and none before it', timeout.findings, `${timeout.expired} orders expired`);
    const audit = cli('bootstrap/audit-cli.ts', ['verify'], dataDir);
    check('`audit verify` finds nothing', audit.status === 0 ? [] : [audit.output.slice(-500)]);
    const projections = cli('bootstrap/projections-cli.ts', ['verify'], dataDir);
    check('the read models equal a fresh replay', projections.status === 0 ? [] : [projections.output.slice(-500)]);
    const erased = subjects.filter((s) => s.erase);
    const kept = subjects.filter((s) => !s.erase);
    check(
      'every erasure was acknowledged, and what is left of each customer with personal data reads as acknowledged',
      [...erased.filter((s) => !s.erased).map((s) => `erasure of customer ${s.n} not acknowledged`), ...subjectFindings],
      `${erased.length} erased, ${kept.length} kept, ${subjects.reduce((n, s) => n + s.orders.length, 0)} of their orders`,
    );
    // Every byte of every file under DATA_DIR, the stores stopped: the kept customers' markers are
    // there (their customer views hold them opened), so the scan finds what is there to find.
    const erasedMarkers = erased.flatMap((s) => [s.marker, s.phoneDigits]);
    const onDisk = markersOnDisk(dataDir, [...erasedMarkers, ...kept.map((s) => s.marker)]);
    const logs = outputs.join('') + workerOutput;
    check(
      "no file under DATA_DIR and no log line holds an erased customer's name, email, phone or address",
      [
        ...onDisk.filter((f) => erasedMarkers.includes(f.marker)).map((f) => `${f.marker} in ${f.file}`),
        ...erasedMarkers.filter((m) => logs.includes(m)).map((m) => `${m} in the logs`),
      ],
      `${erasedMarkers.length} markers, ${kept.filter((s) => onDisk.some((f) => f.marker === s.marker)).length} of ${kept.length} kept customers' markers found on disk`,
    );
    check("the disk scan finds the kept customers' markers", kept.filter((s) => !onDisk.some((f) => f.marker === s.marker)).map((s) => `customer ${s.n}`));
    const webhooks = webhookFindings(expectedHooks, hooks, history);
    Object.assign(stats, { webhookMessages: hooks.received.length, webhookDuplicates: webhooks.duplicates, webhookBadSignatures: webhooks.badSignatures });
    check(
      "every acknowledged write's webhook event reached the receiver at least once, signed, in order for each order",
      webhooks.findings,
      `${expectedHooks.length} expected, ${hooks.received.length} messages, ${webhooks.distinct} distinct, ${webhooks.orders} orders in order`,
    );
    check('webhook messages received more than once (same webhook-id) are counted, and allowed', [], `${webhooks.duplicates} duplicates of ${webhooks.duplicated} messages`);
    const serviceLog = outputs.join('');
    const secrets = [secret, env.ADMIN_PASSWORD, shopToken, workerToken, ...[shopToken, workerToken].map((t) => t.split('.')[2]!), ADDRESS_MARK];
    check(
      'the service log holds no token, secret, password or address',
      secrets.filter((s) => serviceLog.includes(s)).map((s) => `found ${s.slice(0, 12)}…`),
      `${serviceLog.split('\n').length} lines searched`,
    );

    const failed = checks.filter((c) => !c.passed).length;
    return { checks, passed: checks.length - failed, failed, stats };
  } finally {
    stopping = true;
    worker.kill('SIGKILL');
    await service.dispose();
    hooks.server.closeAllConnections();
    await new Promise((r) => hooks.server.close(r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A message as the receiver got it, in arrival order. */
interface Hook {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly webhookId: string;
  readonly type: string;
  /** The order's (or customer's) id and the order's revision, from the body's data. */
  readonly resourceId: string;
  readonly revision: number | undefined;
}

/** A receiver on 127.0.0.1 that keeps every message and answers 204; `secret` once the subscription is made. */
async function webhookReceiver(): Promise<{ server: Server; url: string; received: Hook[]; secret: string | null }> {
  const received: Hook[] = [];
  const server = createHttpServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => {
      let message: { type?: string; data?: { id?: string; revision?: number } } = {};
      try {
        message = JSON.parse(body);
      } catch {
        // Kept as it came: its signature check names it.
      }
      received.push({ headers: req.headers, body, webhookId: String(req.headers['webhook-id']), type: String(message.type), resourceId: String(message.data?.id), revision: message.data?.revision });
      res.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received, secret: null };
}

/** An acknowledged write that must reach the receiver: about an order (at a revision, when the answer named one) or a customer. */
interface ExpectedHook {
  readonly type: string;
  readonly what: string;
  readonly orderId?: string;
  readonly customerId?: string;
  readonly revision?: number | undefined;
  readonly after?: AfterAck;
}

/** The expected (resource, type) pairs with fewer distinct messages than writes: what the end waits for. */
function hookShortfall(expected: readonly ExpectedHook[], received: readonly Hook[]): string[] {
  const wanted = new Map<string, number>();
  for (const e of expected) wanted.set(`${e.orderId ?? e.customerId} ${e.type}`, (wanted.get(`${e.orderId ?? e.customerId} ${e.type}`) ?? 0) + 1);
  const got = new Map<string, Set<string>>();
  for (const h of received) {
    const key = `${h.resourceId} ${h.type}`;
    got.set(key, (got.get(key) ?? new Set()).add(h.webhookId));
  }
  return [...wanted].filter(([key, n]) => (got.get(key)?.size ?? 0) < n).map(([key]) => key);
}

/**
 * The webhook check, once the service has stopped and its history is read: each expected write's
 * event (found in its order's history: by the revision its answer named, or by its id) arrived
 * under that event's webhook-id; every message verifies with the subscription's secret; a message's
 * webhook-id is the one of the event its data's revision names; and each order's first arrivals
 * come in the order of its revisions. Repeats are counted.
 */
function webhookFindings(
  expected: readonly ExpectedHook[],
  hooks: { readonly received: readonly Hook[]; readonly secret: string | null },
  history: Map<string, RecordedEvent[]>,
): { findings: string[]; distinct: number; duplicates: number; duplicated: number; badSignatures: number; orders: number } {
  const findings: string[] = [];
  if (hooks.secret === null) findings.push('no subscription was made');
  let badSignatures = 0;
  const verifier = hooks.secret === null ? null : new Webhook(hooks.secret);
  for (const h of hooks.received) {
    const headers = { 'webhook-id': h.webhookId, 'webhook-timestamp': String(h.headers['webhook-timestamp']), 'webhook-signature': String(h.headers['webhook-signature']) };
    try {
      if (!verifier) throw new Error('no secret');
      verifier.verify(h.body, headers);
    } catch {
      badSignatures++;
    }
  }
  if (badSignatures > 0) findings.push(`${badSignatures} messages whose signature did not verify`);
  const seen = new Map<string, number>();
  for (const h of hooks.received) seen.set(h.webhookId, (seen.get(h.webhookId) ?? 0) + 1);
  const duplicates = hooks.received.length - seen.size;
  const duplicated = [...seen.values()].filter((n) => n > 1).length;

  const field = { edit: ['OrderEdited', 'editId'], shipment: ['ShipmentCreated', 'shipmentId'], return: ['ReturnRequested', 'returnId'], receipt: ['ReturnReceived', 'returnId'], refund: ['RefundRecorded', 'refundId'] } as const;
  const typeOf = { 'order.placed': 'OrderPlaced', 'order.paid': 'PaymentRecorded', 'order.address_changed': 'OrderAddressChanged', 'order.cancelled': 'OrderCancelled' } as Record<string, string>;
  for (const e of expected) {
    if (e.customerId !== undefined) {
      if (!hooks.received.some((h) => h.type === e.type && h.resourceId === e.customerId)) findings.push(`${e.what}: no ${e.type}`);
      continue;
    }
    const events = history.get(`order-${e.orderId}`) ?? [];
    let event: RecordedEvent | undefined;
    if (e.revision !== undefined) event = events[e.revision];
    else if (e.after && e.after.what !== 'return-cancellation') {
      const [type, name] = field[e.after.what];
      event = events.find((x) => x.type === type && (x.data as Record<string, unknown>)[name] === e.after!.id);
    } else event = events.find((x) => x.type === typeOf[e.type]);
    if (!event) {
      findings.push(`${e.what}: no such event in the history`);
      continue;
    }
    const id = `evt_${eventIdOf(event.streamName, event.revision)}`;
    if (!seen.has(id)) findings.push(`${e.what}: ${e.type} (${id}) never arrived`);
  }

  // The first arrival of each message, by order; their revisions must rise.
  const firsts = new Map<string, Hook[]>();
  const first = new Set<string>();
  for (const h of hooks.received) {
    if (first.has(h.webhookId) || (!h.type.startsWith('order.') && !h.type.startsWith('return.'))) continue;
    first.add(h.webhookId);
    if (h.revision === undefined || `evt_${eventIdOf(`order-${h.resourceId}`, h.revision)}` !== h.webhookId) findings.push(`${h.webhookId} (${h.type} of ${h.resourceId}) names revision ${h.revision}, not its event`);
    firsts.set(h.resourceId, [...(firsts.get(h.resourceId) ?? []), h]);
  }
  for (const [orderId, arrivals] of firsts) {
    const revisions = arrivals.map((h) => h.revision ?? -1);
    if (revisions.some((r, i) => i > 0 && r <= revisions[i - 1]!)) findings.push(`order ${orderId} arrived as revisions ${revisions.join(', ')}`);
  }
  return { findings, distinct: seen.size, duplicates, duplicated, badSignatures, orders: firsts.size };
}

/** Only these members of an object, in this order (null stays null). */
function pick(value: unknown, keys: readonly string[]): unknown {
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(keys.map((k) => [k, (value as Record<string, unknown>)[k]]));
}

/** Where a SKU's history broke 0 ≤ reserved ≤ onHand. */
function oversold(stream: string, events: readonly RecordedEvent[]): string[] {
  const findings: string[] = [];
  let stock = initialStock(stream.slice(STOCK_STREAM_PREFIX.length));
  for (const e of events) {
    stock = evolveStock(stock, decodeStockEvent(e));
    if (stock.reserved < 0 || stock.reserved > stock.onHand) findings.push(`${stream}#${e.revision}: onHand ${stock.onHand}, reserved ${stock.reserved}`);
  }
  return findings;
}

/**
 * An acknowledged placement's reservations, line by line, in its SKUs' streams: reserved once
 * with the line's quantity; released once if its order was cancelled (by its buyer or the
 * payment timeout), committed once if it shipped, and neither while it is pending or paid.
 */
function reservationFindings(placement: Placed, orderEvents: readonly RecordedEvent[], stock: Map<string, RecordedEvent[]>): string[] {
  const { lines } = JSON.parse(placement.body) as { lines: { sku: string; quantity: number }[] };
  const cancelled = orderEvents.some((e) => e.type === 'OrderCancelled');
  const shipped = orderEvents.some((e) => e.type === 'ShipmentCreated');
  return lines.flatMap(({ sku, quantity }) => {
    const mine = (stock.get(stockStream(sku)) ?? []).filter((e) => (e.data as { orderId?: string }).orderId === placement.id);
    const count = (type: string) => mine.filter((e) => e.type === type).length;
    const reserved = mine.filter((e) => e.type === 'StockReserved');
    const expected = { StockReserved: 1, ReservationReleased: cancelled ? 1 : 0, ReservationCommitted: shipped ? 1 : 0 };
    const found = { StockReserved: reserved.length, ReservationReleased: count('ReservationReleased'), ReservationCommitted: count('ReservationCommitted') };
    const wrong = JSON.stringify(found) !== JSON.stringify(expected) || (reserved[0]?.data as { quantity?: number } | undefined)?.quantity !== quantity;
    return wrong ? [`${placement.id} on ${sku} (${cancelled ? 'cancelled' : shipped ? 'shipped' : 'live'}): ${mine.map((e) => e.type).join(', ') || 'nothing'}`] : [];
  });
}

/** Where the hot SKU's history broke 0 ≤ reserved ≤ onHand, or its levels as served differ from the fold. */
function hotSkuFindings(events: readonly RecordedEvent[], served: { onHand?: number; reserved?: number } | null): string[] {
  const findings: string[] = [];
  let stock = initialStock(HOT_SKU);
  for (const e of events) {
    stock = evolveStock(stock, decodeStockEvent(e));
    if (stock.reserved < 0 || stock.reserved > stock.onHand) findings.push(`#${e.revision}: onHand ${stock.onHand}, reserved ${stock.reserved}`);
  }
  if (served?.onHand !== stock.onHand || served?.reserved !== stock.reserved) findings.push(`served ${JSON.stringify(served)}, folded onHand ${stock.onHand} reserved ${stock.reserved}`);
  return findings;
}

/**
 * The payment timeout, read from the orders' histories: an order pending long enough before the
 * stop (the TTL, a pass of the timeout and a margin for a kill of the process running it) was
 * cancelled by it; none was cancelled by it before its TTL, after a payment, or twice.
 */
function paymentTimeoutFindings(history: Map<string, RecordedEvent[]>, ttlMs: number, stoppedAt: number): { findings: string[]; expired: number } {
  const findings: string[] = [];
  let expired = 0;
  for (const [stream, events] of history) {
    const placed = events.find((e) => e.type === 'OrderPlaced');
    if (!placed) continue;
    const createdAt = Date.parse((placed.data as { placedAt: string }).placedAt);
    if (Number.isNaN(createdAt)) {
      findings.push(`${stream}: no placedAt`);
      continue;
    }
    const cancellations = events.filter((e) => e.type === 'OrderCancelled');
    const paid = events.findIndex((e) => e.type === 'PaymentRecorded');
    if (cancellations.length > 1) findings.push(`${stream}: cancelled ${cancellations.length} times`);
    const timedOut = cancellations.find((e) => (e.data as { reason: string }).reason === PAYMENT_TIMEOUT);
    if (timedOut) {
      expired++;
      const after = Date.parse((timedOut.data as { cancelledAt: string }).cancelledAt) - createdAt;
      if (after < ttlMs) findings.push(`${stream}: expired ${(after / 1000).toFixed(1)} s after its placement`);
      if (paid !== -1 && paid < events.indexOf(timedOut)) findings.push(`${stream}: expired after its payment`);
    } else if (paid === -1 && cancellations.length === 0 && createdAt < stoppedAt - ttlMs - 15_000) {
      findings.push(`${stream}: still pending ${((stoppedAt - createdAt) / 1000).toFixed(0)} s after its placement`);
    }
  }
  return { findings, expired };
}

/** The events of every stream with one of these prefixes, read from the event store file once the service has stopped. */
async function readHistory(file: string, streamPrefixes: readonly string[]): Promise<Map<string, RecordedEvent[]>> {
  const store = new SqliteEventStore({ file });
  const streams = new Map<string, RecordedEvent[]>();
  try {
    for (let after: Position | null = null; ; ) {
      const batch = await store.readAll({ after, maxCount: 5000, streamPrefixes });
      if (batch.length === 0) break;
      for (const event of batch) {
        const events = streams.get(event.streamName) ?? [];
        events.push(event);
        streams.set(event.streamName, events);
      }
      after = batch.at(-1)!.position;
    }
  } finally {
    await store.close();
  }
  return streams;
}

function duplicateEffects(history: Map<string, RecordedEvent[]>): string[] {
  const seen = new Map<string, number>();
  const failures: string[] = [];
  for (const [stream, events] of history) {
    for (const event of events) {
      if (!['OrderPlaced', 'PaymentRecorded', 'ShipmentCreated'].includes(event.type)) continue;
      const key = event.metadata.idempotency?.key;
      if (!key) failures.push(`${event.type} in ${stream} without an idempotency key`);
      const id = `${event.metadata.principal} ${event.type} ${key}`;
      seen.set(id, (seen.get(id) ?? 0) + 1);
    }
    // Shipments by line: an order may ship in several, each under a key of its own (counted above).
    const payments = events.filter((e) => e.type === 'PaymentRecorded').length;
    if (payments > 1) failures.push(`${payments} × PaymentRecorded in ${stream}`);
  }
  for (const [id, count] of seen) if (count > 1) failures.push(`${count} × ${id}`);
  return failures;
}

const ACTS = ['OrderPlaced', 'PaymentRecorded', 'ShipmentCreated', 'ExportRequested'];

/** A reused key acted once, on its first request's stream, and its record names that stream. */
function reusedKeysActedOnce(reuses: readonly Reuse[], orders: Map<string, RecordedEvent[]>, others: Map<string, RecordedEvent[]>): string[] {
  const byKey = new Map<string, string[]>();
  for (const [stream, events] of [...orders, ...others]) {
    for (const event of events) {
      const key = event.metadata.idempotency?.key;
      if (key === undefined || event.metadata.principal !== SHOP || !ACTS.includes(event.type)) continue;
      byKey.set(key, [...(byKey.get(key) ?? []), stream]);
    }
  }
  return reuses.flatMap((r) => {
    const acted = byKey.get(r.key) ?? [];
    const record = others.get(keyStream(SHOP, r.key)) ?? [];
    const failures = [];
    if (acted.length !== 1 || acted[0] !== r.target) failures.push(`${r.key} acted on ${acted.join(', ') || 'nothing'}, not once on ${r.target}`);
    if (record.length !== 1 || (record[0]!.data as { stream?: string }).stream !== r.target) failures.push(`${r.key}: key record ${JSON.stringify(record.map((e) => e.data))}`);
    return failures;
  });
}

/** An order folded from its history as stored (the address stays sealed: the fold never reads it). */
function folded(events: readonly RecordedEvent[]): Order {
  return events.reduce((order: Order, e) => orderDecider.evolve(order, decodeOrderEvent(e)), orderDecider.initialState());
}

function shippedInFull(history: Map<string, RecordedEvent[]>): string[] {
  const failures: string[] = [];
  for (const [stream, events] of history) {
    const order = folded(events);
    if (order.status === 'absent' || !order.payment) continue;
    const left = order.lines.filter((l) => l.quantity - l.cancelled - l.shipped !== 0);
    if (left.length > 0) failures.push(`${stream}: ${left.map((l) => `${l.sku} ${l.quantity - l.cancelled - l.shipped} left`).join(', ')}`);
  }
  return failures;
}

/** Each acknowledged change after payment, found once in its order's history. */
function afterAckFindings(acks: readonly AfterAck[], history: Map<string, RecordedEvent[]>): string[] {
  const field = { edit: ['OrderEdited', 'editId'], shipment: ['ShipmentCreated', 'shipmentId'], return: ['ReturnRequested', 'returnId'], receipt: ['ReturnReceived', 'returnId'], 'return-cancellation': ['ReturnCancelled', 'returnId'], refund: ['RefundRecorded', 'refundId'] } as const;
  return acks.flatMap(({ orderId, what, id }) => {
    const [type, name] = field[what];
    const found = (history.get(`order-${orderId}`) ?? []).filter((e) => e.type === type && (e.data as Record<string, unknown>)[name] === id).length;
    return found === 1 ? [] : [`${what} ${id} of ${orderId}: ${found} times`];
  });
}

/** The contract's invariants, after every event of every order. */
function orderInvariantFindings(history: Map<string, RecordedEvent[]>): string[] {
  const failures: string[] = [];
  for (const [stream, events] of history) {
    let order = orderDecider.initialState();
    for (const e of events) {
      order = orderDecider.evolve(order, decodeOrderEvent(e));
      if (order.status === 'absent') continue;
      const bad = order.lines.filter((l) => !(l.quantity - l.cancelled >= l.shipped && l.shipped >= l.returned && l.returned >= 0 && l.cancelled >= 0));
      if (bad.length > 0) failures.push(`${stream}#${e.revision}: lines ${JSON.stringify(bad)}`);
      const charged = order.lines.reduce((sum, l) => sum + l.unitPrice * (l.quantity - l.cancelled - l.returned), 0);
      const paid = order.payment?.amount ?? 0;
      const refunded = order.refunds.reduce((sum, r) => sum + r.amount, 0);
      const { balance } = order;
      if (balance.charged !== charged || balance.paid !== paid || balance.refunded !== refunded || balance.due !== charged - paid + refunded || refunded > paid) {
        failures.push(`${stream}#${e.revision}: balance ${JSON.stringify(balance)}`);
      }
    }
  }
  return failures;
}

/**
 * Each SKU's folded stock against the orders: reserved is what the orders have left to ship
 * (orders/rules.ts stockTargets), onHand what was received less what shipped plus what
 * came back restocked.
 */
function stockAgreementFindings(history: Map<string, RecordedEvent[]>, stock: Map<string, RecordedEvent[]>): string[] {
  const reserved = new Map<string, number>();
  const shipped = new Map<string, number>();
  const back = new Map<string, number>();
  const add = (map: Map<string, number>, sku: string, n: number) => map.set(sku, (map.get(sku) ?? 0) + n);
  for (const events of history.values()) {
    const order = folded(events);
    if (order.status === 'absent') continue;
    for (const [sku, target] of stockTargets(order)) {
      add(reserved, sku, target.reserved);
      add(shipped, sku, target.shipped);
    }
    for (const ret of order.returns) for (const [sku, units] of restocked(ret)) add(back, sku, units);
  }
  const failures: string[] = [];
  for (const [stream, events] of stock) {
    const sku = stream.slice(STOCK_STREAM_PREFIX.length);
    let levels = initialStock(sku);
    let received = 0;
    for (const e of events) {
      const event = decodeStockEvent(e);
      levels = evolveStock(levels, event);
      if (event.type === 'StockAdjusted' && event.data.reason !== 'returned') received += event.data.delta;
    }
    if (levels.reserved !== (reserved.get(sku) ?? 0)) failures.push(`${sku}: reserved ${levels.reserved}, the orders have ${reserved.get(sku) ?? 0} left to ship`);
    const onHand = received - (shipped.get(sku) ?? 0) + (back.get(sku) ?? 0);
    if (levels.onHand !== onHand) failures.push(`${sku}: onHand ${levels.onHand}, received − shipped + restocked = ${onHand}`);
  }
  return failures;
}

function cli(script: string, args: readonly string[], dataDir: string): { status: number | null; output: string } {
  const run = runScript(script, args, { DATA_DIR: dataDir });
  return { status: run.status, output: run.stdout + run.stderr };
}

async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(200)) {
    // Twice in a row, a moment apart: an empty queue between a payment and its projection is not drained.
    if ((await condition()) && (await sleep(300), await condition())) return true;
  }
  return false;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A small seeded generator, so that a failing run can be repeated with its seed. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
