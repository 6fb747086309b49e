// The products projection: what the catalogue's collection is served from, folded from the
// product streams and checked against a fresh fold.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { productsView } from '../../../projections/catalogue/products.js';
import { rebuild, verify } from '../../../projections/rebuild.js';
import { productPage } from '../../../read-side/catalogue/queries.js';
import type { ProductView } from '../../../read-side/catalogue/views.js';
import { serviceViewer } from '../../../write-side/kernel/access.js';
import { ProductService } from '../../../write-side/catalogue/service.js';
import { openEmbedded } from '../../support/event-stores.js';
import { openEmbeddedReadStore } from '../../support/read-stores.js';

describe('the products projection', () => {
  it('keeps each product as its representation (its low-stock threshold, 0 for none), a retired one with status retired, and agrees with a fresh fold', async () => {
    const events = await openEmbedded();
    const reads = await openEmbeddedReadStore();
    try {
      const products = new ProductService(events.store);
      const staff = serviceViewer('catalogue');
      const context = { correlationId: 'c' };
      const [kept, changed, retired] = ['K', 'C', 'R'].map((tag) => `${tag}-${randomUUID().slice(0, 8)}`) as [string, string, string];
      await products.put(staff, kept, { name: 'Kept', description: null, prices: { EUR: 100 }, status: 'active' }, context);
      await products.put(staff, changed, { name: 'Changed', description: 'd', prices: { EUR: 200, USD: 220 }, status: 'draft' }, context);
      await products.patch(staff, changed, { prices: { USD: null }, status: 'active' }, context);
      await products.put(staff, retired, { name: 'Retired', description: null, prices: { EUR: 300 }, status: 'active' }, context);
      await products.retire(staff, retired, context);
      const [low, unset] = ['L', 'U'].map((tag) => `${tag}-${randomUUID().slice(0, 8)}`) as [string, string];
      await products.put(staff, low, { name: 'Low', description: null, prices: { EUR: 100 }, status: 'active', lowStockThreshold: 4 }, context);
      await products.put(staff, unset, { name: 'Unset', description: null, prices: { EUR: 100 }, status: 'active', lowStockThreshold: 4 }, context);
      await products.patch(staff, unset, { lowStockThreshold: null }, context);

      await rebuild(events.store, reads.store, productsView);
      const views = await reads.store.views<ProductView>('products', await reads.store.activeGeneration('products')).load([kept, changed, retired]);
      expect(views.get(kept)).toMatchObject({ sku: kept, name: 'Kept', status: 'active', revision: 0 });
      expect(views.get(changed)).toMatchObject({ sku: changed, description: 'd', prices: { EUR: 200 }, status: 'active', revision: 1 });
      expect(views.get(changed)!.prices).not.toHaveProperty('USD');
      expect(views.get(retired)).toMatchObject({ sku: retired, status: 'retired', revision: 1 });
      const thresholds = await reads.store.views<ProductView>('products', await reads.store.activeGeneration('products')).load([kept, low, unset]);
      expect([kept, low, unset].map((sku) => thresholds.get(sku)?.lowStockThreshold)).toEqual([0, 4, 0]);
      expect((await reads.store.page<ProductView>('products', productPage(undefined, 'sku', null, 100))).map((p) => p.sku)).not.toContain(retired);
      expect(await verify(events.store, reads.store, productsView, () => {})).toMatchObject({ differences: 0 });
    } finally {
      await reads.dispose();
      await events.dispose();
    }
  });
});
