// Exports as job resources, through real HTTP with the export worker running in the process.
import { parse } from 'csv-parse/sync';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from '../../workers/export-file.js';
import { OpenedViews } from '../../read-side/orders/opened-views.js';
import { ExportWorker } from '../../workers/export-worker.js';
import { serviceViewer } from '../../write-side/kernel/access.js';
import { OrderService } from '../../write-side/orders/service.js';
import { MAX_ACTIVE_EXPORTS } from '../../write-side/jobs/service.js';
import { client, newOrder, startService, type TestService } from '../support/http.js';
import { receiveStock, TEST_SKUS } from '../support/seed.js';
import { until } from '../support/until.js';

// For the tests that start a service of their own (and its worker) and wait on it: seconds of
// CPU, which a loaded 2-core machine stretches past the default 30 s; 2 minutes is generous.
const OWN_SERVICE_MS = 120_000;

let service: TestService;
let api: ReturnType<typeof client>;
let keys = 0;
const key = () => `export-key-${Date.now()}-${keys++}`;

beforeAll(async () => {
  service = await startService({}, { leaseMs: 2000 });
  await receiveStock(service.events, TEST_SKUS);
  api = client(service, await service.token({ sub: 'exporter' }));
});
afterAll(() => service.stop());

async function placeOrders(customer: string, count: number, payEvery = 2): Promise<{ ids: string[]; token: string }> {
  const ids: string[] = [];
  let token = '';
  for (let i = 0; i < count; i++) {
    const placed = await api('POST', '/orders', { body: newOrder(customer), headers: { 'Idempotency-Key': key() } });
    ids.push(placed.body.id);
    token = placed.headers.get('consistency-token')!;
    if (i % payEvery === 0) {
      const paid = await api('POST', `/orders/${placed.body.id}/payments`, { body: { amount: placed.body.total, reference: 'psp' }, headers: { 'Idempotency-Key': key() } });
      token = paid.headers.get('consistency-token')!;
    }
  }
  // Resolves as the views reach the token; 60 s only bounds a projection that never does (the test's timeout comes first).
  expect(await service.projector.waitFor(token as never, 60_000)).toBe(true);
  return { ids, token };
}

/** Polls the job until `reached` holds for its status, with no deadline but the test's: the worker runs in the background. */
async function waitForJob(id: string, as = api, reached: (status: string) => boolean = (status) => status === 'succeeded' || status === 'failed') {
  return until(async () => {
    const job = await as('GET', `/jobs/${id}`);
    expect(job.status).toBe(200);
    if (!reached(job.body.status)) expect(job.headers.get('retry-after')).toBe('1');
    return job;
  }, (job) => reached(job.body.status));
}

