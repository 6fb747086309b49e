// Bearer token verification: what is accepted, what is refused and why, and the JWKS's failures.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CompactSign, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTokenVerifier, hasScope, KeySetUnavailable, signAccountToken, signDevToken, Unauthenticated, type TokenVerifier } from '../../api/auth.js';
import { client, SECRET as SERVICE_SECRET, startService } from '../support/http.js';
import { receiveStock, TEST_SKUS } from '../support/seed.js';

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256';
const OTHER_SECRET = 'another-secret-that-is-long-enough-for-hs256';
const now = () => Math.floor(Date.now() / 1000);

function sign(payload: JWTPayload, key: CryptoKey | Uint8Array | string, header: { alg: string; kid?: string } = { alg: 'HS256' }): Promise<string> {
  const signingKey = typeof key === 'string' ? new TextEncoder().encode(key) : key;
  return new SignJWT(payload).setProtectedHeader({ ...header, typ: 'JWT' }).sign(signingKey);
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const unsigned = (payload: JWTPayload) => `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(payload)}.`;

async function refusal(verifier: TokenVerifier, token: string): Promise<Unauthenticated> {
  const error = await verifier.verify(token).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Unauthenticated);
  const refused = error as Unauthenticated;
  expect(refused.code).toBe('unauthenticated');
  if (token !== '') expect(refused.message).not.toContain(token);
  return refused;
}

async function failure(verifier: TokenVerifier, token: string): Promise<unknown> {
  return verifier.verify(token).then(
    () => expect.fail('the token was accepted'),
    (e: unknown) => e,
  );
}

