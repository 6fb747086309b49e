// Every row of HTTP-CONTRACT.md for orders, through real HTTP against the embedded default.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, newOrder, startService, type TestService } from '../support/http.js';
import { receiveStock, TEST_SKUS } from '../support/seed.js';
import { until } from '../support/until.js';

let service: TestService;
let api: ReturnType<typeof client>;
let keyCounter = 0;
const key = () => `key-${Date.now()}-${keyCounter++}`;

beforeAll(async () => {
  // Consistency-Token reads wait as long as the projections take on a loaded machine (support/http's
  // default); the one that must run out of time goes to a service of its own with a short wait.
  service = await startService();
  await receiveStock(service.events, TEST_SKUS);
  api = client(service, await service.token());
});
afterAll(() => service.stop());

async function place(body: object = newOrder(), headers: Record<string, string> = {}) {
  const response = await api('POST', '/orders', { body, headers: { 'Idempotency-Key': key(), ...headers } });
  expect(response.status).toBe(201);
  return response;
}
const pay = (id: string, amount = 3998, k = key()) =>
  api('POST', `/orders/${id}/payments`, { body: { amount, reference: 'psp-1' }, headers: { 'Idempotency-Key': k } });
const ship = (id: string, k = key()) =>
  api('POST', `/orders/${id}/shipments`, { body: { carrier: 'DHL', trackingNumber: 'T-1' }, headers: { 'Idempotency-Key': k } });
const patch = (id: string, body: unknown, headers: Record<string, string> = {}) =>
  api('PATCH', `/orders/${id}`, { raw: JSON.stringify(body), headers: { 'Content-Type': 'application/merge-patch+json', ...headers } });

function expectProblem(response: { status: number; headers: Headers; body: any }, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  expect(response.body).toMatchObject({ type: `https://errors.orders.example/${code}`, status, title: expect.any(String) });
  expect(response.body.correlationId).toBe(response.headers.get('x-correlation-id'));
}

