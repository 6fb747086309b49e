// Starts the service: config, stores, projectors, export worker, HTTP listener, and a graceful
// stop on SIGTERM/SIGINT. ROLE (or `--role`) picks what this process runs: all of it (the
// default), `api` (HTTP only), `projector` (the projections, under a lease) or `worker` (exports).
import { once } from 'node:events';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { pino, type Logger } from 'pino';
import { answerClientErrors } from '../api/client-errors.js';
import { createStartingApp } from '../api/starting-app.js';
import { configOrExit, ROLES, type Config, type Role } from './config.js';
import { createFirstAdmin } from './first-admin.js';
import { createHttpApp } from './http-app.js';
import { openServices, type Services } from './services.js';
import { untilReachable } from './until-reachable.js';

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

/**
 * The HTTP listener, opened before the stores: it answers with `handler()` as it is at each
 * request, which is the starting app until the stores are open and the service's app after.
 * A busy port ends the start here, before the stores are opened (and the embedded ones locked).
 */
async function listen(config: Config, handler: () => RequestListener, logger: Logger): Promise<{ url: string; port: number; stop: () => Promise<void> }> {
  // Slow clients cannot hold a connection open for ever (slow-drip headers or bodies): the
  // timeouts are checked every second, not every 30 s as by default. Rule: keepAliveTimeout is
  // longer than the idle timeout of any proxy that keeps connections to the service alive
  // (deploy/nginx.conf's keepalive_timeout, 4 s), or the proxy reuses connections the service
  // has closed and answers 502 (tests/bootstrap/compose.test.ts checks it).
  const server = createServer({ headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000, connectionsCheckingInterval: 1_000 }, (req, res) =>
    handler()(req, res),
  );
  answerClientErrors(server);
  server.listen(config.port, config.host);
  await once(server, 'listening').catch((error: unknown) => cannotListen(config, error));
  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address}:${port}`;
  logger.info({ address, port }, `listening on ${url}`);

  const stop = async () => {
    server.close();
    // Kept-alive connections close as soon as their last response is out; stragglers are cut
    // when the request timeout has passed, since by then every request has been answered.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const deadline = setTimeout(() => server.closeAllConnections(), config.requestTimeoutMs + 1000);
    await once(server, 'close');
    clearInterval(sweep);
    clearTimeout(deadline);
  };
  return { url, port, stop };
}

function cannotListen(config: Config, error: unknown): never {
  const { code } = error as NodeJS.ErrnoException;
  if (code !== 'EADDRINUSE' && code !== 'EACCES') throw error;
  console.error(`Cannot listen on ${config.host}:${config.port}: ${code === 'EADDRINUSE' ? 'the port is in use (is the service running already?)' : 'permission denied'}; stop that process or set PORT.`);
  process.exit(1);
}

const { config, role } = configure();
const logger = pino({
  level: config.logLevel,
  base: { service: 'order-service', role },
  // Passwords never reach a log line; these paths catch them should one ever be handed to the logger.
  redact: {
    paths: ['req.headers.authorization', '*.authorization', '*.token', '*.secret', 'password', '*.password', '*.currentPassword', '*.newPassword', '*.access_token', '*.passwordHash'],
    censor: '[redacted]',
  },
});

// Until the stores are open, the listener says so: alive, not ready, 503 for the rest.
let waiting = 'opening the stores';
let app: RequestListener = createStartingApp(logger, () => waiting).callback();
const http = role === 'all' || role === 'api' ? await listen(config, () => app, logger) : null;
let services: Services | null = null;

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping: no new connections, finishing in-flight requests; running exports are left to their lease');
  await http?.stop();
  await services?.close();
  logger.info('stopped');
  process.exit(0);
}
process.on('SIGTERM', (signal) => void stop(signal));
process.on('SIGINT', (signal) => void stop(signal));

const retrying = { logger, onWaiting: (reason: string) => (waiting = reason) };
const opened = await untilReachable('opening the stores', () => openServices(config, logger, role), retrying);
services = opened;
if (http && !stopping) {
  await untilReachable('creating the first administrator', () => createFirstAdmin(config, opened.accounts, logger), retrying);
  app = createHttpApp(config, opened, logger).callback();
  logger.info({ port: http.port }, `serving on ${http.url}`);
}
if (role === 'worker') logger.info('export worker running, without an HTTP listener');
if (role === 'projector') logger.info('projector running, without an HTTP listener');
