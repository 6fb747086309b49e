// The stock projection, which gathers a SKU's product and stock streams: a SKU is low while its
// product (not retired) has fewer units available than its threshold, whichever stream moved last
// (a sale, a restock, a threshold raised, a retirement); its levels are the stock's own; the low
// ones paged by SKU and fewest available first on indexes; a log applied in batches, each twice,
// ends as the rebuild does; agreement with a fresh fold; the names and SKUs listed by a prefix.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyBatch, historyFrom } from '../../../projections/apply.js';
import type { SqliteReadStore } from '../../../read-side/adapters/sqlite-read-store.js';
import { streamPrefixesOf } from '../../../projections/projection.js';
import { rebuild, verify, type Difference } from '../../../projections/rebuild.js';
import { stockView } from '../../../projections/stock/stock.js';
import { BELOW_THRESHOLD, mostPressingPage, namePrefixPage, stockPage } from '../../../read-side/stock/queries.js';
import type { StockView } from '../../../read-side/stock/views.js';
import { ProductService } from '../../../write-side/catalogue/service.js';
import type { ProductContent } from '../../../write-side/catalogue/types.js';
import { serviceViewer } from '../../../write-side/kernel/access.js';
import { StockService } from '../../../write-side/stock/service.js';
import { openEmbedded, type StoreFixture } from '../../support/event-stores.js';
import { openEmbeddedReadStore, type ReadStoreFixture } from '../../support/read-stores.js';

const staff = serviceViewer('stock-view-test');
const context = { principal: 'test', correlationId: 'c', causationId: null };
const product = (name: string, lowStockThreshold: number, status: 'draft' | 'active' = 'active'): ProductContent => ({ name, description: null, prices: { EUR: 100 }, status, lowStockThreshold });

