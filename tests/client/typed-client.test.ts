// A client generated from the served OpenAPI document (openapi-typescript types, openapi-fetch)
// runs a whole order flow: what a generated client finds in the document is what the service does.
import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/http.js';
import { generateTypes, TYPES_FILE } from './generate-types.js';
import type { components, paths } from './order-service.js';
import { receiveStock, TEST_SKUS } from '../support/seed.js';


let service: TestService;
beforeAll(async () => {
  service = await startService();
  await receiveStock(service.events, TEST_SKUS);
});
afterAll(() => service.stop());

describe('a client generated from the served document', () => {
  it('is generated from the document the service serves (written before the tests, or by npm run openapi:types)', async () => {
    const served = (await (await fetch(`${service.url}/openapi.json`)).json()) as object;
    expect(await generateTypes(served)).toBe(readFileSync(TYPES_FILE, 'utf8'));
  });

  it('places, reads, lists, changes, pays, ships and audits an order', async () => {
    const api = createClient<paths>({ baseUrl: service.url, headers: { Authorization: `Bearer ${await service.token()}` } });

    const placed = await api.POST('/orders', {
      params: { header: { 'Idempotency-Key': 'typed-client-1' } },
      body: {
        customerId: 'cus_typed',
        currency: 'EUR',
        lines: [{ sku: 'SKU-1', quantity: 2, unitPrice: 1999 }],
        address: { name: 'Ada Lovelace', line1: '1 Main St', city: 'Berlin', postalCode: '10115', country: 'DE' },
      },
    });
    expect(placed.response.status).toBe(201);
    const order = placed.data!;
    expect(order.total).toBe(3998);
    const id = order.id;

    const read = await api.GET('/orders/{id}', { params: { path: { id } } });
    expect(read.data?.status).toBe('pending');
    expect(read.response.headers.get('etag')).toBe('"0"');

    const consistency = placed.response.headers.get('consistency-token')!;
    const listed = await api.GET('/orders', { params: { query: { customerId: 'cus_typed', limit: 10 }, header: { 'Consistency-Token': consistency } } });
    expect(listed.data?.items.map((item) => item.id)).toEqual([id]);
    expect(listed.data?.nextCursor).toBeNull();

    const changed = await api.PATCH('/orders/{id}', {
      params: { path: { id } },
      body: { address: { line1: '2 Other St' } },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    // An address is a whole one, or (after its customer's erasure) every member null.
    expect(changed.data && 'line1' in changed.data.address ? changed.data.address.line1 : null).toBe('2 Other St');

    const paid = await api.POST('/orders/{id}/payments', { params: { path: { id }, header: { 'Idempotency-Key': 'typed-client-pay' } }, body: { amount: order.total, reference: 'PSP-1', method: 'card' } });
    expect(paid.data).toMatchObject({ orderId: id, amount: 3998, method: 'card' });

    // The long-poll's JSON is read as it is: no media type to tell apart first.
    // The changes come from the queue's projection: the payment's Consistency-Token waits for it.
    const queue = await api.GET('/fulfilment-queue/changes', {
      params: { query: { limit: 1000 }, header: { 'Consistency-Token': paid.response.headers.get('consistency-token')! } },
    });
    expect(queue.data?.changes.some((change) => change.orderId === id && change.change === 'entered')).toBe(true);
    expect(queue.data?.next).toMatch(/^[0-9a-f]{32}$/);

    const shipped = await api.POST('/orders/{id}/shipments', { params: { path: { id }, header: { 'Idempotency-Key': 'typed-client-ship' } }, body: { carrier: 'DHL', trackingNumber: 'TRACK-1' } });
    expect(shipped.data).toMatchObject({ orderId: id, carrier: 'DHL' });

    const history = await api.GET('/orders/{id}/history', { params: { path: { id }, query: { limit: 10 } } });
    const events = history.data?.items ?? [];
    expect(events.map((event) => event.type)).toEqual(['OrderPlaced', 'OrderAddressChanged', 'PaymentRecorded', 'ShipmentCreated']);
    const payment = events.find((event) => event.type === 'PaymentRecorded');
    expect(payment?.type === 'PaymentRecorded' ? payment.data.amount : null).toBe(3998);
    expect(events.every((event) => event.metadata.principal === 'user-1')).toBe(true);
  });

  it('reads problems as the document types them', async () => {
    const api = createClient<paths>({ baseUrl: service.url });
    const refused = await api.GET('/orders/{id}', { params: { path: { id: '3b1c2d4e-0000-4000-8000-000000000000' } } });
    expect(refused.response.status).toBe(401);
    expect(refused.error?.type).toBe('https://errors.orders.example/unauthenticated');
  });
});
