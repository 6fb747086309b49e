// GET /orders as staff search it: by placed-date range, by a SKU the order holds, sorted by total
// within one currency, combined with status and customer; each combination offered served, any
// other refused with the combinations that are; cursors bound to every filter. Through real HTTP
// against the embedded default.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineProducts } from '../support/catalogue.js';
import { client, startService, type TestService } from '../support/http.js';
import { receiveStock } from '../support/seed.js';

const CURRENT = { 'Api-Version': '2027-01-01' };
const PREVIOUS = { 'Api-Version': '2026-12-01' };
/** This file's own SKUs, so that a list by SKU sees this file's orders alone; x, y and z are ordered by one test alone. */
const run = randomUUID().slice(0, 8).toUpperCase();
const SKU = { a: `OS-${run}-A`, b: `OS-${run}-B`, c: `OS-${run}-C`, x: `OS-${run}-X`, y: `OS-${run}-Y`, z: `OS-${run}-Z` };
/** Prices in minor units; JPY and CHF are ordered by one test each, so that a list of one of them sees that test's orders alone. */
const PRICES: Record<string, Record<string, number>> = {
  [SKU.a]: { EUR: 1000, CHF: 1000, JPY: 100 }, [SKU.b]: { EUR: 250, CHF: 250, JPY: 30 }, [SKU.c]: { EUR: 4000, CHF: 4000, JPY: 400 },
  [SKU.x]: { EUR: 100 }, [SKU.y]: { EUR: 200 }, [SKU.z]: { EUR: 300 },
};

let service: TestService;
let api: ReturnType<typeof client>;
let keys = 0;
const key = () => `orders-search-${run}-${keys++}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  service = await startService();
  await defineProducts(service.events, Object.fromEntries(Object.entries(PRICES).map(([sku, prices]) => [sku, { name: `Search ${sku}`, description: null, prices, status: 'active' as const }])));
  await receiveStock(service.events, Object.values(SKU));
  api = client(service, await service.token({ sub: 'search-staff' }));
});
afterAll(() => service.stop());

interface Placed {
  readonly id: string;
  readonly total: number;
  readonly createdAt: string;
  readonly token: string;
}
type Lines = Array<{ sku: string; quantity: number }>;

/** Places an order for the (guest) customer, under the default version; a moment apart from the one before, so that no two share a millisecond. */
async function place(customerId: string, lines: Lines, currency = 'EUR'): Promise<Placed> {
  await sleep(3);
  const address = { name: 'Ada Lovelace', line1: '1 Main St', city: 'Berlin', postalCode: '10115', country: 'DE' };
  const placed = await api('POST', '/orders', { body: { customerId, currency, lines, address }, headers: { 'Idempotency-Key': key() } });
  expect(placed.status).toBe(201);
  return { id: placed.body.id, total: placed.body.total, createdAt: placed.body.createdAt, token: placed.headers.get('consistency-token')! };
}
async function pay(order: Placed): Promise<string> {
  const paid = await api('POST', `/orders/${order.id}/payments`, { body: { amount: order.total, reference: 'psp' }, headers: { 'Idempotency-Key': key() } });
  expect(paid.status).toBe(201);
  return paid.headers.get('consistency-token')!;
}
async function ship(id: string, lines?: Lines): Promise<string> {
  const shipped = await api('POST', `/orders/${id}/shipments`, { body: { carrier: 'DHL', trackingNumber: key(), ...(lines ? { lines } : {}) }, headers: { 'Idempotency-Key': key() } });
  expect(shipped.status).toBe(201);
  return shipped.headers.get('consistency-token')!;
}
async function edit(id: string, lines: Lines): Promise<string> {
  const edited = await api('POST', `/orders/${id}/edits`, { body: { lines }, headers: { 'Idempotency-Key': key() } });
  expect(edited.status).toBe(201);
  return edited.headers.get('consistency-token')!;
}

type Page = { status: number; body: Record<string, any>; headers: Headers };
const get = (query: string, headers: Record<string, string> = {}, as = api): Promise<Page> => as('GET', `/orders?${query}`, { headers: { ...CURRENT, ...headers } });
const ids = (page: Page): string[] => page.body.items.map((o: { id: string }) => o.id);

/** Every page of the query, following the Link header, with the Consistency-Token given to the first. */
async function all(query: string, token?: string, headers: Record<string, string> = {}): Promise<string[]> {
  const seen: string[] = [];
  let page = await get(query, { ...headers, ...(token ? { 'Consistency-Token': token } : {}) });
  for (;;) {
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    seen.push(...ids(page));
    const link = page.headers.get('link');
    if (!link) return seen;
    page = await api('GET', link.slice(1, link.indexOf('>')), { headers: { ...CURRENT, ...headers } });
  }
}

function expectProblem(page: Page, status: number, code: string, pointers?: string[]) {
  expect(page.status, JSON.stringify(page.body)).toBe(status);
  expect(page.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  expect(page.body.type).toBe(`https://errors.orders.example/${code}`);
  if (pointers) expect(page.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual([...pointers].sort());
}

