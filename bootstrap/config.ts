// The only reader of process.env: parses it once into a frozen, typed config and stops
// start-up with a message naming the variable that cannot be parsed.
import { resolve } from 'node:path';
import { BATCH_DELAY_MS, MAX_BATCH_DELAY_MS } from '../projections/projector.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../write-side/accounts/passwords.js';

/**
 * all: HTTP, projections and export worker in one process (the default); api: HTTP only;
 * projector: the projections, in the one process holding the read store's lease (others wait as
 * standbys); worker: the export worker alone.
 */
export type Role = 'all' | 'api' | 'projector' | 'worker';
export const ROLES: readonly Role[] = ['all', 'api', 'projector', 'worker'];

export interface Config {
  readonly role: Role;
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly eventStore: { readonly kind: 'embedded'; readonly synchronous: 'full' | 'normal' } | { readonly kind: 'eventstoredb'; readonly url: string };
  readonly readStore: { readonly kind: 'embedded' } | { readonly kind: 'mongodb'; readonly url: string; readonly database: string };
  readonly auth: {
    readonly jwtSecret: string | null;
    readonly jwksUrl: string | null;
    readonly issuer: string | null;
    readonly audience: string | null;
    /** Lifetime of the tokens the service issues (`npm run token`). */
    readonly tokenTtlSeconds: number;
    /** Tokens whose exp lies further than this past their iat are refused. */
    readonly maxTokenLifetimeSeconds: number;
  };
  /** The first administrator, created on a start that finds no account at all. */
  readonly admin: { readonly email: string; readonly password: string } | null;
  readonly rateLimit: { readonly perSecond: number; readonly burst: number };
  readonly requestTimeoutMs: number;
  /** How long a read that carries a Consistency-Token waits for the views to include that write. */
  readonly consistencyWaitMs: number;
  readonly corsOrigins: readonly string[];
  readonly maxInFlight: number;
  readonly exports: { readonly retentionMs: number; readonly leaseMs: number };
  /** How long the projector role's lease lasts without a renewal: a standby's longest wait after a crash. */
  readonly projectorLeaseMs: number;
  /** The `all` role applies its projections in a worker thread of its own (true), or on the thread that serves the requests. */
  readonly projectorThread: boolean;
  /** How long a projection's batch waits for more events after its first: while they come few, and the longest while they come many (ProjectorOptions). */
  readonly projectorBatch: { readonly batchDelayMs: number; readonly maxBatchDelayMs: number };
  /** The `all` role delivers webhooks from a worker thread of its own (true), or on the thread that serves the requests. */
  readonly webhookThread: boolean;
  /** The nice value of the `all` role's background threads (the projections', the workers'): 0 runs them at the requests' priority (bootstrap/thread-priority.ts). */
  readonly backgroundNice: number;
  /** An order still pending this long after it was placed is cancelled by the service (payment-timeout). */
  readonly pendingOrderTtlMs: number;
  /** WEBHOOK_ALLOWED_HOSTS: the only non-public hosts a webhook URL may name (lowercased; IPv6 addresses in brackets, as URL.hostname writes them). */
  readonly webhooks: { readonly allowedHosts: readonly string[] };
  /** Signs collection cursors; when unset, derived from AUTH_JWT_SECRET or kept in DATA_DIR. */
  readonly cursorSecret: string | null;
  /** seal: false writes personal data in clear (BENCH_ONLY_PERSONAL_DATA_IN_CLEAR): for bench:http's comparison only. */
  readonly personalData: { readonly seal: boolean };
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
  }
}

type Env = Readonly<Record<string, string | undefined>>;

