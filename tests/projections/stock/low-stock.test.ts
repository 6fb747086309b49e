// The low-stock projection, which gathers a SKU's product and stock streams: a SKU is low while its
// product (not retired) has fewer units available than its threshold, whichever stream moved last
// (a sale, a restock, a threshold raised, a retirement); its levels are the stock's own; the low
// ones paged by SKU and fewest available first on indexes; a log applied in batches, each twice,
// ends as the rebuild does; agreement with a fresh fold.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyBatch } from '../../../projections/apply.js';
import { streamPrefixesOf } from '../../../projections/projection.js';
import { rebuild, verify, type Difference } from '../../../projections/rebuild.js';
import { lowStock } from '../../../projections/stock/low-stock.js';
import { BELOW_THRESHOLD, belowThresholdPage, mostPressingPage } from '../../../read-side/stock/queries.js';
import type { LowStockView } from '../../../read-side/stock/views.js';
import { ProductService } from '../../../write-side/catalogue/service.js';
import type { ProductContent } from '../../../write-side/catalogue/types.js';
import { serviceViewer } from '../../../write-side/kernel/access.js';
import { StockService } from '../../../write-side/stock/service.js';
import { openEmbedded, type StoreFixture } from '../../support/event-stores.js';
import { openEmbeddedReadStore, type ReadStoreFixture } from '../../support/read-stores.js';

const staff = serviceViewer('low-stock-test');
const context = { principal: 'test', correlationId: 'c', causationId: null };
const product = (name: string, lowStockThreshold: number, status: 'draft' | 'active' = 'active'): ProductContent => ({ name, description: null, prices: { EUR: 100 }, status, lowStockThreshold });

describe('the low-stock projection', () => {
  let events: StoreFixture;
  let reads: ReadStoreFixture;
  let products: ProductService;
  let stock: StockService;
  const adjust = (sku: string, delta: number) => stock.adjust(staff, sku, { delta, reason: 'count', note: null }, { correlationId: 'c', idempotency: { key: randomUUID(), fingerprint: 'f' } });
  const low = async () => (await reads.store.page<LowStockView>('low-stock', belowThresholdPage(null, 100))).map((v) => v.sku);

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
    await rebuild(events.store, reads.store, lowStock);
    expect(await low()).toEqual(['MUG', 'NEVER']);
    const views = await reads.store.find<LowStockView>('low-stock', ['MUG', 'NEVER', 'SPARE', 'GONE']);
    const { revision, updatedAt, ...levels } = (await stock.get(staff, 'MUG'))!;
    expect(views.get('MUG')).toMatchObject({ name: 'Mug', status: 'active', lowStockThreshold: 5, ...levels, stockUpdatedAt: updatedAt, stockRevision: revision, low: 1 });
    expect(views.get('NEVER')).toMatchObject({ available: 0, stockUpdatedAt: null, stockRevision: null, low: 1 });
    expect(views.get('SPARE')).toMatchObject({ name: null, status: null, available: 1, low: 0 });
    expect(views.get('GONE')).toMatchObject({ status: 'retired', low: 0 });

    // A threshold raised above what is available takes a SKU below it with no stock event; a restock lifts one.
    await products.patch(staff, 'BOWL', { lowStockThreshold: 6 }, { correlationId: 'c' });
    await adjust('MUG', 10);
    await rebuild(events.store, reads.store, lowStock);
    expect(await low()).toEqual(['BOWL', 'NEVER']);
    expect((await reads.store.page<LowStockView>('low-stock', mostPressingPage(10))).map((v) => [v.sku, v.available])).toEqual([['NEVER', 0], ['BOWL', 4]]);
    expect(await reads.store.count('low-stock', BELOW_THRESHOLD)).toBe(2);
    expect(await verify(events.store, reads.store, lowStock, () => {})).toEqual({ checked: 6, differences: 0 });
  });

  it('ends as the rebuild does, applied in batches of any size and each batch twice, and a view that is not its fold is found', async () => {
    await rebuild(events.store, reads.store, lowStock);
    const generation = reads.store.views<LowStockView>('low-stock', await reads.store.activeGeneration('low-stock'));
    const rebuilt = await generation.scan(null, 100);
    const log = await events.store.readAll({ after: null, maxCount: 1000, streamPrefixes: streamPrefixesOf(lowStock) });
    for (const size of [1, 3, log.length]) {
      const views = reads.store.views<LowStockView>('low-stock', await reads.store.createGeneration('low-stock'));
      for (let i = 0; i < log.length; i += size) {
        await applyBatch(lowStock, views, log.slice(i, i + size));
        await applyBatch(lowStock, views, log.slice(Math.max(0, i - size), i + size));
      }
      expect(await views.scan(null, 100), `batches of ${size}`).toEqual(rebuilt);
    }

    const mug = rebuilt.find((v) => v.key === 'MUG')!.view;
    await generation.commit([{ key: 'MUG', view: { ...mug, low: 0, revision: mug.revision + 1 } }], (await generation.checkpoint())!);
    const found: Difference[] = [];
    expect(await verify(events.store, reads.store, lowStock, (d) => found.push(d))).toEqual({ checked: 6, differences: 1 });
    expect(found[0]).toMatchObject({ key: 'MUG', expected: { low: 1 }, actual: { low: 0 } });
  });
});