describe('POST /orders', () => {
  it('creates the order: 201, Location, ETag "0", Consistency-Token and the representation', async () => {
    const { headers, body } = await place();
    expect(headers.get('location')).toBe(`/orders/${body.id}`);
    expect(headers.get('etag')).toBe('"0"');
    expect(headers.get('consistency-token')).toMatch(/^[0-9a-f]{32}$/);
    expect(headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/), customerId: 'cus_42', status: 'pending', currency: 'EUR',
      lines: [{ sku: 'SKU-1', name: 'Blue mug', quantity: 2, unitPrice: 1999, lineTotal: 3998, shipped: 0, cancelled: 0, returned: 0 }], total: 3998,
      balance: { charged: 3998, paid: 0, refunded: 0, due: 3998 },
      address: { name: 'Ada Lovelace', line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' },
      createdAt: expect.any(String), updatedAt: body.createdAt, revision: 0,
    });
    expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
  });

  it('replays a retry with the same key and body: same status, body and id, Idempotent-Replayed, nothing appended', async () => {
    const k = key();
    const first = await api('POST', '/orders', { body: newOrder(), headers: { 'Idempotency-Key': k } });
    // Same JSON value, other key order and spacing: the same request.
    const reordered = JSON.stringify({ address: newOrder().address, lines: newOrder().lines, currency: 'EUR', customerId: 'cus_42' }, null, 2);
    const again = await api('POST', '/orders', { raw: reordered, headers: { 'Idempotency-Key': k, 'Content-Type': 'application/json' } });
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(await service.events.readStream(`order-${first.body.id}`)).toHaveLength(1);
  });

  it('refuses the same key with another body: 422 idempotency-key-reused', async () => {
    const k = key();
    await api('POST', '/orders', { body: newOrder(), headers: { 'Idempotency-Key': k } });
    expectProblem(await api('POST', '/orders', { body: newOrder('cus_other'), headers: { 'Idempotency-Key': k } }), 422, 'idempotency-key-reused');
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['with a space', 'a b'],
    ['256 characters', 'k'.repeat(256)],
    ['non-ASCII', 'clé'],
  ])('requires a valid Idempotency-Key (%s): 400 idempotency-key-missing', async (_, value) => {
    const headers: Record<string, string> = value === undefined ? {} : { 'Idempotency-Key': value };
    const response = value === 'clé'
      ? await fetch(`${service.url}/orders`, { method: 'POST', headers: { Authorization: `Bearer ${await service.token()}`, 'Content-Type': 'application/json', 'Idempotency-Key': Buffer.from(value).toString('latin1') }, body: JSON.stringify(newOrder()) }).then(async (r) => ({ status: r.status, headers: r.headers, body: await r.json() }))
      : await api('POST', '/orders', { body: newOrder(), headers });
    expectProblem(response, 400, 'idempotency-key-missing');
  });

  it('accepts a key of 255 visible characters', async () => {
    expect((await api('POST', '/orders', { body: newOrder(), headers: { 'Idempotency-Key': '~'.repeat(255) } })).status).toBe(201);
  });

  it('validates the body against the schema, pointing at each problem', async () => {
    const bad = { ...newOrder(), currency: 'euro', lines: [{ sku: 'S', quantity: 0, unitPrice: 1.5 }], address: { ...newOrder().address, country: 'Germany' }, extra: 1 };
    const response = await api('POST', '/orders', { body: bad, headers: { 'Idempotency-Key': key() } });
    expectProblem(response, 400, 'validation-failed');
    const pointers = response.body.errors.map((e: { pointer: string }) => e.pointer);
    expect(pointers).toEqual(expect.arrayContaining(['/currency', '/lines/0/quantity', '/lines/0/unitPrice', '/address/country', '/extra']));
  });

  it('refuses free text that is blank or hides or reorders text: 400 validation-failed pointing at each member', async () => {
    const address = { ...newOrder().address, name: ' \t ', line1: '1 Main St\u2028Injected line', line2: 'Flat \u202eA1', city: 'Berlin\u2066', region: 'Mitte \ud800' };
    const response = await api('POST', '/orders', { body: { ...newOrder(), address }, headers: { 'Idempotency-Key': key() } });
    expectProblem(response, 400, 'validation-failed');
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(['/address/city', '/address/line1', '/address/line2', '/address/name', '/address/region']);
    expect(response.body.errors[0].message).toMatch(/visible text/);
    // A lone surrogate sent as a JSON escape, and a whitespace-only name through a merge patch.
    const raw = JSON.stringify(newOrder()).replace('"name":"Ada Lovelace"', '"name":"Ada \\udc00"');
    const lone = await api('POST', '/orders', { raw, headers: { 'Idempotency-Key': key(), 'Content-Type': 'application/json' } });
    expect(lone.body.errors).toEqual([{ pointer: '/address/name', message: expect.stringMatching(/unpaired surrogates/) }]);
    const order = (await place()).body;
    const blank = await patch(order.id, { address: { name: '\u00a0 ' } });
    expectProblem(blank, 400, 'validation-failed');
    expect(blank.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/address/name']);
    const reference = await pay(order.id, 3998);
    expect(reference.status).toBe(201);
    const cancel = await api('POST', `/orders/${order.id}/cancellation`, { body: { reason: '\u2067  ' } });
    expectProblem(cancel, 400, 'validation-failed');
    // Visible text of any script, emoji and inner spaces included, is fine.
    expect((await place({ ...newOrder(), address: { ...newOrder().address, name: '  Zoë 😀 Ångström  ', line2: 'Hinterhaus' } })).body.address.name).toBe('  Zoë 😀 Ångström  ');
  });

  it('checks currencies against ISO 4217 and countries against ISO 3166-1, not only their shape', async () => {
    for (const currency of ['ZZZ', 'XXX', 'ABC']) {
      const response = await api('POST', '/orders', { body: { ...newOrder(), currency }, headers: { 'Idempotency-Key': key() } });
      expectProblem(response, 400, 'validation-failed');
      expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/currency']);
    }
    for (const country of ['ZZ', 'XX', 'UK', 'EU']) {
      const response = await api('POST', '/orders', { body: { ...newOrder(), address: { ...newOrder().address, country } }, headers: { 'Idempotency-Key': key() } });
      expectProblem(response, 400, 'validation-failed');
      expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/address/country']);
    }
    const order = (await place()).body;
    expect((await patch(order.id, { address: { country: 'ZZ' } })).status).toBe(400);
    const unpriced = [{ sku: 'SKU-1', quantity: 2 }];
    const jpy = await api('POST', '/orders', { body: { ...newOrder(), lines: unpriced, currency: 'JPY', address: { ...newOrder().address, country: 'GB' } }, headers: { 'Idempotency-Key': key() } });
    // A well-formed currency the catalogue has no price in: the line cannot be ordered, which is not a validation failure.
    expectProblem(jpy, 422, 'product-unavailable');
    expect((await place({ ...newOrder(), lines: unpriced, currency: 'USD', address: { ...newOrder().address, country: 'US' } })).body).toMatchObject({ currency: 'USD', address: { country: 'US' }, total: 4398 });
  });

  it.each([
    ['no lines', { lines: [] }],
    ['101 lines', { lines: Array.from({ length: 101 }, () => ({ sku: 'S', quantity: 1, unitPrice: 1 })) }],
    ['a missing address', { address: undefined }],
    ['a price beyond 2^53', { lines: [{ sku: 'S', quantity: 1, unitPrice: 2 ** 60 }] }],
  ])('refuses an order with %s', async (_, change) => {
    expectProblem(await api('POST', '/orders', { body: { ...newOrder(), ...change }, headers: { 'Idempotency-Key': key() } }), 400, 'validation-failed');
  });

  it('refuses a body that is not JSON: 400 malformed-json', async () => {
    expectProblem(await api('POST', '/orders', { raw: '{"customerId":', headers: { 'Idempotency-Key': key(), 'Content-Type': 'application/json' } }), 400, 'malformed-json');
  });

  it('refuses a repeated member and an integer beyond 2^53, which JSON.parse would silently change', async () => {
    const order = JSON.stringify(newOrder());
    const repeated = await api('POST', '/orders', { raw: order.replace('"currency":"EUR"', '"currency":"EUR","currency":"USD"'), headers: { 'Idempotency-Key': key(), 'Content-Type': 'application/json' } });
    expectProblem(repeated, 400, 'validation-failed');
    expect(repeated.body.errors).toEqual([{ pointer: '', message: 'repeats the member "currency"' }]);
    const nested = await api('POST', '/orders', { raw: order.replace('"sku":"SKU-1"', '"sku":"SKU-1","sku":"SKU-2"'), headers: { 'Idempotency-Key': key(), 'Content-Type': 'application/json' } });
    expect(nested.body.errors).toEqual([{ pointer: '/lines/0', message: 'repeats the member "sku"' }]);
    const escaped = await api('POST', '/orders', { raw: order.replace('"currency":"EUR"', '"currency":"EUR","curr\\u0065ncy":"EUR"'), headers: { 'Idempotency-Key': key(), 'Content-Type': 'application/json' } });
    expect(escaped.status).toBe(400);
    const big = await api('POST', '/orders', { raw: order.replace('"unitPrice":1999', '"unitPrice":9007199254740993'), headers: { 'Idempotency-Key': key(), 'Content-Type': 'application/json' } });
    expectProblem(big, 400, 'validation-failed');
    expect(big.body.errors[0].message).toContain('2^53');
    const strings = await api('POST', '/orders', { raw: order.replace('"name":"Ada Lovelace"', '"name":"Ada \\"currency\\": {[,]}"'), headers: { 'Idempotency-Key': key(), 'Content-Type': 'application/json' } });
    expect(strings.status).toBe(201);
  });

  it('refuses another media type: 415', async () => {
    expectProblem(await api('POST', '/orders', { raw: JSON.stringify(newOrder()), headers: { 'Idempotency-Key': key(), 'Content-Type': 'text/plain' } }), 415, 'unsupported-media-type');
  });

  it('refuses a body over 64 KiB: 413', async () => {
    const huge = JSON.stringify({ ...newOrder(), padding: 'x'.repeat(70 * 1024) });
    expectProblem(await api('POST', '/orders', { raw: huge, headers: { 'Idempotency-Key': key(), 'Content-Type': 'application/json' } }), 413, 'payload-too-large');
  });
});

