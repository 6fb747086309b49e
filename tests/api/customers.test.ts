// Customers over real HTTP: one email, one customer (however requests race), reads, merge
// patches, the list, erasure, confinement of customer tokens, and the customer rule of orders.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, newOrder, startService, type TestService } from '../support/http.js';
import { receiveStock, TEST_SKUS } from '../support/seed.js';

const PROBLEM = 'https://errors.orders.example/';
const MERGE_PATCH = { 'Content-Type': 'application/merge-patch+json' };
const CURRENT = { 'Api-Version': '2026-12-01' };

let service: TestService;
let staff: ReturnType<typeof client>;
beforeAll(async () => {
  service = await startService();
  await receiveStock(service.events, TEST_SKUS);
  staff = client(service, await service.token({ sub: 'customers-staff' }));
});
afterAll(() => service.stop());

const key = () => ({ 'Idempotency-Key': `cus-${randomUUID()}` });
const unique = () => `ada.${randomUUID().slice(0, 8)}@example.org`;
const home = { name: 'Ada Lovelace', line1: '1 Main St', city: 'Berlin', postalCode: '10115', country: 'DE' };

async function create(email = unique(), extra: object = {}) {
  const response = await staff('POST', '/customers', { body: { email, name: 'Ada Lovelace', ...extra }, headers: key() });
  expect(response.status).toBe(201);
  return response;
}