export function parseConfig(env: Env): Config {
  const text = (name: string): string | null => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? null : value.trim();
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const value = text(name);
    if (value === null) return fallback;
    if (!(allowed as readonly string[]).includes(value)) throw new ConfigError(name, `must be one of ${allowed.join(', ')}, not "${value}"`);
    return value as T;
  };
  const url = (name: string, schemes: readonly string[]): string | null => {
    const value = text(name);
    if (value === null) return null;
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      throw new ConfigError(name, 'is not a URL');
    }
    if (!schemes.includes(parsed.protocol)) throw new ConfigError(name, `must use ${schemes.join(' or ')}`);
    return value;
  };
  /**
   * A database connection string: only its scheme is checked here. The rest is the driver's to
   * parse, since `new URL()` refuses the host lists of a replica set or cluster
   * (`mongodb://a:27017,b:27017/?replicaSet=rs0`, `esdb://n1:2113,n2:2113`).
   */
  const connectionString = (name: string, schemes: readonly string[]): string | null => {
    const value = text(name);
    if (value === null) return null;
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/./.exec(value)?.[1];
    // The drivers match their schemes as written: ESDB:// would pass a case-blind check and then stop the client.
    if (scheme === undefined || !schemes.includes(scheme)) throw new ConfigError(name, `must start with ${schemes.map((s) => `${s}://`).join(' or ')}`);
    return value;
  };

  const positive = (name: string, fallback: number): number => {
    const value = text(name);
    if (value === null) return fallback;
    if (!/^\d{1,9}$/.test(value) || Number(value) < 1) throw new ConfigError(name, `must be a whole number of at least 1, not "${value}"`);
    return Number(value);
  };

  const niceText = text('BACKGROUND_NICE') ?? '10';
  if (!/^\d{1,2}$/.test(niceText) || Number(niceText) > 19) throw new ConfigError('BACKGROUND_NICE', `must be a nice value from 0 to 19, not "${niceText}"`);

  const portText = text('PORT') ?? '3000';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) throw new ConfigError('PORT', `must be a port number from 0 to 65535, not "${portText}"`);

  // @eventstore/db-client 6 parses esdb:// and esdb+discover:// only; KurrentDB's own schemes
  // would pass here and then stop start-up inside the client, so they are refused by name.
  const kurrentScheme = /^(kurrentdb|kdb)(\+discover)?:\/\//i.exec(text('EVENTSTORE_URL') ?? '');
  if (kurrentScheme) {
    const esdb = kurrentScheme[2] ? 'esdb+discover://' : 'esdb://';
    throw new ConfigError('EVENTSTORE_URL', `the ${kurrentScheme[0]} scheme is not understood by the EventStoreDB client this service uses; write the same address as ${esdb}… (KurrentDB accepts it)`);
  }
  const eventStoreUrl = connectionString('EVENTSTORE_URL', ['esdb', 'esdb+discover']);
  // With throwOnAppendFailure=false the client answers a revision conflict with a result whose
  // actual revision it gets wrong (client 6.2.1 reads it as BigInt of a boolean): refused.
  if (eventStoreUrl !== null && appendFailureNotThrown(eventStoreUrl)) {
    throw new ConfigError('EVENTSTORE_URL', 'throwOnAppendFailure=false is not supported: the service needs the client to throw on a revision conflict; remove the option');
  }
  const mongoUrl = connectionString('MONGO_URL', ['mongodb', 'mongodb+srv']);
  const mongoDb = text('MONGO_DB') ?? 'orders';
  if (!/^[A-Za-z0-9_-]{1,63}$/.test(mongoDb)) throw new ConfigError('MONGO_DB', 'must be 1-63 letters, digits, _ or -');

  const jwtSecret = text('AUTH_JWT_SECRET');
  if (jwtSecret !== null && Buffer.byteLength(jwtSecret) < 32) throw new ConfigError('AUTH_JWT_SECRET', 'must be at least 32 bytes for HS256');

  const maxTokenLifetimeSeconds = positive('MAX_TOKEN_LIFETIME_SECONDS', 86_400);
  const tokenTtlSeconds = positive('TOKEN_TTL_SECONDS', 900);
  if (tokenTtlSeconds > maxTokenLifetimeSeconds) {
    throw new ConfigError('TOKEN_TTL_SECONDS', `must not exceed MAX_TOKEN_LIFETIME_SECONDS (${maxTokenLifetimeSeconds}): the service would refuse its own tokens`);
  }

  const adminEmail = text('ADMIN_EMAIL');
  // Taken as it is: a password's white space is part of it.
  const adminPassword = env.ADMIN_PASSWORD === undefined || env.ADMIN_PASSWORD === '' ? null : env.ADMIN_PASSWORD;
  if ((adminEmail === null) !== (adminPassword === null)) throw new ConfigError(adminEmail === null ? 'ADMIN_EMAIL' : 'ADMIN_PASSWORD', 'ADMIN_EMAIL and ADMIN_PASSWORD go together: set both or neither');
  if (adminEmail !== null && !/^[^\s@]+@[^\s@]+$/.test(adminEmail)) throw new ConfigError('ADMIN_EMAIL', 'is not an email address');
  if (adminPassword !== null && ([...adminPassword].length < PASSWORD_MIN_LENGTH || [...adminPassword].length > PASSWORD_MAX_LENGTH)) {
    throw new ConfigError('ADMIN_PASSWORD', `must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`);
  }

  const projectorBatchWait = positive('PROJECTOR_BATCH_WAIT_MS', BATCH_DELAY_MS);
  const projectorMaxBatchWait = positive('PROJECTOR_MAX_BATCH_WAIT_MS', Math.max(MAX_BATCH_DELAY_MS, projectorBatchWait));
  if (projectorMaxBatchWait < projectorBatchWait) throw new ConfigError('PROJECTOR_MAX_BATCH_WAIT_MS', `must not be below PROJECTOR_BATCH_WAIT_MS (${projectorBatchWait})`);

  return Object.freeze({
    role: oneOf('ROLE', ROLES, 'all'),
    port,
    host: text('HOST') ?? '127.0.0.1',
    dataDir: resolve(text('DATA_DIR') ?? './data'),
    eventStore: eventStoreUrl
      ? { kind: 'eventstoredb' as const, url: eventStoreUrl }
      : { kind: 'embedded' as const, synchronous: oneOf('EMBEDDED_SYNC', ['full', 'normal'], 'full') },
    readStore: mongoUrl ? { kind: 'mongodb' as const, url: mongoUrl, database: mongoDb } : { kind: 'embedded' as const },
    auth: Object.freeze({
      jwtSecret,
      jwksUrl: url('AUTH_JWKS_URL', ['https:', 'http:']),
      issuer: text('AUTH_ISSUER'),
      audience: text('AUTH_AUDIENCE'),
      tokenTtlSeconds,
      maxTokenLifetimeSeconds,
    }),
    admin: adminEmail !== null && adminPassword !== null ? Object.freeze({ email: adminEmail, password: adminPassword }) : null,
    rateLimit: Object.freeze({ perSecond: positive('RATE_LIMIT_PER_SECOND', 100), burst: positive('RATE_LIMIT_BURST', 200) }),
    requestTimeoutMs: positive('REQUEST_TIMEOUT_MS', 10_000),
    consistencyWaitMs: positive('CONSISTENCY_WAIT_MS', 5_000),
    corsOrigins: Object.freeze(origins(text('CORS_ORIGINS'))),
    maxInFlight: positive('MAX_IN_FLIGHT', 512),
    exports: Object.freeze({ retentionMs: positive('EXPORT_RETENTION_SECONDS', 86_400) * 1000, leaseMs: positive('EXPORT_LEASE_SECONDS', 30) * 1000 }),
    projectorLeaseMs: positive('PROJECTOR_LEASE_SECONDS', 10) * 1000,
    projectorThread: oneOf('PROJECTOR_THREAD', ['true', 'false'], 'true') === 'true',
    projectorBatch: Object.freeze({ batchDelayMs: projectorBatchWait, maxBatchDelayMs: projectorMaxBatchWait }),
    webhookThread: oneOf('WEBHOOK_THREAD', ['true', 'false'], 'true') === 'true',
    backgroundNice: Number(niceText),
    pendingOrderTtlMs: positive('PENDING_ORDER_TTL_SECONDS', 172_800) * 1000,
    webhooks: Object.freeze({ allowedHosts: Object.freeze(hosts(text('WEBHOOK_ALLOWED_HOSTS'))) }),
    cursorSecret: text('CURSOR_SECRET'),
    personalData: Object.freeze({ seal: oneOf('BENCH_ONLY_PERSONAL_DATA_IN_CLEAR', ['0', '1'], '0') === '0' }),
    logLevel: oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
  });
}