describe('GET /orders/{id}', () => {
  it('answers the current order with its ETag, and 304 when If-None-Match matches', async () => {
    const { body: order } = await place();
    const read = await api('GET', `/orders/${order.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(order);
    expect(read.headers.get('etag')).toBe('"0"');
    const notModified = await api('GET', `/orders/${order.id}`, { headers: { 'If-None-Match': '"0"' } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('etag')).toBe('"0"');
    await pay(order.id);
    const changed = await api('GET', `/orders/${order.id}`, { headers: { 'If-None-Match': '"0"' } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ status: 'paid', revision: 1 });
    expect(changed.headers.get('etag')).toBe('"1"');
  });

  it('is current right after a write, whatever the projections do', async () => {
    const { body: order } = await place();
    await pay(order.id);
    expect((await api('GET', `/orders/${order.id}`)).body.status).toBe('paid');
  });

  it('answers 404 not-found for an unknown order and 400 for an id that cannot be one', async () => {
    expectProblem(await api('GET', '/orders/00000000-0000-4000-8000-000000000000'), 404, 'not-found');
    const bad = await api('GET', '/orders/not-an-id');
    expectProblem(bad, 400, 'validation-failed');
    expect(bad.body.errors).toEqual([{ pointer: '/path/id', message: expect.any(String) }]);
  });
});

describe('PATCH /orders/{id}', () => {
  it('merges the address (RFC 7396) and answers the order with its new ETag', async () => {
    const { body: order } = await place();
    const response = await patch(order.id, { address: { city: 'Paris', line2: 'Apt 4' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe('"1"');
    expect(response.headers.get('consistency-token')).toMatch(/^[0-9a-f]{32}$/);
    expect(response.body).toMatchObject({ revision: 1, address: { ...order.address, city: 'Paris', line2: 'Apt 4' } });
    const removed = await patch(order.id, { address: { line2: null } });
    expect(removed.body.address.line2).toBeNull();
  });

  it('refuses to remove a required member or to touch anything but the address', async () => {
    const { body: order } = await place();
    expectProblem(await patch(order.id, { address: { name: null } }), 400, 'validation-failed');
    expectProblem(await patch(order.id, { status: 'shipped' }), 400, 'validation-failed');
    expectProblem(await patch(order.id, { address: { country: 'XX1' } }), 400, 'validation-failed');
    expect((await api('GET', `/orders/${order.id}`)).body.revision).toBe(0);
  });

  it('merges concurrent patches of different members onto each other: neither is lost, no retry loop in the route', async () => {
    const { body: order } = await place();
    const [city, line2] = await Promise.all([patch(order.id, { address: { city: 'Paris' } }), patch(order.id, { address: { line2: 'Apt 4' } })]);
    expect([city.status, line2.status]).toEqual([200, 200]);
    const after = await api('GET', `/orders/${order.id}`);
    expect(after.body).toMatchObject({ revision: 2, address: { ...order.address, city: 'Paris', line2: 'Apt 4' } });
  });

  it('needs application/merge-patch+json: 415 with Accept-Patch', async () => {
    const { body: order } = await place();
    const response = await api('PATCH', `/orders/${order.id}`, { body: { address: { city: 'Paris' } } });
    expectProblem(response, 415, 'unsupported-media-type');
    expect(response.headers.get('accept-patch')).toBe('application/merge-patch+json');
  });

  it('honours If-Match: 412 precondition-failed for an older revision, 200 for the current one', async () => {
    const { body: order } = await place();
    await patch(order.id, { address: { city: 'Paris' } });
    expectProblem(await patch(order.id, { address: { city: 'Rome' } }, { 'If-Match': '"0"' }), 412, 'precondition-failed');
    const ok = await patch(order.id, { address: { city: 'Rome' } }, { 'If-Match': '"1"' });
    expect(ok.status).toBe(200);
    expect(ok.body.address.city).toBe('Rome');
    expectProblem(await patch(order.id, { address: { city: 'Oslo' } }, { 'If-Match': 'nonsense' }), 400, 'validation-failed');
  });

  it('answers 404 to a PATCH with If-Match on an order that does not exist: the precondition is not evaluated (RFC 9110 §13.2.1)', async () => {
    expectProblem(await patch(randomUUID(), { address: { city: 'Rome' } }, { 'If-Match': '"1"' }), 404, 'not-found');
  });

  it('rejects an address change after shipping: 409 state-conflict with currentStatus', async () => {
    const { body: order } = await place();
    await pay(order.id);
    expect((await ship(order.id)).status).toBe(201);
    const response = await patch(order.id, { address: { city: 'Paris' } });
    expectProblem(response, 409, 'state-conflict');
    expect(response.body.currentStatus).toBe('shipped');
    expect(response.body.instance).toBe(`/orders/${order.id}`);
  });

  it('rejects an address change once cancelled', async () => {
    const { body: order } = await place();
    await api('POST', `/orders/${order.id}/cancellation`);
    const response = await patch(order.id, { address: { city: 'Paris' } });
    expectProblem(response, 409, 'state-conflict');
    expect(response.body.currentStatus).toBe('cancelled');
  });
});

describe('payments, shipments and cancellation', () => {
  it('records a payment of the total: 201 with the payment, the order becomes paid', async () => {
    const { body: order } = await place();
    const k = key();
    const response = await pay(order.id, 3998, k);
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ id: expect.any(String), orderId: order.id, amount: 3998, reference: 'psp-1', method: 'unknown', createdAt: expect.any(String) });
    expect(response.headers.get('consistency-token')).toMatch(/^[0-9a-f]{32}$/);
    const replay = await pay(order.id, 3998, k);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(response.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await api('GET', `/orders/${order.id}`)).body).toMatchObject({ status: 'paid', revision: 1 });
    const second = await pay(order.id);
    expectProblem(second, 409, 'state-conflict');
    expect(second.body.currentStatus).toBe('paid');
  });

  it('refuses a payment that is not the total, and one without a key', async () => {
    const { body: order } = await place();
    const wrong = await pay(order.id, 100);
    expectProblem(wrong, 400, 'validation-failed');
    expect(wrong.body.errors[0].pointer).toBe('/amount');
    expectProblem(await api('POST', `/orders/${order.id}/payments`, { body: { amount: 3998, reference: 'x' } }), 400, 'idempotency-key-missing');
    expectProblem(await pay('00000000-0000-4000-8000-000000000000'), 404, 'not-found');
  });

  it('ships only a paid order: 409 before payment, 201 after, then shipped', async () => {
    const { body: order } = await place();
    const early = await ship(order.id);
    expectProblem(early, 409, 'state-conflict');
    expect(early.body.currentStatus).toBe('pending');
    await pay(order.id);
    const k = key();
    const shipped = await ship(order.id, k);
    expect(shipped.status).toBe(201);
    expect(shipped.body).toEqual({ id: expect.any(String), orderId: order.id, carrier: 'DHL', trackingNumber: 'T-1', lines: [{ sku: 'SKU-1', quantity: 2 }], createdAt: expect.any(String) });
    expect((await ship(order.id, k)).body).toEqual(shipped.body);
    expect((await api('GET', `/orders/${order.id}`)).body.status).toBe('shipped');
  });

  it('cancels a pending or paid order; cancelling again changes nothing; a shipped order cannot be', async () => {
    const { body: pending } = await place();
    const cancelled = await api('POST', `/orders/${pending.id}/cancellation`, { body: { reason: 'changed my mind' } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', revision: 1 });
    const again = await api('POST', `/orders/${pending.id}/cancellation`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(cancelled.body);

    const { body: paid } = await place();
    await pay(paid.id);
    expect((await api('POST', `/orders/${paid.id}/cancellation`)).body.status).toBe('cancelled');

    const { body: shipped } = await place();
    await pay(shipped.id);
    await ship(shipped.id);
    const refused = await api('POST', `/orders/${shipped.id}/cancellation`);
    expectProblem(refused, 409, 'state-conflict');
    expect(refused.body.currentStatus).toBe('shipped');
  });
});

describe('one Idempotency-Key, one request (2026-12-01)', () => {
  const CURRENT = { 'Api-Version': '2026-12-01' };
  const pay = (id: string, amount = 3998, k = key()) =>
    api('POST', `/orders/${id}/payments`, { body: { amount, reference: 'psp-1' }, headers: { 'Idempotency-Key': k, ...CURRENT } });
  const ship = (id: string, k = key()) =>
    api('POST', `/orders/${id}/shipments`, { body: { carrier: 'DHL', trackingNumber: 'T-1' }, headers: { 'Idempotency-Key': k, ...CURRENT } });

  it('refuses a key that paid one order when it pays another: 422, and the second order stays unpaid', async () => {
    const [{ body: x }, { body: y }] = [await place(), await place()];
    const k = key();
    expect((await pay(x.id, 3998, k)).status).toBe(201);
    expectProblem(await pay(y.id, 3998, k), 422, 'idempotency-key-reused');
    expect((await api('GET', `/orders/${y.id}`)).body).toMatchObject({ status: 'pending', revision: 0 });
    expect((await service.events.readStream(`order-${y.id}`)).map((e) => e.type)).toEqual(['OrderPlaced']);
    const replay = await pay(x.id, 3998, k);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });

  it('refuses a key used to place an order when it pays, ships or exports, and one used to export when it places', async () => {
    const k = key();
    // Under 2026-12-01 an order's customer must exist.
    const registered = await api('POST', '/customers', { body: { email: `keys-${k}@example.org`, name: 'Key User' }, headers: { 'Idempotency-Key': key(), ...CURRENT } });
    expect(registered.status).toBe(201);
    const customerId = registered.body.id as string;
    const { body: placed } = await place(newOrder(customerId), { 'Idempotency-Key': k, ...CURRENT });
    const { body: other } = await place();
    expectProblem(await pay(other.id, 3998, k), 422, 'idempotency-key-reused');
    await pay(other.id);
    expectProblem(await ship(other.id, k), 422, 'idempotency-key-reused');
    expectProblem(await api('POST', '/exports', { body: { format: 'csv' }, headers: { 'Idempotency-Key': k, ...CURRENT } }), 422, 'idempotency-key-reused');
    expect((await api('GET', `/orders/${other.id}`)).body).toMatchObject({ status: 'paid', revision: 1 });
    expect((await api('GET', `/jobs/${placed.id}`)).status).toBe(404);
    const again = await api('POST', '/orders', { body: newOrder(customerId), headers: { 'Idempotency-Key': k, ...CURRENT } });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(placed);

    const e = key();
    const exported = await api('POST', '/exports', { body: { format: 'csv' }, headers: { 'Idempotency-Key': e, ...CURRENT } });
    expect(exported.status).toBe(202);
    expectProblem(await api('POST', '/orders', { body: newOrder(customerId), headers: { 'Idempotency-Key': e, ...CURRENT } }), 422, 'idempotency-key-reused');
    expectProblem(await api('GET', `/orders/${exported.body.id}`), 404, 'not-found');
  });

  it('lets another principal use the same key for a request of its own: a key belongs to the token\'s sub', async () => {
    const k = key();
    const other = client(service, await service.token({ sub: 'user-2' }));
    const mine = await place(newOrder(), { 'Idempotency-Key': k });
    const theirs = await other('POST', '/orders', { body: newOrder(), headers: { 'Idempotency-Key': k } });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);
  });
});

describe('an Idempotency-Key per principal and target (2026-11-01, the default)', () => {
  it('takes the same key on another order as another key: both payments are made, each replays on its own order', async () => {
    const [{ body: x }, { body: y }] = [await place(), await place()];
    const k = key();
    expect((await pay(x.id, 3998, k)).status).toBe(201);
    const second = await pay(y.id, 3998, k);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.headers.get('api-version')).toBe('2026-11-01');
    for (const id of [x.id, y.id]) {
      const replay = await pay(id, 3998, k);
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.orderId).toBe(id);
      expect((await service.events.readStream(`order-${id}`)).map((e) => e.type)).toEqual(['OrderPlaced', 'PaymentRecorded']);
    }
    // On the same target, another body is still another request.
    expectProblem(await api('POST', `/orders/${x.id}/payments`, { body: { amount: 3998, reference: 'psp-2' }, headers: { 'Idempotency-Key': k } }), 422, 'idempotency-key-reused');
  });

  it('lets the key of a placement pay another order and export, but not pay its own order; a 2026-12-01 request still sees the key as taken', async () => {
    const k = key();
    const { body: placed } = await place(newOrder(), { 'Idempotency-Key': k });
    const [{ body: other }, { body: third }] = [await place(), await place()];
    expect((await pay(other.id, 3998, k)).status).toBe(201);
    expect((await api('POST', '/exports', { body: { format: 'csv' }, headers: { 'Idempotency-Key': k } })).status).toBe(202);
    // The placement's own order is the same target: there the key stands for the placement.
    expectProblem(await pay(placed.id, 3998, k), 422, 'idempotency-key-reused');
    expect((await api('GET', `/orders/${placed.id}`)).body).toMatchObject({ status: 'pending', revision: 0 });
    expect((await api('GET', `/orders/${other.id}`)).body).toMatchObject({ status: 'paid', revision: 1 });
    const current = await api('POST', `/orders/${third.id}/payments`, { body: { amount: 3998, reference: 'psp-1' }, headers: { 'Idempotency-Key': k, 'Api-Version': '2026-12-01' } });
    expectProblem(current, 422, 'idempotency-key-reused');
    expect((await api('GET', `/orders/${third.id}`)).body).toMatchObject({ status: 'pending' });
  });
});

describe('GET /orders', () => {
  it('pages with nextCursor and a Link header, in the sort asked, from the projections', async () => {
    const customer = `cus_page_${Date.now()}`;
    const created = [];
    for (let i = 0; i < 5; i++) created.push((await place(newOrder(customer))).body);
    const token = (await place(newOrder(customer))).headers.get('consistency-token')!;
    const first = await api('GET', `/orders?customerId=${customer}&sort=createdAt&limit=4`, { headers: { 'Consistency-Token': token } });
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(4);
    expect(first.body.items.map((o: { id: string }) => o.id)).toEqual(created.slice(0, 4).map((o) => o.id));
    expect(first.headers.get('consistency-token')).toMatch(/^[0-9a-f]{32}$/);
    const link = first.headers.get('link')!;
    expect(link).toMatch(/^<\/orders\?.*cursor=.*>; rel="next"$/);
    const next = await api('GET', link.slice(1, link.indexOf('>')));
    expect(next.body.items).toHaveLength(2);
    expect(next.body.nextCursor).toBeNull();
    expect(next.headers.get('link')).toBeNull();
    const newestFirst = await api('GET', `/orders?customerId=${customer}&limit=100`);
    expect(newestFirst.body.items.map((o: { createdAt: string }) => o.createdAt)).toEqual(
      [...newestFirst.body.items.map((o: { createdAt: string }) => o.createdAt)].sort().reverse(),
    );
  });

  it('filters by status', async () => {
    const customer = `cus_status_${Date.now()}`;
    const { body: a } = await place(newOrder(customer));
    await place(newOrder(customer));
    const token = (await pay(a.id)).headers.get('consistency-token')!;
    const paid = await api('GET', `/orders?customerId=${customer}&status=paid`, { headers: { 'Consistency-Token': token } });
    expect(paid.body.items.map((o: { id: string }) => o.id)).toEqual([a.id]);
  });

  // 2 minutes: it starts a second service, which alone can take most of the default 30 s on a loaded 2-core machine.
  it('waits for a Consistency-Token, and answers 503 with Retry-After when the projections cannot reach it in time', async () => {
    const { headers, body } = await place(newOrder(`cus_wait_${Date.now()}`));
    const page = await api('GET', `/orders?customerId=${body.customerId}`, { headers: { 'Consistency-Token': headers.get('consistency-token')! } });
    expect(page.body.items.map((o: { id: string }) => o.id)).toEqual([body.id]);
    const future = 'ffffffffffffff00ffffffffffffff00';
    // Waiting 300 ms: the log never reaches this position, so the answer is the 503 however loaded the machine.
    const impatient = await startService({ consistencyWaitMs: 300 });
    try {
      const late = await client(impatient, await impatient.token())('GET', '/orders', { headers: { 'Consistency-Token': future } });
      expectProblem(late, 503, 'unavailable');
      expect(late.headers.get('retry-after')).toBe('1');
    } finally {
      await impatient.stop();
    }
    expectProblem(await api('GET', '/orders', { headers: { 'Consistency-Token': 'nonsense' } }), 400, 'validation-failed');
  }, 120_000);

  it.each(['0', '101', '-1', '1.5', 'ten'])('refuses limit=%s with 400, never clamping', async (limit) => {
    expectProblem(await api('GET', `/orders?limit=${limit}`), 400, 'validation-failed');
  });

  it('refuses a cursor used with another filter or sort, or tampered with: 400 invalid-cursor', async () => {
    const customer = `cus_cursor_${Date.now()}`;
    let token = '';
    for (let i = 0; i < 3; i++) token = (await place(newOrder(customer))).headers.get('consistency-token')!;
    const { body } = await api('GET', `/orders?customerId=${customer}&limit=1`, { headers: { 'Consistency-Token': token } });
    const cursor = encodeURIComponent(body.nextCursor);
    expectProblem(await api('GET', `/orders?customerId=${customer}&limit=1&sort=createdAt&cursor=${cursor}`), 400, 'invalid-cursor');
    expectProblem(await api('GET', `/orders?limit=1&cursor=${cursor}`), 400, 'invalid-cursor');
    expectProblem(await api('GET', `/orders?customerId=${customer}&limit=1&cursor=${cursor}x`), 400, 'invalid-cursor');
    expect((await api('GET', `/orders?customerId=${customer}&limit=1&cursor=${cursor}`)).status).toBe(200);
  });

  it('refuses unknown and repeated query parameters', async () => {
    expectProblem(await api('GET', '/orders?colour=red'), 400, 'validation-failed');
    expectProblem(await api('GET', '/orders?limit=1&limit=2'), 400, 'validation-failed');
    expectProblem(await api('GET', '/orders?status=lost'), 400, 'validation-failed');
  });
});

describe('every response', () => {
  it('echoes a valid X-Correlation-Id and replaces an invalid one', async () => {
    const valid = await api('GET', '/orders', { headers: { 'X-Correlation-Id': 'req-42:a.b_c' } });
    expect(valid.headers.get('x-correlation-id')).toBe('req-42:a.b_c');
    const invalid = await api('GET', '/orders', { headers: { 'X-Correlation-Id': 'has space' } });
    expect(invalid.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
    const long = await api('GET', '/orders', { headers: { 'X-Correlation-Id': 'a'.repeat(129) } });
    expect(long.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('writes the correlation id into the metadata of every event the request appends', async () => {
    const response = await api('POST', '/orders', { body: newOrder(), headers: { 'Idempotency-Key': key(), 'X-Correlation-Id': 'trace-777' } });
    const [event] = await service.events.readStream(`order-${response.body.id}`);
    expect(event!.metadata).toMatchObject({ correlationId: 'trace-777', principal: 'user-1' });
  });

  it('serves every version: the one named, the deprecated one by default with Deprecation and Sunset, and refuses an unknown one', async () => {
    for (const version of ['2027-01-01', '2026-12-01']) {
      const current = await api('GET', '/orders', { headers: { 'Api-Version': version } });
      expect(current.status).toBe(200);
      expect(current.headers.get('api-version')).toBe(version);
      expect(current.headers.get('deprecation')).toBeNull();
      expect(current.headers.get('sunset')).toBeNull();
    }
    for (const headers of [{ 'Api-Version': '2026-11-01' }, {}] as Record<string, string>[]) {
      const old = await api('GET', '/orders', { headers });
      expect(old.status).toBe(200);
      expect(old.headers.get('api-version')).toBe('2026-11-01');
      expect(old.headers.get('deprecation')).toBe('@1796083200');
      expect(old.headers.get('sunset')).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
    }
    const unknown = await api('GET', '/orders', { headers: { 'Api-Version': '2020-01-01' } });
    expectProblem(unknown, 400, 'unsupported-api-version');
    expect(unknown.headers.get('api-version')).toBe('2026-11-01');
    expect(unknown.body.supportedVersions).toEqual(['2027-01-01', '2026-12-01', '2026-11-01']);
  });

  it('refuses a token in the query string before anything else, and never logs it', async () => {
    const anonymous = client(service, null);
    for (const query of ['access_token=abc', 'token=abc', 'x=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln']) {
      expectProblem(await anonymous('GET', `/orders?${query}`), 400, 'token-in-query');
      expectProblem(await anonymous('POST', `/nowhere?${query}`), 400, 'token-in-query');
    }
    expect(service.logs.join('\n')).not.toContain('eyJhbGciOiJIUzI1NiJ9');
    expect(service.logs.join('\n')).not.toContain('access_token');
  });

  it('logs one JSON line per request with the correlation id, and never a token, secret or address', async () => {
    const token = await service.token({ sub: 'log-check' });
    await client(service, token)('POST', '/orders', { body: newOrder(), headers: { 'Idempotency-Key': key(), 'X-Correlation-Id': 'log-corr-1' } });
    await client(service, `${token}x`)('GET', '/orders');
    const lines = service.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.find((l) => l.correlationId === 'log-corr-1' && l.msg === 'request')).toMatchObject({ method: 'POST', path: '/orders', status: 201, route: '/orders' });
    for (const line of lines) expect(line.correlationId).toEqual(expect.any(String));
    const all = service.logs.join('\n');
    expect(all).not.toContain(token.split('.')[2]);
    expect(all).not.toContain('test-secret-that-is');
    expect(all).not.toContain('1 Main St');
    expect(all).not.toContain('Ada Lovelace');
  });

  it('answers an oversized or malformed request head with problem+json too', async () => {
    const { connect } = await import('node:net');
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(new URL(service.url).port), '127.0.0.1', () => socket.end(request));
        let answer = '';
        socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk)).on('end', () => resolve(answer)).on('error', reject);
      });
    const huge = await raw(`GET /orders HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(huge).toMatch(/^HTTP\/1.1 431 /);
    expect(huge).toContain('Content-Type: application/problem+json; charset=utf-8');
    expect(huge).toContain('Api-Version: 2026-11-01');
    const body = JSON.parse(huge.slice(huge.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ type: 'https://errors.orders.example/headers-too-large', status: 431 });
    expect(huge).toContain(`X-Correlation-Id: ${body.correlationId}`);
    const garbage = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1.1 400 /);
    expect(garbage).toContain('malformed-request');
  });

  it('keeps query parameters named like prototype members, and takes only plain digits as integers', async () => {
    for (const query of ['__proto__=x', 'constructor=x', 'limit=0x10', 'limit=1e1', 'limit=5.0', 'limit=%205']) {
      expectProblem(await api('GET', `/orders?${query}`), 400, 'validation-failed');
    }
    expect((await api('GET', '/orders?limit=5')).status).toBe(200);
  });

  it('answers unknown routes with 404 and wrong methods with 405 and Allow, as problems', async () => {
    expectProblem(await api('GET', '/nowhere'), 404, 'not-found');
    const wrong = await api('DELETE', '/orders');
    expectProblem(wrong, 405, 'method-not-allowed');
    expect(wrong.headers.get('allow')).toContain('POST');
    expect(wrong.headers.get('allow')).toContain('GET');
    const put = await api('PUT', '/orders/00000000-0000-4000-8000-000000000000');
    expectProblem(put, 405, 'method-not-allowed');
    expect(put.headers.get('allow')).toContain('PATCH');
  });
});

