// Bearer tokens: verifies a JWT into a Principal (sub, scopes, customer), mints dev tokens, and
// the tokens the service issues to accounts (sub = the account id, account_version = the account's
// token version, which the authenticate middleware checks against the account on every request).
import { createSecretKey, type KeyObject } from 'node:crypto';
import { createRemoteJWKSet, errors, jwtVerify, SignJWT, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { LRUCache } from 'lru-cache';

import type { Scope } from '../write-side/kernel/access.js';
export { SCOPES, type Scope } from '../write-side/kernel/access.js';

export interface Principal {
  readonly sub: string;
  readonly scopes: ReadonlySet<string>;
  /** Set on a customer's own token: it sees and changes only that customer's orders. */
  readonly customerId: string | null;
  /** Set on a token the service issued to an account (sub is its id): the account's token version then. */
  readonly accountVersion?: number;
}

/** The client's token is not acceptable (401). `reason` is for logs and never contains the token. */
export class Unauthenticated extends Error {
  override readonly name = 'Unauthenticated';
  readonly code = 'unauthenticated';
  constructor(readonly reason: string) {
    super(`unauthenticated: ${reason}`);
  }
}

/** The identity provider's key set could not be fetched: not the client's fault (503). */
export class KeySetUnavailable extends Error {
  override readonly name = 'KeySetUnavailable';
  readonly code = 'unavailable';
  constructor(options?: { cause?: unknown }) {
    super('the JSON Web Key Set could not be fetched', options);
  }
}

export interface TokenVerifier {
  verify(token: string): Promise<Principal>;
  /** The principal of a token verified before and not expired yet, without waiting; undefined otherwise (then verify it). */
  known?(token: string): Principal | undefined;
}

export interface TokenVerifierOptions {
  readonly secret?: string | null;
  readonly jwksUrl?: string | null;
  readonly issuer?: string | null;
  readonly audience?: string | null;
  /** How long one JWKS fetch may take; jose's default is 5 s. */
  readonly jwksTimeoutMs?: number;
  /** A token whose exp lies further than this past its iat (or past now, without iat) is refused; 86400 by default. */
  readonly maxLifetimeSeconds?: number;
  /**
   * With a JWKS: the secret the service signs its accounts' tokens with. HS256 tokens are then
   * accepted too, but only those issued to an account (account_version set), whose account the
   * authenticate middleware checks; other tokens must come from the identity provider.
   */
  readonly accountSecret?: string | null;
}

const JWKS_ALGORITHMS = ['RS256', 'ES256'];
const SECRET_ALGORITHMS = ['HS256'];
const CLOCK_TOLERANCE_SECONDS = 5;
const MIN_SECRET_BYTES = 32;
const MAX_SUB_LENGTH = 255;
const VERIFIED_TOKENS_KEPT = 10_000;
export const MAX_TOKEN_LIFETIME_SECONDS = 86_400;
export const TOKEN_TTL_SECONDS = 900;

export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const { secret, jwksUrl, issuer, audience } = options;
  const maxLifetimeSeconds = options.maxLifetimeSeconds ?? MAX_TOKEN_LIFETIME_SECONDS;
  // Both set: the JWKS wins. It is the production set-up (keys rotated by the identity provider);
  // a secret configured alongside is only a leftover of development and must not open a second door.
  let key: KeyObject | JWTVerifyGetKey;
  let algorithms: string[];
  const accountsOnly = Boolean(jwksUrl && options.accountSecret);
  if (jwksUrl) {
    const keySet = keySetResolver(new URL(jwksUrl), options.jwksTimeoutMs);
    const accountKey = options.accountSecret ? secretKey(options.accountSecret) : null;
    key = accountKey ? (header, token) => (header.alg === 'HS256' ? accountKey : keySet(header, token)) : keySet;
    algorithms = accountKey ? [...JWKS_ALGORITHMS, ...SECRET_ALGORITHMS] : JWKS_ALGORITHMS;
  } else if (secret) {
    key = secretKey(secret);
    algorithms = SECRET_ALGORITHMS;
  } else {
    throw new Error('token verification needs a JWKS URL or an HS256 secret');
  }

  // Tokens already verified, until they expire: a client sends the same token on every request.
  const verified = new LRUCache<string, { principal: Principal; expiresAtMs: number }>({ max: VERIFIED_TOKENS_KEPT });

  return {
    known(token: string): Principal | undefined {
      const known = verified.get(token);
      return known && known.expiresAtMs > Date.now() ? known.principal : undefined;
    },
    async verify(token: string): Promise<Principal> {
      const known = verified.get(token);
      if (known && known.expiresAtMs > Date.now()) return known.principal;
      if (known) verified.delete(token);
      let payload: JWTPayload;
      let alg: string | undefined;
      try {
        ({ payload, protectedHeader: { alg } } = await jwtVerify(token, key, {
          algorithms,
          requiredClaims: ['exp', 'sub'],
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          ...(issuer ? { issuer } : {}),
          ...(audience ? { audience } : {}),
        }));
      } catch (error) {
        if (error instanceof KeySetUnavailable) throw error;
        if (error instanceof errors.JOSEError) throw new Unauthenticated(reasonOf(error));
        throw error;
      }
      checkLifetime(payload, maxLifetimeSeconds);
      const principal = principalOf(payload);
      if (accountsOnly && alg === 'HS256' && principal.accountVersion === undefined) throw new Unauthenticated('HS256 token of no account beside a JWKS');
      verified.set(token, { principal, expiresAtMs: (payload.exp! + CLOCK_TOLERANCE_SECONDS) * 1000 });
      return principal;
    },
  };
}

