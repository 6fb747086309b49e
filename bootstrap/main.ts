// Starts the service: config, stores, HTTP listener, and a graceful stop on SIGTERM/SIGINT.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createApp } from '../api/app.js';
import { ConfigError, parseConfig, type Config } from './config.js';
import { openServices } from './services.js';

let config: Config;
try {
  config = parseConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`Configuration error: ${error.message}`);
  process.exit(2);
}

const logger = pino({ level: config.logLevel, base: { service: 'order-service' } });
const services = await openServices(config, logger);
const app = createApp({ checkReady: services.checkReady });
const server = app.listen(config.port, config.host);
await once(server, 'listening');
const { address, port } = server.address() as AddressInfo;
logger.info({ address, port }, `listening on http://${address}:${port}`);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping: no new connections, finishing in-flight requests');
  server.close();
  server.closeIdleConnections();
  await once(server, 'close');
  await services.close();
  logger.info('stopped');
  process.exit(0);
}
process.on('SIGTERM', (signal) => void stop(signal));
process.on('SIGINT', (signal) => void stop(signal));