describe('the stock projection', () => {
  let events: StoreFixture;
  let reads: ReadStoreFixture;
  let products: ProductService;
  let stock: StockService;
  const adjust = (sku: string, delta: number) => stock.adjust(staff, sku, { delta, reason: 'count', note: null }, { correlationId: 'c', idempotency: { key: randomUUID(), fingerprint: 'f' } });
  const low = async () => (await reads.store.page<StockView>('stock', stockPage({ belowThreshold: true }, null, 100))).map((v) => v.sku);

  beforeEach(async () => {
    events = await openEmbedded();
    reads = await openEmbeddedReadStore();
    products = new ProductService(events.store);
    stock = new StockService(events.store, { thresholds: products });
    const put = (sku: string, content: ProductContent) => products.put(staff, sku, content, { correlationId: 'c' });
    await put('MUG', product('Mug', 5));
    await put('CUP', product('Cup', 0));
    await put('BOWL', product('Bowl', 3, 'draft'));
    await put('NEVER', product('Never stocked', 10));
    await put('GONE', product('Retired', 5));
    await adjust('MUG', 10);
    await stock.reserve(randomUUID(), [{ sku: 'MUG', quantity: 7 }], context); // 3 available, below 5
    await adjust('CUP', 1); // no threshold
    await adjust('BOWL', 4); // 4 available, threshold 3
    await adjust('SPARE', 1); // stock without a product
    await products.retire(staff, 'GONE', { correlationId: 'c' });
  });
  afterEach(async () => {
    await reads.dispose();
    await events.dispose();
  });

  it('holds each SKU against its product\'s threshold, whichever of its two streams moved, with the stock\'s own levels', async () => {
    await rebuild(events.store, reads.store, stockView);
    expect(await low()).toEqual(['MUG', 'NEVER']);
    const views = await reads.store.find<StockView>('stock', ['MUG', 'NEVER', 'SPARE', 'GONE']);
    const { revision, updatedAt, ...levels } = (await stock.get(staff, 'MUG'))!;
    expect(views.get('MUG')).toMatchObject({ name: 'Mug', status: 'active', lowStockThreshold: 5, ...levels, stockUpdatedAt: updatedAt, stockRevision: revision, low: 1 });
    expect(views.get('NEVER')).toMatchObject({ available: 0, stockUpdatedAt: null, stockRevision: null, low: 1 });
    expect(views.get('SPARE')).toMatchObject({ name: null, status: null, available: 1, low: 0 });
    expect(views.get('GONE')).toMatchObject({ status: 'retired', low: 0 });

    // A threshold raised above what is available takes a SKU below it with no stock event; a restock lifts one.
    await products.patch(staff, 'BOWL', { lowStockThreshold: 6 }, { correlationId: 'c' });
    await adjust('MUG', 10);
    await rebuild(events.store, reads.store, stockView);
    expect(await low()).toEqual(['BOWL', 'NEVER']);
    expect((await reads.store.page<StockView>('stock', mostPressingPage(10))).map((v) => [v.sku, v.available])).toEqual([['NEVER', 0], ['BOWL', 4]]);
    expect(await reads.store.count('stock', BELOW_THRESHOLD)).toBe(2);
    expect(await verify(events.store, reads.store, stockView, () => {})).toEqual({ checked: 6, differences: 0 });
  });

  it('ends as the rebuild does, applied in batches of any size and each batch twice, and a view that is not its fold is found', async () => {
    await rebuild(events.store, reads.store, stockView);
    const generation = reads.store.views<StockView>('stock', await reads.store.activeGeneration('stock'));
    const rebuilt = await generation.scan(null, 100);
    const log = await events.store.readAll({ after: null, maxCount: 1000, streamPrefixes: streamPrefixesOf(stockView) });
    for (const size of [1, 3, log.length]) {
      const views = reads.store.views<StockView>('stock', await reads.store.createGeneration('stock'));
      for (let i = 0; i < log.length; i += size) {
        await applyBatch(stockView, views, log.slice(i, i + size), historyFrom(events.store));
        await applyBatch(stockView, views, log.slice(Math.max(0, i - size), i + size), historyFrom(events.store));
      }
      expect(await views.scan(null, 100), `batches of ${size}`).toEqual(rebuilt);
    }

    const mug = rebuilt.find((v) => v.key === 'MUG')!.view;
    await generation.commit([{ key: 'MUG', view: { ...mug, low: 0, revision: mug.revision + 1 } }], (await generation.checkpoint())!);
    const found: Difference[] = [];
    expect(await verify(events.store, reads.store, stockView, (d) => found.push(d))).toEqual({ checked: 6, differences: 1 });
    expect(found[0]).toMatchObject({ key: 'MUG', expected: { low: 1 }, actual: { low: 0 } });
  });

  it('lists every SKU with its product\'s name: by a SKU\'s prefix, below the threshold or not, and by a name\'s prefix whatever its case, on the indexes', async () => {
    await products.put(staff, 'MUG-XL', product('mug, large', 2), { correlationId: 'c' });
    await products.put(staff, 'ÉCLAIR', product('Éclair tin', 0), { correlationId: 'c' });
    await rebuild(events.store, reads.store, stockView);
    const skus = async (query: Parameters<typeof stockPage>[0], after: string | null = null, limit = 100) => (await reads.store.page<StockView>('stock', stockPage(query, after, limit))).map((v) => v.sku);
    expect(await skus({})).toEqual(['BOWL', 'CUP', 'GONE', 'MUG', 'MUG-XL', 'NEVER', 'SPARE', 'ÉCLAIR']);
    expect(await skus({ skuPrefix: 'MUG' })).toEqual(['MUG', 'MUG-XL']);
    expect(await skus({ skuPrefix: 'MUG' }, 'MUG')).toEqual(['MUG-XL']);
    expect(await skus({ skuPrefix: 'mug' })).toEqual([]);
    expect(await skus({ skuPrefix: 'MUG', belowThreshold: true })).toEqual(['MUG', 'MUG-XL']);
    expect(await skus({ skuPrefix: 'É' })).toEqual(['ÉCLAIR']);
    const names = async (prefix: string, after: { name: string; sku: string } | null = null, limit = 100) =>
      (await reads.store.page<StockView>('stock', namePrefixPage(prefix, after, limit))).map((v) => v.name);
    expect(await names('MUG')).toEqual(['Mug', 'mug, large']);
    expect(await names('mug,')).toEqual(['mug, large']);
    expect(await names('mu', { name: 'mug', sku: 'MUG' })).toEqual(['mug, large']);
    expect(await names('éc')).toEqual(['Éclair tin']);
    expect(await names('x')).toEqual([]);
    // Each is one index's range, read in order: no table scanned whole, nothing sorted apart.
    const sqlite = reads.store as SqliteReadStore;
    for (const query of [stockPage({ skuPrefix: 'MUG' }, 'MUG', 10), stockPage({ skuPrefix: 'MUG', belowThreshold: true }, null, 10), stockPage({ belowThreshold: true }, null, 10), namePrefixPage('mu', { name: 'mug', sku: 'MUG' }, 10), mostPressingPage(10)]) {
      const plan = (await sqlite.queryPlan('stock', query)).join(' | ');
      expect(plan, JSON.stringify(query)).toMatch(/SEARCH .* USING (INDEX|PRIMARY KEY|COVERING INDEX)/);
      expect(plan, JSON.stringify(query)).not.toMatch(/SCAN|TEMP B-TREE/);
    }
  });
});