/** Whether an EventStoreDB connection string sets throwOnAppendFailure to false, spelt as the client accepts it (any case, _ and - ignored). */
function appendFailureNotThrown(connectionString: string): boolean {
  const query = connectionString.indexOf('?');
  if (query < 0) return false;
  return connectionString
    .slice(query + 1)
    .split('&')
    .some((pair) => {
      const [key = '', value = ''] = pair.split('=');
      return key.trim().toLowerCase().replace(/[_-]/g, '') === 'throwonappendfailure' && value.trim() === 'false';
    });
}

function origins(value: string | null): string[] {
  if (value === null) return [];
  return value.split(',').map((origin) => {
    const trimmed = origin.trim();
    let url: URL;
    try {
      url = new URL(trimmed);
    } catch {
      throw new ConfigError('CORS_ORIGINS', `"${trimmed}" is not an origin such as https://shop.example`);
    }
    if (url.origin !== trimmed) throw new ConfigError('CORS_ORIGINS', `"${trimmed}" is not an origin such as https://shop.example`);
    return trimmed;
  });
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/;
const IPV6 = /^\[?([0-9a-f:.]*:[0-9a-f:.]*)\]?$/;

/** Comma-separated host names or addresses, without scheme, port or path; an IPv6 address with or without its brackets. */
function hosts(value: string | null): string[] {
  if (value === null) return [];
  return value.split(',').map((entry) => {
    const host = entry.trim().toLowerCase();
    if (HOST_NAME.test(host)) return host;
    const v6 = IPV6.exec(host);
    if (v6) return `[${v6[1]}]`;
    throw new ConfigError('WEBHOOK_ALLOWED_HOSTS', `"${entry.trim()}" is not a host name or an address (no scheme, port or path), such as hooks.internal or 10.0.0.5`);
  });
}

/** For the commands: the config from the environment, or a message naming the bad variable and exit code 2. */
export function configOrExit(env: Env = process.env): Config {
  try {
    return parseConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Configuration error: ${error.message}`);
    process.exit(2);
  }
}
