// Vitest setup (every test file): each answer a test gets with fetch from a service of this
// project on this machine is checked against the OpenAPI document that service serves
// (response-conformance.ts). Disagreements fail the test that received them (or, for requests
// made in a beforeAll, the next test of the file to finish).
import { afterAll, afterEach } from 'vitest';
import { ResponseConformance, type Exchange } from './response-conformance.js';

const realFetch = globalThis.fetch;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** The checker of each origin that serves this project's document; null for other servers. */
const checkers = new Map<string, Promise<ResponseConformance | null>>();
const pending = new Set<Promise<void>>();
const disagreements: string[] = [];

function checkerFor(origin: string): Promise<ResponseConformance | null> {
  let checker = checkers.get(origin);
  if (!checker) {
    checker = realFetch(`${origin}/openapi.json`, { headers: { 'X-Correlation-Id': 'openapi-conformance' } })
      .then(
        async (response) => {
          const served = response.ok ? ((await response.json().catch(() => null)) as { openapi?: string; info?: { title?: string } } | null) : null;
          return served?.openapi?.startsWith('3.1') && served.info?.title === 'Order service' ? served : null;
        },
        // Not a server of this project, or one that is gone already.
        () => null,
      )
      .then((served) => (served ? ResponseConformance.of(served) : null));
    checkers.set(origin, checker);
  }
  return checker;
}

function requestOf(input: string | URL | Request, init: RequestInit | undefined): { method: string; url: URL; accept: string | null } {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
  return { method, url, accept: headers.get('accept') };
}

globalThis.fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const request = requestOf(input, init);
  if (request.url.protocol !== 'http:' || !LOOPBACK.has(request.url.hostname)) return realFetch(input, init);
  const checker = checkerFor(request.url.origin);
  const response = await realFetch(input, init);
  const streaming = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
  // An event stream may never end: its status, headers and media type are checked, not its body.
  const copy = streaming ? null : response.clone();
  const check = (async () => {
    const conformance = await checker;
    if (!conformance) return;
    const exchange: Exchange = { ...request, status: response.status, headers: response.headers, body: copy ? await copy.text() : null };
    disagreements.push(...conformance.check(exchange));
  })().catch((error: unknown) => void disagreements.push(`${request.method} ${request.url.pathname}: could not be checked: ${String(error)}`));
  pending.add(check);
  void check.finally(() => pending.delete(check));
  return response;
};

async function failOnDisagreements(): Promise<void> {
  await Promise.all(pending);
  if (disagreements.length === 0) return;
  const found = disagreements.splice(0);
  throw new Error(`${found.length} response(s) disagree with the served OpenAPI document:\n${found.join('\n')}`);
}

afterEach(failOnDisagreements);
afterAll(failOnDisagreements);