/** The same instant written with another offset (+02:00), as RFC 3339 allows. */
function withOffset(instant: string): string {
  const shifted = new Date(Date.parse(instant) + 2 * 3_600_000).toISOString();
  return shifted.replace('Z', '+02:00');
}

describe('GET /orders by placed date (createdFrom inclusive, createdTo exclusive)', () => {
  let customer: string;
  let placed: Placed[];
  beforeAll(async () => {
    customer = `cus_range_${run}`;
    placed = [];
    for (let i = 0; i < 5; i++) placed.push(await place(customer, [{ sku: SKU.a, quantity: 1 }]));
  });
  const of = (...n: number[]) => n.map((i) => placed[i]!.id);
  const token = () => placed.at(-1)!.token;

  it('takes the orders placed from createdFrom on and before createdTo, in either date order, paged', async () => {
    const range = `createdFrom=${encodeURIComponent(placed[1]!.createdAt)}&createdTo=${encodeURIComponent(placed[4]!.createdAt)}`;
    expect(await all(`customerId=${customer}&${range}&sort=createdAt&limit=1`, token())).toEqual(of(1, 2, 3));
    expect(await all(`customerId=${customer}&${range}&limit=2`, token())).toEqual(of(3, 2, 1));
    expect(await all(`customerId=${customer}&createdFrom=${encodeURIComponent(placed[3]!.createdAt)}`, token())).toEqual(of(4, 3));
    expect(await all(`customerId=${customer}&createdTo=${encodeURIComponent(placed[1]!.createdAt)}`, token())).toEqual(of(0));
  });

  it('reads a bound as the instant it names: any offset, and a fraction finer than a millisecond', async () => {
    const at = placed[2]!.createdAt;
    expect(await all(`customerId=${customer}&createdFrom=${encodeURIComponent(withOffset(at))}`, token())).toEqual(of(4, 3, 2));
    // A bound a ten-thousandth of a millisecond after the order's instant: from it leaves the order out, to it takes it in.
    const justAfter = at.replace('Z', '0001Z');
    expect(await all(`customerId=${customer}&createdFrom=${encodeURIComponent(justAfter)}`, token())).toEqual(of(4, 3));
    expect(await all(`customerId=${customer}&createdTo=${encodeURIComponent(justAfter)}`, token())).toEqual(of(2, 1, 0));
  });

  it('combines with status, and binds its cursor to the range: another range is 400 invalid-cursor, the same instant spelled otherwise is not', async () => {
    const paidToken = await pay(placed[2]!);
    const from = placed[1]!.createdAt;
    expect(await all(`customerId=${customer}&status=paid&createdFrom=${encodeURIComponent(from)}`, paidToken)).toEqual(of(2));
    expect(await all(`status=paid&createdFrom=${encodeURIComponent(placed[2]!.createdAt)}&createdTo=${encodeURIComponent(placed[3]!.createdAt)}`, paidToken)).toEqual(of(2));
    const first = await get(`customerId=${customer}&createdFrom=${encodeURIComponent(from)}&limit=1`);
    const cursor = encodeURIComponent(first.body.nextCursor);
    expect(ids(await get(`customerId=${customer}&createdFrom=${encodeURIComponent(withOffset(from))}&limit=1&cursor=${cursor}`))).toEqual(of(3));
    expectProblem(await get(`customerId=${customer}&createdFrom=${encodeURIComponent(placed[0]!.createdAt)}&limit=1&cursor=${cursor}`), 400, 'invalid-cursor');
    expectProblem(await get(`customerId=${customer}&createdFrom=${encodeURIComponent(from)}&createdTo=2999-01-01T00:00:00Z&limit=1&cursor=${cursor}`), 400, 'invalid-cursor');
    expectProblem(await get(`customerId=${customer}&limit=1&cursor=${cursor}`), 400, 'invalid-cursor');
  });

  it('refuses a bound that is no RFC 3339 instant, lies past the year 9999, or an end not after the start: 400 validation-failed', async () => {
    expect((await get('createdFrom=2026-06-01T00:00:00Z&createdTo=2026-06-01T00:00:00.001Z')).status).toBe(200);
    for (const bad of ['2026-01-01', '2026-02-30T00:00:00Z', '2026-01-01T25:00:00Z', '2026-01-01T00:00:00', 'yesterday']) {
      expectProblem(await get(`createdFrom=${encodeURIComponent(bad)}`), 400, 'validation-failed', ['/createdFrom']);
    }
    expectProblem(await get(`createdTo=${encodeURIComponent('9999-12-31T23:00:00-23:00')}`), 400, 'validation-failed', ['/createdTo']);
    expectProblem(await get('createdFrom=2026-06-01T00:00:00Z&createdTo=2026-06-01T02:00:00%2B02:00'), 400, 'validation-failed', ['/createdTo']);
    expectProblem(await get('createdFrom=2026-06-02T00:00:00Z&createdTo=2026-06-01T00:00:00Z'), 400, 'validation-failed', ['/createdTo']);
  });
});

