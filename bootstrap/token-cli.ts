// npm run token -- --sub <id> --scope "<scopes>" [--customer <id>] [--ttl <seconds>]
// Prints only the token on stdout, so `TOKEN=$(npm run --silent token -- ...)` works; everything
// else goes to stderr. Signs with AUTH_JWT_SECRET, else with the dev secret the service keeps in
// DATA_DIR; it never makes that secret, since a token signed with one the server does not use is refused.
// The token lasts TOKEN_TTL_SECONDS (900) unless --ttl says otherwise.
import { parseArgs } from 'node:util';
import { SCOPES, signDevToken } from '../api/auth.js';
import { configOrExit } from './config.js';
import { readSecret } from './secrets.js';

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

if (ttl !== undefined && (!/^\d+$/.test(ttl) || !Number.isSafeInteger(Number(ttl)) || Number(ttl) <= 0)) fail(`--ttl must be a positive number of seconds, not "${ttl}"`);
if (customer === '') fail('--customer must not be empty');

const config = configOrExit();
const { jwtSecret, jwksUrl, issuer, audience, tokenTtlSeconds, maxTokenLifetimeSeconds } = config.auth;
const ttlSeconds = ttl === undefined ? tokenTtlSeconds : Number(ttl);
if (ttlSeconds > maxTokenLifetimeSeconds) {
  fail(`--ttl ${ttlSeconds} is over MAX_TOKEN_LIFETIME_SECONDS (${maxTokenLifetimeSeconds}): the service would refuse the token`);
}
if (!jwtSecret && jwksUrl) {
  fail('AUTH_JWKS_URL is set: the service accepts only tokens from the identity provider; get one there.');
}
const secret = jwtSecret ?? readSecret(config.dataDir, 'dev-jwt-secret');
if (secret === null) {
  fail(
    `No development secret in ${config.dataDir}: a token made here would be refused by the server. ` +
      'Run this command with the DATA_DIR of the running server (start the server once to make its secret), or set AUTH_JWT_SECRET for both.',
  );
}

const token = await signDevToken(secret, { sub, scope: scopes.join(' '), customerId: customer ?? null }, ttlSeconds, { issuer, audience });
process.stdout.write(token + '\n');
