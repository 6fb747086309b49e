// bench:http's peer without the catalogue and the stock: the service as bootstrap/main.ts wires
// it (same config, stores, projections, HTTP app), but placement (an order service of its own over
// the service's stores) takes each line's unit price as
// the client sends it, and no stock worker runs. Two ways to place, switched between rows by
// `PUT /bench-peer/reservations/{none|appended}`:
// - none: nothing reserved. Placement as it was before the catalogue and the stock existed, the
//   reference issue 16's targets are set against ("today's placement, with no catalogue and no
//   stock, reaches about 30% of that floor").
// - appended: each line's StockReserved appended to its SKU's stream, blind (no read, no decision,
//   no revision check), all in one commit, before the order; projected into the stock views like
//   any. The least that this design (one reservation event per line on its SKU's stream, durable
//   before the order) writes and projects for stock: what a placement of it can reach at most.
// Never a way to run the store: a client names its own prices here, and stock is never checked.
// Usage: DATA_DIR=… PORT=N AUTH_JWT_SECRET=… without-stock.ts; ready once /health/ready answers.
import { once } from 'node:events';
import { createServer } from 'node:http';
import { pino } from 'pino';
import { configOrExit } from '../../bootstrap/config.js';
import { createHttpApp } from '../../bootstrap/http-app.js';
import { openServices, type Services } from '../../bootstrap/services.js';
import { OrderService, type Catalogue } from '../../write-side/orders/service.js';
import { customerPersonalData } from '../../write-side/customers/personal-data.js';
import { orderPersonalData } from '../../write-side/orders/personal-data.js';
import { SealingEventStore } from '../../write-side/personal-data/sealing-event-store.js';
import type { Reservations } from '../../write-side/stock/service.js';
import { encodeStockEvent, stockStream } from '../../write-side/stock/codec.js';

const config = configOrExit();
const logger = pino({ level: config.logLevel });
let appended = false;
let services: Services | null = null;
const asSent: Catalogue = { price: async (lines) => lines.map(({ sku, quantity, unitPrice }) => ({ sku, name: sku, quantity, unitPrice: unitPrice ?? 0 })) };
const reservations: Reservations = {
  async reserve(orderId, lines, context) {
    if (!appended) return;
    const reservedAt = new Date().toISOString();
    const store = services!.eventStore;
    await Promise.all(lines.map(({ sku, quantity }) =>
      store.appendToStream(stockStream(sku), [encodeStockEvent({ type: 'StockReserved', schemaVersion: 1, data: { sku, orderId, quantity, reservedAt } }, context)], 'any')));
  },
  release: async () => {},
  settle: async () => {},
};
const wired = await openServices(config, logger, 'all', { stockWorkers: false });
// The service's own order service, but placing with the prices as sent and these reservations.
const sealed = new SealingEventStore(wired.eventStore, wired.personalData, [orderPersonalData, customerPersonalData]);
const orders = new OrderService(sealed, {
  catalogue: asSent,
  customers: wired.customers,
  reservations,
  ...(wired.personalData.sealing ? { keys: wired.personalData.keyring } : {}),
});
services = { ...wired, orders };
const app = createHttpApp(config, services, logger).callback();
const server = createServer((req, res) => {
  const mode = /^\/bench-peer\/reservations\/(none|appended)$/.exec(req.url ?? '');
  if (req.method !== 'PUT' || !mode) return void app(req, res);
  appended = mode[1] === 'appended';
  res.writeHead(204).end();
});
server.listen(config.port, config.host);
await once(server, 'listening');
const stop = () => server.close(() => void services!.close().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
