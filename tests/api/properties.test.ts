// Property-based tests of the HTTP surface: whatever a client sends (method, path, query,
// headers, body bytes), the service never answers 5xx, every error is a well-formed problem,
// the correlation id is echoed or replaced, and every response names the API version.
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES, client, newOrder, startService, type TestService } from '../support/http.js';
import { receiveStock, TEST_SKUS } from '../support/seed.js';

const API_VERSION = '2026-11-01';
const PROBLEM_BASE = 'https://errors.orders.example/';
const CORRELATION_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Every problem type of HTTP-CONTRACT's table of errors (a line's unitPrice other than the catalogue's is a 409 price-changed, and so on). */
const CODES = new Set([
  'malformed-json', 'validation-failed', 'invalid-cursor', 'idempotency-key-missing', 'token-in-query', 'unsupported-api-version',
  'unauthenticated', 'invalid-credentials', 'forbidden', 'not-found', 'method-not-allowed', 'state-conflict', 'idempotency-key-in-use',
  'insufficient-stock', 'price-changed', 'email-in-use', 'precondition-failed', 'payload-too-large', 'unsupported-media-type',
  'idempotency-key-reused', 'product-unavailable', 'unknown-customer', 'rate-limited', 'internal', 'unavailable',
]);
const TOKEN_PARAMETERS = ['access_token', 'token', 'id_token', 'jwt', 'api_key', 'Authorization'];
const TOTAL = 3998;
/** Longest generated query string (Node answers 431 itself when the request head exceeds 16 KiB). */
const MAX_QUERY = 8000;

type Headers = Record<string, string | string[]>;
interface RawRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Headers;
  readonly body?: Buffer | undefined;
  readonly chunked?: boolean;
  /** Set when the query deliberately carries a credential parameter. */
  readonly tokenInQuery?: boolean;
}
interface RawResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
}

let service: TestService;
let port = 0;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const state = {
  staff: '',
  owner: '',
  otherCustomer: '',
  pending: '',
  paid: '',
  cursor: '',
  consistency: '',
};
/** Every correlation id the service made up: each must be new. */
const minted = new Set<string>();
const prototypeBaseline = Object.getOwnPropertyNames(Object.prototype).sort();

/** One request through node:http, so that bodies can be any bytes and GET may carry one. */
function send(request: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Headers = { ...request.headers };
    if (request.body !== undefined) {
      if (request.chunked) headers['Transfer-Encoding'] = 'chunked';
      else headers['Content-Length'] = String(request.body.length);
    }
    const req = http.request({ host: '127.0.0.1', port, method: request.method, path: request.path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(15_000, () => req.destroy(new Error(`no answer to ${request.method} ${request.path}`)));
    if (request.body !== undefined && request.chunked) {
      const half = Math.floor(request.body.length / 2);
      req.write(request.body.subarray(0, half));
      req.end(request.body.subarray(half));
    } else {
      req.end(request.body);
    }
  });
}

/** What the server reads from a header we sent: duplicates joined with ", ", surrounding blanks dropped. */
function asReceived(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  return (Array.isArray(value) ? value : [value]).map((v) => v.replace(/^[ \t]+|[ \t]+$/g, '')).join(', ');
}

function header(headers: Headers, name: string): string | string[] | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : headers[key];
}

const describeRequest = (request: RawRequest, response: RawResponse) =>
  JSON.stringify({
    request: { ...request, path: request.path.length > 400 ? `${request.path.slice(0, 400)}…` : request.path, body: request.body === undefined ? undefined : request.body.subarray(0, 300).toString('latin1') },
    response: { status: response.status, headers: response.headers, body: response.body.subarray(0, 600).toString('utf8') },
  });

