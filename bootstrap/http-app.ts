// The HTTP app as the service wires it: main.ts serves it, and the API tests start the very
// same wiring (tests/support/http.ts), changing only what a test names in its overrides.
import type Koa from 'koa';
import type { Logger } from 'pino';
import { createApp, type AppDeps } from '../api/app.js';
import { createTokenVerifier } from '../api/auth.js';
import { createMetrics } from '../api/metrics.js';
import type { Config } from './config.js';
import { loadOrCreateSecret } from './secrets.js';
import type { Services } from './services.js';

/** What a caller changes in the wiring: a part of it, or a function of the whole. */
export type AppOverrides = Partial<AppDeps> | ((composed: AppDeps) => Partial<AppDeps>);

/** The app's dependencies from the config and the opened services. */
export function appDeps(config: Config, services: Services, logger: Logger): AppDeps {
  let secret = config.auth.jwtSecret;
  if (!secret && !config.auth.jwksUrl) {
    secret = loadOrCreateSecret(config.dataDir, 'dev-jwt-secret');
    logger.warn(
      'AUTH_JWT_SECRET is not set: using the development secret in DATA_DIR. Mint a token with: ' +
        'npm run --silent token -- --sub me --scope "orders:read orders:write payments:write shipments:write exports:write audit:read catalogue:read catalogue:write"',
    );
  }
  return {
    orders: services.orders,
    queries: services.queries,
    history: services.history,
    auth: createTokenVerifier({ secret, jwksUrl: config.auth.jwksUrl, issuer: config.auth.issuer, audience: config.auth.audience, maxLifetimeSeconds: config.auth.maxTokenLifetimeSeconds }),
    logger,
    metrics: createMetrics(Object.values(services.progress)),
    checkReady: services.checkReady,
    rateLimit: config.rateLimit,
    requestTimeoutMs: config.requestTimeoutMs,
    corsOrigins: config.corsOrigins,
    maxInFlight: config.maxInFlight,
    exports: { jobs: services.jobs, exportsDir: services.exportsDir, retentionMs: config.exports.retentionMs },
    fulfilment: { feed: services.feed },
    stock: { stock: services.stock, stockQueries: services.stockQueries },
    catalogue: { products: services.products, productQueries: services.productQueries },
    customers: { customers: services.customers, customerQueries: services.customerQueries },
  };
}

export function createHttpApp(config: Config, services: Services, logger: Logger, overrides: AppOverrides = {}): Koa {
  const composed = appDeps(config, services, logger);
  return createApp({ ...composed, ...(typeof overrides === 'function' ? overrides(composed) : overrides) });
}
