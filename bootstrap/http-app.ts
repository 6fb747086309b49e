// The HTTP app as the service wires it: main.ts serves it, and the API tests start the very
// same wiring (tests/support/http.ts), changing only what a test names in its overrides.
import type Koa from 'koa';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { createApp, type AppDeps } from '../api/app.js';
import { createTokenVerifier, signAccountToken } from '../api/auth.js';
import { ROLE_SCOPES, SCOPES } from '../write-side/kernel/access.js';
import { createMetrics } from '../api/metrics.js';
import type { Config } from './config.js';
import { loadOrCreateSecret } from './secrets.js';
import type { Services } from './services.js';

/** What a caller changes in the wiring: a part of it, or a function of the whole. */
export type AppOverrides = Partial<AppDeps> | ((composed: AppDeps) => Partial<AppDeps>);

/** The app's dependencies from the config and the opened services. */
export function appDeps(config: Config, services: Services, logger: Logger): AppDeps {
  let secret = config.auth.jwtSecret;
  // The service signs its accounts' tokens with AUTH_JWT_SECRET, else with the development secret
  // (beside a JWKS too: sign-in works there, and only account tokens are taken with it).
  const accountSecret = secret ?? loadOrCreateSecret(config.dataDir, 'dev-jwt-secret');
  if (!secret && !config.auth.jwksUrl) {
    secret = accountSecret;
    logger.warn(
      'AUTH_JWT_SECRET is not set: using the development secret in DATA_DIR. Mint a token with: ' +
        `npm run --silent token -- --sub me --scope "${SCOPES.join(' ')}"`,
    );
  }
  return {
    orders: services.orders,
    queries: services.queries,
    history: services.history,
    returns: services.returns,
    auth: createTokenVerifier({
      secret,
      jwksUrl: config.auth.jwksUrl,
      issuer: config.auth.issuer,
      audience: config.auth.audience,
      maxLifetimeSeconds: config.auth.maxTokenLifetimeSeconds,
      accountSecret,
    }),
    accounts: {
      accounts: services.accounts,
      queries: services.accountQueries,
      async issueToken(account) {
        const scope = ROLE_SCOPES[account.role].join(' ');
        const ttl = config.auth.tokenTtlSeconds;
        const claims = { id: account.id, scope, customerId: account.customerId, tokenVersion: account.tokenVersion };
        const accessToken = await signAccountToken(accountSecret, claims, ttl, { issuer: config.auth.issuer, audience: config.auth.audience });
        return { accessToken, expiresIn: ttl, scope };
      },
    },
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
    summary: { summary: services.summary },
    webhooks: { webhooks: services.webhooks, subscriptionQueries: services.webhookSubscriptionQueries, deliveries: services.webhookDeliveries, deliveryQueries: services.webhookDeliveryQueries },
    // Built by npm install (npm run build:admin); beside the compiled service in the image (Dockerfile).
    adminAppDir: fileURLToPath(new URL('../admin/dist', import.meta.url)),
  };
}

export function createHttpApp(config: Config, services: Services, logger: Logger, overrides: AppOverrides = {}): Koa {
  const composed = appDeps(config, services, logger);
  return createApp({ ...composed, ...(typeof overrides === 'function' ? overrides(composed) : overrides) });
}