/** The properties every answer must have, whatever was asked. */
function checkResponse(request: RawRequest, response: RawResponse): void {
  const context = () => describeRequest(request, response);
  expect(response.status, context()).toBeLessThan(500);
  expect(response.status, context()).toBeGreaterThanOrEqual(200);
  expect(response.headers['api-version'], context()).toBe(API_VERSION);

  const correlationId = response.headers['x-correlation-id'];
  expect(typeof correlationId, context()).toBe('string');
  const sent = asReceived(header(request.headers, 'X-Correlation-Id'));
  if (sent !== undefined && CORRELATION_ID.test(sent)) {
    expect(correlationId, context()).toBe(sent);
  } else {
    expect(correlationId, context()).toMatch(UUID);
    expect(minted.has(correlationId as string), `correlation id ${correlationId} was handed out twice`).toBe(false);
    minted.add(correlationId as string);
  }

  if (response.status >= 400) {
    expect(response.headers['content-type'], context()).toMatch(/^application\/problem\+json(;|$)/);
    let problem: Record<string, unknown> = {};
    expect(() => (problem = JSON.parse(response.body.toString('utf8')) as Record<string, unknown>), context()).not.toThrow();
    expect(typeof problem.type, context()).toBe('string');
    const type = problem.type as string;
    expect(type.startsWith(PROBLEM_BASE), context()).toBe(true);
    expect(CODES.has(type.slice(PROBLEM_BASE.length)), context()).toBe(true);
    expect(typeof problem.title === 'string' && problem.title !== '', context()).toBe(true);
    expect(problem.status, context()).toBe(response.status);
    expect(problem.correlationId, context()).toBe(correlationId);
    if (response.status === 401) expect(response.headers['www-authenticate'], context()).toMatch(/^Bearer/);
    if (response.status === 405) expect(response.headers.allow, context()).toBeTruthy();
    if (response.status === 415 && request.method === 'PATCH') expect(response.headers['accept-patch'], context()).toBe('application/merge-patch+json');
  } else if (response.status !== 204 && response.status !== 304 && /^application\/json/.test(response.headers['content-type'] ?? '')) {
    expect(() => JSON.parse(response.body.toString('utf8')), context()).not.toThrow();
  }

  const version = asReceived(header(request.headers, 'Api-Version'));
  if (version !== undefined && version !== '' && version !== API_VERSION) {
    expect(response.status, context()).toBe(400);
    const code = (JSON.parse(response.body.toString('utf8')) as { type: string }).type.slice(PROBLEM_BASE.length);
    expect(['unsupported-api-version', 'token-in-query'], context()).toContain(code);
  } else if (request.tokenInQuery) {
    expect(response.status, context()).toBe(400);
    expect((JSON.parse(response.body.toString('utf8')) as { type: string }).type, context()).toBe(`${PROBLEM_BASE}token-in-query`);
  }
}

function checkPrototypes(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBaseline);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(({} as Record<string, unknown>).admin).toBeUndefined();
}

// ---------------------------------------------------------------------------------------------
// Arbitraries

/** Percent-encodes every byte of the UTF-8 form except the unreserved characters. */
function encode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9._~-]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const utf8 = (text: string) => Buffer.from(text, 'utf8');
const printable = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));
const latin1 = fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c));
/** What node:http lets through in a header value: printable ASCII, tabs and (as raw bytes) Latin-1. */
const headerChar = fc.oneof({ weight: 12, arbitrary: printable }, { weight: 1, arbitrary: fc.constant('\t') }, { weight: 1, arbitrary: latin1 });
const headerText = (maxLength: number, minLength = 0) => fc.string({ unit: headerChar, minLength, maxLength });
const correlationChar = fc.constantFrom(...'ABCXYZabcxyz0189._:-');
const longString = (maxLength: number) =>
  fc.tuple(fc.string({ unit: 'binary', minLength: 1, maxLength: 16 }), fc.integer({ min: 1, max: 400 })).map(([s, n]) => s.repeat(n).slice(0, maxLength));

const correlationIdArb: fc.Arbitrary<string | string[]> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: correlationChar, minLength: 1, maxLength: 128 }) },
  { weight: 1, arbitrary: fc.string({ unit: correlationChar, minLength: 129, maxLength: 200 }) },
  { weight: 3, arbitrary: headerText(150) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', 'a b', 'a,b', 'ok-id ', ' ok-id', 'x'.repeat(128), 'x'.repeat(129), '\tid\t') },
  { weight: 1, arbitrary: fc.array(fc.string({ unit: correlationChar, minLength: 1, maxLength: 20 }), { minLength: 2, maxLength: 3 }) },
);

const idempotencyKeyArb: fc.Arbitrary<string | string[]> = fc.oneof(
  { weight: 3, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: fc.constant('') },
  { weight: 3, arbitrary: headerText(40) },
  { weight: 1, arbitrary: fc.string({ unit: printable, minLength: 250, maxLength: 400 }) },
  { weight: 1, arbitrary: fc.array(fc.uuid(), { minLength: 2, maxLength: 2 }) },
);

const contentTypeArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      'application/json', 'application/json; charset=utf-8', 'application/json;charset="UTF-8"', 'Application/JSON',
      'application/merge-patch+json', 'application/merge-patch+json; charset=utf-8', 'application/json; charset=latin1',
      'application/json; charset=utf-16', 'text/plain', 'text/json', 'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=xyz', 'application/problem+json', '*/*', '', ';', 'application/json; charset',
      'application/json, text/plain', 'application/octet-stream',
    ),
  },
  { weight: 1, arbitrary: headerText(60) },
);

const etagArb = fc.oneof(
  fc.constantFrom('*', '"0"', '"1"', '"2"', 'W/"0"', '"0", "1"', '"999999999999999"', '"9999999999999999999"', '"-1"', '"1e3"', '0', '""', '"', ',', ' , '),
  headerText(60),
);

const apiVersionArb = fc.oneof(
  { weight: 16, arbitrary: fc.constant(API_VERSION) },
  { weight: 2, arbitrary: fc.constantFrom(` ${API_VERSION}`, `${API_VERSION} `, '2025-01-01', '2026-11-02', 'v1', '1', 'latest', '2026-11-01, 2026-11-01') },
  { weight: 1, arbitrary: headerText(30) },
);

/** Mostly a valid staff token with every scope; sometimes a customer's, none, or a broken one. */
const authorizationArb = (): fc.Arbitrary<string | undefined> =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant(`Bearer ${state.staff}`) },
    { weight: 1, arbitrary: fc.constant(`Bearer ${state.owner}`) },
    { weight: 1, arbitrary: fc.constant(`Bearer ${state.otherCustomer}`) },
    { weight: 2, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.oneof(fc.constantFrom('Bearer', 'Bearer ', 'Basic YWRtaW46YWRtaW4=', `bearer ${state.staff}`, `Bearer  ${state.staff}`, `Bearer ${state.staff}x`), headerText(80)) },
  );

const queryKeyArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('status', 'customerId', 'sort', 'limit', 'cursor') },
  { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'hasOwnProperty', 'toString', 'limit[]', 'status[0]', 'Limit', '') },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
);

const cursorArb = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constant(state.cursor),
    fc.tuple(fc.nat(), fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 3 })).map(([at, s]) => {
      const i = at % (state.cursor.length + 1);
      return state.cursor.slice(0, i) + s + state.cursor.slice(i + 1);
    }),
    fc.string({ unit: 'binary', maxLength: 64 }),
    longString(4096),
    fc.base64String({ maxLength: 2000 }),
  );

const limitArb = fc.oneof(
  fc.integer().map(String),
  fc.integer({ min: -5, max: 120 }).map(String),
  fc.double().map(String),
  fc.bigInt().map(String),
  fc.constantFrom('1', '20', '100', '0', '101', '-1', '1.5', '1e2', '0x10', ' 5', '5 ', '', 'NaN', 'Infinity', 'true', 'null', '[]', '01', '1_0', '٣'),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

const queryValueArb = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('pending', 'paid', 'shipped', 'cancelled', 'createdAt', '-createdAt', 'cus_a', 'cus_b', 'PAID', '') },
    { weight: 2, arbitrary: limitArb },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), maxLength: 8 }) },
    { weight: 1, arbitrary: cursorArb() },
  );

/** A query string and whether it deliberately carries a credential. */
const queryArb = (): fc.Arbitrary<{ query: string; tokenInQuery: boolean }> =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant({ query: '', tokenInQuery: false }) },
    {
      weight: 8,
      arbitrary: fc
        .tuple(
          fc.array(fc.tuple(queryKeyArb, queryValueArb(), fc.boolean()), { maxLength: 6 }),
          fc.array(fc.constantFrom('%', '%G0', '%FF', '%C0%AF', '%00', '+', '&&', '==', '%2526', ';', 'a=%', '=x', 'limit=1&limit=2', 'status=paid&status=paid'), { maxLength: 2 }),
          fc.oneof({ weight: 19, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...TOKEN_PARAMETERS) }),
        )
        .map(([pairs, raw, credential]) => {
          const parts = pairs.map(([key, value, withValue]) => (withValue ? `${encode(key)}=${encode(value)}` : encode(key)));
          parts.push(...raw);
          // Node refuses request heads over 16 KiB (431) before the app sees them: stay below.
          let query = parts.join('&');
          if (query.length > MAX_QUERY) query = query.slice(0, MAX_QUERY);
          if (credential) query += `&${credential}=${state.staff}`;
          return { query, tokenInQuery: credential !== undefined };
        }),
    },
  );

