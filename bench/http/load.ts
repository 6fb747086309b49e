// What the drivers of bench:http and bench:page share: autocannon's API as they use it, the
// orders they load straight into the embedded event store, and the walk down the pages of paid orders.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { SqliteEventStore } from '../../write-side/adapters/sqlite-event-store.js';
import { SqliteKeyStore } from '../../write-side/adapters/sqlite-key-store.js';
import type { EventStore } from '../../write-side/kernel/event-store.js';
import { Keyring } from '../../write-side/personal-data/keyring.js';
import { orderPersonalData } from '../../write-side/orders/personal-data.js';
import { PersonalData } from '../../write-side/personal-data/personal-data.js';
import { SealingEventStore } from '../../write-side/personal-data/sealing-event-store.js';
import { encodeOrderEvent, orderStream } from '../../write-side/orders/codec.js';
import type { OrderEvent } from '../../write-side/orders/types.js';
import { address } from './fixtures.js';

// ---- autocannon (CommonJS, no bundled types): the part of its API used here ----

export interface AcRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: AcRequest, context: Record<string, unknown>) => AcRequest | null;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}
export interface AcResult {
  requests: { average: number; total: number; sent: number };
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
  duration: number;
}
export interface AcOptions {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  requests: AcRequest[];
}
export interface AcInstance extends Promise<AcResult> {
  stop(): void;
}
export const autocannon = createRequire(import.meta.url)('autocannon') as (opts: AcOptions) => AcInstance;

// ---- the orders ----

/**
 * Writes `count` orders (every second one paid) into `dir`'s event store and returns their ids;
 * `seal`: their addresses sealed with their customers' keys (in `dir`'s key store), as the service writes them.
 */
export async function loadOrders(dir: string, count: number, seal: boolean): Promise<string[]> {
  const CHUNK = 10_000;
  const meta = { principal: 'bench', correlationId: 'bench', causationId: null };
  // Placed within the last PENDING_ORDER_TTL_SECONDS (48 h), so that the payment timeout leaves them be.
  const t0 = Date.now() - count * 1000;
  const ids: string[] = [];
  // NORMAL is enough for a file written once before the service opens it (with its own FULL).
  mkdirSync(dir, { recursive: true });
  const raw = new SqliteEventStore({ file: join(dir, 'events.sqlite3'), synchronous: 'normal' });
  const keys = new SqliteKeyStore(join(dir, 'keys.sqlite3'));
  const events: EventStore = seal ? new SealingEventStore(raw, new PersonalData(new Keyring(keys)), [orderPersonalData]) : raw;
  try {
    for (let base = 0; base < count; base += CHUNK) {
      const chunk = Array.from({ length: Math.min(CHUNK, count - base) }, () => randomUUID());
      ids.push(...chunk);
      await Promise.all(
        chunk.map((orderId, k) => {
          const i = base + k;
          const placedAt = new Date(t0 + i * 1000).toISOString();
          const placed: OrderEvent = {
            type: 'OrderPlaced', schemaVersion: 2,
            data: { orderId, customerId: `cus_${i % 1000}`, currency: 'EUR', lines: [{ sku: 'SKU-1', name: 'Blue mug', quantity: 2, unitPrice: 1999, lineTotal: 3998 }], total: 3998, address, placedAt },
          };
          const recorded = [encodeOrderEvent(placed, meta)];
          if (i % 2 === 0) {
            const payment: OrderEvent = {
              type: 'PaymentRecorded', schemaVersion: 2,
              data: { orderId, paymentId: randomUUID(), amount: 3998, reference: `psp-${i}`, method: 'card', recordedAt: new Date(t0 + i * 1000 + 500).toISOString() },
            };
            recorded.push(encodeOrderEvent(payment, meta));
          }
          return events.appendToStream(orderStream(orderId), recorded, 'no_stream');
        }),
      );
    }
  } finally {
    await events.close();
    await keys.close();
  }
  return ids;
}

/**
 * One connection's walk through the paid orders: autocannon resets a connection's context each
 * time it wraps around its `requests` array, so the array holds one entry per page of the walk.
 * Each response's nextCursor sets the next entry's path; a null cursor (or an error) restarts
 * the walk from the first page.
 */
export function pageChain(
  firstPage: string,
  pages: number,
  headers: Record<string, string>,
  sample: (status: number, body: string) => void,
  walk: { firstPages: number; deepest: number } = { firstPages: 0, deepest: 0 },
): AcRequest[] {
  const onResponse = (status: number, body: string, context: Record<string, unknown>) => {
    sample(status, body);
    const depth = typeof context.depth === 'number' ? context.depth : 1;
    if (depth === 1) walk.firstPages++;
    walk.deepest = Math.max(walk.deepest, depth);
    let next: unknown = null;
    if (status === 200) {
      try {
        next = (JSON.parse(body) as { nextCursor?: unknown }).nextCursor ?? null;
      } catch {
        next = null;
      }
    }
    context.cursor = typeof next === 'string' ? next : null;
  };
  const first: AcRequest = { method: 'GET', headers, path: firstPage, onResponse };
  const following: AcRequest = {
    method: 'GET', headers, onResponse,
    // null: back to the first request, with a fresh context.
    setupRequest: (req, context) => {
      if (typeof context.cursor !== 'string') return null;
      context.depth = (typeof context.depth === 'number' ? context.depth : 1) + 1;
      return { ...req, path: `${firstPage}&cursor=${encodeURIComponent(context.cursor)}` };
    },
  };
  return [first, ...Array.from({ length: pages - 1 }, () => ({ ...following }))];
}