describe('GET /orders by SKU', () => {
  it('takes the orders with a line of the SKU as their lines stand, with a date range, newest or oldest first, whatever their status', async () => {
    const customer = `cus_sku_${run}`;
    const both = await place(customer, [{ sku: SKU.x, quantity: 1 }, { sku: SKU.y, quantity: 2 }]);
    const onlyB = await place(`cus_sku_other_${run}`, [{ sku: SKU.y, quantity: 1 }]);
    const editedAway = await place(customer, [{ sku: SKU.x, quantity: 1 }]);
    await pay(both);
    let token = await edit(editedAway.id, [{ sku: SKU.z, quantity: 1 }]);
    expect(await all(`sku=${SKU.x}`, token)).toEqual([both.id]);
    expect(await all(`sku=${SKU.y}&sort=createdAt&limit=1`, token)).toEqual([both.id, onlyB.id]);
    expect(await all(`sku=${SKU.y}`, token)).toEqual([onlyB.id, both.id]);
    expect(await all(`sku=${SKU.z}`, token)).toEqual([editedAway.id]);
    expect(await all(`sku=${SKU.y}&createdFrom=${encodeURIComponent(onlyB.createdAt)}`, token)).toEqual([onlyB.id]);
    expect(await all(`sku=${SKU.y}&createdTo=${encodeURIComponent(onlyB.createdAt)}`, token)).toEqual([both.id]);
    expect(await all(`sku=${SKU.y}&createdFrom=${encodeURIComponent(both.createdAt)}&createdTo=${encodeURIComponent(editedAway.createdAt)}&sort=createdAt`, token)).toEqual([both.id, onlyB.id]);
    // Shipped, the line still holds the SKU (its rows beside the view are kept as they were: only the status changed).
    token = await ship(both.id);
    expect(await all(`sku=${SKU.x}`, token)).toEqual([both.id]);
    expect((await get(`sku=${SKU.x}`, { 'Consistency-Token': token })).body.items[0].status).toBe('shipped');
    expect(await all(`sku=OS-${run}-NONE`, token)).toEqual([]);
  });

  it('binds its cursor to the SKU, and refuses a SKU that cannot be one', async () => {
    const customer = `cus_sku_cursor_${run}`;
    let token = '';
    for (let i = 0; i < 3; i++) token = (await place(customer, [{ sku: SKU.c, quantity: 1 }])).token;
    const first = await get(`sku=${SKU.c}&limit=1`, { 'Consistency-Token': token });
    expect(first.status).toBe(200);
    const cursor = encodeURIComponent(first.body.nextCursor);
    expect(first.headers.get('link')).toContain(`sku=${SKU.c}&`);
    expect((await get(`sku=${SKU.c}&limit=1&cursor=${cursor}`)).status).toBe(200);
    expectProblem(await get(`sku=${SKU.a}&limit=1&cursor=${cursor}`), 400, 'invalid-cursor');
    expectProblem(await get(`limit=1&cursor=${cursor}`), 400, 'invalid-cursor');
    expectProblem(await get('sku=no%20spaces'), 400, 'validation-failed');
    expectProblem(await get(`sku=${'X'.repeat(65)}`), 400, 'validation-failed');
  });
});