const garbageIdArb = fc.oneof(
  fc.constantFrom('', 'not-a-uuid', '00000000-0000-0000-0000-000000000000', '%00', '..', '%2e%2e', 'abc%2Fdef', '%E0%A4%A', '%FF', '%25', '%20', '1'.repeat(300)),
  fc.string({ unit: 'binary', maxLength: 40 }).map(encode),
  fc.uuid().map((id) => id.toUpperCase()),
  fc.uuid().map((id) => `${id}%20`),
);

const orderIdArb = (): fc.Arbitrary<string> =>
  fc.oneof({ weight: 3, arbitrary: fc.constantFrom(state.pending, state.paid) }, { weight: 2, arbitrary: fc.uuid() }, { weight: 2, arbitrary: garbageIdArb });

const OPERATIONS = ['/health/live', '/health/ready', '/metrics', '/openapi.json'];

/** Where a request goes: the path, the methods the route answers, and a valid body and media type for it. */
interface Target {
  readonly path: string;
  readonly methods: readonly string[];
  readonly body?: unknown;
  readonly mediaType?: string;
}

const ORDER_SUBRESOURCES: Record<string, Omit<Target, 'path'>> = {
  '': { methods: ['GET', 'PATCH'], body: { address: { city: 'Paris' } }, mediaType: 'application/merge-patch+json' },
  '/payments': { methods: ['POST'], body: { amount: TOTAL, reference: 'ref-1' }, mediaType: 'application/json' },
  '/shipments': { methods: ['POST'], body: { carrier: 'DHL', trackingNumber: 'TN-1' }, mediaType: 'application/json' },
  '/cancellation': { methods: ['POST'], body: { reason: 'changed my mind' }, mediaType: 'application/json' },
};

/** Known paths are routed as the service routes them; anything else is answered by no route. */
function targetOf(path: string): Target {
  if (path === '/orders') return { path, methods: ['GET', 'POST'], body: newOrder('cus_a'), mediaType: 'application/json' };
  if (OPERATIONS.includes(path)) return { path, methods: ['GET'] };
  return { path, methods: [] };
}

const targetArb = (): fc.Arbitrary<Target> =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom('/orders', '/orders', '/orders/', '/ORDERS', '//orders', '/orders;x', '/orders%2F', '/', '/jobs/x', '/exports', '/health', '/openapi.json/', '/health/live/x', ...OPERATIONS).map(targetOf) },
    {
      weight: 6,
      arbitrary: fc
        .tuple(orderIdArb(), fc.constantFrom('', '', '/payments', '/shipments', '/cancellation', '/', '/history', '/payments/x', '/cancellation/'))
        .map(([id, sub]): Target => ({ path: `/orders/${id}${sub}`, methods: [], ...ORDER_SUBRESOURCES[sub] })),
    },
    { weight: 1, arbitrary: fc.array(fc.string({ unit: 'binary', maxLength: 12 }).map(encode), { minLength: 1, maxLength: 4 }).map((s) => targetOf(`/${s.join('/')}`)) },
  );

const methodArb = fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE');

const deepArb = fc.tuple(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom('array', 'object', 'address')).map(([depth, kind]) => {
  if (kind === 'array') return '['.repeat(depth) + ']'.repeat(depth);
  if (kind === 'object') return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
  return `{"address":${'{"city":'.repeat(Math.min(depth, 10_000))}"x"${'}'.repeat(Math.min(depth, 10_000))}}`;
});

const hugeNumberArb = fc.oneof(
  fc.constantFrom('1e400', '-1e400', '1e-400', '123456789012345678901234567890', '9007199254740993', '-0', '0.0000001', '1.0', '3998.0', '3998e0', '39.98e2', '1E400'),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
);

const numericBodyArb = fc
  .tuple(hugeNumberArb, fc.constantFrom('payment', 'order-quantity', 'order-price', 'loose'))
  .map(([n, shape]) => {
    if (shape === 'payment') return `{"amount":${n},"reference":"ref"}`;
    const order = JSON.stringify(newOrder('cus_a'));
    if (shape === 'order-quantity') return order.replace('"quantity":2', `"quantity":${n}`);
    if (shape === 'order-price') return order.replace('"unitPrice":1999', `"unitPrice":${n}`);
    return n;
  });

