// The catalogue (HTTP-CONTRACT "Catalogue") and what placements take from it ("Orders"), through
// real HTTP against the embedded default. Each test works on SKUs of its own.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, newOrder, startService, type TestService } from '../support/http.js';
import { receiveStock, TEST_SKUS } from '../support/seed.js';

let service: TestService;
let api: ReturnType<typeof client>;
let customer: ReturnType<typeof client>;

beforeAll(async () => {
  // Consistency-Token reads wait as long as the projections take on a loaded machine (support/http's
  // default); the one that must run out of time goes to a service of its own with a short wait.
  service = await startService();
  await receiveStock(service.events, TEST_SKUS);
  api = client(service, await service.token());
  customer = client(service, await service.token({ sub: 'cus-42-user', customerId: 'cus_42', scope: 'orders:read orders:write catalogue:read catalogue:write' }));
});
afterAll(() => service.stop());

const freshSku = () => `T-${randomUUID().slice(0, 8)}`;
const mug = { name: 'Red mug', description: 'Stoneware, 350 ml', prices: { EUR: 1299, USD: 1399 }, status: 'active' };
// A product made here gets stock at once: these tests are about the catalogue and prices, not reservations.
const put = async (sku: string, body: object = mug, headers: Record<string, string> = {}) => {
  const response = await api('PUT', `/products/${sku}`, { body, headers });
  if (response.status === 201) await receiveStock(service.events, [sku], 1000);
  return response;
};
const mergePatch = (sku: string, body: object, headers: Record<string, string> = {}) =>
  api('PATCH', `/products/${sku}`, { raw: JSON.stringify(body), headers: { 'Content-Type': 'application/merge-patch+json', ...headers } });
const order = (lines: object[], headers: Record<string, string> = {}, currency = 'EUR') =>
  api('POST', '/orders', { body: { ...newOrder(), currency, lines }, headers: { 'Idempotency-Key': randomUUID(), ...headers } });
const eventsOf = async (sku: string) => (await service.events.readStream(`product-${sku}`)).map((e) => e.type);

function expectProblem(response: { status: number; headers: Headers; body: any }, status: number, code: string) {
  expect({ status: response.status, type: response.body?.type }).toEqual({ status, type: `https://errors.orders.example/${code}` });
  expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
}