describe('creating and reading a customer', () => {
  it('creates a customer with a cus_ id, Location and ETag, and reads it back current', async () => {
    const email = unique();
    const created = await create(email, { phone: '+49 30 1234567', defaultAddress: home });
    const id = created.body.id as string;
    expect(id).toMatch(/^cus_[0-9a-f]{32}$/);
    expect(created.headers.get('location')).toBe(`/customers/${id}`);
    expect(created.headers.get('etag')).toBe('"0"');
    expect(created.body).toEqual({
      id, email, name: 'Ada Lovelace', phone: '+49 30 1234567', defaultAddress: { ...home, line2: null, region: null },
      status: 'active', createdAt: expect.any(String), updatedAt: created.body.createdAt, erasedAt: null, revision: 0,
    });
    const read = await staff('GET', `/customers/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    const again = await staff('GET', `/customers/${id}`, { headers: { 'If-None-Match': '"0"' } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe('"0"');
  });

  it('replays a retry with the same key and body, and refuses the key with another body', async () => {
    const headers = key();
    const body = { email: unique(), name: 'Ada' };
    const first = await staff('POST', '/customers', { body, headers });
    const retry = await staff('POST', '/customers', { body, headers });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.id).toBe(first.body.id);
    const other = await staff('POST', '/customers', { body: { ...body, name: 'Eve' }, headers });
    expect(other.status).toBe(422);
    expect(other.body.type).toBe(`${PROBLEM}idempotency-key-reused`);
  });

  it('refuses an email another customer has, whatever its case', async () => {
    const email = unique();
    await create(email);
    const taken = await staff('POST', '/customers', { body: { email: email.toUpperCase(), name: 'Eve' }, headers: key() });
    expect(taken.status).toBe(409);
    expect(taken.body.type).toBe(`${PROBLEM}email-in-use`);
  });

  it('refuses a malformed email and an unknown member with 400', async () => {
    for (const body of [{ email: 'not-an-email', name: 'A' }, { email: unique(), name: 'A', role: 'admin' }]) {
      const response = await staff('POST', '/customers', { body, headers: key() });
      expect(response.status).toBe(400);
      expect(response.body.type).toBe(`${PROBLEM}validation-failed`);
    }
  });

  it('answers an unknown customer 404', async () => {
    expect((await staff('GET', '/customers/cus_nobody')).status).toBe(404);
  });
});

describe('one email, one customer, under races', () => {
  it('answers 50 concurrent creations with one email in different cases and distinct keys: exactly one 201, the rest 409 email-in-use', async () => {
    const email = unique();
    const spellings = [email, email.toUpperCase(), email.replace('ada', 'ADA'), email.replace('example', 'Example')];
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => staff('POST', '/customers', { body: { email: spellings[i % spellings.length], name: `Racer ${i}` }, headers: key() })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    for (const response of responses.filter((r) => r.status === 409)) expect(response.body.type).toBe(`${PROBLEM}email-in-use`);
  });

  it('answers 50 concurrent changes of 50 customers to one email: exactly one 200, the rest 409 email-in-use', async () => {
    const ids = await Promise.all(Array.from({ length: 50 }, async () => (await create()).body.id as string));
    const email = unique();
    const responses = await Promise.all(
      ids.map((id, i) => staff('PATCH', `/customers/${id}`, { raw: JSON.stringify({ email: i % 2 ? email.toUpperCase() : email }), headers: MERGE_PATCH })),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409 && r.body.type === `${PROBLEM}email-in-use`)).toHaveLength(49);
    const winner = responses.find((r) => r.status === 200)!;
    expect((await staff('GET', `/customers/${winner.body.id}`)).body.email.toLowerCase()).toBe(email);
  });
});

describe('changing a customer', () => {
  it('merges a patch, frees the old email, and refuses an email in use', async () => {
    const [a, b] = [await create(), await create()];
    const oldEmail = a.body.email as string;
    const newEmail = unique();
    const changed = await staff('PATCH', `/customers/${a.body.id}`, { raw: JSON.stringify({ email: newEmail, defaultAddress: home }), headers: MERGE_PATCH });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ email: newEmail, name: 'Ada Lovelace', defaultAddress: { city: 'Berlin' }, revision: 1 });
    expect(changed.headers.get('etag')).toBe('"1"');
    const moved = await staff('PATCH', `/customers/${a.body.id}`, { raw: JSON.stringify({ defaultAddress: { city: 'Paris' }, phone: null }), headers: MERGE_PATCH });
    expect(moved.body.defaultAddress).toMatchObject({ line1: '1 Main St', city: 'Paris' });
    // The old email is free again; the other customer's is not.
    await create(oldEmail.toUpperCase());
    const taken = await staff('PATCH', `/customers/${a.body.id}`, { raw: JSON.stringify({ email: b.body.email }), headers: MERGE_PATCH });
    expect(taken.status).toBe(409);
    expect(taken.body.type).toBe(`${PROBLEM}email-in-use`);
    // Only the case changes: the customer keeps its email.
    const recased = await staff('PATCH', `/customers/${a.body.id}`, { raw: JSON.stringify({ email: newEmail.toUpperCase() }), headers: MERGE_PATCH });
    expect(recased.status).toBe(200);
    expect(recased.body.email).toBe(newEmail.toUpperCase());
  });

  it('refuses a stale If-Match with 412 and a patch of another media type with 415', async () => {
    const { body } = await create();
    await staff('PATCH', `/customers/${body.id}`, { raw: JSON.stringify({ name: 'Ada L.' }), headers: MERGE_PATCH });
    const stale = await staff('PATCH', `/customers/${body.id}`, { raw: JSON.stringify({ name: 'Ada B.' }), headers: { ...MERGE_PATCH, 'If-Match': '"0"' } });
    expect(stale.status).toBe(412);
    const json = await staff('PATCH', `/customers/${body.id}`, { body: { name: 'Ada B.' } });
    expect(json.status).toBe(415);
    expect(json.headers.get('accept-patch')).toBe('application/merge-patch+json');
  });
});

describe('listing customers', () => {
  it('lists newest first, filters by exact email case-insensitively, and pages with a cursor', async () => {
    const created = [await create(), await create(), await create()];
    const consistency = created.at(-1)!.headers.get('consistency-token')!;
    const filtered = await staff('GET', `/customers?email=${encodeURIComponent(created[1]!.body.email.toUpperCase())}`, { headers: { 'Consistency-Token': consistency } });
    expect(filtered.status).toBe(200);
    expect(filtered.body).toEqual({ items: [created[1]!.body], nextCursor: null });
    const first = await staff('GET', '/customers?limit=2', { headers: { 'Consistency-Token': consistency } });
    expect(first.body.items.map((c: { id: string }) => c.id)).toEqual([created[2]!.body.id, created[1]!.body.id]);
    expect(first.headers.get('link')).toMatch(/^<\/customers\?limit=2&cursor=[^>]+>; rel="next"$/);
    const second = await staff('GET', `/customers?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(second.body.items[0].id).toBe(created[0]!.body.id);
    const misused = await staff('GET', `/customers?limit=2&email=x%40example.org&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(misused.status).toBe(400);
    expect(misused.body.type).toBe(`${PROBLEM}invalid-cursor`);
  });
});

describe('erasing a customer', () => {
  it('erases: the customer reads with every personal member null, cannot order or change, its email is free, and a second DELETE is 204', async () => {
    const { body } = await create(unique(), { phone: '+49 30 1', defaultAddress: home });
    const placing = { ...key(), ...CURRENT };
    const placed = await staff('POST', '/orders', { body: newOrder(body.id), headers: placing });
    expect(placed.status).toBe(201);
    const erased = await staff('DELETE', `/customers/${body.id}`);
    expect(erased.status).toBe(204);
    const read = await staff('GET', `/customers/${body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      id: body.id, email: null, name: null, phone: null, defaultAddress: null, status: 'erased',
      createdAt: body.createdAt, updatedAt: read.body.erasedAt, erasedAt: expect.any(String), revision: 1,
    });
    expect((await staff('DELETE', `/customers/${body.id}`)).status).toBe(204);
    expect((await staff('GET', `/customers/${body.id}`)).body.revision).toBe(1);
    for (const version of [{ 'Api-Version': '2026-12-01' }, { 'Api-Version': '2026-11-01' }, {}] as Array<Record<string, string>>) {
      const order = await staff('POST', '/orders', { body: newOrder(body.id), headers: { ...key(), ...version } });
      expect(order.status).toBe(422);
      expect(order.body.type).toBe(`${PROBLEM}unknown-customer`);
    }
    // A retry of the placement made before the erasure is still answered as the first run was.
    const retried = await staff('POST', '/orders', { body: newOrder(body.id), headers: placing });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body.id).toBe(placed.body.id);
    const patch = await staff('PATCH', `/customers/${body.id}`, { raw: JSON.stringify({ name: 'Back' }), headers: MERGE_PATCH });
    expect(patch.status).toBe(409);
    expect(patch.body).toMatchObject({ type: `${PROBLEM}state-conflict`, currentStatus: 'erased' });
    await create(body.email);
    const list = await staff('GET', `/customers?email=${encodeURIComponent(body.email)}&limit=100`, { headers: { 'Consistency-Token': erased.headers.get('consistency-token')! } });
    expect(list.body.items.map((c: { id: string }) => c.id)).not.toContain(body.id);
  });

  it('erases a guest customer that appears only on orders, which then cannot order again', async () => {
    const guest = `guest_${randomUUID().slice(0, 8)}`;
    expect((await staff('POST', '/orders', { body: newOrder(guest), headers: key() })).status).toBe(201);
    expect((await staff('GET', `/customers/${guest}`)).status).toBe(404);
    expect((await staff('DELETE', `/customers/${guest}`)).status).toBe(204);
    expect((await staff('GET', `/customers/${guest}`)).body).toMatchObject({ id: guest, status: 'erased', email: null });
    expect((await service.events.readStream(`customer-${guest}`)).map((e) => e.type)).toEqual(['CustomerErased']);
    expect((await staff('POST', '/orders', { body: newOrder(guest), headers: key() })).status).toBe(422);
  });
});