describe('limits and failures', () => {
  it('rate-limits per principal: 429 with Retry-After and RateLimit headers', async () => {
    // One token back per 100 s (was per second): the four requests below must come before any
    // refill, which a loaded machine can take more than a second over; the policy's window follows (w=300).
    const limited = await startService({ rateLimit: { perSecond: 0.01, burst: 3 } });
    await receiveStock(limited.events, TEST_SKUS);
    try {
      const alice = client(limited, await limited.token({ sub: 'alice' }));
      const bob = client(limited, await limited.token({ sub: 'bob' }));
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await alice('GET', '/orders')).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await alice('GET', '/orders');
      expectProblem(refused, 429, 'rate-limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(refused.headers.get('ratelimit')).toMatch(/^"default";r=0;t=\d+$/);
      expect(refused.headers.get('ratelimit-policy')).toBe('"default";q=3;w=300');
      const other = await bob('GET', '/orders');
      expect(other.status).toBe(200);
      expect(other.headers.get('ratelimit')).toMatch(/^"default";r=2;t=\d+$/);
    } finally {
      await limited.stop();
    }
  });

  it('answers 500 internal without anything internal, and logs the error with the correlation id', async () => {
    const broken = await startService({
      queries: { listOrderJson: async () => { throw new Error('secret internal detail: disk /var/x'); } } as never,
    });
    try {
      const response = await client(broken, await broken.token())('GET', '/orders', { headers: { 'X-Correlation-Id': 'corr-500' } });
      expectProblem(response, 500, 'internal');
      expect(JSON.stringify(response.body)).not.toContain('secret internal detail');
      expect(JSON.stringify(response.body)).not.toMatch(/at .*\.ts/);
      const logged = broken.logs.find((line) => line.includes('corr-500') && line.includes('unexpected error'));
      expect(logged).toContain('secret internal detail');
    } finally {
      await broken.stop();
    }
  });

  it('answers 503 with Retry-After when the request takes too long', async () => {
    const slow = await startService({ requestTimeoutMs: 100, queries: { listOrderJson: () => new Promise(() => {}) } as never });
    await receiveStock(slow.events, TEST_SKUS);
    try {
      const response = await client(slow, await slow.token())('GET', '/orders');
      expectProblem(response, 503, 'unavailable');
      expect(response.headers.get('retry-after')).toBe('1');
    } finally {
      await slow.stop();
    }
  });
});