const protoBodyArb = fc.constantFrom(
  '{"__proto__":{"polluted":true,"admin":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"address":{"__proto__":{"polluted":true}}}',
  '{"address":{"city":"Paris","__proto__":{"admin":true}}}',
  '{"address":{"constructor":{"prototype":{"polluted":true}}}}',
  '{"reason":"x","__proto__":{"admin":true}}',
  '{"amount":3998,"reference":"r","__proto__":{"admin":true}}',
  '{"carrier":"DHL","trackingNumber":"1","constructor":{"prototype":{"polluted":true}}}',
  JSON.stringify(newOrder('cus_a')).replace('{"customerId"', '{"__proto__":{"polluted":true},"customerId"'),
  JSON.stringify(newOrder('cus_a')).replace('"country":"DE"', '"country":"DE","__proto__":{"admin":true}'),
  '[{"__proto__":{"polluted":true}}]',
  '{"toString":1,"valueOf":2,"hasOwnProperty":3}',
);

const VALID_BODIES = [
  newOrder('cus_a'),
  newOrder('cus_b'),
  { amount: TOTAL, reference: 'ref-1' },
  { carrier: 'DHL', trackingNumber: 'TN-1' },
  { reason: 'changed my mind' },
  {},
  { reason: null },
  { address: { city: 'Paris' } },
  { address: { line2: null, region: 'IDF' } },
];

/** A valid body of some route, sometimes with one member replaced by any JSON value. */
const validishBodyArb = fc
  .tuple(fc.constantFrom(...VALID_BODIES), fc.option(fc.tuple(fc.string({ maxLength: 10 }), fc.jsonValue()), { nil: undefined }), fc.nat())
  .map(([body, change, pick]) => {
    const copy = structuredClone(body) as Record<string, unknown>;
    if (change) {
      const keys = Object.keys(copy);
      const key = keys.length > 0 && pick % 2 === 0 ? keys[pick % keys.length]! : change[0];
      copy[key] = change[1];
    }
    return JSON.stringify(copy);
  });

const invalidUtf8Arb = fc
  .tuple(fc.constantFrom('{"reason":"', '{"address":{"city":"', '{"amount":3998,"reference":"', '"'), fc.uint8Array({ minLength: 1, maxLength: 8 }), fc.constantFrom([0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xf8, 0x88, 0x80, 0x80, 0x80]))
  .map(([prefix, bytes, bad]) => Buffer.concat([utf8(prefix), Buffer.from(bytes), Buffer.from(bad), utf8(prefix === '"' ? '"' : prefix.startsWith('{"address') ? '"}}' : '"}')]));

const oversizedArb = fc.integer({ min: 60_000, max: 80_000 }).map((n) => utf8(`{"reason":"${'x'.repeat(n)}"}`));

const bodyArb: fc.Arbitrary<Buffer | undefined> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.json().map(utf8) },
  { weight: 2, arbitrary: fc.anything().map((v) => JSON.stringify(v)).map((s) => (s === undefined ? undefined : utf8(s))) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }).map(utf8) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)) },
  { weight: 1, arbitrary: invalidUtf8Arb },
  { weight: 1, arbitrary: deepArb.map(utf8) },
  { weight: 1, arbitrary: numericBodyArb.map(utf8) },
  { weight: 1, arbitrary: protoBodyArb.map(utf8) },
  { weight: 4, arbitrary: validishBodyArb.map(utf8) },
  { weight: 1, arbitrary: oversizedArb },
);

interface HeaderChoices {
  authorization?: string | undefined;
  idempotencyKey?: string | string[] | undefined;
  contentType?: string | undefined;
  ifMatch?: string | undefined;
  ifNoneMatch?: string | undefined;
  apiVersion?: string | undefined;
  correlationId?: string | string[] | undefined;
  consistencyToken?: string | undefined;
}