describe('the customer rule of orders', () => {
  it('under 2026-12-01 takes only an existing customer; under 2026-11-01 any well-formed id is a guest', async () => {
    const unknown = await staff('POST', '/orders', { body: newOrder(`cus_unknown_${randomUUID().slice(0, 8)}`), headers: { ...key(), ...CURRENT } });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ type: `${PROBLEM}unknown-customer`, errors: [{ pointer: '/customerId' }] });
    const { body } = await create();
    expect((await staff('POST', '/orders', { body: newOrder(body.id), headers: { ...key(), ...CURRENT } })).status).toBe(201);
    expect((await staff('POST', '/orders', { body: newOrder(`guest_${randomUUID().slice(0, 8)}`), headers: key() })).status).toBe(201);
  });
});

describe("a customer's token", () => {
  it('reads and changes only its own record; another reads exactly as an unknown one', async () => {
    const [mine, theirs] = [await create(), await create()];
    const own = client(service, await service.token({ sub: 'cus-user', customerId: mine.body.id, scope: 'customers:read customers:write orders:read orders:write' }));
    expect((await own('GET', `/customers/${mine.body.id}`)).body).toEqual(mine.body);
    const changed = await own('PATCH', `/customers/${mine.body.id}`, { raw: JSON.stringify({ phone: '+33 1 23' }), headers: MERGE_PATCH });
    expect(changed.status).toBe(200);
    const other = await own('GET', `/customers/${theirs.body.id}`);
    const nobody = await own('GET', '/customers/cus_nobody');
    expect(other.status).toBe(404);
    const strip = (problem: Record<string, unknown>, id: string) => JSON.stringify({ ...problem, correlationId: null }).split(id).join('{id}');
    expect(strip(other.body, theirs.body.id)).toBe(strip(nobody.body, 'cus_nobody'));
    expect((await own('PATCH', `/customers/${theirs.body.id}`, { raw: JSON.stringify({ phone: '+1 2 3' }), headers: MERGE_PATCH })).status).toBe(404);
    expect((await staff('GET', `/customers/${theirs.body.id}`)).body.revision).toBe(0);
  });

  it('cannot list, create or erase customers, whatever its scopes (403)', async () => {
    const mine = await create();
    const own = client(service, await service.token({ sub: 'cus-user-2', customerId: mine.body.id, scope: 'customers:read customers:write customers:erase' }));
    expect((await own('GET', '/customers')).status).toBe(403);
    expect((await own('POST', '/customers', { body: { email: unique(), name: 'X' }, headers: key() })).status).toBe(403);
    expect((await own('DELETE', `/customers/${mine.body.id}`)).status).toBe(403);
    expect((await staff('GET', `/customers/${mine.body.id}`)).body.status).toBe('active');
  });
});