describe('GET /orders by total, within one currency', () => {
  it('sorts by total either way, ties by date in the same direction, paged with stable cursors while orders arrive', async () => {
    const customer = `cus_total_${run}`;
    // JPY totals: 100, 30, 400, 30, 160 (1 × A + 2 × B), 100.
    const placed = [
      await place(customer, [{ sku: SKU.a, quantity: 1 }], 'JPY'),
      await place(customer, [{ sku: SKU.b, quantity: 1 }], 'JPY'),
      await place(customer, [{ sku: SKU.c, quantity: 1 }], 'JPY'),
      await place(customer, [{ sku: SKU.b, quantity: 1 }], 'JPY'),
      await place(customer, [{ sku: SKU.a, quantity: 1 }, { sku: SKU.b, quantity: 2 }], 'JPY'),
      await place(customer, [{ sku: SKU.a, quantity: 1 }], 'JPY'),
    ];
    expect(placed.map((o) => o.total)).toEqual([100, 30, 400, 30, 160, 100]);
    const token = placed.at(-1)!.token;
    const of = (...n: number[]) => n.map((i) => placed[i]!.id);
    expect(await all('sort=total&currency=JPY&limit=2', token)).toEqual(of(1, 3, 0, 5, 4, 2));
    expect(await all('sort=-total&currency=JPY&limit=4', token)).toEqual(of(2, 4, 5, 0, 3, 1));

    // Orders placed between two pages land before or after the page read, never in it twice.
    const seen: string[] = [];
    let page = await get('sort=-total&currency=JPY&limit=2');
    const arrived: Placed[] = [];
    for (;;) {
      expect(page.status).toBe(200);
      seen.push(...ids(page));
      arrived.push(await place(customer, [{ sku: arrived.length % 2 === 0 ? SKU.c : SKU.b, quantity: 1 }], 'JPY'));
      const link = page.headers.get('link');
      if (!link) break;
      expect(link).toContain('currency=JPY&sort=-total&limit=2&cursor=');
      page = await api('GET', link.slice(1, link.indexOf('>')), { headers: CURRENT });
    }
    expect(seen.filter((id) => !arrived.some((o) => o.id === id))).toEqual(of(2, 4, 5, 0, 3, 1));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('combines with the status as 2027-01-01 reads it, follows it as the order moves on, and binds its cursor to the currency and the sort', async () => {
    const customer = `cus_total_status_${run}`;
    const small = await place(customer, [{ sku: SKU.b, quantity: 1 }], 'CHF');
    const large = await place(customer, [{ sku: SKU.c, quantity: 1 }], 'CHF');
    const other = await place(`cus_total_other_${run}`, [{ sku: SKU.a, quantity: 2 }, { sku: SKU.b, quantity: 1 }], 'CHF');
    await pay(small);
    await pay(large);
    await ship(large.id);
    await pay(other);
    let token = await ship(other.id, [{ sku: SKU.a, quantity: 1 }]);
    expect(await all('sort=-total&currency=CHF&status=paid', token)).toEqual([small.id]);
    expect(await all('sort=-total&currency=CHF&status=partially_shipped', token)).toEqual([other.id]);
    expect(await all('sort=-total&currency=CHF&status=shipped', token)).toEqual([large.id]);
    token = await ship(other.id);
    expect(await all('sort=-total&currency=CHF&status=shipped', token)).toEqual([large.id, other.id]);
    expect(await all('sort=total&currency=CHF&status=shipped', token)).toEqual([other.id, large.id]);
    expect(await all('sort=total&currency=CHF&status=pending', token)).toEqual([]);
    expect(await all('sort=total&currency=CHF', token)).toEqual([small.id, other.id, large.id]);

    const first = await get('sort=-total&currency=CHF&limit=1');
    const cursor = encodeURIComponent(first.body.nextCursor);
    expect(ids(first)).toEqual([large.id]);
    expect(ids(await get(`sort=-total&currency=CHF&limit=1&cursor=${cursor}`))).toEqual([other.id]);
    expectProblem(await get(`sort=total&currency=CHF&limit=1&cursor=${cursor}`), 400, 'invalid-cursor');
    expectProblem(await get(`sort=-total&currency=EUR&limit=1&cursor=${cursor}`), 400, 'invalid-cursor');
    expectProblem(await get(`sort=-total&currency=CHF&status=shipped&limit=1&cursor=${cursor}`), 400, 'invalid-cursor');
    expectProblem(await get(`sort=-createdAt&limit=1&cursor=${cursor}`), 400, 'invalid-cursor');
    expectProblem(await get('sort=-total&currency=XYZ'), 400, 'validation-failed');
    expectProblem(await get('sort=amount'), 400, 'validation-failed');
  });
});

describe('GET /orders: the combinations not offered', () => {
  it.each([
    ['sort=total', ['/currency'], CURRENT],
    ['sort=-total&status=paid', ['/currency'], CURRENT],
    [`sort=-total&currency=EUR&sku=${SKU.a}`, ['/sku'], CURRENT],
    ['sort=total&currency=EUR&createdFrom=2026-01-01T00:00:00Z', ['/createdFrom'], CURRENT],
    ['sort=total&currency=EUR&createdTo=2026-01-01T00:00:00Z&createdFrom=2025-01-01T00:00:00Z', ['/createdFrom', '/createdTo'], CURRENT],
    [`sort=total&sku=${SKU.a}`, ['/currency', '/sku'], CURRENT],
    ['sort=total&currency=EUR&customerId=cus_1', ['/sort'], CURRENT],
    ['sort=total&currency=EUR&status=paid', ['/status'], PREVIOUS],
    ['currency=EUR', ['/currency'], CURRENT],
    ['sort=createdAt&currency=EUR&status=paid', ['/currency'], CURRENT],
    [`sku=${SKU.a}&status=paid`, ['/status'], CURRENT],
    [`sku=${SKU.a}&customerId=cus_1`, ['/sku'], CURRENT],
  ])('refuses %s: 400 validation-failed naming each parameter at fault and the combinations offered', async (query, pointers, version) => {
    const page = await get(query, version);
    expectProblem(page, 400, 'validation-failed', pointers);
    expect(page.body.detail).toContain('sort=createdAt or -createdAt (the default) goes with any of status, customerId, createdFrom and createdTo, or with sku and any of createdFrom and createdTo');
    expect(page.body.detail).toContain('sort=total or -total needs currency, and goes with status (under Api-Version 2027-01-01) and nothing else');
  });
});

describe('GET /orders searched per Api-Version', () => {
  let customer: string;
  let paid: Placed;
  let partly: Placed;
  let token: string;
  beforeAll(async () => {
    customer = `cus_search_version_${run}`;
    paid = await place(customer, [{ sku: SKU.a, quantity: 1 }]);
    partly = await place(customer, [{ sku: SKU.a, quantity: 2 }, { sku: SKU.b, quantity: 1 }]);
    await pay(paid);
    await pay(partly);
    token = await ship(partly.id, [{ sku: SKU.a, quantity: 1 }]);
  });

  it('selects by status as the version reads it, with a date range', async () => {
    const since = `createdFrom=${encodeURIComponent(paid.createdAt)}`;
    expect(await all(`customerId=${customer}&${since}&status=paid`, token, PREVIOUS)).toEqual([partly.id, paid.id]);
    expect(await all(`customerId=${customer}&${since}&status=paid`, token, CURRENT)).toEqual([paid.id]);
    expect(await all(`customerId=${customer}&${since}&status=partially_shipped`, token, CURRENT)).toEqual([partly.id]);
    expect(await all(`customerId=${customer}&status=paid`, token, { 'Api-Version': '2026-11-01' })).toEqual([partly.id, paid.id]);
    const old = await get(`customerId=${customer}&status=paid`, { ...PREVIOUS, 'Consistency-Token': token });
    expect(old.body.items.map((o: { status: string }) => o.status)).toEqual(['paid', 'paid']);
    expectProblem(await get(`customerId=${customer}&status=partially_shipped`, PREVIOUS), 400, 'validation-failed', ['/status']);
    expectProblem(await get('currency=EUR&sort=total&status=partially_shipped', { 'Api-Version': '2026-11-01' }), 400, 'validation-failed', ['/status']);
  });

  it('binds a status cursor to the version\'s reading of it', async () => {
    const first = await get(`customerId=${customer}&status=paid&limit=1`, { ...PREVIOUS, 'Consistency-Token': token });
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const cursor = encodeURIComponent(first.body.nextCursor);
    expect(ids(await get(`customerId=${customer}&status=paid&limit=1&cursor=${cursor}`, PREVIOUS))).toEqual([paid.id]);
    expectProblem(await get(`customerId=${customer}&status=paid&limit=1&cursor=${cursor}`, CURRENT), 400, 'invalid-cursor');
  });
});

describe('GET /orders searched with a customer\'s token', () => {
  it('searches its own orders alone, by date and status; SKU and total are staff\'s searches across customers, refused with the reason', async () => {
    const mine = `cus_search_token_${run}`;
    const own = await place(mine, [{ sku: SKU.b, quantity: 3 }]);
    const larger = await place(mine, [{ sku: SKU.c, quantity: 1 }]);
    const theirs = await place(`cus_search_theirs_${run}`, [{ sku: SKU.b, quantity: 1 }]);
    const customer = client(service, await service.token({ sub: 'a-customer', scope: 'orders:read', customerId: mine }));
    const headers = { ...CURRENT, 'Consistency-Token': theirs.token };
    const list = async (query: string) => {
      const page = await customer('GET', `/orders?${query}`, { headers });
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      return ids(page);
    };
    expect(await list(`createdFrom=${encodeURIComponent(own.createdAt)}&status=pending`)).toEqual([larger.id, own.id]);
    expect(await list(`createdFrom=${encodeURIComponent(own.createdAt)}&createdTo=${encodeURIComponent(larger.createdAt)}`)).toEqual([own.id]);
    const bySku = await customer('GET', `/orders?sku=${SKU.b}`, { headers });
    expectProblem(bySku, 400, 'validation-failed', ['/sku']);
    expect(bySku.body.errors[0].message).toContain("a customer's token always has one");
    expectProblem(await customer('GET', '/orders?sort=-total&currency=EUR', { headers }), 400, 'validation-failed', ['/sort']);
    expect((await customer('GET', `/orders?customerId=cus_search_theirs_${run}`, { headers })).status).toBe(403);
  });
});
