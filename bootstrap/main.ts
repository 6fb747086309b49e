// Starts the service: config, stores, projectors, export worker, HTTP listener, and a graceful
// stop on SIGTERM/SIGINT. `--role api` leaves the export worker out; `--role worker` runs it alone.
import { once } from 'node:events';
import { createServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { pino, type Logger } from 'pino';
import { createApp } from '../api/app.js';
import { createTokenVerifier } from '../api/auth.js';
import { answerClientErrors } from '../api/client-errors.js';
import { createMetrics } from '../api/metrics.js';
import { configOrExit, type Config } from './config.js';
import { loadOrCreateSecret } from './secrets.js';
import { openServices, type Role, type Services } from './services.js';

const ROLES: readonly Role[] = ['all', 'api', 'worker'];

function configure(): { config: Config; role: Role } {
  const { values } = parseArgs({ options: { role: { type: 'string', default: 'all' } } });
  if (!ROLES.includes(values.role as Role)) {
    console.error(`Configuration error: --role must be one of ${ROLES.join(', ')}`);
    process.exit(2);
  }
  return { config: configOrExit(), role: values.role as Role };
}

async function serveHttp(config: Config, services: Services, logger: Logger): Promise<() => Promise<void>> {
  let secret = config.auth.jwtSecret;
  if (!secret && !config.auth.jwksUrl) {
    secret = loadOrCreateSecret(config.dataDir, 'dev-jwt-secret');
    logger.warn(
      'AUTH_JWT_SECRET is not set: using the development secret in DATA_DIR. Mint a token with: ' +
        'npm run --silent token -- --sub me --scope "orders:read orders:write payments:write shipments:write exports:write audit:read"',
    );
  }
  const app = createApp({
    orders: services.orders,
    queries: services.queries,
    history: services.history,
    auth: createTokenVerifier({ secret, jwksUrl: config.auth.jwksUrl, issuer: config.auth.issuer, audience: config.auth.audience, maxLifetimeSeconds: config.auth.maxTokenLifetimeSeconds }),
    logger,
    metrics: createMetrics(Object.values(services.projectors)),
    checkReady: services.checkReady,
    rateLimit: config.rateLimit,
    requestTimeoutMs: config.requestTimeoutMs,
    corsOrigins: config.corsOrigins,
    maxInFlight: config.maxInFlight,
    exports: { jobs: services.jobs, exportsDir: services.exportsDir, retentionMs: config.exports.retentionMs },
    fulfilment: { feed: services.feed },
  });
  // Slow clients cannot hold a connection open for ever (slow-drip headers or bodies): the
  // timeouts are checked every second, not every 30 s as by default.
  const server = createServer({ headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000, connectionsCheckingInterval: 1_000 }, app.callback());
  answerClientErrors(server);
  server.listen(config.port, config.host);
  await once(server, 'listening');
  const { address, port } = server.address() as AddressInfo;
  logger.info({ address, port }, `listening on http://${address}:${port}`);

  return async () => {
    server.close();
    // Kept-alive connections close as soon as their last response is out; stragglers are cut
    // when the request timeout has passed, since by then every request has been answered.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const deadline = setTimeout(() => server.closeAllConnections(), config.requestTimeoutMs + 1000);
    await once(server, 'close');
    clearInterval(sweep);
    clearTimeout(deadline);
  };
}

/** A second `npm start` on a busy port says so in one line and exits, before it opens (and locks) the stores. */
async function exitIfPortBusy(config: Config): Promise<void> {
  if (config.port === 0) return;
  const probe = createNetServer();
  try {
    await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(config.port, config.host, resolve));
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code !== 'EADDRINUSE' && code !== 'EACCES') throw error;
    console.error(`Cannot listen on ${config.host}:${config.port}: ${code === 'EADDRINUSE' ? 'the port is in use (is the service running already?)' : 'permission denied'}; stop that process or set PORT.`);
    process.exit(1);
  }
  await new Promise((resolve) => probe.close(resolve));
}

const { config, role } = configure();
if (role !== 'worker') await exitIfPortBusy(config);
const logger = pino({
  level: config.logLevel,
  base: { service: 'order-service', role },
  redact: { paths: ['req.headers.authorization', '*.authorization', '*.token', '*.secret'], censor: '[redacted]' },
});
const services = await openServices(config, logger, role);
const stopHttp = role === 'worker' ? null : await serveHttp(config, services, logger);
if (role === 'worker') logger.info('export worker running, without an HTTP listener');

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping: no new connections, finishing in-flight requests; running exports are left to their lease');
  await stopHttp?.();
  await services.close();
  logger.info('stopped');
  process.exit(0);
}
process.on('SIGTERM', (signal) => void stop(signal));
process.on('SIGINT', (signal) => void stop(signal));