const headersArb = (): fc.Arbitrary<Headers> =>
  fc
    .record<HeaderChoices>(
      {
        authorization: authorizationArb(),
        idempotencyKey: idempotencyKeyArb,
        contentType: contentTypeArb,
        ifMatch: etagArb,
        ifNoneMatch: etagArb,
        apiVersion: apiVersionArb,
        correlationId: correlationIdArb,
        consistencyToken: fc.oneof(fc.constant(state.consistency), fc.constant('0'.repeat(32)), headerText(40)),
      },
      { requiredKeys: ['authorization'] },
    )
    .map((h) => {
      const headers: Headers = {};
      if (h.authorization !== undefined) headers.Authorization = h.authorization;
      if (h.idempotencyKey !== undefined) headers['Idempotency-Key'] = h.idempotencyKey;
      if (h.contentType !== undefined) headers['Content-Type'] = h.contentType;
      if (h.ifMatch !== undefined) headers['If-Match'] = h.ifMatch;
      if (h.ifNoneMatch !== undefined) headers['If-None-Match'] = h.ifNoneMatch;
      if (h.apiVersion !== undefined) headers['Api-Version'] = h.apiVersion;
      if (h.correlationId !== undefined) headers['X-Correlation-Id'] = h.correlationId;
      if (h.consistencyToken !== undefined) headers['Consistency-Token'] = h.consistencyToken;
      return headers;
    });

/** A JSON value with one member replaced by any JSON value (or left as it is). */
const alteredArb = (value: unknown): fc.Arbitrary<string> =>
  fc.option(fc.tuple(fc.string({ maxLength: 10 }), fc.jsonValue(), fc.nat()), { nil: undefined, freq: 2 }).map((change) => {
    const copy = structuredClone(value) as Record<string, unknown>;
    if (change) {
      const [name, member, pick] = change;
      const keys = Object.keys(copy);
      copy[keys.length > 0 && pick % 2 === 0 ? keys[pick % keys.length]! : name] = member;
    }
    return JSON.stringify(copy);
  });

/**
 * A request to one of the targets: mostly with a method the route answers, often with the
 * route's own (sometimes altered) body and media type, otherwise anything.
 */
const requestArb = (targets: fc.Arbitrary<Target>): fc.Arbitrary<RawRequest> =>
  fc
    .record({
      target: targets,
      anyMethod: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: methodArb }),
      methodPick: fc.nat(),
      query: queryArb(),
      headers: headersArb(),
      routeBody: fc.boolean(),
      body: bodyArb,
      routeMediaType: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      chunked: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    })
    .chain(({ target, anyMethod, methodPick, query, headers, routeBody, body, routeMediaType, chunked }) => {
      const method = anyMethod ?? target.methods[methodPick % Math.max(target.methods.length, 1)] ?? 'GET';
      const ownBody = routeBody && target.body !== undefined && method !== 'GET';
      return (ownBody ? alteredArb(target.body).map(utf8) : fc.constant(body)).map((bytes): RawRequest => {
        const all = { ...headers };
        if (routeMediaType && target.mediaType !== undefined && bytes !== undefined) all['Content-Type'] = target.mediaType;
        return {
          method,
          path: query.query === '' ? target.path : `${target.path}?${query.query}`,
          headers: all,
          body: bytes,
          chunked: chunked && bytes !== undefined && bytes.length > 0,
          tokenInQuery: query.tokenInQuery,
        };
      });
    });

async function exercise(request: RawRequest): Promise<RawResponse> {
  const response = await send(request);
  checkResponse(request, response);
  return response;
}

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  service = await startService();
  await receiveStock(service.events, TEST_SKUS);
  port = Number(new URL(service.url).port);
  state.staff = await service.token({ sub: 'prop-staff', scope: ALL_SCOPES });
  state.owner = await service.token({ sub: 'prop-cus-a', scope: ALL_SCOPES, customerId: 'cus_a' });
  state.otherCustomer = await service.token({ sub: 'prop-cus-b', scope: ALL_SCOPES, customerId: 'cus_b' });
  const staff = client(service, state.staff);
  for (let i = 0; i < 3; i++) {
    const placed = await staff('POST', '/orders', { body: newOrder('cus_a'), headers: { 'Idempotency-Key': randomUUID() } });
    expect(placed.status).toBe(201);
    state.consistency = placed.headers.get('consistency-token') ?? '';
    if (i === 0) state.pending = placed.body.id as string;
    if (i === 1) state.paid = placed.body.id as string;
  }
  const paid = await staff('POST', `/orders/${state.paid}/payments`, { body: { amount: TOTAL, reference: 'r' }, headers: { 'Idempotency-Key': randomUUID() } });
  expect(paid.status).toBe(201);
  const page = await staff('GET', '/orders?limit=1', { headers: { 'Consistency-Token': state.consistency } });
  expect(page.status).toBe(200);
  state.cursor = page.body.nextCursor as string;
  expect(typeof state.cursor).toBe('string');
});

