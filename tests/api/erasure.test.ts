// Erasure by crypto-shredding, through HTTP: a guest customer's addresses are sealed in the event
// log, read in clear until the erasure, and afterwards read as null everywhere (orders, history,
// collections, the queue, new exports, a rebuild) while the rest of each order stays; and no byte
// of them is left in any file under DATA_DIR or in the log.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { auditStream } from '../../projections/audit.js';
import { rebuild, verify } from '../../projections/rebuild.js';
import { PROJECTIONS } from '../../bootstrap/services.js';
import { serviceViewer } from '../../write-side/kernel/access.js';
import { StoreUnavailable } from '../../write-side/kernel/errors.js';
import { ERASED_ADDRESS } from '../../write-side/orders/personal-data.js';
import { orderStream } from '../../write-side/orders/codec.js';
import { filesHolding } from '../support/disk-scan.js';
import { ALL_SCOPES, client, startService, type TestService } from '../support/http.js';
import { receiveStock, TEST_SKUS } from '../support/seed.js';
import { runScript } from '../support/service-process.js';
import { until as poll } from '../support/until.js';

const services: TestService[] = [];
afterEach(async () => {
  for (const service of services.splice(0)) await service.stop();
});

const addressOf = (marker: string) => ({ name: `Ada ${marker}`, line1: `1 ${marker} Street`, city: 'Berlin', postalCode: '10115', country: 'DE' });
const order = (customerId: string, marker: string) => ({ customerId, currency: 'EUR', lines: [{ sku: 'SKU-1', quantity: 3, unitPrice: 1999 }], address: addressOf(marker) });

/** Polls `probe` until it gives a value, with no deadline but the test's: `what` is the worker's or the projections' background work. */
async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  return (await poll(probe, (value) => value !== undefined)) as T;
}

