// Security basics and hostile clients that the other API tests do not cover.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { client, startService, type TestService } from '../support/http.js';
import { receiveStock, TEST_SKUS } from '../support/seed.js';
import { until } from '../support/until.js';

let service: TestService;
beforeAll(async () => {
  service = await startService();
  await receiveStock(service.events, TEST_SKUS);
});
afterAll(() => service.stop());

describe('security basics', () => {
  it('sends no X-Powered-By or server banner', async () => {
    for (const path of ['/health/live', '/orders', '/nowhere']) {
      const response = await fetch(`${service.url}${path}`);
      expect(response.headers.get('x-powered-by')).toBeNull();
      expect(response.headers.get('server')).toBeNull();
    }
  });

  it('serves the paths of the routers in front of the token check as their router matches them: any case, a trailing slash', async () => {
    for (const path of ['/health/live', '/HEALTH/Live', '/health/live/', '/OpenAPI.json']) expect((await fetch(`${service.url}${path}`)).status, path).toBe(200);
    expect((await fetch(`${service.url}/Auth/Login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status).toBe(400);
    for (const path of ['/health', '/health/live/more', '/healthy/live']) expect((await fetch(`${service.url}${path}`)).status, path).toBe(404);
  });

  it('has CORS off unless origins are configured', async () => {
    const plain = await fetch(`${service.url}/orders`, { headers: { Origin: 'https://evil.example' } });
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${service.url}/orders`, { method: 'OPTIONS', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' } });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('lets configured origins in, and only them', async () => {
    const open = await startService({ corsOrigins: ['https://shop.example'] });
    await receiveStock(open.events, TEST_SKUS);
    try {
      const token = await open.token();
      const allowed = await fetch(`${open.url}/orders`, { headers: { Origin: 'https://shop.example', Authorization: `Bearer ${token}` } });
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://shop.example');
      expect(allowed.headers.get('access-control-expose-headers')).toContain('Consistency-Token');
      expect(allowed.headers.get('vary')).toContain('Origin');
      const preflight = await fetch(`${open.url}/orders`, { method: 'OPTIONS', headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, idempotency-key' } });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-headers')).toContain('Idempotency-Key');
      expect(preflight.headers.get('access-control-allow-methods')).toContain('PATCH');
      // Answered before the request context, it still carries what every response carries.
      expect(preflight.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(preflight.headers.get('api-version')).toBe('2026-11-01');
      const other = await fetch(`${open.url}/orders`, { headers: { Origin: 'https://evil.example', Authorization: `Bearer ${token}` } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      // A problem keeps them, so that a browser can read its Retry-After and correlation id.
      const refused = await fetch(`${open.url}/orders`, { headers: { Origin: 'https://shop.example' } });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('access-control-allow-origin')).toBe('https://shop.example');
      expect(refused.headers.get('access-control-expose-headers')).toContain('X-Correlation-Id');
    } finally {
      await open.stop();
    }
  });
});

describe('overload', () => {
  it('sheds requests past the in-flight limit at once with 503 and Retry-After, and serves again after', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered = 0;
    // The held requests must not be cut short by the request timeout (10 s by default) however slow the machine: 2 minutes.
    const busy = await startService({ maxInFlight: 2, requestTimeoutMs: 120_000, corsOrigins: ['https://shop.example'], queries: { listOrderJson: async () => { entered++; await gate; return { items: [], nextCursor: null, reflects: '0'.repeat(32) }; } } as never });
    await receiveStock(busy.events, TEST_SKUS);
    try {
      const api = client(busy, await busy.token());
      const held = [api('GET', '/orders'), api('GET', '/orders')];
      // Both in flight once both reached the gate (not after 100 ms, which a loaded machine can miss).
      await until(() => entered === 2);
      const started = Date.now();
      const shed = await api('GET', '/orders');
      // At once, not queued: a queued request would wait for the gate (opened only below); 10 s is generous for one answer on a loaded machine.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(shed.status).toBe(503);
      expect(shed.headers.get('retry-after')).toBe('1');
      expect(shed.body.type).toBe('https://errors.orders.example/unavailable');
      expect(shed.body.correlationId).toBe(shed.headers.get('x-correlation-id'));
      expect(shed.headers.get('content-type')).toContain('application/problem+json');
      expect((await api('GET', '/orders', { headers: { 'X-Correlation-Id': 'shed-42' } })).body.correlationId).toBe('shed-42');
      // A browser can read a shed answer too.
      const fromBrowser = await api('GET', '/orders', { headers: { Origin: 'https://shop.example' } });
      expect(fromBrowser.status).toBe(503);
      expect(fromBrowser.headers.get('access-control-allow-origin')).toBe('https://shop.example');
      expect(fromBrowser.headers.get('access-control-expose-headers')).toContain('Retry-After');
      // Probes and metrics are never shed; the shed requests are counted there, and logged as one line.
      expect((await client(busy, null)('GET', '/health/live')).status).toBe(200);
      const metrics = await client(busy, null)('GET', '/metrics');
      expect(metrics.status).toBe(200);
      expect(String(metrics.body)).toMatch(/^http_requests_shed_total 3$/m);
      const lines = busy.logs.map((line) => JSON.parse(line) as { msg: string; status?: number; shed?: number });
      expect(lines.filter((l) => l.msg.startsWith('at capacity'))).toEqual([expect.objectContaining({ shed: 1 })]);
      expect(lines.some((l) => l.status === 503)).toBe(false);
      release();
      expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200]);
      expect((await api('GET', '/orders')).status).toBe(200);
    } finally {
      await busy.stop();
    }
  });
});

describe('hostile clients', () => {
  it('answers a slow-drip request head with 408 problem+json, and keeps serving', async () => {
    // A service whose heads must arrive within a second, so that the drip outlasts it in a few seconds.
    const slow = await startService({ headersTimeoutMs: 1_000 });
    onTestFinished(() => slow.stop());
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(slow.url).port), '127.0.0.1', () => socket.write('GET /orders HTTP/1.1\r\nHost: x\r\n'));
      let text = '';
      const drip = setInterval(() => socket.writable && socket.write('X-Drip: 1\r\n'), 300);
      socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('close', () => {
        clearInterval(drip);
        resolve(text);
      }).on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1.1 408 /);
    expect(answer).toContain('request-timeout');
    expect(answer).toContain('Api-Version: 2026-11-01');
    expect((await fetch(`${slow.url}/health/live`)).status).toBe(200);
  });

  it('refuses deeply nested JSON, 10,000-character keys and cursors, and control characters in filters, writing nothing', async () => {
    const api = client(service, await service.token());
    const head = await service.events.headPosition();
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect((await api('POST', '/orders', { raw: deep, headers: { 'Idempotency-Key': 'deep', 'Content-Type': 'application/json' } })).status).toBe(413);
    const nested = '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000);
    expect((await api('POST', '/orders', { raw: nested, headers: { 'Idempotency-Key': 'nested', 'Content-Type': 'application/json' } })).status).toBe(400);
    expect((await api('POST', '/orders', { body: {}, headers: { 'Idempotency-Key': 'k'.repeat(10_000) } })).body.type).toBe('https://errors.orders.example/idempotency-key-missing');
    expect((await api('GET', `/orders?cursor=${'c'.repeat(10_000)}`)).status).toBe(400);
    expect((await api('GET', '/orders?customerId=cus%00%1b%0a')).body.type).toBe('https://errors.orders.example/validation-failed');
    expect((await api('POST', '/orders', { raw: '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}', headers: { 'Idempotency-Key': 'proto', 'Content-Type': 'application/json' } })).status).toBe(400);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    expect(await service.events.headPosition()).toBe(head);
  });
});