afterAll(async () => {
  agent.destroy();
  await service?.stop();
});

describe('whatever is sent, the answer is well-formed', () => {
  it('order routes: arbitrary methods, ids, queries, headers and bodies', async () => {
    /** Answers seen, as "status code" (code: the problem type's last segment). */
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(requestArb(targetArb()), async (request) => {
        const response = await exercise(request);
        const problem = response.status >= 400 ? (JSON.parse(response.body.toString('utf8')) as { type: string }).type.slice(PROBLEM_BASE.length) : '';
        seen.add(`${response.status} ${problem}`.trim());
      }),
      { numRuns: 300 },
    );
    checkPrototypes();
    // The generators reach far into the service, not only its front door.
    expect([...seen].filter((s) => s >= '400').length, [...seen].join(', ')).toBeGreaterThanOrEqual(8);
    expect([...seen].some((s) => s.startsWith('2')), [...seen].join(', ')).toBe(true);
  });

  it('operations routes and unknown paths: arbitrary methods, queries, headers and bodies', async () => {
    const paths = fc.oneof(
      fc.constantFrom(...OPERATIONS),
      fc.constantFrom('/health', '/health/', '/health/live/', '/HEALTH/LIVE', '/openapi', '/openapi.yaml', '/metrics/x', '/', '/favicon.ico', '/.env', '/../etc/passwd', '/%2e%2e/', '/orders%00'),
      fc.array(fc.string({ unit: 'binary', maxLength: 16 }).map(encode), { minLength: 1, maxLength: 5 }).map((s) => `/${s.join('/')}`),
      fc.array(fc.constantFrom('health', 'live', 'ready', 'metrics', 'orders', 'openapi.json', 'jobs', 'exports', '..', '.', ''), { minLength: 1, maxLength: 4 }).map((s) => `/${s.join('/')}`),
    );
    let operationsAnswered = 0;
    await fc.assert(
      fc.asyncProperty(requestArb(paths.map(targetOf)), async (request) => {
        const response = await exercise(request);
        if (response.status === 200 && OPERATIONS.some((p) => request.path === p || request.path.startsWith(`${p}?`))) operationsAnswered++;
      }),
      { numRuns: 250 },
    );
    checkPrototypes();
    expect(operationsAnswered).toBeGreaterThan(0);
  });

  it('GET /orders: arbitrary query strings', async () => {
    const request = fc
      .record({ query: queryArb(), headers: headersArb(), path: fc.constantFrom('/orders', '/orders', '/orders/') })
      .map(({ query, headers, path }): RawRequest => ({ method: 'GET', path: query.query === '' ? path : `${path}?${query.query}`, headers, tokenInQuery: query.tokenInQuery }));
    let pages = 0;
    await fc.assert(
      fc.asyncProperty(request, async (req) => {
        const response = await exercise(req);
        if (response.status === 200) {
          const page = JSON.parse(response.body.toString('utf8')) as { items: unknown[]; nextCursor: unknown };
          expect(Array.isArray(page.items)).toBe(true);
          expect(page.nextCursor === null || typeof page.nextCursor === 'string').toBe(true);
          pages++;
        }
      }),
      { numRuns: 300 },
    );
    expect(pages).toBeGreaterThan(0);
  });

  it('X-Correlation-Id: echoed when it is 1-128 of [A-Za-z0-9._:-], a fresh UUID otherwise', async () => {
    const request = fc
      .record({
        correlationId: fc.option(correlationIdArb, { nil: undefined }),
        path: fc.constantFrom('/orders', `/orders/${state.pending}`, '/health/live', '/nowhere', `/orders/${randomUUID()}/payments`),
        method: methodArb,
        authorization: authorizationArb(),
      })
      .map(({ correlationId, path, method, authorization }): RawRequest => {
        const headers: Headers = {};
        if (authorization !== undefined) headers.Authorization = authorization;
        if (correlationId !== undefined) headers['X-Correlation-Id'] = correlationId;
        return { method, path, headers };
      });
    let echoed = 0;
    let replaced = 0;
    await fc.assert(
      fc.asyncProperty(request, async (req) => {
        const response = await exercise(req);
        const sent = asReceived(header(req.headers, 'X-Correlation-Id'));
        if (response.headers['x-correlation-id'] === sent) echoed++;
        else replaced++;
      }),
      { numRuns: 250 },
    );
    expect(echoed).toBeGreaterThan(0);
    expect(replaced).toBeGreaterThan(0);
  });

  it('write routes with mostly valid requests: successes are well-formed too', async () => {
    const staff = client(service, state.staff);
    const routes = fc.constantFrom('place', 'patch', 'pay', 'ship', 'cancel');
    const request = fc.record({
      route: routes,
      body: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: validishBodyArb }, { weight: 1, arbitrary: bodyArb }),
      correlationId: fc.option(correlationIdArb, { nil: undefined }),
      apiVersion: fc.option(fc.constant(API_VERSION), { nil: undefined }),
      ifMatch: fc.option(fc.constantFrom('"0"', '"1"', '*'), { nil: undefined }),
      customer: fc.constantFrom('staff', 'staff', 'owner'),
    });
    let successes = 0;
    await fc.assert(
      fc.asyncProperty(request, async ({ route, body, correlationId, apiVersion, ifMatch, customer }) => {
        // A fresh order in the state the route needs, so that valid requests succeed.
        const placed = await staff('POST', '/orders', { body: newOrder('cus_a'), headers: { 'Idempotency-Key': randomUUID() } });
        expect(placed.status).toBe(201);
        const id = placed.body.id as string;
        if (route === 'ship') {
          const paid = await staff('POST', `/orders/${id}/payments`, { body: { amount: TOTAL, reference: 'r' }, headers: { 'Idempotency-Key': randomUUID() } });
          expect(paid.status).toBe(201);
        }
        const valid = {
          place: { method: 'POST', path: '/orders', body: newOrder('cus_a'), type: 'application/json', success: 201 },
          patch: { method: 'PATCH', path: `/orders/${id}`, body: { address: { city: 'Paris' } }, type: 'application/merge-patch+json', success: 200 },
          pay: { method: 'POST', path: `/orders/${id}/payments`, body: { amount: TOTAL, reference: 'ref' }, type: 'application/json', success: 201 },
          ship: { method: 'POST', path: `/orders/${id}/shipments`, body: { carrier: 'UPS', trackingNumber: '1Z' }, type: 'application/json', success: 201 },
          cancel: { method: 'POST', path: `/orders/${id}/cancellation`, body: { reason: 'no' }, type: 'application/json', success: 200 },
        }[route];
        const headers: Headers = {
          // A customer's token never records a shipment (403 whatever its scopes): staff ship.
          Authorization: `Bearer ${customer === 'owner' && route !== 'ship' ? state.owner : state.staff}`,
          'Idempotency-Key': randomUUID(),
          'Content-Type': valid.type,
        };
        if (correlationId !== undefined) headers['X-Correlation-Id'] = correlationId;
        if (apiVersion !== undefined) headers['Api-Version'] = apiVersion;
        if (ifMatch !== undefined && route === 'patch') headers['If-Match'] = ifMatch;
        const bytes = body === null ? utf8(JSON.stringify(valid.body)) : typeof body === 'string' ? utf8(body) : body;
        const req: RawRequest = { method: valid.method, path: valid.path, headers, body: bytes };
        const response = await exercise(req);
        if (response.status >= 200 && response.status < 300) {
          successes++;
          expect(response.headers['content-type']).toMatch(/^application\/json/);
          const result = JSON.parse(response.body.toString('utf8')) as Record<string, unknown>;
          if (route === 'place') expect(response.headers.location).toBe(`/orders/${result.id as string}`);
          else if (route === 'pay' || route === 'ship') expect(result.orderId).toBe(id);
          else expect(result.id).toBe(id);
          if (route === 'place' || route === 'patch' || route === 'cancel') expect(response.headers.etag).toBe(`"${result.revision as number}"`);
          expect(response.headers['consistency-token']).toMatch(/^[0-9a-f]{32}$/);
        }
        if (body === null && !(route === 'patch' && ifMatch === '"1"')) {
          // The unaltered valid request must succeed (If-Match "1" names a revision the fresh order has not reached).
          expect(response.status, describeRequest(req, response)).toBe(valid.success);
        }
      }),
      { numRuns: 200 },
    );
    checkPrototypes();
    expect(successes).toBeGreaterThan(0);
  });
});
