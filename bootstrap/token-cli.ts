// npm run token -- --sub <id> --scope "<scopes>" [--customer <id>] [--ttl <seconds>]
// Prints only the token on stdout, so `TOKEN=$(npm run --silent token -- ...)` works; everything
// else goes to stderr. Signs with AUTH_JWT_SECRET, else with the dev secret the service keeps in DATA_DIR.
import { parseArgs } from 'node:util';
import { SCOPES, signDevToken } from '../api/auth.js';
import { configOrExit } from './config.js';
import { loadOrCreateSecret } from './secrets.js';

const USAGE = `usage: npm run token -- --sub <id> --scope "<scopes>" [--customer <id>] [--ttl <seconds>]
scopes (space-separated): ${SCOPES.join(' ')}`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      sub: { type: 'string' },
      scope: { type: 'string' },
      customer: { type: 'string' },
      ttl: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  }));
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
const { sub, scope, customer, ttl } = values;
if (!sub || scope === undefined) fail(USAGE);
if (sub.length > 255) fail('--sub must be at most 255 characters');

const scopes = scope.split(' ').filter((s) => s !== '');
const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
if (unknown.length > 0) fail(`unknown scope(s): ${unknown.join(', ')}\nvalid scopes: ${SCOPES.join(' ')}`);

const ttlText = ttl ?? '3600';
const ttlSeconds = Number(ttlText);
if (!/^\d+$/.test(ttlText) || !Number.isSafeInteger(ttlSeconds) || ttlSeconds <= 0) fail(`--ttl must be a positive number of seconds, not "${ttlText}"`);
if (customer === '') fail('--customer must not be empty');

const config = configOrExit();
const { jwtSecret, jwksUrl, issuer, audience } = config.auth;
if (!jwtSecret && jwksUrl) {
  fail('AUTH_JWKS_URL is set: the service accepts only tokens from the identity provider; get one there.');
}
const secret = jwtSecret ?? loadOrCreateSecret(config.dataDir, 'dev-jwt-secret');

const token = await signDevToken(secret, { sub, scope: scopes.join(' '), customerId: customer ?? null }, ttlSeconds, { issuer, audience });
process.stdout.write(token + '\n');