describe('token verifier with an HS256 secret', () => {
  const verifier = createTokenVerifier({ secret: SECRET });

  it('turns a valid token into a principal with its scopes and customer', async () => {
    const token = await sign({ sub: 'user-1', scope: 'orders:read  payments:write', customer_id: 'cust-7', exp: now() + 60 }, SECRET);
    const principal = await verifier.verify(token);
    expect(principal.sub).toBe('user-1');
    expect([...principal.scopes].sort()).toEqual(['orders:read', 'payments:write']);
    expect(principal.customerId).toBe('cust-7');
    expect(hasScope(principal, 'orders:read')).toBe(true);
    expect(hasScope(principal, 'orders:write')).toBe(false);
  });

  it('gives no scopes and no customer when the claims are absent', async () => {
    const principal = await verifier.verify(await sign({ sub: 'ops', exp: now() + 60 }, SECRET));
    expect(principal.scopes.size).toBe(0);
    expect(principal.customerId).toBeNull();
  });

  it('accepts a token signed by signDevToken, with its ttl', async () => {
    const token = await signDevToken(SECRET, { sub: 'dev', scope: 'audit:read', customerId: 'c-1' }, 120);
    const principal = await verifier.verify(token);
    expect(principal).toMatchObject({ sub: 'dev', customerId: 'c-1' });
    expect([...principal.scopes]).toEqual(['audit:read']);
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as JWTPayload;
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(120);
  });

  it('refuses an expired token, but tolerates a few seconds of clock skew', async () => {
    expect((await refusal(verifier, await sign({ sub: 'u', exp: now() - 60 }, SECRET))).reason).toBe('expired');
    await expect(verifier.verify(await sign({ sub: 'u', exp: now() - 2 }, SECRET))).resolves.toMatchObject({ sub: 'u' });
  });

  it('refuses a lifetime over MAX_TOKEN_LIFETIME_SECONDS (exp past iat, or past now without iat) and an iat in the future', async () => {
    const year3000 = Date.UTC(3000, 0, 1) / 1000;
    expect((await refusal(verifier, await sign({ sub: 'u', iat: now(), exp: year3000 }, SECRET))).reason).toBe('lifetime over MAX_TOKEN_LIFETIME_SECONDS');
    expect((await refusal(verifier, await sign({ sub: 'u', exp: year3000 }, SECRET))).reason).toBe('lifetime over MAX_TOKEN_LIFETIME_SECONDS');
    expect((await refusal(verifier, await sign({ sub: 'u', iat: now() - 10, exp: now() + 86_400 }, SECRET))).reason).toBe('lifetime over MAX_TOKEN_LIFETIME_SECONDS');
    expect((await refusal(verifier, await sign({ sub: 'u', iat: now() + 3600, exp: now() + 7200 }, SECRET))).reason).toBe('issued in the future');
    // A day exactly is accepted; a few seconds of clock skew on iat too.
    await expect(verifier.verify(await sign({ sub: 'u', iat: now(), exp: now() + 86_400 }, SECRET))).resolves.toMatchObject({ sub: 'u' });
    await expect(verifier.verify(await sign({ sub: 'u', iat: now() + 2, exp: now() + 60 }, SECRET))).resolves.toMatchObject({ sub: 'u' });
    // The limit is configurable.
    const strict = createTokenVerifier({ secret: SECRET, maxLifetimeSeconds: 600 });
    expect((await refusal(strict, await signDevToken(SECRET, { sub: 'u', scope: '' }, 601))).reason).toBe('lifetime over MAX_TOKEN_LIFETIME_SECONDS');
    await expect(strict.verify(await signDevToken(SECRET, { sub: 'u', scope: '' }, 600))).resolves.toMatchObject({ sub: 'u' });
  });

  it('refuses a token with an overlong lifetime over HTTP: 401 unauthenticated with WWW-Authenticate', async () => {
    const service = await startService();
    await receiveStock(service.events, TEST_SKUS);
    try {
      const forever = await sign({ sub: 'u', scope: 'orders:read', iat: now(), exp: Date.UTC(3000, 0, 1) / 1000 }, SERVICE_SECRET);
      const response = await client(service, forever)('GET', '/orders');
      expect(response.status).toBe(401);
      expect(response.body.type).toBe('https://errors.orders.example/unauthenticated');
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect((await client(service, await service.token({ scope: 'orders:read' }))('GET', '/orders')).status).toBe(200);
    } finally {
      await service.stop();
    }
  });

  it('remembers a verified token only until it expires', async () => {
    const fresh = createTokenVerifier({ secret: SECRET });
    const token = await sign({ sub: 'u', exp: now() + 30 }, SECRET);
    await expect(fresh.verify(token)).resolves.toMatchObject({ sub: 'u' });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 40_000);
      expect((await refusal(fresh, token)).reason).toBe('expired');
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a token signed with another secret', async () => {
    const token = await sign({ sub: 'u', exp: now() + 60 }, OTHER_SECRET);
    expect((await refusal(verifier, token)).reason).toBe('bad signature');
  });

  it('refuses an unsigned alg:none token', async () => {
    const token = unsigned({ sub: 'u', scope: 'orders:read', exp: now() + 60 });
    expect((await refusal(verifier, token)).reason).toBe('algorithm not allowed');
  });

  it('refuses an RS256 token', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const token = await sign({ sub: 'u', exp: now() + 60 }, privateKey, { alg: 'RS256' });
    expect((await refusal(verifier, token)).reason).toBe('algorithm not allowed');
  });

  it('refuses a token without exp', async () => {
    expect((await refusal(verifier, await sign({ sub: 'u' }, SECRET))).reason).toBe('missing claim exp');
  });

  it('refuses a token without sub, or with an empty or overlong one', async () => {
    expect((await refusal(verifier, await sign({ exp: now() + 60 }, SECRET))).reason).toBe('missing claim sub');
    expect((await refusal(verifier, await sign({ sub: '', exp: now() + 60 }, SECRET))).reason).toBe('invalid sub');
    expect((await refusal(verifier, await sign({ sub: 'x'.repeat(256), exp: now() + 60 }, SECRET))).reason).toBe('invalid sub');
    expect((await refusal(verifier, await sign({ sub: 42 as unknown as string, exp: now() + 60 }, SECRET))).reason).toBe('invalid sub');
  });

  it('refuses a scope that is not a string', async () => {
    const token = await sign({ sub: 'u', scope: ['orders:read'], exp: now() + 60 }, SECRET);
    expect((await refusal(verifier, token)).reason).toBe('invalid scope');
  });

  it('refuses a customer_id that is not a non-empty string', async () => {
    for (const customerId of [42, '', null, { id: 'c' }]) {
      const token = await sign({ sub: 'u', customer_id: customerId, exp: now() + 60 }, SECRET);
      expect((await refusal(verifier, token)).reason).toBe('invalid customer_id');
    }
  });

  it('refuses garbage', async () => {
    for (const garbage of ['not-a-token', '', 'a.b.c', `${b64url({ alg: 'HS256' })}`]) {
      expect((await refusal(verifier, garbage)).reason).toBe('malformed');
    }
    // Signature first: a forged token learns nothing about its payload.
    expect((await refusal(verifier, `${b64url({ alg: 'HS256' })}.not-json.c2ln`)).reason).toBe('bad signature');
    const signedText = await new CompactSign(new TextEncoder().encode('not json')).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(SECRET));
    expect((await refusal(verifier, signedText)).reason).toBe('malformed');
  });

  it('checks issuer and audience when configured', async () => {
    const strict = createTokenVerifier({ secret: SECRET, issuer: 'https://idp.example', audience: 'orders-api' });
    const claims = { sub: 'u', exp: now() + 60 };
    await expect(strict.verify(await sign({ ...claims, iss: 'https://idp.example', aud: 'orders-api' }, SECRET))).resolves.toMatchObject({ sub: 'u' });
    expect((await refusal(strict, await sign({ ...claims, iss: 'https://evil.example', aud: 'orders-api' }, SECRET))).reason).toBe('claim check failed: iss');
    expect((await refusal(strict, await sign({ ...claims, iss: 'https://idp.example', aud: 'other-api' }, SECRET))).reason).toBe('claim check failed: aud');
    expect((await refusal(strict, await sign({ ...claims, aud: 'orders-api' }, SECRET))).reason).toBe('missing claim iss');
    const dev = await signDevToken(SECRET, { sub: 'u', scope: '' }, 60, { issuer: 'https://idp.example', audience: 'orders-api' });
    await expect(strict.verify(dev)).resolves.toMatchObject({ sub: 'u' });
  });

  it('needs a secret or a JWKS URL, and a secret of at least 32 bytes', () => {
    expect(() => createTokenVerifier({})).toThrow(/JWKS URL or an HS256 secret/);
    expect(() => createTokenVerifier({ secret: null, jwksUrl: null })).toThrow(/JWKS URL or an HS256 secret/);
    expect(() => createTokenVerifier({ secret: 'short' })).toThrow(/at least 32 bytes/);
  });
});

