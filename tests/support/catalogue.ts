// The products the tests order: defined through the write side's product service, once per store
// (defining a product as it already is records nothing, so every test and run may call it).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteEventStore } from '../../write-side/adapters/sqlite-event-store.js';
import { serviceViewer } from '../../write-side/kernel/access.js';
import type { ProductContent } from '../../write-side/catalogue/types.js';
import type { EventStore } from '../../write-side/kernel/event-store.js';
import { ProductService } from '../../write-side/catalogue/service.js';

const product = (name: string, eur: number, more: Record<string, number> = {}): ProductContent => ({ name, description: null, prices: { EUR: eur, ...more }, status: 'active' });

/** SKU-1 is what newOrder() orders (2 × 1999 EUR); A the write-side tests'; SEED-0…9 what seedOrders() orders. */
export const TEST_PRODUCTS: Readonly<Record<string, ProductContent>> = {
  'SKU-1': { ...product('Blue mug', 1999, { USD: 2199 }), description: 'Stoneware, 350 ml' },
  A: product('Product A', 500),
  ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`SEED-${i}`, product(`Seed product ${i}`, 100 + i)])),
};

export async function defineProducts(catalogue: ProductService | EventStore, products: Readonly<Record<string, ProductContent>> = TEST_PRODUCTS): Promise<void> {
  const service = catalogue instanceof ProductService ? catalogue : new ProductService(catalogue);
  const viewer = serviceViewer('test-catalogue');
  for (const [sku, content] of Object.entries(products)) await service.put(viewer, sku, content, { correlationId: 'test-catalogue' });
}

/** The test catalogue in the embedded event store of a DATA_DIR, for a service started as a process of its own. */
export async function defineProductsIn(dataDir: string, products: Readonly<Record<string, ProductContent>> = TEST_PRODUCTS): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const store = new SqliteEventStore({ file: join(dataDir, 'events.sqlite3') });
  try {
    await defineProducts(store, products);
  } finally {
    await store.close();
  }
}
