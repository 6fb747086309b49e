// The store's summary on the embedded read store: every query its figures (and the lists behind
// them) make is served by an index, as EXPLAIN QUERY PLAN shows (no table scan, no sort in memory);
// the sales are the 30 UTC days to the clock's, quiet ones as zeros; a follower is answered when
// a UTC day begins, with nothing else changed.
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dailySales } from '../../../projections/orders/daily-sales.js';
import { fulfilmentQueue } from '../../../projections/orders/fulfilment-queue.js';
import { orderViews } from '../../../projections/orders/order-views.js';
import { returnsView } from '../../../projections/orders/returns.js';
import { rebuild } from '../../../projections/rebuild.js';
import { stockView } from '../../../projections/stock/stock.js';
import { webhookDeliveriesView } from '../../../projections/webhooks/deliveries.js';
import { webhookSubscriptionsView } from '../../../projections/webhooks/subscriptions.js';
import { READ_STORAGE } from '../../../projections/registry.js';
import { SqliteReadStore } from '../../../read-side/adapters/sqlite-read-store.js';
import { Consistency, type ProjectionProgress } from '../../../read-side/kernel/consistency.js';
import { returnPage } from '../../../read-side/orders/returns.js';
import { stockPage } from '../../../read-side/stock/queries.js';
import { SummaryQueries, type SummarySource } from '../../../read-side/summary/queries.js';
import { serviceViewer } from '../../../write-side/kernel/access.js';
import type { Position } from '../../../write-side/kernel/event-store.js';
import { encodeSequence } from '../../../write-side/kernel/position.js';
import { encodeOrderEvent, orderStream } from '../../../write-side/orders/codec.js';
import type { OrderEvent } from '../../../write-side/orders/types.js';
import { WebhookDeliveryService } from '../../../write-side/webhooks/deliveries.js';
import { WebhookService } from '../../../write-side/webhooks/service.js';
import { openEmbedded, tempDir, type StoreFixture } from '../../support/event-stores.js';
import { address, seedOrders, seedOrdersAfterPayment } from '../../support/seed.js';

const SOURCES: readonly SummarySource[] = ['daily-sales', 'order-views', 'fulfilment-queue', 'returns', 'stock', 'webhook-subscriptions', 'webhook-deliveries'];
/** An admin's view: every figure. */
const admin = { sub: 'summary-admin', scopes: new Set(['orders:read', 'stock:read', 'webhooks:admin']), customerId: null };

/** Views that include everything up to `position`, and never move on. */
function still(position: Position): ProjectionProgress {
  return {
    position,
    waitFor: (wanted, timeoutMs, signal) =>
      wanted <= position
        ? Promise.resolve(true)
        : new Promise((resolve) => {
            const timer = setTimeout(resolve, timeoutMs, false);
            signal?.addEventListener('abort', () => (clearTimeout(timer), resolve(false)), { once: true });
          }),
  };
}
const consistency = () => Object.fromEntries(SOURCES.map((source) => [source, new Consistency(still(encodeSequence(1)), 'summary figures', 0)])) as Record<SummarySource, Consistency>;