describe('order exports', () => {
  it('runs the whole lifecycle: 202, poll, succeeded, download; the rows are the filtered orders', async () => {
    const customer = `cus_export_${Date.now()}`;
    await placeOrders(customer, 9);
    const started = await api('POST', '/exports', { body: { format: 'ndjson', filter: { status: 'paid' } }, headers: { 'Idempotency-Key': key() } });
    expect(started.status).toBe(202);
    expect(started.headers.get('location')).toBe(`/jobs/${started.body.id}`);
    expect(started.headers.get('retry-after')).toBe('1');
    expect(started.body).toMatchObject({ type: 'order-export', status: 'queued', progress: { processed: 0, total: 0 }, result: null, error: null, startedAt: null, finishedAt: null });

    const done = await waitForJob(started.body.id);
    expect(done.body.status).toBe('succeeded');
    expect(done.headers.get('retry-after')).toBeNull();
    const paid = [];
    for (let path = '/orders?status=paid&sort=createdAt&limit=100'; ; ) {
      const page = await api('GET', path);
      paid.push(...page.body.items);
      if (!page.body.nextCursor) break;
      path = `/orders?status=paid&sort=createdAt&limit=100&cursor=${encodeURIComponent(page.body.nextCursor)}`;
    }
    expect(done.body.result).toEqual({ href: `/jobs/${started.body.id}/result`, contentType: 'application/x-ndjson', count: paid.length, bytes: expect.any(Number) });
    expect(done.body.progress).toEqual({ processed: paid.length, total: paid.length });
    expect(done.body.startedAt).not.toBeNull();
    expect(done.body.resultExpiresAt).not.toBeNull();

    const file = await fetch(`${service.url}${done.body.result.href}`, { headers: { Authorization: `Bearer ${await service.token({ sub: 'exporter' })}` } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/x-ndjson');
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="orders-${started.body.id}.ndjson"`);
    const text = await file.text();
    expect(Number(file.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(Buffer.byteLength(text)).toBe(done.body.result.bytes);
    const rows = text.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(rows).toEqual(paid);
  });

  it('starts once per key: a repeat returns the same job, another body with the key is 422', async () => {
    const k = key();
    const first = await api('POST', '/exports', { body: { format: 'csv' }, headers: { 'Idempotency-Key': k } });
    const again = await api('POST', '/exports', { body: { format: 'csv' }, headers: { 'Idempotency-Key': k } });
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await api('POST', '/exports', { body: { format: 'ndjson' }, headers: { 'Idempotency-Key': k } });
    expect(other.status).toBe(422);
    await waitForJob(first.body.id);
  });

  it('validates the request', async () => {
    const bad = async (body: unknown, headers: Record<string, string> = { 'Idempotency-Key': key() }) => (await api('POST', '/exports', { body, headers })).body;
    expect(await bad({ format: 'xml' })).toMatchObject({ status: 400, errors: [{ pointer: '/format' }] });
    expect(await bad({ format: 'csv', filter: { createdFrom: 'yesterday' } })).toMatchObject({ status: 400, errors: [{ pointer: '/filter/createdFrom' }] });
    expect(await bad({ format: 'csv', filter: { createdFrom: '2026-02-01T00:00:00Z', createdTo: '2026-01-01T00:00:00Z' } })).toMatchObject({ status: 400, errors: [{ pointer: '/filter/createdTo' }] });
    expect(await bad({ format: 'csv' }, {})).toMatchObject({ status: 400, type: 'https://errors.orders.example/idempotency-key-missing' });
  });

  it('writes CSV per RFC 4180, with commas, quotes and line breaks in addresses', async () => {
    const orders = new OrderService(service.events);
    const customer = `cus_csv_${Date.now()}`;
    const tricky = { name: 'Lovelace, Ada "Countess"', line1: '1 Main St\r\nBack building', line2: 'a,b', city: 'Berlin', postalCode: '10115', region: '"Mitte"', country: 'DE' };
    const placed = await orders.place(serviceViewer('seed'), { customerId: customer, currency: 'EUR', lines: [{ sku: 'A', quantity: 3 }], address: tricky }, { correlationId: 'c', idempotency: { key: key(), fingerprint: 'f' } });
    expect(await service.projector.waitFor(placed.position!, 60_000)).toBe(true); // resolves as the views reach it; 60 s only bounds a projection that never does
    const customerToken = await service.token({ sub: 'csv-customer', customerId: customer });
    const asCustomer = client(service, customerToken);
    const started = await asCustomer('POST', '/exports', { body: { format: 'csv' }, headers: { 'Idempotency-Key': key() } });
    const done = await waitForJob(started.body.id, asCustomer);
    expect(done.body.status).toBe('succeeded');
    const file = await fetch(`${service.url}${done.body.result.href}`, { headers: { Authorization: `Bearer ${customerToken}` } });
    expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    const text = await file.text();
    expect(text.split('\r\n')[0]).toBe(CSV_COLUMNS.join(','));
    const records = parse(text, { columns: true }) as Array<Record<string, string>>;
    // A customer's export holds that customer's orders only.
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ id: (placed.state as { id: string }).id, customerId: customer, name: tricky.name, line1: tricky.line1, line2: 'a,b', region: '"Mitte"', total: '1500' });
    expect(JSON.parse(records[0]!.lines!)).toEqual([{ sku: 'A', name: 'Product A', quantity: 3, unitPrice: 500, lineTotal: 1500, shipped: 0, cancelled: 0, returned: 0 }]);
  });

  it("writes a CSV cell that a spreadsheet would run (=, +, -, @, tab, carriage return first) with a leading '", async () => {
    const orders = new OrderService(service.events);
    const customer = `cus_formula_${Date.now()}`;
    const hostile = { name: '=HYPERLINK("http://evil.example","x")', line1: '+1+1', line2: '-2+3', city: '@SUM(A1)', postalCode: '\t10115', region: '\rMitte', country: 'DE' };
    const placed = await orders.place(serviceViewer('seed'), { customerId: customer, currency: 'EUR', lines: [{ sku: 'A', quantity: 1 }], address: hostile }, { correlationId: 'c', idempotency: { key: key(), fingerprint: 'f' } });
    expect(await service.projector.waitFor(placed.position!, 60_000)).toBe(true); // resolves as the views reach it; 60 s only bounds a projection that never does
    const customerToken = await service.token({ sub: 'formula-customer', customerId: customer });
    const asCustomer = client(service, customerToken);
    const started = await asCustomer('POST', '/exports', { body: { format: 'csv' }, headers: { 'Idempotency-Key': key() } });
    const done = await waitForJob(started.body.id, asCustomer);
    expect(done.body.status).toBe('succeeded');
    const text = await fetch(`${service.url}${done.body.result.href}`, { headers: { Authorization: `Bearer ${customerToken}` } }).then((r) => r.text());
    const [record] = parse(text, { columns: true }) as Array<Record<string, string>>;
    expect(record).toMatchObject({
      name: `'${hostile.name}`, line1: "'+1+1", line2: "'-2+3", city: "'@SUM(A1)", postalCode: "'\t10115", region: "'\rMitte",
      // Harmless cells stay as they are.
      customerId: customer, country: 'DE', currency: 'EUR', total: '500', status: 'pending',
    });
  });

  it('shows a job only to the principal that started it, or an auditor; others get 404', async () => {
    const started = await api('POST', '/exports', { body: { format: 'ndjson' }, headers: { 'Idempotency-Key': key() } });
    await waitForJob(started.body.id);
    const stranger = client(service, await service.token({ sub: 'someone-else', scope: 'exports:write' }));
    const unknown = await stranger('GET', '/jobs/00000000-0000-4000-8000-000000000000');
    const theirs = await stranger('GET', `/jobs/${started.body.id}`);
    expect(theirs.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect((await stranger('GET', `/jobs/${started.body.id}/result`)).status).toBe(404);
    const auditor = client(service, await service.token({ sub: 'auditor', scope: 'audit:read' }));
    expect((await auditor('GET', `/jobs/${started.body.id}`)).body.id).toBe(started.body.id);
    expect((await auditor('GET', `/jobs/${started.body.id}/result`)).status).toBe(200);
    const reader = client(service, await service.token({ sub: 'exporter', scope: 'orders:read' }));
    expect((await reader('GET', `/jobs/${started.body.id}`)).status).toBe(403);
    expect((await reader('POST', '/exports', { body: { format: 'csv' }, headers: { 'Idempotency-Key': key() } })).status).toBe(403);
    expect((await client(service, null)('GET', `/jobs/${started.body.id}`)).status).toBe(401);
  });

  it('answers 409 for the result of a job that has not succeeded', async () => {
    const slow = await startService({}, { leaseMs: 2000, readModels: (real) => Object.create(real, { count: { value: () => new Promise(() => {}) } }) });
    await receiveStock(slow.events, TEST_SKUS);
    try {
      const as = client(slow, await slow.token());
      const started = await as('POST', '/exports', { body: { format: 'csv' }, headers: { 'Idempotency-Key': 'k' } });
      const running = await waitForJob(started.body.id, as, (status) => status === 'running');
      expect(running.headers.get('retry-after')).toBe('1');
      const early = await as('GET', `/jobs/${started.body.id}/result`);
      expect(early.status).toBe(409);
      expect(early.body).toMatchObject({ type: 'https://errors.orders.example/state-conflict', currentStatus: 'running' });
    } finally {
      await slow.stop();
    }
  }, OWN_SERVICE_MS);

  it('records a failing export as failed, with a problem, never stuck in running', async () => {
    const broken = await startService({}, { readModels: (real) => Object.create(real, { listOrderJson: { value: async () => { throw new Error('disk on fire at /var/lib/x'); } } }) });
    await receiveStock(broken.events, TEST_SKUS);
    try {
      const as = client(broken, await broken.token());
      const started = await as('POST', '/exports', { body: { format: 'ndjson' }, headers: { 'Idempotency-Key': 'k' } });
      const done = await waitForJob(started.body.id, as);
      expect(done.body).toMatchObject({ status: 'failed', result: null, error: { type: 'https://errors.orders.example/internal', title: expect.any(String), status: 500, detail: expect.any(String) } });
      expect(JSON.stringify(done.body.error)).not.toContain('disk on fire');
      expect(done.body.finishedAt).not.toBeNull();
      const result = await as('GET', `/jobs/${started.body.id}/result`);
      expect(result.body).toMatchObject({ status: 409, currentStatus: 'failed' });
      expect(readdirSync(broken.exportsDir)).toEqual([]);
    } finally {
      await broken.stop();
    }
  }, OWN_SERVICE_MS);

  it('removes results after the retention, and the job says so', async () => {
    // The result must still be there when the test first sees the job succeeded, however slow the
    // machine, so it is kept 5 s (the test then waits those 5 s for it to go), not a few hundred ms.
    const brief = await startService({}, { retentionMs: 5_000 });
    await receiveStock(brief.events, TEST_SKUS);
    try {
      const as = client(brief, await brief.token());
      await as('POST', '/orders', { body: newOrder(), headers: { 'Idempotency-Key': 'o' } });
      const started = await as('POST', '/exports', { body: { format: 'ndjson' }, headers: { 'Idempotency-Key': 'k' } });
      const done = await waitForJob(started.body.id, as);
      expect(done.body.result).not.toBeNull();
      expect(readdirSync(brief.exportsDir)).toHaveLength(1);
      const expired = await until(() => as('GET', `/jobs/${started.body.id}`), (job) => job.body.result === null, 50);
      expect(expired.body).toMatchObject({ status: 'succeeded', result: null, resultExpiredAt: expect.any(String), resultExpiresAt: null });
      expect(readdirSync(brief.exportsDir)).toEqual([]);
      const gone = await as('GET', `/jobs/${started.body.id}/result`);
      expect(gone.status).toBe(410);
      expect(gone.body.type).toBe('https://errors.orders.example/result-expired');
    } finally {
      await brief.stop();
    }
  }, OWN_SERVICE_MS);

  it('finishes a job whose worker died mid-export, once its lease lapses', async () => {
    // The first worker hangs inside the export, then dies without a word (as a killed process would).
    const hanging = await startService({}, { leaseMs: 400, readModels: (real) => Object.create(real, { listOrderJson: { value: () => new Promise(() => {}) } }) });
    await receiveStock(hanging.events, TEST_SKUS);
    try {
      const as = client(hanging, await hanging.token());
      await as('POST', '/orders', { body: newOrder(), headers: { 'Idempotency-Key': 'o' } });
      const started = await as('POST', '/exports', { body: { format: 'ndjson' }, headers: { 'Idempotency-Key': 'k' } });
      const running = await waitForJob(started.body.id, as, (status) => status === 'running');
      const dead = hanging.worker!;
      void dead.stop(0); // stops following and claiming; its export stays stuck, reporting nothing

      const successor = new ExportWorker(hanging.jobs, hanging.reads, { views: new OpenedViews(hanging.personalData), erasures: hanging.keys }, { exportsDir: hanging.exportsDir, leaseMs: 400, pollMs: 50 });
      successor.start();
      try {
        const done = await waitForJob(started.body.id, as);
        expect(done.body.status).toBe('succeeded');
        expect(done.body.result.count).toBe(1);
        expect(Date.parse(done.body.startedAt)).toBeGreaterThan(Date.parse(running.body.startedAt));
        const events = (await hanging.events.readStream(`job-${started.body.id}`)).map((e) => e.type);
        expect(events.filter((t) => t === 'JobStarted')).toHaveLength(2);
        expect(existsSync(join(hanging.exportsDir, readdirSync(hanging.exportsDir)[0]!))).toBe(true);
        // The dead run's partial file (addresses in clear) went with its lease: only the result is left.
        expect(readdirSync(hanging.exportsDir)).toEqual([`${started.body.id}-2.ndjson`]);
      } finally {
        await successor.stop();
      }
    } finally {
      await hanging.stop().catch(() => {});
    }
  }, OWN_SERVICE_MS);

  it('removes the whole file of a dead run that wrote it but never recorded it, once another worker takes the job over', async () => {
    const plain = await startService();
    await receiveStock(plain.events, TEST_SKUS);
    try {
      const as = client(plain, await plain.token());
      await as('POST', '/orders', { body: newOrder(), headers: { 'Idempotency-Key': 'o' } });
      const started = await as('POST', '/exports', { body: { format: 'csv' }, headers: { 'Idempotency-Key': 'k' } });
      const personal = { views: new OpenedViews(plain.personalData), erasures: plain.keys };
      // The first worker writes its whole file, then dies before its success is recorded (as a process killed between the two would).
      const dying = new ExportWorker(Object.create(plain.jobs, { complete: { value: () => new Promise(() => {}) } }), plain.reads, personal, { exportsDir: plain.exportsDir, leaseMs: 400, pollMs: 50 });
      dying.start();
      await until(() => readdirSync(plain.exportsDir).includes(`${started.body.id}-1.csv`));
      expect(readdirSync(plain.exportsDir)).toEqual([`${started.body.id}-1.csv`]);
      void dying.stop(0);

      const successor = new ExportWorker(plain.jobs, plain.reads, personal, { exportsDir: plain.exportsDir, leaseMs: 400, pollMs: 50 });
      successor.start();
      try {
        const done = await waitForJob(started.body.id, as);
        expect(done.body.status).toBe('succeeded');
        expect((await plain.events.readStream(`job-${started.body.id}`)).filter((e) => e.type === 'JobStarted')).toHaveLength(2);
        // Its addresses in clear, referenced by no job: no erasure and no retention would ever have found it.
        expect(readdirSync(plain.exportsDir)).toEqual([`${started.body.id}-2.csv`]);
      } finally {
        await successor.stop();
      }
    } finally {
      await plain.stop().catch(() => {});
    }
  }, OWN_SERVICE_MS);
});

/**
 * Erases the customer while another export worker runs beside the service's (one that cannot
 * take a job over for a minute); the files left in the exports directory once it is empty
 * (waited for with no deadline but the test's).
 */
async function eraseBesideAnotherWorker(running: TestService, personal: ConstructorParameters<typeof ExportWorker>[2], customerId: string): Promise<string[]> {
  const other = new ExportWorker(running.jobs, running.reads, personal, { exportsDir: running.exportsDir, leaseMs: 60_000, pollMs: 50 });
  other.start();
  try {
    await running.erasure.eraseCustomerData(serviceViewer('dpo'), customerId);
    return await until(() => readdirSync(running.exportsDir), (files) => files.length === 0, 50);
  } finally {
    await other.stop();
  }
}

describe('an erasure while an export runs', () => {
  it("removes the partial file of a run that began before it, its worker dead and its lease not yet lapsed", async () => {
    // The first worker hangs inside the export with its partial file open, then dies (as a killed process would).
    const hanging = await startService({}, { leaseMs: 60_000, readModels: (real) => Object.create(real, { listOrderJson: { value: () => new Promise(() => {}) } }) });
    await receiveStock(hanging.events, TEST_SKUS);
    try {
      const as = client(hanging, await hanging.token());
      const guest = `cus_partial_${key()}`;
      await as('POST', '/orders', { body: newOrder(guest), headers: { 'Idempotency-Key': 'o' } });
      const started = await as('POST', '/exports', { body: { format: 'csv' }, headers: { 'Idempotency-Key': 'k' } });
      await waitForJob(started.body.id, as, (status) => status === 'running');
      // The job reads as running once its start is projected, which (in the projections' thread) may be before its worker opened the file.
      await until(() => readdirSync(hanging.exportsDir).length > 0, Boolean, 50);
      void hanging.worker!.stop(0);
      expect(readdirSync(hanging.exportsDir)).toEqual([`${started.body.id}-1.csv.partial`]);

      // Another worker, which cannot take the job over for a minute, learns of the erasure.
      expect(await eraseBesideAnotherWorker(hanging, { views: new OpenedViews(hanging.personalData), erasures: hanging.keys }, guest)).toEqual([]);
    } finally {
      await hanging.stop().catch(() => {});
    }
  }, OWN_SERVICE_MS);
});

describe('an erasure after a dead run wrote its whole file', () => {
  it('removes that file, never recorded, while the dead run still holds its lease', async () => {
    const plain = await startService();
    await receiveStock(plain.events, TEST_SKUS);
    try {
      const as = client(plain, await plain.token());
      const guest = `cus_whole_${key()}`;
      await as('POST', '/orders', { body: newOrder(guest), headers: { 'Idempotency-Key': 'o' } });
      const started = await as('POST', '/exports', { body: { format: 'csv' }, headers: { 'Idempotency-Key': 'k' } });
      const personal = { views: new OpenedViews(plain.personalData), erasures: plain.keys };
      // The first worker writes its whole file, then dies before its success is recorded; its lease holds for a minute.
      const dying = new ExportWorker(Object.create(plain.jobs, { complete: { value: () => new Promise(() => {}) } }), plain.reads, personal, { exportsDir: plain.exportsDir, leaseMs: 60_000, pollMs: 50 });
      dying.start();
      await until(() => readdirSync(plain.exportsDir).includes(`${started.body.id}-1.csv`));
      expect(readdirSync(plain.exportsDir)).toEqual([`${started.body.id}-1.csv`]);
      void dying.stop(0);

      expect(await eraseBesideAnotherWorker(plain, personal, guest)).toEqual([]);
    } finally {
      await plain.stop().catch(() => {});
    }
  }, OWN_SERVICE_MS);
});

describe('the cap on queued-or-running exports per principal', () => {
  // No export worker: jobs stay queued until the test ends them.
  let idle: TestService;
  beforeAll(async () => {
    idle = await startService();
    await receiveStock(idle.events, TEST_SKUS);
  });
  afterAll(() => idle.stop());

  const start = (as: ReturnType<typeof client>, k = key(), format = 'csv') => as('POST', '/exports', { body: { format }, headers: { 'Idempotency-Key': k } });

  it(`accepts ${MAX_ACTIVE_EXPORTS}; the next is 429 rate-limited with Retry-After and starts nothing, while other principals go on`, async () => {
    const as = client(idle, await idle.token({ sub: 'cap-1', scope: 'exports:write' }));
    const accepted = [];
    for (let i = 0; i < MAX_ACTIVE_EXPORTS; i++) accepted.push(await start(as));
    expect(accepted.map((r) => r.status)).toEqual(Array(MAX_ACTIVE_EXPORTS).fill(202));
    const head = await idle.events.headPosition();
    const refused = await start(as);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ type: 'https://errors.orders.example/rate-limited', status: 429, limit: MAX_ACTIVE_EXPORTS });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await idle.events.headPosition()).toEqual(head);
    // Another principal, and the same sub under a customer (another principal too), are not held back.
    expect((await start(client(idle, await idle.token({ sub: 'cap-2', scope: 'exports:write' }))))).toMatchObject({ status: 202 });
    expect((await start(client(idle, await idle.token({ sub: 'cap-1', customerId: 'cus_cap', scope: 'exports:write' }))))).toMatchObject({ status: 202 });
  });

  it('answers a retried request of an accepted export with its job even at the cap', async () => {
    const as = client(idle, await idle.token({ sub: 'cap-3', scope: 'exports:write' }));
    const keys = Array.from({ length: MAX_ACTIVE_EXPORTS }, () => key());
    const first = await start(as, keys[0]);
    for (const k of keys.slice(1)) expect((await start(as, k)).status).toBe(202);
    const again = await start(as, keys[0]);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
  });

  it(`lets exactly ${MAX_ACTIVE_EXPORTS} of 12 concurrent requests of one principal through`, async () => {
    const as = client(idle, await idle.token({ sub: 'cap-race', scope: 'exports:write' }));
    const responses = await Promise.all(Array.from({ length: 12 }, () => start(as)));
    expect(responses.filter((r) => r.status === 202)).toHaveLength(MAX_ACTIVE_EXPORTS);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(12 - MAX_ACTIVE_EXPORTS);
  });

  it('frees a slot when one of the exports ends', async () => {
    const as = client(idle, await idle.token({ sub: 'cap-4', scope: 'exports:write' }));
    const accepted = [];
    for (let i = 0; i < MAX_ACTIVE_EXPORTS; i++) accepted.push(await start(as));
    expect((await start(as)).status).toBe(429);
    const ended = accepted[0]!.body.id as string;
    await idle.jobs.start(ended, 'test-worker', 60_000);
    expect((await start(as)).status).toBe(429); // running still counts
    await idle.jobs.fail(ended, 'test-worker', { code: 'export-failed', detail: 'ended by the test' });
    expect((await start(as)).status).toBe(202);
    expect((await start(as)).status).toBe(429);
  });
});

