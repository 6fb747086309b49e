// npm run seed: defines the demo catalogue (demo-catalogue.ts), with stock to order from, in the
// stores the environment names, through the write side's product service, as any staff client would. Run by hand only:
// the service never seeds by itself, so a production store holds only what its staff defined.
// Running it again changes nothing that is already as the demo defines it.
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { serviceViewer } from '../write-side/kernel/access.js';
import { ProductService } from '../write-side/catalogue/service.js';
import { StockService } from '../write-side/stock/service.js';
import { configOrExit } from './config.js';
import { DEMO_CATALOGUE } from './demo-catalogue.js';
import { openEventStore } from './services.js';

const DEMO_STOCK = 100;
const config = configOrExit();
const eventStore = await openEventStore(config, pino({ level: 'warn' }, pino.destination(2)));
try {
  const products = new ProductService(eventStore);
  const seeder = serviceViewer('seed');
  const correlationId = `seed-${randomUUID()}`;
  for (const [sku, product] of Object.entries(DEMO_CATALOGUE)) {
    const result = await products.put(seeder, sku, product, { correlationId });
    const outcome = result.events[0]?.type === 'ProductDefined' ? 'defined' : result.events.length > 0 ? 'replaced' : 'unchanged';
    // On stderr: the README's quick start reads the answers of its requests from stdout.
    console.error(`${sku.padEnd(8)} ${outcome.padEnd(9)} ${product.name}`);
  }
  // Stock to order from: 100 of each demo SKU received once, under a key of its own (run again, it is replayed).
  const stock = new StockService(eventStore);
  for (const sku of Object.keys(DEMO_CATALOGUE)) {
    const key = `seed-stock-${sku}`;
    const received = await stock.adjust(seeder, sku, { delta: DEMO_STOCK, reason: 'received', note: 'demo stock' }, { correlationId, idempotency: { key, fingerprint: key } });
    console.error(`${sku.padEnd(8)} ${received?.replayed ? 'stock unchanged' : `${DEMO_STOCK} received`}, ${received?.levels.available ?? 0} available`);
  }
} finally {
  await eventStore.close();
}
