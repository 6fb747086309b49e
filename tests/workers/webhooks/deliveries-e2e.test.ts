// Webhooks end to end: the service started as a process (role all, WEBHOOK_ALLOWED_HOSTS naming
// 127.0.0.1), a subscription made over its API, and a receiver on the loopback address. An order
// placed and paid reaches the receiver as order.placed then order.paid, each verified with
// standardwebhooks and with svix (two libraries not written here), webhook-id the message's id;
// the delivery log then shows both succeeded. A receiver that answers 500 leaves its delivery
// pending with a next attempt; once it answers again, the retry route (202) or the schedule's next
// attempt (5 s on) delivers it (the worker's own tests show the retry request taken at once).
// A product with a lowStockThreshold sends stock.low once, for the placement that takes its
// available below it, and nothing for the one before that keeps it at or above.
// A replay (POST …/replays, a job) sends a range of the log again to a subscription made after it,
// each message with its original webhook-id and signed with the new subscription's secret.
// Loopback traffic only.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signDevToken } from '../../../api/auth.js';
import { defineProductsIn } from '../../support/catalogue.js';
import { tempDir } from '../../support/event-stores.js';
import { receiveStockOverHttp } from '../../support/http.js';
import { startServiceProcess, type ServiceProcess } from '../../support/service-process.js';
import { until } from '../../support/until.js';

// A process of its own (tsx), a receiver, and deliveries the worker makes in the background: a
// loaded 2-core machine stretches this far past the default, so 4 minutes, which is generous.
const E2E_TEST_MS = 240_000;
const SECRET = `webhooks-e2e-${randomUUID()}`;

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A receiver on 127.0.0.1 that keeps what it is sent and answers `status`. */
async function receiver(status: () => number): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(status()).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received };
}

let dir: ReturnType<typeof tempDir>;
let service: ServiceProcess;
let base = '';
let admin: Record<string, string>;
let shop: Record<string, string>;
let catalogue: Record<string, string>;

