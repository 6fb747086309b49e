// bench:http's peer without the catalogue and the stock: the service as bootstrap/main.ts wires
// it (same config, stores, projections, HTTP app), but placement takes each line's unit price as
// the client sends it and reserves nothing, and no stock worker runs. That is placement as it was
// before the catalogue and the stock existed, the reference issue 16's targets are set against
// ("today's placement, with no catalogue and no stock, reaches about 30% of that floor"), measured
// in the same run as the service. Never a way to run the store: a client names its own prices here.
// Usage: DATA_DIR=… PORT=N AUTH_JWT_SECRET=… without-stock.ts; ready once /health/ready answers.
import { once } from 'node:events';
import { createServer } from 'node:http';
import { pino } from 'pino';
import { configOrExit } from '../../bootstrap/config.js';
import { createHttpApp } from '../../bootstrap/http-app.js';
import { openServices } from '../../bootstrap/services.js';

const config = configOrExit();
const logger = pino({ level: config.logLevel });
const services = await openServices(config, logger, 'all', {
  stockWorkers: false,
  placement: {
    catalogue: { price: async (lines) => lines.map(({ sku, quantity, unitPrice }) => ({ sku, name: sku, quantity, unitPrice: unitPrice ?? 0 })) },
    reservations: { reserve: async () => {}, release: async () => {}, commit: async () => {} },
  },
});
const server = createServer(createHttpApp(config, services, logger).callback());
server.listen(config.port, config.host);
await once(server, 'listening');
const stop = () => server.close(() => void services.close().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
