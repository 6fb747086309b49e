// Vitest setup (every test file): each answer a test gets with fetch from a service of this
// project on this machine is checked against the OpenAPI document that service serves
// (response-conformance.ts); so is each answer to a request made with node:http's request (the
// tests that send bytes fetch cannot). Disagreements fail the test that received them (or, for requests
// made in a beforeAll, the next test of the file to finish).
//
// The service runs in the test's own process, so the checking waits until the test is over:
// compiling and running validators while requests are under way would slow the service and
// change what timing-sensitive tests see. Only the served document is fetched at once (once
// per origin), while the service is surely up.
import http from 'node:http';
import { afterAll, afterEach } from 'vitest';
import { ResponseConformance, type Exchange } from './response-conformance.js';

interface Received {
  readonly served: Promise<string | null>;
  /** Null when the response never ended (its server was killed mid-body): nothing to check. */
  readonly exchange: Promise<Exchange | null>;
}

const realFetch = globalThis.fetch;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** The document each origin serves, as text; null for servers that are not of this project. */
const documents = new Map<string, Promise<string | null>>();
/** One checker per document text: every service of a run serves the same one. */
const checkers = new Map<string, Promise<ResponseConformance>>();
const received: Received[] = [];

function servedBy(origin: string): Promise<string | null> {
  let document = documents.get(origin);
  if (!document) {
    document = realFetch(`${origin}/openapi.json`, { headers: { 'X-Correlation-Id': 'openapi-conformance' } }).then(
      async (response) => {
        const text = response.ok ? await response.text() : '';
        const served = JSON.parse(text || 'null') as { openapi?: string; info?: { title?: string } } | null;
        return served?.openapi?.startsWith('3.1') && served.info?.title === 'Order service' ? text : null;
      },
      // Not a server of this project, or one that is gone already.
      () => null,
    );
    documents.set(origin, document);
  }
  return document;
}

function requestOf(input: string | URL | Request, init: RequestInit | undefined): { method: string; url: URL; target: string; accept: string | null } {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
  return { method, url, target: url.pathname + url.search, accept: headers.get('accept') };
}

globalThis.fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const request = requestOf(input, init);
  if (request.url.protocol !== 'http:' || !LOOPBACK.has(request.url.hostname)) return realFetch(input, init);
  const served = servedBy(request.url.origin);
  const response = await realFetch(input, init);
  // An answer a proxy in front of the service made itself (it says so with Via) is not the service's.
  if (response.headers.has('via')) return response;
  // An event stream may never end: its status, headers and media type are checked, not its body.
  const streaming = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
  const copy = streaming ? null : response.clone();
  // A body the test cut short (an aborted request) is not checked.
  const body = copy ? copy.text().catch(() => null) : Promise.resolve(null);
  received.push({ served, exchange: body.then((text) => ({ ...request, status: response.status, headers: response.headers, body: text })) });
  return response;
};

const realRequest = http.request;
http.request = function request(this: unknown, ...args: Parameters<typeof http.request>) {
  const outgoing = (realRequest as (...a: unknown[]) => http.ClientRequest).apply(this, args);
  const options = typeof args[0] === 'object' && !(args[0] instanceof URL) ? (args[0] as http.RequestOptions) : null;
  const host = options?.host ?? options?.hostname;
  if (!options || !host || !LOOPBACK.has(host) || options.port === undefined) return outgoing;
  const headers = new Headers(Object.entries(options.headers ?? {}).flatMap(([name, value]) => (Array.isArray(value) ? value.map((v) => [name, String(v)]) : [[name, String(value)]])) as Array<[string, string]>);
  const origin = `http://${host}:${options.port}`;
  const request = { method: (options.method ?? 'GET').toUpperCase(), target: options.path ?? '/', accept: headers.get('accept') };
  const served = servedBy(origin);
  outgoing.once('response', (incoming: http.IncomingMessage) => {
    if (incoming.headers.via !== undefined) return;
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    const exchange = new Promise<Exchange | null>((resolve) => {
      // After 'end' this changes nothing; without it (the connection cut mid-body) there is nothing to check.
      incoming.once('close', () => resolve(null));
      incoming.once('end', () => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
        resolve({ ...request, status: incoming.statusCode ?? 0, headers: responseHeaders, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    received.push({ served, exchange });
  });
  return outgoing;
} as typeof http.request;

async function failOnDisagreements(): Promise<void> {
  const disagreements: string[] = [];
  for (const { served, exchange } of received.splice(0)) {
    const document = await served;
    if (document === null) continue;
    let checker = checkers.get(document);
    if (!checker) checkers.set(document, (checker = ResponseConformance.of(JSON.parse(document) as Record<string, unknown>)));
    // A response whose end never comes (a connection left hanging by a killed process) is not waited on forever.
    const answered = await Promise.race([exchange, new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000).unref())]);
    if (answered !== null) disagreements.push(...(await checker).check(answered));
    // Compiling an operation's validators takes a while: the timers of the servers and clients
    // that are still open (keep-alive sockets closing) run in between, not all at once after.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  if (disagreements.length > 0) throw new Error(`${disagreements.length} disagreement(s) with the served OpenAPI document:\n${disagreements.join('\n')}`);
}

// Checking a chaos run's thousands of answers against the whole document takes longer than a hook's default 30 s.
afterEach(failOnDisagreements, 180_000);
afterAll(failOnDisagreements, 180_000);
