import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../bootstrap/config.js';

describe('configuration', () => {
  it('defaults to the embedded stores on 127.0.0.1:3000', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      port: 3000, host: '127.0.0.1', logLevel: 'info',
      eventStore: { kind: 'embedded', synchronous: 'full' }, readStore: { kind: 'embedded' },
      auth: { jwtSecret: null, jwksUrl: null, issuer: null, audience: null },
    });
    expect(config.dataDir).toMatch(/\/data$/);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('runs every role in one process unless ROLE names one, with a 10 s projector lease', () => {
    expect(parseConfig({})).toMatchObject({ role: 'all', projectorLeaseMs: 10_000 });
    for (const role of ['all', 'api', 'projector', 'worker'] as const) expect(parseConfig({ ROLE: role }).role).toBe(role);
    expect(parseConfig({ PROJECTOR_LEASE_SECONDS: '3' }).projectorLeaseMs).toBe(3000);
  });

  it("reads how long a projection's batch waits for more events, the shortest and the longest", () => {
    expect(parseConfig({}).projectorBatch).toEqual({ batchDelayMs: 5, maxBatchDelayMs: 100 });
    expect(parseConfig({ PROJECTOR_BATCH_WAIT_MS: '2', PROJECTOR_MAX_BATCH_WAIT_MS: '40' }).projectorBatch).toEqual({ batchDelayMs: 2, maxBatchDelayMs: 40 });
    // A shortest past the default longest: the longest is the shortest, unless set.
    expect(parseConfig({ PROJECTOR_BATCH_WAIT_MS: '250' }).projectorBatch).toEqual({ batchDelayMs: 250, maxBatchDelayMs: 250 });
    expect(() => parseConfig({ PROJECTOR_BATCH_WAIT_MS: '50', PROJECTOR_MAX_BATCH_WAIT_MS: '20' })).toThrow(/^PROJECTOR_MAX_BATCH_WAIT_MS: must not be below PROJECTOR_BATCH_WAIT_MS \(50\)/);
  });

  it('runs the background threads at nice 10 unless BACKGROUND_NICE says another value from 0 to 19', () => {
    expect(parseConfig({}).backgroundNice).toBe(10);
    expect(parseConfig({ BACKGROUND_NICE: '0' }).backgroundNice).toBe(0);
    expect(parseConfig({ BACKGROUND_NICE: '19' }).backgroundNice).toBe(19);
    for (const wrong of ['20', '-1', '5.5', 'low']) expect(() => parseConfig({ BACKGROUND_NICE: wrong })).toThrow(new RegExp(`^BACKGROUND_NICE: must be a nice value from 0 to 19, not "${wrong}"`));
  });

  it('reads the lifetime of issued tokens and the longest lifetime accepted', () => {
    expect(parseConfig({}).auth).toMatchObject({ tokenTtlSeconds: 900, maxTokenLifetimeSeconds: 86_400 });
    expect(parseConfig({ TOKEN_TTL_SECONDS: '3600', MAX_TOKEN_LIFETIME_SECONDS: '7200' }).auth).toMatchObject({ tokenTtlSeconds: 3600, maxTokenLifetimeSeconds: 7200 });
    for (const [name, value] of [['TOKEN_TTL_SECONDS', 'an hour'], ['TOKEN_TTL_SECONDS', '0'], ['MAX_TOKEN_LIFETIME_SECONDS', '-1'], ['MAX_TOKEN_LIFETIME_SECONDS', '1.5']] as const) {
      expect(() => parseConfig({ [name]: value })).toThrow(new RegExp(`^${name}: `));
    }
    // The service would refuse the tokens it issues.
    expect(() => parseConfig({ TOKEN_TTL_SECONDS: '7200', MAX_TOKEN_LIFETIME_SECONDS: '3600' })).toThrow(/^TOKEN_TTL_SECONDS: .*MAX_TOKEN_LIFETIME_SECONDS/);
  });

  it('waits 5 s for a Consistency-Token by default, as the contract says, or as long as CONSISTENCY_WAIT_MS', () => {
    expect(parseConfig({}).consistencyWaitMs).toBe(5000);
    expect(parseConfig({ CONSISTENCY_WAIT_MS: '60000' }).consistencyWaitMs).toBe(60_000);
    for (const value of ['0', 'soon', '-5']) expect(() => parseConfig({ CONSISTENCY_WAIT_MS: value })).toThrow(/^CONSISTENCY_WAIT_MS: /);
  });

  it('reads the hosts a webhook URL may name besides public ones: none unless WEBHOOK_ALLOWED_HOSTS lists them', () => {
    expect(parseConfig({}).webhooks.allowedHosts).toEqual([]);
    expect(parseConfig({ WEBHOOK_ALLOWED_HOSTS: ' Hooks.Internal, 10.0.0.5,::1 ,[fd00::7]' }).webhooks.allowedHosts).toEqual(['hooks.internal', '10.0.0.5', '[::1]', '[fd00::7]']);
    for (const value of ['https://hooks.internal', 'hooks.internal:8443', 'hooks.internal/in', 'a,,b', 'user@host']) {
      expect(() => parseConfig({ WEBHOOK_ALLOWED_HOSTS: value })).toThrow(/^WEBHOOK_ALLOWED_HOSTS: /);
    }
  });

  it('reads the allowed CORS origins', () => {
    expect(parseConfig({ CORS_ORIGINS: 'https://shop.example, http://localhost:5173' }).corsOrigins).toEqual(['https://shop.example', 'http://localhost:5173']);
    expect(parseConfig({}).corsOrigins).toEqual([]);
  });

  it('picks EventStoreDB and MongoDB when their URLs are set', () => {
    const config = parseConfig({ EVENTSTORE_URL: 'esdb://localhost:2113?tls=false', MONGO_URL: 'mongodb://localhost:27017', MONGO_DB: 'shop' });
    expect(config.eventStore).toEqual({ kind: 'eventstoredb', url: 'esdb://localhost:2113?tls=false' });
    expect(config.readStore).toEqual({ kind: 'mongodb', url: 'mongodb://localhost:27017', database: 'shop' });
  });

  it.each([
    ['kurrentdb://localhost:2113?tls=false', 'esdb://'],
    ['kurrentdb+discover://cluster.example:2113', 'esdb+discover://'],
    ['kdb://localhost:2113', 'esdb://'],
    ['KDB+DISCOVER://cluster.example:2113', 'esdb+discover://'],
  ])('refuses EVENTSTORE_URL=%s, which the EventStoreDB client cannot parse, and names the scheme to use', (value, instead) => {
    expect(() => parseConfig({ EVENTSTORE_URL: value })).toThrow(ConfigError);
    expect(() => parseConfig({ EVENTSTORE_URL: value })).toThrow(new RegExp(`^EVENTSTORE_URL: .*${instead.replace('+', '\\+')}`));
  });

  it('accepts the esdb:// and esdb+discover:// forms the client parses', () => {
    expect(parseConfig({ EVENTSTORE_URL: 'esdb+discover://cluster.example:2113' }).eventStore).toEqual({ kind: 'eventstoredb', url: 'esdb+discover://cluster.example:2113' });
  });

  it('takes the host lists of a replica set and a cluster as written, leaving them to the drivers to parse', () => {
    const mongo = 'mongodb://a:27017,b:27017,c:27017/?replicaSet=rs0';
    const esdb = 'esdb://n1:2113,n2:2113,n3:2113?tls=false';
    const config = parseConfig({ EVENTSTORE_URL: esdb, MONGO_URL: mongo });
    expect(config.eventStore).toEqual({ kind: 'eventstoredb', url: esdb });
    expect(config.readStore).toMatchObject({ kind: 'mongodb', url: mongo });
    expect(parseConfig({ MONGO_URL: 'mongodb+srv://user:p%40ss@cluster0.example.net/?retryWrites=true' }).readStore).toMatchObject({ kind: 'mongodb' });
  });

  it.each([
    'esdb://localhost:2113?tls=false&throwOnAppendFailure=false',
    'esdb://n1:2113,n2:2113?throw-on-append-failure=false',
    'esdb+discover://cluster.example:2113?ThrowOnAppendFailure= false ',
  ])('refuses EVENTSTORE_URL=%s: the client then reports a revision conflict with a wrong actual revision', (value) => {
    expect(() => parseConfig({ EVENTSTORE_URL: value })).toThrow(/^EVENTSTORE_URL: throwOnAppendFailure=false is not supported/);
    expect(parseConfig({ EVENTSTORE_URL: value.replace(/false\s*$/, 'true') }).eventStore.kind).toBe('eventstoredb');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['EVENTSTORE_URL', 'http://localhost:2113'],
    ['EVENTSTORE_URL', 'not a url'],
    ['EVENTSTORE_URL', 'kurrentdb://localhost:2113?tls=false'],
    ['EVENTSTORE_URL', 'kdb+discover://cluster.example:2113'],
    ['EVENTSTORE_URL', 'ESDB://localhost:2113'],
    ['EVENTSTORE_URL', 'esdb://'],
    ['MONGO_URL', 'postgres://x'],
    ['MONGO_URL', 'mongodb:a:27017'],
    ['MONGO_DB', 'a/b'],
    ['LOG_LEVEL', 'loud'],
    ['EMBEDDED_SYNC', 'sometimes'],
    ['AUTH_JWT_SECRET', 'short'],
    ['AUTH_JWKS_URL', 'ftp://keys'],
    ['CORS_ORIGINS', 'https://shop.example/path'],
    ['CORS_ORIGINS', 'shop.example'],
    ['EXPORT_RETENTION_SECONDS', '0'],
    ['RATE_LIMIT_BURST', 'many'],
    ['ROLE', 'chef'],
    ['PROJECTOR_LEASE_SECONDS', '0'],
    ['PROJECTOR_BATCH_WAIT_MS', '0'],
    ['PROJECTOR_MAX_BATCH_WAIT_MS', 'soon'],
  ])('stops on %s=%s, naming the variable', (variable, value) => {
    let error: unknown;
    try {
      parseConfig({ [variable]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
    expect((error as Error).message).toContain(variable);
  });
});
