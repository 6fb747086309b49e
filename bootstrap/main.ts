// Starts the service: config, stores, projectors, HTTP listener, and a graceful stop on SIGTERM/SIGINT.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createApp } from '../api/app.js';
import { createTokenVerifier } from '../api/auth.js';
import { answerClientErrors } from '../api/client-errors.js';
import { createMetrics } from '../api/metrics.js';
import { ConfigError, parseConfig, type Config } from './config.js';
import { loadOrCreateSecret } from './secrets.js';
import { openServices } from './services.js';

let config: Config;
try {
  config = parseConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`Configuration error: ${error.message}`);
  process.exit(2);
}

const logger = pino({
  level: config.logLevel,
  base: { service: 'order-service' },
  redact: { paths: ['req.headers.authorization', '*.authorization', '*.token', '*.secret'], censor: '[redacted]' },
});

let secret = config.auth.jwtSecret;
if (!secret && !config.auth.jwksUrl) {
  secret = loadOrCreateSecret(config.dataDir, 'dev-jwt-secret');
  logger.warn(
    'AUTH_JWT_SECRET is not set: using the development secret in DATA_DIR. Mint a token with: ' +
      'npm run --silent token -- --sub me --scope "orders:read orders:write payments:write shipments:write"',
  );
}

const services = await openServices(config, logger);
const metrics = createMetrics(Object.values(services.projectors));
const app = createApp({
  orders: services.orders,
  queries: services.queries,
  consistency: services.projectors['order-views'],
  auth: createTokenVerifier({ secret, jwksUrl: config.auth.jwksUrl, issuer: config.auth.issuer, audience: config.auth.audience }),
  logger,
  metrics,
  checkReady: services.checkReady,
  rateLimit: config.rateLimit,
  requestTimeoutMs: config.requestTimeoutMs,
});
const server = app.listen(config.port, config.host);
answerClientErrors(server);
// Slow clients cannot hold a connection open for ever (slow-drip headers or bodies).
server.headersTimeout = 10_000;
server.requestTimeout = 30_000;
server.keepAliveTimeout = 5_000;
await once(server, 'listening');
const { address, port } = server.address() as AddressInfo;
logger.info({ address, port }, `listening on http://${address}:${port}`);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping: no new connections, finishing in-flight requests');
  server.close();
  // Kept-alive connections close as soon as their last response is out; stragglers are cut
  // when the request timeout has passed, since by then every request has been answered.
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  const deadline = setTimeout(() => server.closeAllConnections(), config.requestTimeoutMs + 1000);
  await once(server, 'close');
  clearInterval(sweep);
  clearTimeout(deadline);
  await services.close();
  logger.info('stopped');
  process.exit(0);
}
process.on('SIGTERM', (signal) => void stop(signal));
process.on('SIGINT', (signal) => void stop(signal));
