// /metrics counts every response under the status the client got and the route it matched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, newOrder, startService, type TestService } from '../support/http.js';
import { receiveStock, TEST_SKUS } from '../support/seed.js';

let service: TestService;
const BURST = 20;

beforeAll(async () => {
  // A bucket that refills too slowly to matter: the flooder below runs dry, nobody else does.
  service = await startService({ rateLimit: { perSecond: 0.001, burst: BURST } });
  await receiveStock(service.events, TEST_SKUS);
});
afterAll(() => service.stop());

async function scrape(): Promise<string> {
  return fetch(`${service.url}/metrics`).then((r) => r.text());
}

function count(metrics: string, method: string, route: string, status: number): number {
  const line = metrics.split('\n').find((l) => l.startsWith(`http_requests_total{method="${method}",route="${route}",status="${status}"} `));
  return line === undefined ? 0 : Number(line.split(' ')[1]);
}

describe('GET /metrics', () => {
  it('counts one response of each kind under its real status and its route template', async () => {
    const api = client(service, await service.token({ sub: 'metrics-user' }));
    const reader = client(service, await service.token({ sub: 'metrics-reader', scope: 'orders:read' }));
    const anonymous = client(service, null);
    const flooder = client(service, await service.token({ sub: 'metrics-flooder' }));
    const unknownId = '00000000-0000-4000-8000-000000000000';

    const placed = await api('POST', '/orders', { body: newOrder(), headers: { 'Idempotency-Key': 'metrics-1' } });
    const id = placed.body.id as string;
    const answers = {
      201: placed.status,
      200: (await api('GET', '/orders')).status,
      400: (await api('GET', '/orders?limit=0')).status,
      401: (await anonymous('GET', '/orders')).status,
      403: (await reader('POST', '/orders', { body: newOrder(), headers: { 'Idempotency-Key': 'metrics-2' } })).status,
      404: (await api('GET', `/orders/${unknownId}`)).status,
      405: (await api('DELETE', '/orders')).status,
      409: (await api('POST', `/orders/${id}/shipments`, { body: { carrier: 'DHL', trackingNumber: 'T-1' }, headers: { 'Idempotency-Key': 'metrics-3' } })).status,
      415: (await api('POST', '/orders', { raw: JSON.stringify(newOrder()), headers: { 'Idempotency-Key': 'metrics-4', 'Content-Type': 'text/plain' } })).status,
      422: (await api('POST', '/orders', { body: newOrder('cus_other'), headers: { 'Idempotency-Key': 'metrics-1' } })).status,
    };
    let limited = 0;
    for (let i = 0; i <= BURST && limited !== 429; i++) limited = (await flooder('GET', `/orders/${unknownId}`)).status;
    const unmatched = (await api('GET', '/no-such-route')).status;
    // The answers are what the metrics must show.
    expect(answers).toEqual({ 200: 200, 201: 201, 400: 400, 401: 401, 403: 403, 404: 404, 405: 405, 409: 409, 415: 415, 422: 422 });
    expect(limited).toBe(429);
    expect(unmatched).toBe(404);

    const metrics = await scrape();
    expect(count(metrics, 'POST', '/orders', 201)).toBe(1);
    expect(count(metrics, 'GET', '/orders', 200)).toBe(1);
    expect(count(metrics, 'GET', '/orders', 400)).toBe(1);
    expect(count(metrics, 'GET', '/orders', 401)).toBe(1);
    expect(count(metrics, 'POST', '/orders', 403)).toBe(1);
    expect(count(metrics, 'GET', '/orders/:id', 404)).toBe(BURST + 1);
    expect(count(metrics, 'DELETE', '/orders', 405)).toBe(1);
    expect(count(metrics, 'POST', '/orders/:id/shipments', 409)).toBe(1);
    expect(count(metrics, 'POST', '/orders', 415)).toBe(1);
    expect(count(metrics, 'POST', '/orders', 422)).toBe(1);
    expect(count(metrics, 'GET', '/orders/:id', 429)).toBe(1);
    expect(count(metrics, 'GET', 'unmatched', 404)).toBe(1);
    // No guard's own pattern and no error counted as a 404 it was not.
    expect(metrics).not.toContain('route="(?:');
    expect(metrics).not.toMatch(/route="\/orders",status="404"/);
  });
});