beforeAll(async () => {
  dir = tempDir('webhooks-e2e-');
  await defineProductsIn(dir.path);
  service = startServiceProcess({ DATA_DIR: dir.path, AUTH_JWT_SECRET: SECRET, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000' });
  base = `http://127.0.0.1:${await service.port}`;
  await receiveStockOverHttp(base, SECRET, ['A']);
  admin = { Authorization: `Bearer ${await signDevToken(SECRET, { sub: 'hooks-admin', scope: 'webhooks:admin' })}`, 'Content-Type': 'application/json' };
  shop = { Authorization: `Bearer ${await signDevToken(SECRET, { sub: 'shop', scope: 'orders:read orders:write payments:write' })}`, 'Content-Type': 'application/json' };
  catalogue = { Authorization: `Bearer ${await signDevToken(SECRET, { sub: 'catalogue-admin', scope: 'catalogue:write' })}`, 'Content-Type': 'application/json', 'Api-Version': '2027-01-01' };
}, E2E_TEST_MS);

afterAll(async () => {
  expect(await service?.stop('SIGTERM')).toBe(0);
  dir?.remove();
});

async function subscribe(url: string, events: readonly string[]): Promise<{ id: string; secret: string }> {
  const response = await fetch(`${base}/webhook-subscriptions`, { method: 'POST', headers: { ...admin, 'Idempotency-Key': randomUUID() }, body: JSON.stringify({ url, events }) });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; secret: string };
}

async function place(sku = 'A', quantity = 1): Promise<{ id: string; total: number }> {
  const order = { customerId: `cus_${randomUUID().slice(0, 8)}`, currency: 'EUR', lines: [{ sku, quantity }], address: { name: 'Ada', line1: '1 Main St', city: 'Berlin', postalCode: '10115', country: 'DE' } };
  const placed = await fetch(`${base}/orders`, { method: 'POST', headers: { ...shop, 'Idempotency-Key': randomUUID() }, body: JSON.stringify(order) });
  expect(placed.status).toBe(201);
  return (await placed.json()) as { id: string; total: number };
}

async function placeAndPay(): Promise<string> {
  const { id, total } = await place();
  const paid = await fetch(`${base}/orders/${id}/payments`, { method: 'POST', headers: { ...shop, 'Idempotency-Key': randomUUID() }, body: JSON.stringify({ amount: total, reference: 'psp' }) });
  expect(paid.status).toBe(201);
  return id;
}

async function deliveries(subscriptionId: string): Promise<Array<{ id: string; type: string; status: string; attempts: Array<{ statusCode?: number }>; nextAttemptAt: string | null }>> {
  const response = await fetch(`${base}/webhook-subscriptions/${subscriptionId}/deliveries?limit=50`, { headers: admin });
  expect(response.status).toBe(200);
  return ((await response.json()) as { items: never[] }).items;
}

describe('webhook deliveries, end to end', () => {
  it('delivers an order placed and paid, in order, signed, and records both deliveries as succeeded', async () => {
    const { server, url, received } = await receiver(() => 204);
    try {
      const subscription = await subscribe(url, ['order.placed', 'order.paid']);
      const orderId = await placeAndPay();
      const ofOrder = () => received.map((r) => JSON.parse(r.body) as { id: string; type: string; data: { id: string; status: string } }).filter((m) => m.data.id === orderId);
      await until(ofOrder, (messages) => messages.length >= 2);
      const messages = ofOrder();
      expect(messages.map((m) => [m.type, m.data.status])).toEqual([['order.placed', 'pending'], ['order.paid', 'paid']]);
      for (const message of received.filter((r) => (JSON.parse(r.body) as { data: { id: string } }).data.id === orderId)) {
        const headers = { 'webhook-id': String(message.headers['webhook-id']), 'webhook-timestamp': String(message.headers['webhook-timestamp']), 'webhook-signature': String(message.headers['webhook-signature']) };
        expect(() => new StandardWebhook(subscription.secret).verify(message.body, headers)).not.toThrow();
        expect(() => new SvixWebhook(subscription.secret).verify(message.body, headers)).not.toThrow();
        expect(headers['webhook-id']).toBe((JSON.parse(message.body) as { id: string }).id);
        expect(headers['webhook-id']).toMatch(/^evt_/);
      }
      const log = await until(() => deliveries(subscription.id), (items) => items.filter((d) => d.status === 'succeeded').length >= 2);
      expect(log.map((d) => [d.type, d.status]).sort()).toEqual([['order.paid', 'succeeded'], ['order.placed', 'succeeded']]);
    } finally {
      server.close();
    }
  }, E2E_TEST_MS);

  it('keeps a failed attempt pending with a next attempt, and delivers it once the receiver answers again (retry route 202)', async () => {
    let answer = 500;
    const { server, url, received } = await receiver(() => answer);
    try {
      const subscription = await subscribe(url, ['order.paid']);
      await placeAndPay();
      const [failing] = await until(() => deliveries(subscription.id), (items) => items.length === 1 && items[0]!.attempts.length >= 1);
      expect(failing).toMatchObject({ type: 'order.paid', status: 'pending', attempts: [{ statusCode: 500 }] });
      expect(failing!.nextAttemptAt).not.toBeNull();
      answer = 204;
      const before = received.length;
      const retry = await fetch(`${base}/webhook-subscriptions/${subscription.id}/deliveries/${failing!.id}/retry`, { method: 'POST', headers: admin });
      expect(retry.status).toBe(202);
      const [done] = await until(() => deliveries(subscription.id), (items) => items[0]?.status === 'succeeded');
      expect(done!.attempts.at(-1)).toMatchObject({ statusCode: 204 });
      expect(received.length).toBeGreaterThan(before);
    } finally {
      server.close();
    }
  }, E2E_TEST_MS);

  it('passes an erasure on to the deliveries\' thread at once: a retry sent right after it carries none of the erased address', async () => {
    // The service runs role all, so its deliveries are made in a thread of their own (WEBHOOK_THREAD),
    // whose keys are cached apart from the requests' thread: told nothing, it would learn of the
    // erasure only at its next check of the key store, up to KEY_CACHE_TTL_MS (4 s) on.
    let answer = 500;
    const { server, url, received } = await receiver(() => answer);
    try {
      const subscription = await subscribe(url, ['order.placed']);
      const { id: orderId } = await place();
      const [failing] = await until(() => deliveries(subscription.id), (items) => items.length === 1 && items[0]!.attempts.length >= 1);
      const first = received.find((r) => (JSON.parse(r.body) as { data: { id: string } }).data.id === orderId)!;
      expect(first.body).toContain('1 Main St');
      const customerId = (JSON.parse(first.body) as { data: { customerId: string } }).data.customerId;
      const dpo = { Authorization: `Bearer ${await signDevToken(SECRET, { sub: 'dpo', scope: 'customers:erase' })}` };
      expect((await fetch(`${base}/customers/${customerId}`, { method: 'DELETE', headers: dpo })).status).toBe(204);
      answer = 204;
      expect((await fetch(`${base}/webhook-subscriptions/${subscription.id}/deliveries/${failing!.id}/retry`, { method: 'POST', headers: admin })).status).toBe(202);
      await until(() => deliveries(subscription.id), (items) => items[0]?.status === 'succeeded');
      const last = received.filter((r) => (JSON.parse(r.body) as { data: { id: string } }).data.id === orderId).at(-1)!;
      expect(last.headers['webhook-id']).toBe(first.headers['webhook-id']);
      expect(last.body).not.toContain('1 Main St');
      expect(last.body).not.toContain('Ada');
    } finally {
      server.close();
    }
  }, E2E_TEST_MS);

  it("sends stock.low once, signed, for the placement that takes a SKU's available below its threshold, and none for the one that keeps it above", async () => {
    const { server, url, received } = await receiver(() => 204);
    try {
      const sku = `LOW-${randomUUID().slice(0, 8)}`;
      const defined = await fetch(`${base}/products/${sku}`, { method: 'PUT', headers: catalogue, body: JSON.stringify({ name: 'Low mug', prices: { EUR: 500 }, status: 'active', lowStockThreshold: 5 }) });
      expect(defined.status).toBe(201);
      await receiveStockOverHttp(base, SECRET, [sku], 10);
      // It begins at its creation's place in the log, however late the worker takes it up.
      const subscription = await subscribe(url, ['stock.low']);
      await place(sku, 5); // 10 → 5: at the threshold, not below it
      await place(sku, 2); // 5 → 3: below it
      const ofSku = () => received.map((r) => ({ ...r, message: JSON.parse(r.body) as { id: string; type: string; data: { sku: string; available: number } } })).filter((r) => r.message.data.sku === sku);
      const [low] = await until(ofSku, (messages) => messages.length >= 1);
      expect(low!.message).toMatchObject({ type: 'stock.low', data: { sku, onHand: 10, reserved: 7, available: 3, revision: expect.any(Number) } });
      const headers = { 'webhook-id': String(low!.headers['webhook-id']), 'webhook-timestamp': String(low!.headers['webhook-timestamp']), 'webhook-signature': String(low!.headers['webhook-signature']) };
      expect(() => new StandardWebhook(subscription.secret).verify(low!.body, headers)).not.toThrow();
      expect(headers['webhook-id']).toBe(low!.message.id);
      // Messages of one resource go in log order: a stock.low of the first placement would have come first.
      const log = await until(() => deliveries(subscription.id), (items) => items.some((d) => d.status === 'succeeded'));
      expect(log.map((d) => [d.type, d.status])).toEqual([['stock.low', 'succeeded']]);
      expect(ofSku()).toHaveLength(1);
    } finally {
      server.close();
    }
  }, E2E_TEST_MS);

  it('replays a range of the log as a job: the events again, with their original webhook-ids, as deliveries of the job, and the job succeeds', async () => {
    const { server, url, received } = await receiver(() => 204);
    try {
      // Two orders placed and paid before the subscription exists: the live deliveries do not send them.
      const from = new Date().toISOString();
      const orders = [await placeAndPay(), await placeAndPay()];
      const subscription = await subscribe(url, ['order.placed', 'order.paid']);
      const asked = await fetch(`${base}/webhook-subscriptions/${subscription.id}/replays`, {
        method: 'POST', headers: { ...admin, 'Idempotency-Key': randomUUID() }, body: JSON.stringify({ from }),
      });
      expect(asked.status).toBe(202);
      const job = (await asked.json()) as { id: string; type: string; status: string; to: string };
      expect(asked.headers.get('location')).toBe(`/jobs/${job.id}`);
      expect(job).toMatchObject({ type: 'webhook-replay', status: 'queued', from });
      const followed = await until(
        async () => (await (await fetch(`${base}/jobs/${job.id}`, { headers: admin })).json()) as { status: string; result: { count: number } | null; progress: { processed: number; total: number } },
        (state) => state.status === 'succeeded' || state.status === 'failed',
      );
      expect(followed).toMatchObject({ status: 'succeeded', result: { count: 4 }, progress: { processed: 4, total: 4 } });
      const messages = received.map((r) => ({ headers: r.headers, body: r.body, message: JSON.parse(r.body) as { id: string; type: string; data: { id: string } } }));
      for (const orderId of orders) {
        expect(messages.filter((m) => m.message.data.id === orderId).map((m) => m.message.type)).toEqual(['order.placed', 'order.paid']);
      }
      for (const { headers, body } of messages) {
        const signed = { 'webhook-id': String(headers['webhook-id']), 'webhook-timestamp': String(headers['webhook-timestamp']), 'webhook-signature': String(headers['webhook-signature']) };
        expect(() => new StandardWebhook(subscription.secret).verify(body, signed)).not.toThrow();
      }
      const items = await until(() => deliveries(subscription.id), (list) => list.filter((d) => d.status === 'succeeded').length >= 4);
      expect(items.map((d) => (d as unknown as { jobId: string | null }).jobId)).toEqual([job.id, job.id, job.id, job.id]);
      // A second replay of the same range sends the same webhook-ids again.
      const again = await fetch(`${base}/webhook-subscriptions/${subscription.id}/replays`, {
        method: 'POST', headers: { ...admin, 'Idempotency-Key': randomUUID() }, body: JSON.stringify({ from, to: job.to }),
      });
      const second = (await again.json()) as { id: string };
      await until(async () => ((await (await fetch(`${base}/jobs/${second.id}`, { headers: admin })).json()) as { status: string }).status, (status) => status === 'succeeded');
      const ids = received.map((r) => String(r.headers['webhook-id']));
      expect(ids.slice(4).sort()).toEqual(ids.slice(0, 4).sort());
    } finally {
      server.close();
    }
  }, E2E_TEST_MS);
});
