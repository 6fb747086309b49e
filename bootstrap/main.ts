// Starts the service: config, stores, projectors, export worker, HTTP listener, and a graceful
// stop on SIGTERM/SIGINT. ROLE (or `--role`) picks what this process runs: all of it (the
// default), `api` (HTTP only), `projector` (the projections, under a lease) or `worker` (exports).
import { once } from 'node:events';
import { createServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { pino, type Logger } from 'pino';
import { answerClientErrors } from '../api/client-errors.js';
import { configOrExit, ROLES, type Config, type Role } from './config.js';
import { createFirstAdmin } from './first-admin.js';
import { createHttpApp } from './http-app.js';
import { openServices, type Services } from './services.js';

/** `--role`, when given, stands for ROLE. */
function configure(): { config: Config; role: Role } {
  const { values } = parseArgs({ options: { role: { type: 'string' } } });
  if (values.role !== undefined && !ROLES.includes(values.role as Role)) {
    console.error(`Configuration error: --role must be one of ${ROLES.join(', ')}`);
    process.exit(2);
  }
  const config = configOrExit(values.role === undefined ? process.env : { ...process.env, ROLE: values.role });
  return { config, role: config.role };
}

async function serveHttp(config: Config, services: Services, logger: Logger): Promise<() => Promise<void>> {
  const app = createHttpApp(config, services, logger);
  // Slow clients cannot hold a connection open for ever (slow-drip headers or bodies): the
  // timeouts are checked every second, not every 30 s as by default. Rule: keepAliveTimeout is
  // longer than the idle timeout of any proxy that keeps connections to the service alive
  // (deploy/nginx.conf's keepalive_timeout, 4 s), or the proxy reuses connections the service
  // has closed and answers 502 (tests/bootstrap/compose.test.ts checks it).
  const server = createServer({ headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000, connectionsCheckingInterval: 1_000 }, app.callback());
  answerClientErrors(server);
  server.listen(config.port, config.host);
  // Taken between the check at start-up and now: the same one line.
  await once(server, 'listening').catch((error: unknown) => cannotListen(config, error));
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
    cannotListen(config, error);
  }
  await new Promise((resolve) => probe.close(resolve));
}

function cannotListen(config: Config, error: unknown): never {
  const { code } = error as NodeJS.ErrnoException;
  if (code !== 'EADDRINUSE' && code !== 'EACCES') throw error;
  console.error(`Cannot listen on ${config.host}:${config.port}: ${code === 'EADDRINUSE' ? 'the port is in use (is the service running already?)' : 'permission denied'}; stop that process or set PORT.`);
  process.exit(1);
}

const { config, role } = configure();
// Only the roles with an HTTP listener need the port.
if (role === 'all' || role === 'api') await exitIfPortBusy(config);
const logger = pino({
  level: config.logLevel,
  base: { service: 'order-service', role },
  // Passwords never reach a log line; these paths catch them should one ever be handed to the logger.
  redact: {
    paths: ['req.headers.authorization', '*.authorization', '*.token', '*.secret', 'password', '*.password', '*.currentPassword', '*.newPassword', '*.access_token', '*.passwordHash'],
    censor: '[redacted]',
  },
});
const services = await openServices(config, logger, role);
if (role === 'all' || role === 'api') await createFirstAdmin(config, services.accounts, logger);
const stopHttp = role === 'all' || role === 'api' ? await serveHttp(config, services, logger) : null;
if (role === 'worker') logger.info('export worker running, without an HTTP listener');
if (role === 'projector') logger.info('projector running, without an HTTP listener');

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