describe('the summary on the embedded read store', () => {
  let events: StoreFixture;
  let dir: ReturnType<typeof tempDir>;
  let reads: SqliteReadStore;
  beforeEach(async () => {
    events = await openEmbedded();
    dir = tempDir('summary-');
    reads = new SqliteReadStore(join(dir.path, 'read-models.sqlite3'), READ_STORAGE);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await reads.close();
    await events.dispose();
    dir.remove();
  });

  it('reads every figure, and each list behind one, through an index: no table scan, no sort in memory', async () => {
    await seedOrders(events.store, 20, 'summary', { stock: true });
    await seedOrdersAfterPayment(events.store);
    const webhooks = new WebhookService(events.store, { checkUrl: () => ({ ok: true }), apiVersions: { current: '2027-01-01', supported: ['2027-01-01'] } });
    const subscription = await webhooks.create(serviceViewer('admin'), { url: 'https://hooks.example/', events: ['*'] }, { correlationId: 'c', idempotency: { key: randomUUID(), fingerprint: 'f' } });
    const deliveries = new WebhookDeliveryService(events.store, { deliveries: { find: async () => null } });
    await deliveries.recordAttempts(serviceViewer('webhook-delivery'), subscription.subscription.id, [
      { eventId: 'e1', eventPosition: 'p', type: 'order.paid', resource: 'o', at: new Date().toISOString(), statusCode: 500, durationMs: 1, outcome: 'failed', nextAttemptAt: null },
    ], { correlationId: 'c' });
    for (const projection of [dailySales, orderViews, fulfilmentQueue, returnsView, stockView, webhookSubscriptionsView, webhookDeliveriesView]) {
      await rebuild(events.store, reads, projection as typeof orderViews);
    }

    const prepare = vi.spyOn(Database.prototype, 'prepare');
    const summary = await new SummaryQueries(reads, consistency()).summary(admin);
    expect(summary.summary.awaitingPayment.count).toBeGreaterThan(0);
    expect(summary.summary.failedDeliveries?.count).toBe(1);
    await reads.page('returns', returnPage('requested', { createdAt: '2027-01-01T00:00:00.000Z', id: randomUUID() }, 21));
    await reads.page('returns', returnPage(undefined, null, 21));
    await reads.page('stock', stockPage({ belowThreshold: true }, 'SEED-1', 21));
    const statements = [...new Set(prepare.mock.calls.map(([sql]) => sql))].filter((sql) => /^SELECT\b/.test(sql.trim()) && /_g\d+\b/.test(sql));
    prepare.mockRestore();
    // One per figure at least: the sales, four of the orders' views, the queue, two of the returns, two of the low stock, the subscriptions and their failed deliveries, and the lists.
    expect(statements.length).toBeGreaterThanOrEqual(12);

    const db = new Database(join(dir.path, 'read-models.sqlite3'), { readonly: true });
    try {
      for (const sql of statements) {
        const parameters = (sql.match(/\?/g) ?? []).map(() => null);
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as Array<{ detail: string }>).map((row) => row.detail);
        for (const step of plan) {
          expect(step, `${sql}\n${plan.join('\n')}`).not.toMatch(/^SCAN \w+$/);
          expect(step, `${sql}\n${plan.join('\n')}`).not.toMatch(/TEMP B-TREE/);
        }
        expect(plan.some((step) => /USING (COVERING )?INDEX \w+_i\d+/.test(step)), `${sql}\n${plan.join('\n')}`).toBe(true);
      }
    } finally {
      db.close();
    }
  });

  it('charts the 30 UTC days to the clock\'s, quiet days as zeros, and leaves out the day before them and any after', async () => {
    const meta = { principal: 'p', correlationId: 'c', causationId: null };
    const place = async (placedAt: string, currency = 'EUR', amount = 100) => {
      const orderId = randomUUID();
      const events_: OrderEvent[] = [
        { type: 'OrderPlaced', schemaVersion: 2, data: { orderId, customerId: 'c', currency, lines: [{ sku: 'S', name: 'S', quantity: 1, unitPrice: amount, lineTotal: amount }], total: amount, address, placedAt } },
        { type: 'PaymentRecorded', schemaVersion: 2, data: { orderId, paymentId: randomUUID(), amount, reference: 'r', method: 'card', recordedAt: placedAt } },
      ];
      await events.store.appendToStream(orderStream(orderId), events_.map((e) => encodeOrderEvent(e, meta)), 'no_stream');
    };
    await place('2027-01-05T23:59:59.999Z'); // the day before the first
    await place('2027-01-06T00:00:00.000Z', 'USD', 250); // the first day
    await place('2027-02-04T23:59:59.999Z'); // today, its last millisecond
    await place('2027-02-05T00:00:00.000Z'); // tomorrow
    await rebuild(events.store, reads, dailySales);
    const clock = () => new Date('2027-02-04T12:00:00.000Z');
    const { summary } = await new SummaryQueries(reads, consistency(), clock).summary(admin);
    expect(summary.sales).toMatchObject({ from: '2027-01-06', to: '2027-02-04', currencies: ['EUR', 'USD'] });
    expect(summary.sales.days).toHaveLength(30);
    expect(summary.sales.days[0]).toEqual({ date: '2027-01-06', ordersPlaced: 1, sales: [{ currency: 'USD', payments: 250, refunds: 0, net: 250 }] });
    expect(summary.sales.days[1]).toEqual({ date: '2027-01-07', ordersPlaced: 0, sales: [] });
    expect(summary.sales.days[29]).toEqual({ date: '2027-02-04', ordersPlaced: 1, sales: [{ currency: 'EUR', payments: 100, refunds: 0, net: 100 }] });
    expect(summary.ordersPlacedToday.count).toBe(1);
    expect(summary.asOf).toBe('2027-02-04T12:00:00.000Z');
  });

  it('answers a follower when a UTC day begins, though nothing else changed', async () => {
    // A clock 300 ms before midnight: the figures of the next day are another day's.
    const offset = Date.parse('2027-02-05T00:00:00.000Z') - 300 - Date.now();
    const queries = new SummaryQueries(reads, consistency(), () => new Date(Date.now() + offset));
    const before = await queries.summary(admin);
    expect(before.summary.sales.to).toBe('2027-02-04');
    const started = Date.now();
    const after = await queries.follow(admin, { since: before.fingerprint, waitMs: 10_000 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(after.fingerprint).not.toBe(before.fingerprint);
    expect(after.summary.sales.to).toBe('2027-02-05');
    // With nothing to change, a follower is answered after its wait, with the figures it has.
    const waited = await queries.follow(admin, { since: after.fingerprint, waitMs: 300 });
    expect(waited.fingerprint).toBe(after.fingerprint);
  });
});
