// The daily-sales projection, which gathers every order's stream: each UTC day's orders placed and,
// per currency, its payments and refunds, a payment counted on the day it was recorded in its
// order's currency; a log applied in batches of any size, each twice, ends as the rebuild does;
// agreement with a fresh fold, and a day that is not the fold of its events found.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyBatch, historyFrom } from '../../../projections/apply.js';
import { dailySales } from '../../../projections/orders/daily-sales.js';
import { rebuild, verify, type Difference } from '../../../projections/rebuild.js';
import { dayKey, salesDayKeys, type DailySalesView, type SalesDay } from '../../../read-side/orders/sales.js';
import { encodeOrderEvent, ORDER_STREAM_PREFIX, orderStream } from '../../../write-side/orders/codec.js';
import type { OrderEvent } from '../../../write-side/orders/types.js';
import { openEmbedded, type StoreFixture } from '../../support/event-stores.js';
import { openEmbeddedReadStore, type ReadStoreFixture } from '../../support/read-stores.js';
import { address } from '../../support/seed.js';

const meta = { principal: 'sales-test', correlationId: 'c', causationId: null };

describe('the daily-sales projection', () => {
  let events: StoreFixture;
  let reads: ReadStoreFixture;
  const [eur, usd, unpaid] = [randomUUID(), randomUUID(), randomUUID()];
  const placed = (orderId: string, currency: string, total: number, placedAt: string): OrderEvent => ({
    type: 'OrderPlaced',
    schemaVersion: 2,
    data: { orderId, customerId: 'cus_1', currency, lines: [{ sku: 'S', name: 'S', quantity: 1, unitPrice: total, lineTotal: total }], total, address, placedAt },
  });
  const paid = (orderId: string, amount: number, recordedAt: string): OrderEvent => ({
    type: 'PaymentRecorded', schemaVersion: 2, data: { orderId, paymentId: randomUUID(), amount, reference: 'psp', method: 'card', recordedAt },
  });
  const refunded = (orderId: string, amount: number, recordedAt: string): OrderEvent => ({
    type: 'RefundRecorded', schemaVersion: 1, data: { orderId, refundId: randomUUID(), amount, reason: 'goodwill', note: null, recordedAt },
  });
  const append = async (orderId: string, ...orderEvents: OrderEvent[]) => {
    const current = await events.store.readStream(orderStream(orderId));
    await events.store.appendToStream(orderStream(orderId), orderEvents.map((e) => encodeOrderEvent(e, meta)), current.length === 0 ? 'no_stream' : current.length - 1);
  };

  beforeEach(async () => {
    events = await openEmbedded();
    reads = await openEmbeddedReadStore();
    // Interleaved in the log as a store would have them: placed the last millisecond of 4 January, paid the first of the 5th.
    await append(eur, placed(eur, 'EUR', 1000, '2027-01-04T23:59:59.999Z'));
    await append(usd, placed(usd, 'USD', 2000, '2027-01-05T12:00:00.000Z'));
    await append(eur, paid(eur, 1000, '2027-01-05T00:00:00.000Z'));
    await append(unpaid, placed(unpaid, 'EUR', 500, '2027-01-05T13:00:00.000Z'));
    await append(usd, paid(usd, 2000, '2027-01-05T14:00:00.000Z'));
    await append(eur, refunded(eur, 300, '2027-01-06T10:00:00.000Z'));
    await append(usd, refunded(usd, 2000, '2027-01-06T11:00:00.000Z'));
  });
  afterEach(async () => {
    await reads.dispose();
    await events.dispose();
  });

  const days = async () =>
    [...(await reads.store.find<SalesDay>('daily-sales', salesDayKeys('2027-01-03', '2027-01-07'))).values()].sort((a, b) => (a.day < b.day ? -1 : 1)).map(({ day, ordersPlaced, currencies }) => ({ day, ordersPlaced, currencies }));

  it("counts each UTC day's orders placed, and per currency the payments and refunds recorded that day, in the order's currency", async () => {
    await rebuild(events.store, reads.store, dailySales);
    expect(await days()).toEqual([
      { day: '2027-01-04', ordersPlaced: 1, currencies: {} },
      { day: '2027-01-05', ordersPlaced: 2, currencies: { EUR: { payments: 1000, refunds: 0 }, USD: { payments: 2000, refunds: 0 } } },
      { day: '2027-01-06', ordersPlaced: 0, currencies: { EUR: { payments: 0, refunds: 300 }, USD: { payments: 0, refunds: 2000 } } },
    ]);
    // Each view keeps the last position folded into it and how many events were.
    const log = await events.store.readAll({ after: null, maxCount: 100, streamPrefixes: [ORDER_STREAM_PREFIX] });
    const stored = await reads.store.find<DailySalesView>('daily-sales', [dayKey('2027-01-05')]);
    expect(stored.get(dayKey('2027-01-05'))).toMatchObject({ revision: 3, position: log[4]!.position });
    // Nothing is kept per order: a payment's currency is read back from its order's stream.
    const all = await reads.store.views<DailySalesView>('daily-sales', await reads.store.activeGeneration('daily-sales')).scan(null, 100);
    expect(all.map(({ key }) => key)).toEqual(['2027-01-04', '2027-01-05', '2027-01-06'].map(dayKey));
    expect(await verify(events.store, reads.store, dailySales, () => {})).toEqual({ checked: 3, differences: 0 });
  });

  it('ends as the rebuild does, applied in batches of any size and each batch twice (a replay after a crash)', async () => {
    await rebuild(events.store, reads.store, dailySales);
    const rebuilt = await reads.store.views<DailySalesView>('daily-sales', await reads.store.activeGeneration('daily-sales')).scan(null, 100);
    const log = await events.store.readAll({ after: null, maxCount: 100, streamPrefixes: [ORDER_STREAM_PREFIX] });
    for (const size of [1, 2, 3, log.length]) {
      const views = reads.store.views<DailySalesView>('daily-sales', await reads.store.createGeneration('daily-sales'));
      for (let i = 0; i < log.length; i += size) {
        await applyBatch(dailySales, views, log.slice(i, i + size), historyFrom(events.store));
        await applyBatch(dailySales, views, log.slice(Math.max(0, i - size), i + size), historyFrom(events.store));
      }
      expect(await views.scan(null, 100), `batches of ${size}`).toEqual(rebuilt);
    }
    // A batch that holds an order's placement holds its history too: a payment's currency is not read back from the log.
    const views = reads.store.views<DailySalesView>('daily-sales', await reads.store.createGeneration('daily-sales'));
    await applyBatch(dailySales, views, log, () => Promise.reject(new Error('read back from the log')));
    expect(await views.scan(null, 100)).toEqual(rebuilt);
  });

  it('is found to differ where a day is not the fold of its events, or a view has no event', async () => {
    await rebuild(events.store, reads.store, dailySales);
    const views = reads.store.views<DailySalesView>('daily-sales', await reads.store.activeGeneration('daily-sales'));
    const day = (await views.load([dayKey('2027-01-05')])).get(dayKey('2027-01-05')) as SalesDay;
    const checkpoint = (await views.checkpoint())!;
    await views.commit([
      { key: dayKey(day.day), view: { ...day, ordersPlaced: 5, revision: day.revision + 1 } },
      { key: dayKey('2027-01-07'), view: { ...day, day: '2027-01-07' } },
    ], checkpoint);
    const found: Difference[] = [];
    expect(await verify(events.store, reads.store, dailySales, (d) => found.push(d))).toEqual({ checked: 3, differences: 2 });
    expect(found.map((d) => d.key)).toEqual([dayKey('2027-01-05'), dayKey('2027-01-07')]);
    expect(found[0]).toMatchObject({ expected: { ordersPlaced: 2 }, actual: { ordersPlaced: 5 } });
  });
});