describe('jobs belong to the principal that started them: sub and customer together', () => {
  it("hides a staff export from a customer's token whatever its scopes, audit:read included", async () => {
    await placeOrders(`cus_hidden_${Date.now()}`, 1);
    const started = await api('POST', '/exports', { body: { format: 'ndjson' }, headers: { 'Idempotency-Key': key() } });
    await waitForJob(started.body.id);
    const customer = client(service, await service.token({ sub: 'curious', customerId: 'cus_curious', scope: 'orders:read exports:write audit:read' }));
    const unknown = await customer('GET', '/jobs/00000000-0000-4000-8000-000000000000');
    for (const path of [`/jobs/${started.body.id}`, `/jobs/${started.body.id}/result`]) {
      const response = await customer('GET', path);
      expect(response.status).toBe(404);
      expect(response.body.type).toBe(unknown.body.type);
    }
    // A staff auditor reads it.
    const auditor = client(service, await service.token({ sub: 'auditor-2', scope: 'audit:read' }));
    expect((await auditor('GET', `/jobs/${started.body.id}/result`)).status).toBe(200);
  });

  it('hides a job from the same sub under another customer, and a customer job from the bare sub', async () => {
    const asCustomer = client(service, await service.token({ sub: 'shared-sub', customerId: 'cus_one', scope: 'exports:write' }));
    const started = await asCustomer('POST', '/exports', { body: { format: 'csv' }, headers: { 'Idempotency-Key': key() } });
    await waitForJob(started.body.id, asCustomer);
    const otherCustomer = client(service, await service.token({ sub: 'shared-sub', customerId: 'cus_two', scope: 'exports:write' }));
    const bare = client(service, await service.token({ sub: 'shared-sub', scope: 'exports:write' }));
    expect((await otherCustomer('GET', `/jobs/${started.body.id}`)).status).toBe(404);
    expect((await bare('GET', `/jobs/${started.body.id}`)).status).toBe(404);
    expect((await asCustomer('GET', `/jobs/${started.body.id}/result`)).status).toBe(200);
  });
});