describe('erasure of a customer (crypto-shredding)', () => {
  it("forgets a guest's addresses everywhere, on disk and in the log, while its orders keep everything else", async () => {
    // One clock here: an export that starts after the erasure is not taken for one that may hold its data.
    const service = await startService({}, { pollMs: 50, erasureClockMarginMs: 0 });
    services.push(service);
    await receiveStock(service.events, TEST_SKUS);
    const api = client(service, await service.token());
    const marker = `MRK${randomUUID().replaceAll('-', '')}`;
    const keptMarker = `KPT${randomUUID().replaceAll('-', '')}`;
    const guest = `cus_guest_${randomUUID().slice(0, 8)}`;
    const other = `cus_other_${randomUUID().slice(0, 8)}`;

    const first = await api('POST', '/orders', { body: order(guest, marker), headers: { 'Idempotency-Key': 'g1' } });
    const second = await api('POST', '/orders', { body: order(guest, marker), headers: { 'Idempotency-Key': 'g2' } });
    const kept = await api('POST', '/orders', { body: order(other, keptMarker), headers: { 'Idempotency-Key': 'o1' } });
    expect([first.status, second.status, kept.status]).toEqual([201, 201, 201]);
    const changed = await api('PATCH', `/orders/${first.body.id}`, {
      raw: JSON.stringify({ address: { line2: `Flat ${marker}` } }),
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect(changed.body.address.line2).toBe(`Flat ${marker}`);
    const paid = await api('POST', `/orders/${second.body.id}/payments`, { body: { amount: 5997, reference: 'r-1' }, headers: { 'Idempotency-Key': 'p1' } });
    expect(paid.status).toBe(201);

    // An export holds the addresses in clear: the scan below can find the marker.
    const exported = await api('POST', '/exports', { body: { format: 'ndjson' }, headers: { 'Idempotency-Key': 'e1', 'Consistency-Token': paid.headers.get('consistency-token')! } });
    const before = await until('the first export', async () => {
      const job = await api('GET', `/jobs/${exported.body.id}`);
      return job.body.status === 'succeeded' ? job : undefined;
    });
    const download = await fetch(`${service.url}/jobs/${before.body.id}/result`, { headers: { Authorization: `Bearer ${await service.token()}` } });
    expect(await download.text()).toContain(marker);
    const holding = filesHolding(service.dataDir, marker);
    expect(holding.some((file) => file.startsWith('exports'))).toBe(true);
    // Never in the event log, not even now: it is sealed there.
    expect(holding.filter((file) => file.startsWith('events.sqlite3'))).toEqual([]);
    expect(holding.filter((file) => file.startsWith('read-models.sqlite3'))).toEqual([]);

    await service.erasure.eraseCustomerData(serviceViewer('dpo'), guest);

    const read = await api('GET', `/orders/${first.body.id}`);
    expect(read.body).toMatchObject({ customerId: guest, status: 'pending', total: 5997, lines: [{ sku: 'SKU-1', quantity: 3, unitPrice: 1999, lineTotal: 5997 }], address: ERASED_ADDRESS });
    expect(read.body.createdAt).toBe(first.body.createdAt);
    const listed = await api('GET', `/orders?customerId=${guest}`);
    expect(listed.body.items.map((o: { address: unknown }) => o.address)).toEqual([ERASED_ADDRESS, ERASED_ADDRESS]);
    const queue = await api('GET', '/fulfilment-queue?limit=100');
    expect(queue.body.items.find((e: { orderId: string }) => e.orderId === second.body.id)).toMatchObject({ total: 5997, address: ERASED_ADDRESS });
    const history = await api('GET', `/orders/${first.body.id}/history`);
    expect(history.body.items.map((e: { type: string; data: { address: unknown } }) => [e.type, e.data.address])).toEqual([
      ['OrderPlaced', ERASED_ADDRESS],
      ['OrderAddressChanged', ERASED_ADDRESS],
    ]);
    expect((await api('GET', `/orders/${kept.body.id}`)).body.address.name).toBe(`Ada ${keptMarker}`);
    // Nothing new of an erased customer can be written.
    expect((await api('POST', '/orders', { body: order(guest, 'x'), headers: { 'Idempotency-Key': 'g3' } })).body.type).toMatch(/unknown-customer$/);
    const refused = await api('PATCH', `/orders/${first.body.id}`, {
      raw: JSON.stringify({ address: addressOf('again') }),
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect([refused.status, refused.body.type]).toEqual([422, 'https://errors.orders.example/unknown-customer']);
    // Payments and cancellations still go on: they hold no personal data.
    expect((await api('POST', `/orders/${first.body.id}/cancellation`, { body: {} })).status).not.toBe(422);

    // The export made before is deleted; a new one shows the erased orders with null addresses.
    await until('the old export deleted', async () => {
      const job = await api('GET', `/jobs/${before.body.id}`);
      return job.body.resultExpiredAt ? job : undefined;
    });
    expect((await api('GET', `/jobs/${before.body.id}/result`)).status).toBe(410);
    const again = await api('POST', '/exports', { body: { format: 'ndjson' }, headers: { 'Idempotency-Key': 'e2' } });
    await until('the second export', async () => ((await api('GET', `/jobs/${again.body.id}`)).body.status === 'succeeded' ? true : undefined));
    const rows = (await (await fetch(`${service.url}/jobs/${again.body.id}/result`, { headers: { Authorization: `Bearer ${await service.token()}` } })).text())
      .trim().split('\n').map((line) => JSON.parse(line) as { id: string; address: unknown });
    expect(rows.find((r) => r.id === first.body.id)?.address).toEqual(ERASED_ADDRESS);
    expect(JSON.stringify(rows)).not.toContain(marker);

    // A rebuild yields the same nulls, verify finds the views as a fresh fold does, and the audit's rules hold.
    await rebuild(service.events, service.reads, PROJECTIONS['order-views']);
    await rebuild(service.events, service.reads, PROJECTIONS['fulfilment-queue']);
    const rebuilt = await api('GET', `/orders?customerId=${guest}`);
    expect(rebuilt.body.items.map((o: { address: unknown }) => o.address)).toEqual([ERASED_ADDRESS, ERASED_ADDRESS]);
    const ids = new Set([first.body.id, second.body.id, kept.body.id]);
    expect((await verify(service.events, service.reads, PROJECTIONS['order-views'], () => {}, { only: ids })).differences).toBe(0);
    for (const id of ids) expect(auditStream(orderStream(id), await service.events.readStream(orderStream(id)))).toEqual([]);

    await service.halt();
    expect(filesHolding(service.dataDir, marker)).toEqual([]);
    expect(service.logs.join('\n')).not.toContain(marker);
  });

  it("forgets a registered customer's name, email, phone and address, and its orders' addresses, on disk and in the log", async () => {
    const service = await startService({}, { pollMs: 50, erasureClockMarginMs: 0 });
    services.push(service);
    await receiveStock(service.events, TEST_SKUS);
    const api = client(service, await service.token({ scope: `${ALL_SCOPES} customers:read customers:write customers:erase` }));
    const marker = `CUS${randomUUID().replaceAll('-', '')}`;
    const created = await api('POST', '/customers', {
      body: { email: `${marker.toLowerCase()}@example.com`, name: `Ada ${marker}`, phone: `+49 30 ${marker.slice(3, 9).replace(/\D/g, '1')}`, defaultAddress: addressOf(marker) },
      headers: { 'Idempotency-Key': 'c1' },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const changed = await api('PATCH', `/customers/${id}`, { raw: JSON.stringify({ name: `Ada B ${marker}` }), headers: { 'Content-Type': 'application/merge-patch+json' } });
    expect(changed.status).toBe(200);
    const placed = await api('POST', '/orders', { body: order(id, marker), headers: { 'Idempotency-Key': 'o1', 'Api-Version': '2026-12-01' } });
    expect(placed.status).toBe(201);
    const exported = await api('POST', '/exports', { body: { format: 'csv' }, headers: { 'Idempotency-Key': 'e1', 'Consistency-Token': placed.headers.get('consistency-token')! } });
    await until('the export', async () => ((await api('GET', `/jobs/${exported.body.id}`)).body.status === 'succeeded' ? true : undefined));
    const holding = filesHolding(service.dataDir, marker);
    expect(holding.some((file) => file.startsWith('exports'))).toBe(true);
    expect(holding.filter((file) => file.startsWith('events.sqlite3'))).toEqual([]);
    expect((await api('GET', `/customers?email=${encodeURIComponent(`${marker.toLowerCase()}@example.com`)}`)).body.items.map((c: { id: string }) => c.id)).toEqual([id]);

    expect((await api('DELETE', `/customers/${id}`)).status).toBe(204);
    expect((await api('GET', `/customers/${id}`)).body).toMatchObject({ status: 'erased', email: null, name: null, phone: null, defaultAddress: null });
    expect((await api('GET', `/orders/${placed.body.id}`)).body).toMatchObject({ customerId: id, total: 5997, address: ERASED_ADDRESS });
    await until('the export deleted', async () => ((await api('GET', `/jobs/${exported.body.id}`)).body.resultExpiredAt ? true : undefined));

    await service.halt();
    expect(filesHolding(service.dataDir, marker)).toEqual([]);
    expect(filesHolding(service.dataDir, marker.toLowerCase())).toEqual([]);
    expect(service.logs.join('\n')).not.toContain(marker);
  });

  it("shows the customer's erasure in its order's history at its place in the log, holding no personal data, on pages of every size", async () => {
    const service = await startService();
    services.push(service);
    await receiveStock(service.events, TEST_SKUS);
    const api = client(service, await service.token());
    const marker = `HST${randomUUID().replaceAll('-', '')}`;
    const created = await api('POST', '/customers', { body: { email: `${marker.toLowerCase()}@example.com`, name: `Ada ${marker}`, phone: '+49 30 1234', defaultAddress: addressOf(marker) }, headers: { 'Idempotency-Key': 'c1' } });
    const id = created.body.id as string;
    const placed = await api('POST', '/orders', { body: order(id, marker), headers: { 'Idempotency-Key': 'o1', 'Api-Version': '2026-12-01' } });
    const patch = { raw: JSON.stringify({ address: { line2: `Flat ${marker}` } }), headers: { 'Content-Type': 'application/merge-patch+json' } };
    expect((await api('PATCH', `/orders/${placed.body.id}`, patch)).status).toBe(200);
    const before = await api('GET', `/orders/${placed.body.id}/history`);
    expect(before.body.items.map((e: { type: string }) => e.type)).toEqual(['OrderPlaced', 'OrderAddressChanged']);

    const erased = await api('DELETE', `/customers/${id}`, { headers: { 'X-Correlation-Id': 'erasure-1' } });
    expect(erased.status).toBe(204);
    // Cancelled after the erasure: the erasure stands between the order's events, where the log has it.
    expect((await api('POST', `/orders/${placed.body.id}/cancellation`, { body: { reason: 'gone' } })).status).toBe(200);

    const history = await api('GET', `/orders/${placed.body.id}/history`);
    expect(history.body.items.map((e: { type: string }) => e.type)).toEqual(['OrderPlaced', 'OrderAddressChanged', 'CustomerErased', 'OrderCancelled']);
    const [, , erasure] = history.body.items;
    expect(erasure).toEqual({
      type: 'CustomerErased', schemaVersion: 1, recordedSchemaVersion: 1, revision: 1, position: expect.any(String), recordedAt: expect.any(String),
      data: { customerId: id, erasedAt: expect.any(String) },
      metadata: { principal: 'user-1', correlationId: 'erasure-1', causationId: 'erasure-1' },
    });
    const positions = history.body.items.map((e: { position: string }) => e.position);
    expect([...positions].sort()).toEqual(positions);
    expect(history.body.items.filter((e: { data: { address?: unknown } }) => 'address' in e.data).map((e: { data: { address: unknown } }) => e.data.address)).toEqual([ERASED_ADDRESS, ERASED_ADDRESS]);
    expect(JSON.stringify(history.body)).not.toContain(marker);
    expect(JSON.stringify(history.body)).not.toContain(marker.toLowerCase());

    // Paged, the erasure comes once, in the same place, whatever the page size.
    for (const limit of [1, 2, 3, 4]) {
      const items: unknown[] = [];
      let path: string | null = `/orders/${placed.body.id}/history?limit=${limit}`;
      while (path) {
        const page = await api('GET', path);
        expect(page.body.items.length).toBeLessThanOrEqual(limit);
        items.push(...page.body.items);
        path = page.body.nextCursor ? `/orders/${placed.body.id}/history?limit=${limit}&cursor=${encodeURIComponent(page.body.nextCursor)}` : null;
      }
      expect(items, `limit ${limit}`).toEqual(history.body.items);
    }

    // An order of another customer shows no erasure.
    const other = await api('POST', '/orders', { body: order('cus_guest_kept', 'kept'), headers: { 'Idempotency-Key': 'o2' } });
    expect((await api('GET', `/orders/${other.body.id}/history`)).body.items.map((e: { type: string }) => e.type)).toEqual(['OrderPlaced']);
  });

  it('after an erasure, `projections rebuild` reproduces the same nulls and `audit verify` still passes', async () => {
    const service = await startService();
    services.push(service);
    await receiveStock(service.events, TEST_SKUS);
    const api = client(service, await service.token());
    const marker = `RBD${randomUUID().replaceAll('-', '')}`;
    const created = await api('POST', '/customers', { body: { email: `${marker.toLowerCase()}@example.com`, name: `Ada ${marker}`, phone: '+49 30 1234', defaultAddress: addressOf(marker) }, headers: { 'Idempotency-Key': 'c1' } });
    const id = created.body.id as string;
    const kept = await api('POST', '/customers', { body: { email: 'kept@example.com', name: 'Kept Customer', phone: null }, headers: { 'Idempotency-Key': 'c2' } });
    const placed = await api('POST', '/orders', { body: order(id, marker), headers: { 'Idempotency-Key': 'o1', 'Api-Version': '2026-12-01' } });
    const paid = await api('POST', `/orders/${placed.body.id}/payments`, { body: { amount: 5997, reference: 'r-1' }, headers: { 'Idempotency-Key': 'p1' } });
    expect([created.status, kept.status, placed.status, paid.status]).toEqual([201, 201, 201, 201]);
    const erased = await api('DELETE', `/customers/${id}`);
    expect(erased.status).toBe(204);
    const views = async (call: typeof api, token: string) => {
      const wait = { headers: { 'Consistency-Token': token } };
      return {
        customers: (await call('GET', '/customers?limit=100', wait)).body.items,
        orders: (await call('GET', `/orders?customerId=${id}`, wait)).body.items,
        queue: (await call('GET', '/fulfilment-queue?limit=100', wait)).body.items,
      };
    };
    const before = await views(api, erased.headers.get('consistency-token')!);
    expect(before.customers.find((c: { id: string }) => c.id === id)).toMatchObject({ status: 'erased', email: null, name: null, phone: null, defaultAddress: null });
    expect(before.orders.map((o: { address: unknown }) => o.address)).toEqual([ERASED_ADDRESS]);
    expect(before.queue.find((e: { orderId: string }) => e.orderId === placed.body.id)).toMatchObject({ total: 5997, address: ERASED_ADDRESS });
    await service.halt();

    const cli = (script: string, ...args: string[]) => runScript(script, args, { DATA_DIR: service.dataDir });
    const rebuilt = cli('bootstrap/projections-cli.ts', 'rebuild');
    expect(rebuilt.status, rebuilt.stderr).toBe(0);
    expect(rebuilt.stdout).toMatch(/customers: rebuilt generation 2 from \d+ events/);
    expect(rebuilt.stdout).toMatch(/order-views: rebuilt generation 2 from \d+ events/);
    const audit = cli('bootstrap/audit-cli.ts', 'verify');
    expect(audit.status, audit.stdout + audit.stderr).toBe(0);
    expect(audit.stdout).toContain('domain rules: 1 orders checked, 0 finding(s)');
    expect(audit.stdout).toContain('read model customers: 2 orders checked, 0 difference(s)');

    const again = await startService({ dataDir: service.dataDir, products: false });
    const after = await views(client(again, await again.token()), erased.headers.get('consistency-token')!);
    await again.halt();
    expect(after).toEqual(before);
    expect(filesHolding(service.dataDir, marker)).toEqual([]);
    expect(filesHolding(service.dataDir, marker.toLowerCase())).toEqual([]);
  }, 60_000);

  it('answers 503 and writes nothing when the key store cannot be reached', async () => {
    const down = () => Promise.reject(new StoreUnavailable('key store down'));
    const service = await startService({
      keyStore: (real) => ({ ...real, createOrGet: down, read: down, destroy: down, erasuresSince: down, close: () => real.close() }),
    });
    services.push(service);
    await receiveStock(service.events, TEST_SKUS);
    const api = client(service, await service.token());
    const head = await service.events.headPosition();
    const placed = await api('POST', '/orders', { body: order('cus_1', 'x'), headers: { 'Idempotency-Key': 'k' } });
    expect([placed.status, placed.body.type, placed.headers.get('retry-after')]).toEqual([503, 'https://errors.orders.example/unavailable', '2']);
    expect(await service.events.headPosition()).toBe(head);
  });
});