describe('token verifier with a JWKS', () => {
  let keys: { privateKey: CryptoKey; publicKey: CryptoKey };
  let server: Server;
  let jwksUrl: string;
  let fetches = 0;
  let respond: RequestListener;

  beforeAll(async () => {
    keys = await generateKeyPair('ES256');
    const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'key-1', alg: 'ES256', use: 'sig' };
    const serveKeys: RequestListener = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
    };
    respond = serveKeys;
    server = createServer((req, res) => {
      fetches += 1;
      respond(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const es256 = (payload: JWTPayload, key: CryptoKey = keys.privateKey, kid = 'key-1') => sign(payload, key, { alg: 'ES256', kid });

  it('accepts an ES256 token signed by a key of the set', async () => {
    const verifier = createTokenVerifier({ jwksUrl });
    const principal = await verifier.verify(await es256({ sub: 'user-9', scope: 'orders:read', exp: now() + 60 }));
    expect(principal).toMatchObject({ sub: 'user-9', customerId: null });
    expect([...principal.scopes]).toEqual(['orders:read']);
  });

  it('refuses a token signed by another key', async () => {
    const verifier = createTokenVerifier({ jwksUrl });
    const other = await generateKeyPair('ES256');
    expect((await refusal(verifier, await es256({ sub: 'u', exp: now() + 60 }, other.privateKey))).reason).toBe('bad signature');
    expect((await refusal(verifier, await es256({ sub: 'u', exp: now() + 60 }, other.privateKey, 'key-2'))).reason).toBe('no matching key');
  });

  it('refuses HS256 and alg:none tokens without fetching the key set', async () => {
    const verifier = createTokenVerifier({ jwksUrl });
    const before = fetches;
    expect((await refusal(verifier, await sign({ sub: 'u', exp: now() + 60 }, SECRET))).reason).toBe('algorithm not allowed');
    expect((await refusal(verifier, unsigned({ sub: 'u', exp: now() + 60 }))).reason).toBe('algorithm not allowed');
    expect(fetches).toBe(before);
  });

  it('prefers the JWKS when a secret is configured too', async () => {
    const verifier = createTokenVerifier({ jwksUrl, secret: SECRET });
    expect((await refusal(verifier, await sign({ sub: 'u', exp: now() + 60 }, SECRET))).reason).toBe('algorithm not allowed');
    await expect(verifier.verify(await es256({ sub: 'u', exp: now() + 60 }))).resolves.toMatchObject({ sub: 'u' });
  });

  it('beside the JWKS, takes the service’s own HS256 tokens only when they were issued to an account', async () => {
    const verifier = createTokenVerifier({ jwksUrl, accountSecret: SECRET });
    const account = await signAccountToken(SECRET, { id: 'acc-1', scope: 'orders:read', customerId: null, tokenVersion: 2 }, 60);
    await expect(verifier.verify(account)).resolves.toMatchObject({ sub: 'acc-1', accountVersion: 2 });
    expect((await refusal(verifier, await signDevToken(SECRET, { sub: 'dev', scope: 'orders:read' }, 60))).reason).toBe('HS256 token of no account beside a JWKS');
    expect((await refusal(verifier, await signAccountToken(OTHER_SECRET, { id: 'acc-1', scope: '', customerId: null, tokenVersion: 0 }, 60))).reason).toBe('bad signature');
    await expect(verifier.verify(await es256({ sub: 'u', exp: now() + 60 }))).resolves.toMatchObject({ sub: 'u' });
  });

  it('reports an unreachable key set as unavailable, not as the client’s fault', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const verifier = createTokenVerifier({ jwksUrl: `http://127.0.0.1:${port}/jwks.json`, jwksTimeoutMs: 500 });
    const error = await failure(verifier, await es256({ sub: 'u', exp: now() + 60 }));
    expect(error).toBeInstanceOf(KeySetUnavailable);
    expect((error as KeySetUnavailable).code).toBe('unavailable');
  });

  it('reports a key set that does not answer in time, or answers an error, as unavailable', async () => {
    const token = await es256({ sub: 'u', exp: now() + 60 });
    const serveKeys = respond;
    try {
      respond = () => {}; // never answers
      const started = Date.now();
      const slow = await failure(createTokenVerifier({ jwksUrl, jwksTimeoutMs: 300 }), token);
      expect(slow).toBeInstanceOf(KeySetUnavailable);
      // Its own 300 ms, not jose's default of 5 s: a bound this side of 5 s is the only one that tells them apart (16 times the timeout, room for a loaded machine).
      expect(Date.now() - started).toBeLessThan(5000);

      respond = (_req, res) => res.writeHead(500).end();
      expect(await failure(createTokenVerifier({ jwksUrl }), token)).toBeInstanceOf(KeySetUnavailable);

      respond = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys": "nope"}');
      expect(await failure(createTokenVerifier({ jwksUrl }), token)).toBeInstanceOf(KeySetUnavailable);
    } finally {
      respond = serveKeys;
      server.closeAllConnections();
    }
  });
});