describe('operations', () => {
  it('serves health, metrics and the OpenAPI document without a token', async () => {
    const anonymous = client(service, null);
    expect((await anonymous('GET', '/health/live')).body).toEqual({ status: 'ok' });
    // Ready once the projections have caught up with the writes above: as soon as that happens, not at a given moment.
    expect((await until(() => anonymous('GET', '/health/ready'), (ready) => ready.status === 200)).status).toBe(200);
    const metrics = await fetch(`${service.url}/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/http_requests_total\{method="POST",route="\/orders",status="201"\} \d+/);
    expect(metrics).toContain('http_request_duration_seconds_bucket');
    expect(metrics).toContain('projection_lag_seconds{projection="order-views"}');
    const document = (await anonymous('GET', '/openapi.json')).body;
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/orders', '/orders/{id}', '/orders/{id}/payments', '/orders/{id}/shipments', '/orders/{id}/cancellation']));
  });

  it('answers /health/ready 503 with Retry-After until the stores answer and projections caught up', async () => {
    const notReady = await startService({ checkReady: async () => { throw new Error('projections catching up: order-views'); } });
    await receiveStock(notReady.events, TEST_SKUS);
    try {
      const response = await client(notReady, null)('GET', '/health/ready');
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('1');
    } finally {
      await notReady.stop();
    }
  });
});
