// `npm run token` as a developer runs it: the token it prints is one the service accepts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTokenVerifier, SCOPES } from '../../api/auth.js';
import { loadOrCreateSecret } from '../../bootstrap/secrets.js';
import { tempDir } from '../support/event-stores.js';
import { runScript } from '../support/service-process.js';

// These tests start the service (or a command) as processes: node with tsx, seconds of CPU each,
// which a loaded 2-core machine stretches past the default 30 s (half a minute at load 16 was seen);
// 3 minutes is generous.
const PROCESS_TEST_MS = 180_000;

const dirs: { remove: () => void }[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => dir.remove()));

function dataDir(): string {
  const dir = tempDir('token-cli-');
  dirs.push(dir);
  return dir.path;
}

/** A DATA_DIR the server has started on: it holds the server's dev secret. */
function serverDataDir(): string {
  const dir = dataDir();
  loadOrCreateSecret(dir, 'dev-jwt-secret');
  return dir;
}

const cli = (env: Record<string, string>, ...args: string[]) => runScript('bootstrap/token-cli.ts', args, env);

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;

describe('token command', () => {
  it('prints only a token signed with the dev secret in DATA_DIR, lasting TOKEN_TTL_SECONDS (900 by default)', async () => {
    const dir = serverDataDir();
    const result = cli({ DATA_DIR: dir }, '--sub', 'alice', '--scope', 'orders:read orders:write', '--customer', 'cust-1');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);

    const secret = readFileSync(join(dir, 'dev-jwt-secret'), 'utf8').trim();
    const principal = await createTokenVerifier({ secret }).verify(result.stdout.trim());
    expect(principal.sub).toBe('alice');
    expect([...principal.scopes].sort()).toEqual(['orders:read', 'orders:write']);
    expect(principal.customerId).toBe('cust-1');

    const claims = claimsOf(result.stdout.trim());
    expect(Number(claims.exp) - Number(claims.iat)).toBe(900);
  }, PROCESS_TEST_MS);

  it('reuses the dev secret and honours --ttl', async () => {
    const dir = serverDataDir();
    const first = cli({ DATA_DIR: dir }, '--sub', 'a', '--scope', 'audit:read');
    const second = cli({ DATA_DIR: dir }, '--sub', 'b', '--scope', 'audit:read', '--ttl', '60');
    expect([first.status, second.status]).toEqual([0, 0]);
    const verifier = createTokenVerifier({ secret: readFileSync(join(dir, 'dev-jwt-secret'), 'utf8').trim() });
    await expect(verifier.verify(first.stdout.trim())).resolves.toMatchObject({ sub: 'a', customerId: null });
    await expect(verifier.verify(second.stdout.trim())).resolves.toMatchObject({ sub: 'b' });
    const claims = claimsOf(second.stdout.trim());
    expect(Number(claims.exp) - Number(claims.iat)).toBe(60);
  }, PROCESS_TEST_MS);

  it('signs with AUTH_JWT_SECRET when it is set, with the configured issuer and audience', async () => {
    const dir = dataDir();
    const secret = 'x'.repeat(16) + '-configured-secret-32-bytes+';
    const env = { DATA_DIR: dir, AUTH_JWT_SECRET: secret, AUTH_ISSUER: 'https://idp.example', AUTH_AUDIENCE: 'orders-api' };
    const result = cli(env, '--sub', 'svc', '--scope', SCOPES.join(' '));
    expect(result.status).toBe(0);
    const token = result.stdout.trim();
    const principal = await createTokenVerifier({ secret, issuer: 'https://idp.example', audience: 'orders-api' }).verify(token);
    expect([...principal.scopes].sort()).toEqual([...SCOPES].sort());
    await expect(createTokenVerifier({ secret, audience: 'another-api' }).verify(token)).rejects.toThrow(/aud/);
    expect(() => readFileSync(join(dir, 'dev-jwt-secret'))).toThrow(/ENOENT/);
  }, PROCESS_TEST_MS);

  it('takes the lifetime from TOKEN_TTL_SECONDS, and refuses a --ttl over MAX_TOKEN_LIFETIME_SECONDS', () => {
    const dir = serverDataDir();
    const configured = cli({ DATA_DIR: dir, TOKEN_TTL_SECONDS: '120' }, '--sub', 'a', '--scope', 'orders:read');
    expect(configured.status).toBe(0);
    const claims = claimsOf(configured.stdout.trim());
    expect(Number(claims.exp) - Number(claims.iat)).toBe(120);

    const tooLong = cli({ DATA_DIR: dir }, '--sub', 'a', '--scope', 'orders:read', '--ttl', '86401');
    expect(tooLong.status).toBe(2);
    expect(tooLong.stdout).toBe('');
    expect(tooLong.stderr).toContain('MAX_TOKEN_LIFETIME_SECONDS');
  }, PROCESS_TEST_MS);

  it("refuses to mint in a DATA_DIR without the server's dev secret, and makes none there", () => {
    const dir = dataDir();
    const result = cli({ DATA_DIR: dir }, '--sub', 'a', '--scope', 'orders:read');
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`No development secret in ${dir}`);
    expect(result.stderr).toContain('AUTH_JWT_SECRET');
    expect(() => readFileSync(join(dir, 'dev-jwt-secret'))).toThrow(/ENOENT/);
  }, PROCESS_TEST_MS);

  it('refuses an unknown scope and lists the valid ones', () => {
    const result = cli({ DATA_DIR: dataDir() }, '--sub', 'alice', '--scope', 'orders:read orders:delete');
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('orders:delete');
    for (const scope of SCOPES) expect(result.stderr).toContain(scope);
  }, PROCESS_TEST_MS);

  it('explains its usage without --sub or with an unknown option', () => {
    const missing = cli({ DATA_DIR: dataDir() }, '--scope', 'orders:read');
    expect(missing.status).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('usage: npm run token');

    const unknown = cli({ DATA_DIR: dataDir() }, '--sub', 'a', '--scope', 'orders:read', '--admin');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('usage: npm run token');
  }, PROCESS_TEST_MS);

  it('refuses a bad --ttl', () => {
    for (const ttl of ['0', '-5', 'soon', '1.5']) {
      const result = cli({ DATA_DIR: dataDir() }, '--sub', 'a', '--scope', 'orders:read', '--ttl', ttl);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain('--ttl');
    }
  }, PROCESS_TEST_MS);

  it('mints nothing when tokens come from an identity provider', () => {
    const dir = dataDir();
    const result = cli({ DATA_DIR: dir, AUTH_JWKS_URL: 'https://idp.example/.well-known/jwks.json' }, '--sub', 'a', '--scope', 'orders:read');
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('identity provider');
    expect(() => readFileSync(join(dir, 'dev-jwt-secret'))).toThrow(/ENOENT/);
  }, PROCESS_TEST_MS);

  it('stops on a configuration error naming the variable', () => {
    const result = cli({ DATA_DIR: dataDir(), AUTH_JWT_SECRET: 'too-short' }, '--sub', 'a', '--scope', 'orders:read');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('AUTH_JWT_SECRET');
  }, PROCESS_TEST_MS);
});
