// What the order views keep for the orders' collection to select and sort by (storage version 3):
// the currency, the total and the SKUs of the lines as they stand, kept beside each view and
// rebuilt and verified with it.
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { orderViews } from '../../../projections/orders/order-views.js';
import { rebuild, verify, type Difference } from '../../../projections/rebuild.js';
import { orderPage } from '../../../read-side/orders/queries.js';
import type { OrderView } from '../../../read-side/orders/views.js';
import { openEmbedded, type StoreFixture } from '../../support/event-stores.js';
import { openEmbeddedReadStore, type ReadStoreFixture } from '../../support/read-stores.js';
import { seedOrdersAfterPayment } from '../../support/seed.js';

describe('the order views, for the orders\' collection by SKU, currency and total', () => {
  let events: StoreFixture;
  let reads: ReadStoreFixture;
  let ids: { partly: string; returned: string; cancelled: string; pending: string };
  const bySku = async (sku: string) =>
    (await reads.store.page<OrderView>('order-views', orderPage({ sku }, 'asc', null, 100))).map((view) => view.id);

  beforeEach(async () => {
    events = await openEmbedded();
    reads = await openEmbeddedReadStore();
    // partly: SEED-1 and SEED-2; returned: SEED-1, then SEED-3 added by an edit; cancelled: SEED-2; pending: SEED-1, edited to SEED-2 alone.
    const [partly, returned, cancelled, pending] = await seedOrdersAfterPayment(events.store);
    ids = { partly: partly!, returned: returned!, cancelled: cancelled!, pending: pending! };
    await rebuild(events.store, reads.store, orderViews);
  });
  afterEach(async () => {
    await reads.dispose();
    await events.dispose();
  });

  it('keeps each order\'s SKUs as its lines stand (an edit drops and adds them), its currency and its total, and verify agrees with the rebuild', async () => {
    const views = reads.store.views<OrderView>('order-views', await reads.store.activeGeneration('order-views'));
    const fields = await views.fields(Object.values(ids));
    expect(fields.get(ids.partly)).toMatchObject({ currency: 'EUR', total: 405, sku: ['SEED-1', 'SEED-2'] });
    expect(fields.get(ids.returned)).toMatchObject({ sku: ['SEED-1', 'SEED-3'] });
    expect(fields.get(ids.cancelled)).toMatchObject({ sku: ['SEED-2'] });
    expect(fields.get(ids.pending)).toMatchObject({ total: 510, sku: ['SEED-2'] });
    expect(new Set(await bySku('SEED-1'))).toEqual(new Set([ids.partly, ids.returned]));
    expect(new Set(await bySku('SEED-2'))).toEqual(new Set([ids.partly, ids.cancelled, ids.pending]));
    expect(await bySku('SEED-3')).toEqual([ids.returned]);
    const found: Difference[] = [];
    expect(await verify(events.store, reads.store, orderViews, (d) => found.push(d))).toEqual({ checked: expect.any(Number), differences: 0 });
    expect(found).toEqual([]);
  });

  it('reports a view whose SKUs as stored beside it went missing, or disagree with its creation time', async () => {
    // The embedded store keeps them in a table of their own beside the views' (a row per SKU per order, with its creation time copied).
    const generation = await reads.store.activeGeneration('order-views');
    const raw = new Database(reads.file!);
    raw.prepare(`DELETE FROM order_views_g${generation}_sku WHERE key = ? AND sku = 'SEED-3'`).run(ids.returned);
    raw.prepare(`UPDATE order_views_g${generation}_sku SET created_at = '2000-01-01T00:00:00.000Z' WHERE key = ?`).run(ids.partly);
    raw.close();
    const found: Difference[] = [];
    const { differences } = await verify(events.store, reads.store, orderViews, (d) => found.push(d));
    expect(differences).toBe(2);
    expect(found.map((d) => d.key).sort()).toEqual([`${ids.partly} (fields)`, `${ids.returned} (fields)`].sort());
    expect(found.find((d) => d.key === `${ids.returned} (fields)`)).toMatchObject({ expected: { sku: ['SEED-1', 'SEED-3'] }, actual: { sku: ['SEED-1'] } });
    expect(found.find((d) => d.key === `${ids.partly} (fields)`)).toMatchObject({ expected: { sku: ['SEED-1', 'SEED-2'] }, actual: { sku: [] } });
  });
});