describe('PUT /products/{sku}', () => {
  it('creates with 201, Location and ETag "0", replaces with 200, and records nothing for a replacement that changes nothing', async () => {
    const sku = freshSku();
    const created = await put(sku);
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/products/${sku}`);
    expect(created.headers.get('etag')).toBe('"0"');
    expect(created.body).toEqual({ sku, ...mug, lowStockThreshold: 0, createdAt: expect.any(String), updatedAt: created.body.createdAt, revision: 0 });
    const replaced = await put(sku, { name: 'Red mug XL', prices: { EUR: 1499 }, status: 'draft' });
    expect(replaced.status).toBe(200);
    expect(replaced.headers.get('location')).toBeNull();
    expect(replaced.body).toMatchObject({ sku, name: 'Red mug XL', description: null, prices: { EUR: 1499 }, status: 'draft', revision: 1, createdAt: created.body.createdAt });
    const same = await put(sku, { name: 'Red mug XL', prices: { EUR: 1499 }, status: 'draft' });
    expect(same).toMatchObject({ status: 200, body: { revision: 1 } });
    expect(await eventsOf(sku)).toEqual(['ProductDefined', 'ProductChanged']);
  });

  it('honours If-None-Match: * (412 once it exists) and If-Match (412 on an older revision), writing nothing', async () => {
    const sku = freshSku();
    expect((await put(sku, mug, { 'If-None-Match': '*' })).status).toBe(201);
    expectProblem(await put(sku, { ...mug, name: 'Other' }, { 'If-None-Match': '*' }), 412, 'precondition-failed');
    expect((await put(sku, { ...mug, name: 'Second' }, { 'If-Match': '"0"' })).body.revision).toBe(1);
    const stale = await put(sku, { ...mug, name: 'Third' }, { 'If-Match': '"0"' });
    expectProblem(stale, 412, 'precondition-failed');
    expect(stale.body.currentRevision).toBe(1);
    expectProblem(await mergePatch(sku, { name: 'Fourth' }, { 'If-Match': '"0"' }), 412, 'precondition-failed');
    expectProblem(await api('DELETE', `/products/${sku}`, { headers: { 'If-Match': '"0"' } }), 412, 'precondition-failed');
    expect(await eventsOf(sku)).toEqual(['ProductDefined', 'ProductChanged']);
    expect((await api('GET', `/products/${sku}`)).body.name).toBe('Second');
  });

  it('refuses bad input with problem+json and writes nothing', async () => {
    const sku = freshSku();
    const cases: Array<[object, string]> = [
      [{ ...mug, prices: { ZZZ: 100 } }, '/prices'],
      [{ ...mug, prices: { EUR: -1 } }, '/prices/EUR'],
      [{ ...mug, prices: { EUR: 12.5 } }, '/prices/EUR'],
      [{ ...mug, status: 'retired' }, '/status'],
      [{ prices: {}, status: 'active' }, '/name'],
      [{ ...mug, colour: 'red' }, '/colour'],
    ];
    for (const [body, pointer] of cases) {
      const response = await put(sku, body);
      expectProblem(response, 400, 'validation-failed');
      expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    }
    expectProblem(await api('PUT', `/products/${sku}`, { raw: '{"name":', headers: { 'Content-Type': 'application/json' } }), 400, 'malformed-json');
    expectProblem(await api('PUT', `/products/${sku}`, { raw: JSON.stringify(mug), headers: { 'Content-Type': 'text/plain' } }), 415, 'unsupported-media-type');
    expectProblem(await put('has%20space'), 400, 'validation-failed');
    expectProblem(await put(sku, mug, { 'If-None-Match': '"3"' }), 400, 'validation-failed');
    expect(await eventsOf(sku)).toEqual([]);
  });
});

describe('GET, PATCH and DELETE /products/{sku}', () => {
  it('reads with an ETag and answers 304 to a matching If-None-Match', async () => {
    const sku = freshSku();
    await put(sku);
    const read = await api('GET', `/products/${sku}`);
    expect(read).toMatchObject({ status: 200, body: { sku, ...mug, revision: 0 } });
    expect(read.headers.get('etag')).toBe('"0"');
    const notModified = await api('GET', `/products/${sku}`, { headers: { 'If-None-Match': '"0"' } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('etag')).toBe('"0"');
    expectProblem(await api('GET', `/products/${freshSku()}`), 404, 'not-found');
  });

  it('merges a patch: a price set to null is removed, other members stay; only merge-patch+json is taken', async () => {
    const sku = freshSku();
    await put(sku);
    const patched = await mergePatch(sku, { prices: { USD: null, GBP: 1100 }, description: null });
    expect(patched).toMatchObject({ status: 200, body: { name: 'Red mug', description: null, prices: { EUR: 1299, GBP: 1100 }, status: 'active', revision: 1 } });
    expect(patched.body.prices).not.toHaveProperty('USD');
    const wrongType = await api('PATCH', `/products/${sku}`, { body: { name: 'X' } });
    expectProblem(wrongType, 415, 'unsupported-media-type');
    expect(wrongType.headers.get('accept-patch')).toBe('application/merge-patch+json');
    expectProblem(await mergePatch(sku, { prices: { EUR: 'cheap' } }), 400, 'validation-failed');
    expectProblem(await mergePatch(sku, { name: null }), 400, 'validation-failed');
    expectProblem(await mergePatch(sku, {}), 400, 'validation-failed');
    expectProblem(await mergePatch(freshSku(), { name: 'X' }), 404, 'not-found');
    expect(await eventsOf(sku)).toEqual(['ProductDefined', 'ProductChanged']);
  });

  it('retires with 204: reads answer 404, a second DELETE 204, a later PUT creates it anew with 201', async () => {
    const sku = freshSku();
    const first = await put(sku);
    expect((await api('DELETE', `/products/${sku}`)).status).toBe(204);
    expectProblem(await api('GET', `/products/${sku}`), 404, 'not-found');
    expectProblem(await mergePatch(sku, { name: 'X' }), 404, 'not-found');
    expect((await api('DELETE', `/products/${sku}`)).status).toBe(204);
    await new Promise((r) => setTimeout(r, 5));
    const again = await put(sku, { ...mug, name: 'Red mug, again' });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ name: 'Red mug, again', revision: 2 });
    expect(again.body.createdAt > first.body.createdAt).toBe(true);
    expect(await eventsOf(sku)).toEqual(['ProductDefined', 'ProductRetired', 'ProductDefined']);
    expectProblem(await api('DELETE', `/products/${freshSku()}`), 404, 'not-found');
  });

  it('lets a customer token read the catalogue but never change it (403, nothing written)', async () => {
    const sku = freshSku();
    await put(sku);
    expect((await customer('GET', `/products/${sku}`)).status).toBe(200);
    expect((await customer('GET', '/products?limit=1')).status).toBe(200);
    expectProblem(await customer('PUT', `/products/${sku}`, { body: { ...mug, prices: { EUR: 1 } } }), 403, 'forbidden');
    expectProblem(await customer('PUT', `/products/${freshSku()}`, { body: mug }), 403, 'forbidden');
    expectProblem(await customer('PATCH', `/products/${sku}`, { raw: '{"prices":{"EUR":1}}', headers: { 'Content-Type': 'application/merge-patch+json' } }), 403, 'forbidden');
    expectProblem(await customer('DELETE', `/products/${sku}`), 403, 'forbidden');
    expect(await eventsOf(sku)).toEqual(['ProductDefined']);
  });
});

describe('lowStockThreshold (2027-01-01)', () => {
  const current = { 'Api-Version': '2027-01-01' };
  const threshold = async (sku: string) => (await api('GET', `/products/${sku}`, { headers: current })).body.lowStockThreshold;

  it('is set by PUT, shown by GET, set and removed (null: 0) by a merge patch, and left out by a PUT under 2027-01-01 to none', async () => {
    const sku = freshSku();
    const created = await put(sku, { ...mug, lowStockThreshold: 5 }, current);
    expect(created).toMatchObject({ status: 201, body: { sku, lowStockThreshold: 5, revision: 0 } });
    expect(await threshold(sku)).toBe(5);
    expect(await eventsOf(sku)).toEqual(['ProductDefined']);
    expect((await service.events.readStream(`product-${sku}`))[0]).toMatchObject({ data: { product: { lowStockThreshold: 5 } }, metadata: { schemaVersion: 2 } });

    expect((await mergePatch(sku, { lowStockThreshold: 7 }, current)).body).toMatchObject({ lowStockThreshold: 7, prices: mug.prices, revision: 1 });
    expect((await mergePatch(sku, { name: 'Renamed' }, current)).body).toMatchObject({ lowStockThreshold: 7, revision: 2 });
    expect((await mergePatch(sku, { lowStockThreshold: null }, current)).body).toMatchObject({ lowStockThreshold: 0, revision: 3 });
    expect(await threshold(sku)).toBe(0);
    // No threshold and a threshold of 0 are one and the same: setting 0 records nothing.
    expect((await mergePatch(sku, { lowStockThreshold: 0 }, current)).body.revision).toBe(3);

    await mergePatch(sku, { lowStockThreshold: 4 }, current);
    const replaced = await put(sku, mug, current);
    expect(replaced).toMatchObject({ status: 200, body: { lowStockThreshold: 0, revision: 5 } });
    // The collection shows it too.
    const token = (await mergePatch(sku, { lowStockThreshold: 9 }, current)).headers.get('consistency-token')!;
    const listed = await api('GET', '/products?limit=100&sort=-updatedAt', { headers: { ...current, 'Consistency-Token': token } });
    expect(listed.body.items.find((p: { sku: string }) => p.sku === sku)).toMatchObject({ lowStockThreshold: 9, revision: 6 });
  });

  it('is shown under the older versions too, and a PUT of theirs that leaves it out keeps it (their clients do not know it)', async () => {
    const sku = freshSku();
    await put(sku, { ...mug, lowStockThreshold: 3 }, current);
    for (const version of ['2026-12-01', '2026-11-01']) {
      expect((await api('GET', `/products/${sku}`, { headers: { 'Api-Version': version } })).body.lowStockThreshold).toBe(3);
      const replaced = await put(sku, { ...mug, name: `Mug of ${version}` }, { 'Api-Version': version });
      expect(replaced).toMatchObject({ status: 200, body: { name: `Mug of ${version}`, lowStockThreshold: 3 } });
    }
    // One that sends it sets it, under any version.
    expect((await put(sku, { ...mug, lowStockThreshold: 0 }, { 'Api-Version': '2026-12-01' })).body.lowStockThreshold).toBe(0);
    expect(await threshold(sku)).toBe(0);
  });

  it('refuses a negative, fractional or non-number threshold with 400 validation-failed, writing nothing', async () => {
    const sku = freshSku();
    for (const bad of [-1, 2.5, '3', true]) {
      const response = await put(sku, { ...mug, lowStockThreshold: bad }, current);
      expectProblem(response, 400, 'validation-failed');
      expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain('/lowStockThreshold');
    }
    expect(await eventsOf(sku)).toEqual([]);
    await put(sku, { ...mug, lowStockThreshold: 2 }, current);
    for (const bad of [-1, 0.5, '3']) {
      const response = await mergePatch(sku, { lowStockThreshold: bad }, current);
      expectProblem(response, 400, 'validation-failed');
      expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain('/lowStockThreshold');
    }
    expect(await eventsOf(sku)).toEqual(['ProductDefined']);
    expect(await threshold(sku)).toBe(2);
  });

  it('reads a product defined before thresholds (version-1 events) as having none, and sets one on it', async () => {
    const sku = freshSku();
    const meta = { schemaVersion: 1, principal: 'old-build', correlationId: 'c-old', causationId: null };
    await service.events.appendToStream(`product-${sku}`, [
      { type: 'ProductDefined', data: { sku, product: { name: 'Old mug', description: null, prices: { EUR: 900 }, status: 'active' }, definedAt: '2026-10-01T00:00:00.000Z' }, metadata: meta },
      { type: 'ProductChanged', data: { sku, product: { name: 'Old mug', description: null, prices: { EUR: 950 }, status: 'active' }, changedAt: '2026-10-02T00:00:00.000Z' }, metadata: meta },
    ], 'no_stream');
    expect((await api('GET', `/products/${sku}`, { headers: current })).body).toMatchObject({ name: 'Old mug', prices: { EUR: 950 }, lowStockThreshold: 0, revision: 1 });
    expect((await mergePatch(sku, { lowStockThreshold: 6 }, current)).body).toMatchObject({ prices: { EUR: 950 }, lowStockThreshold: 6, revision: 2 });
  });
});

describe('GET /products', () => {
  it('pages by sku with a cursor and Link, filters by status, sorts by -updatedAt, and leaves retired products out', async () => {
    const prefix = `P-${randomUUID().slice(0, 6)}`;
    const skus = [0, 1, 2, 3, 4].map((i) => `${prefix}-${i}`);
    for (const sku of skus) await put(sku, { ...mug, status: sku.endsWith('-3') ? 'draft' : 'active' });
    await mergePatch(skus[1]!, { name: 'Changed last but one' });
    const retired = await api('DELETE', `/products/${skus[4]}`);
    const token = retired.headers.get('consistency-token')!;
    expect(token).toMatch(/^[0-9a-f]{32}$/);

    const all: Array<{ sku: string; status: string; updatedAt: string }> = [];
    let path: string | null = '/products?limit=2';
    while (path) {
      const page: Awaited<ReturnType<typeof api>> = await api('GET', path, { headers: { 'Consistency-Token': token } });
      expect(page.status).toBe(200);
      expect(page.headers.get('consistency-token')).toMatch(/^[0-9a-f]{32}$/);
      all.push(...page.body.items);
      const link = page.headers.get('link');
      expect(link === null).toBe(page.body.nextCursor === null);
      path = link ? link.slice(1, link.indexOf('>')) : null;
    }
    const mine = all.filter((p) => p.sku.startsWith(prefix));
    expect(mine.map((p) => p.sku)).toEqual(skus.slice(0, 4));
    expect(all.map((p) => p.sku)).toEqual([...all.map((p) => p.sku)].sort());

    const drafts = await api('GET', '/products?status=draft&limit=100', { headers: { 'Consistency-Token': token } });
    expect(drafts.body.items.every((p: { status: string }) => p.status === 'draft')).toBe(true);
    expect(drafts.body.items.map((p: { sku: string }) => p.sku)).toContain(skus[3]);

    const newest = await api('GET', '/products?sort=-updatedAt&limit=100', { headers: { 'Consistency-Token': token } });
    const times = newest.body.items.map((p: { updatedAt: string }) => p.updatedAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(newest.body.items.filter((p: { sku: string }) => p.sku.startsWith(prefix))[0].sku).toBe(skus[1]);

    const first = await api('GET', '/products?limit=1');
    expectProblem(await api('GET', `/products?limit=1&status=draft&cursor=${first.body.nextCursor}`), 400, 'invalid-cursor');
    expectProblem(await api('GET', `/products?limit=1&sort=-updatedAt&cursor=${first.body.nextCursor}`), 400, 'invalid-cursor');
    for (const query of ['limit=0', 'limit=101', 'sort=name', 'status=retired', 'cursor=']) expectProblem(await api('GET', `/products?${query}`), 400, 'validation-failed');
  });
});

describe('Consistency-Token across collections', () => {
  // 2 minutes: it starts a second service, which alone can take most of the default 30 s on a loaded 2-core machine.
  it("answers at once to another collection's write: a product's token on GET /orders, an order's on GET /products", async () => {
    const productToken = (await put(freshSku())).headers.get('consistency-token')!;
    const orderToken = (await order([{ sku: 'SKU-1', quantity: 1 }])).headers.get('consistency-token')!;
    // Waits that hung would never answer (the test's timeout fails them), waiting for a position these views never reach on their own.
    expect((await api('GET', '/orders?limit=1', { headers: { 'Consistency-Token': productToken } })).status).toBe(200);
    expect((await api('GET', '/products?limit=1', { headers: { 'Consistency-Token': orderToken } })).status).toBe(200);
    // A position the log has not reached still waits, and then answers 503: on a service waiting 2 s, the answer whatever the load.
    const impatient = await startService({ consistencyWaitMs: 2000 });
    try {
      expectProblem(await client(impatient, await impatient.token())('GET', '/products?limit=1', { headers: { 'Consistency-Token': 'ffffffffffffff00ffffffffffffff00' } }), 503, 'unavailable');
    } finally {
      await impatient.stop();
    }
  }, 120_000);
});

describe('placing an order from the catalogue', () => {
  it("takes each line's name and unit price from the catalogue in the order's currency; a later price change never changes the order", async () => {
    const sku = freshSku();
    await put(sku);
    const placed = await order([{ sku, quantity: 3 }], {}, 'USD');
    expect(placed.status).toBe(201);
    expect(placed.body).toMatchObject({ currency: 'USD', lines: [{ sku, name: 'Red mug', quantity: 3, unitPrice: 1399, lineTotal: 4197 }], total: 4197 });
    await mergePatch(sku, { name: 'Renamed mug', prices: { USD: 2000 } });
    const later = await api('GET', `/orders/${placed.body.id}`);
    expect(later.body).toMatchObject({ lines: [{ name: 'Red mug', unitPrice: 1399 }], total: 4197 });
    const [event] = await service.events.readStream(`order-${placed.body.id}`);
    expect(event!.data).toMatchObject({ lines: [{ sku, name: 'Red mug', unitPrice: 1399 }] });
    // A unitPrice equal to the catalogue's is taken (2026-11-01 clients send one).
    expect((await order([{ sku, quantity: 1, unitPrice: 2000 }], {}, 'USD')).status).toBe(201);
  });

  it('answers 422 product-unavailable naming each unknown, retired, draft or unpriced line, and writes nothing', async () => {
    const [retired, draft, euroOnly, good] = [freshSku(), freshSku(), freshSku(), freshSku()];
    await put(retired);
    await api('DELETE', `/products/${retired}`);
    await put(draft, { ...mug, status: 'draft' });
    await put(euroOnly, { ...mug, prices: { EUR: 500 } });
    await put(good);
    const head = await service.events.headPosition();
    const response = await order(
      [{ sku: good, quantity: 1 }, { sku: freshSku(), quantity: 1 }, { sku: retired, quantity: 1 }, { sku: draft, quantity: 1 }, { sku: euroOnly, quantity: 1 }],
      {},
      'USD',
    );
    expectProblem(response, 422, 'product-unavailable');
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/lines/1/sku', '/lines/2/sku', '/lines/3/sku', '/lines/4/sku']);
    expect(await service.events.headPosition()).toEqual(head);
  });

  it('answers 409 price-changed with the current prices when a sent unitPrice differs, and writes nothing', async () => {
    const [a, b] = [freshSku(), freshSku()];
    await put(a);
    await put(b, { ...mug, prices: { EUR: 700 } });
    const head = await service.events.headPosition();
    const response = await order([{ sku: a, quantity: 1, unitPrice: 1299 }, { sku: b, quantity: 2, unitPrice: 1 }]);
    expectProblem(response, 409, 'price-changed');
    expect(response.body.errors).toEqual([{ pointer: '/lines/1/unitPrice', message: expect.any(String), unitPrice: 700 }]);
    expect(await service.events.headPosition()).toEqual(head);
  });

  it('replays a placement with its first prices even after the product was retired', async () => {
    const sku = freshSku();
    await put(sku);
    const key = randomUUID();
    const body = { ...newOrder(), lines: [{ sku, quantity: 1 }] };
    const first = await api('POST', '/orders', { body, headers: { 'Idempotency-Key': key } });
    expect(first.status).toBe(201);
    await api('DELETE', `/products/${sku}`);
    const again = await api('POST', '/orders', { body, headers: { 'Idempotency-Key': key } });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expectProblem(await order([{ sku, quantity: 1 }]), 422, 'product-unavailable');
  });
});