export function hasScope(principal: Principal, scope: Scope): boolean {
  return principal.scopes.has(scope);
}

/** An HS256 token for development and tests, signed with the service's secret. */
export async function signDevToken(
  secret: string,
  claims: { sub: string; scope: string; customerId?: string | null; accountVersion?: number },
  ttlSeconds = TOKEN_TTL_SECONDS,
  options: { issuer?: string | null; audience?: string | null } = {},
): Promise<string> {
  if (!Number.isInteger(ttlSeconds) || ttlSeconds <= 0) throw new RangeError('ttlSeconds must be a positive integer');
  if (claims.sub === '' || claims.sub.length > MAX_SUB_LENGTH) throw new RangeError(`sub must be 1-${MAX_SUB_LENGTH} characters`);
  const payload: JWTPayload = { scope: claims.scope };
  if (claims.customerId) payload.customer_id = claims.customerId;
  if (claims.accountVersion !== undefined) payload.account_version = claims.accountVersion;
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuedAt(now)
    .setExpirationTime(now + ttlSeconds);
  if (options.issuer) jwt.setIssuer(options.issuer);
  if (options.audience) jwt.setAudience(options.audience);
  return jwt.sign(secretKey(secret));
}

/** A token the service issues to an account: its role's scopes, its customer, its token version. */
export async function signAccountToken(
  secret: string,
  account: { id: string; scope: string; customerId: string | null; tokenVersion: number },
  ttlSeconds: number,
  options: { issuer?: string | null; audience?: string | null } = {},
): Promise<string> {
  return signDevToken(secret, { sub: account.id, scope: account.scope, customerId: account.customerId, accountVersion: account.tokenVersion }, ttlSeconds, options);
}

/** A KeyObject made once: handing jose raw bytes would import the key again on every request. */
function secretKey(secret: string): KeyObject {
  const bytes = new TextEncoder().encode(secret);
  if (bytes.byteLength < MIN_SECRET_BYTES) throw new RangeError(`an HS256 secret must be at least ${MIN_SECRET_BYTES} bytes`);
  return createSecretKey(bytes);
}

// Separates the client's fault (no key for its kid: 401) from the identity provider's (cannot
// fetch or parse the set: 503). jose checks the algorithm before it asks for a key, so a token
// with a refused alg never triggers a fetch.
function keySetResolver(url: URL, timeoutMs: number | undefined): JWTVerifyGetKey {
  const keySet = createRemoteJWKSet(url, timeoutMs === undefined ? {} : { timeoutDuration: timeoutMs });
  return async (header, token) => {
    try {
      return await keySet(header, token);
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) throw error;
      throw new KeySetUnavailable({ cause: error });
    }
  };
}

function reasonOf(error: errors.JOSEError): string {
  if (error instanceof errors.JWTExpired) return 'expired';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'bad signature';
  if (error instanceof errors.JOSEAlgNotAllowed) return 'algorithm not allowed';
  if (error instanceof errors.JWTClaimValidationFailed) {
    return error.reason === 'missing' ? `missing claim ${error.claim}` : `claim check failed: ${error.claim}`;
  }
  if (error instanceof errors.JWKSNoMatchingKey) return 'no matching key';
  // A token without a kid while the set holds several keys for its algorithm.
  if (error instanceof errors.JWKSMultipleMatchingKeys) return 'ambiguous key';
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return 'malformed';
  if (error instanceof errors.JOSENotSupported) return 'not supported';
  return 'invalid token';
}

/** A token minted for the year 3000, or dated in the future, is not one this service should honour. */
function checkLifetime(payload: JWTPayload, maxLifetimeSeconds: number): void {
  const now = Math.floor(Date.now() / 1000);
  const { iat, exp } = payload;
  if (iat !== undefined && iat > now + CLOCK_TOLERANCE_SECONDS) throw new Unauthenticated('issued in the future');
  if (exp! - (iat ?? now) > maxLifetimeSeconds) throw new Unauthenticated('lifetime over MAX_TOKEN_LIFETIME_SECONDS');
}

function principalOf(payload: JWTPayload): Principal {
  const { sub, scope, customer_id: customerId, account_version: accountVersion } = payload;
  if (typeof sub !== 'string' || sub === '' || sub.length > MAX_SUB_LENGTH) throw new Unauthenticated('invalid sub');
  if (scope !== undefined && typeof scope !== 'string') throw new Unauthenticated('invalid scope');
  if (customerId !== undefined && (typeof customerId !== 'string' || customerId === '')) throw new Unauthenticated('invalid customer_id');
  const scopes: ReadonlySet<string> = new Set((scope ?? '').split(' ').filter((s) => s !== ''));
  if (accountVersion !== undefined && !(Number.isSafeInteger(accountVersion) && (accountVersion as number) >= 0)) throw new Unauthenticated('invalid account_version');
  return Object.freeze({ sub, scopes, customerId: customerId ?? null, ...(accountVersion === undefined ? {} : { accountVersion: accountVersion as number }) });
}
