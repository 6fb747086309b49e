// Reads confined inside the queries: a customer token sees its own orders and their history
// only, and nothing of the fulfilment queue whatever scopes it carries. Feed positions the log
// has not reached are refused.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePosition } from '../../write-side/kernel/position.js';
import { ALL_SCOPES, client, newOrder, startService, type TestService } from '../support/http.js';
import { receiveStock, TEST_SKUS } from '../support/seed.js';

let service: TestService;
let staff: ReturnType<typeof client>;
let customerA: ReturnType<typeof client>;
let customerB: ReturnType<typeof client>;
let tokenA = '';
const placed: Record<'a' | 'b', { id: string; token: string }> = { a: { id: '', token: '' }, b: { id: '', token: '' } };

beforeAll(async () => {
  service = await startService();
  await receiveStock(service.events, TEST_SKUS);
  staff = client(service, await service.token({ sub: 'staff' }));
  tokenA = await service.token({ sub: 'alice', scope: ALL_SCOPES, customerId: 'cus_conf_a' });
  customerA = client(service, tokenA);
  customerB = client(service, await service.token({ sub: 'bob', scope: ALL_SCOPES, customerId: 'cus_conf_b' }));
  for (const [who, customer] of [['a', 'cus_conf_a'], ['b', 'cus_conf_b']] as const) {
    const order = await staff('POST', '/orders', { body: newOrder(customer), headers: { 'Idempotency-Key': randomUUID() } });
    const paid = await staff('POST', `/orders/${order.body.id}/payments`, { body: { amount: order.body.total, reference: 'psp' }, headers: { 'Idempotency-Key': randomUUID() } });
    placed[who] = { id: order.body.id as string, token: paid.headers.get('consistency-token')! };
  }
});
afterAll(() => service.stop());

describe('order collections and history under a customer token', () => {
  it("lists only the customer's own orders, and refuses to list another customer's", async () => {
    const own = await customerA('GET', '/orders?limit=100', { headers: { 'Consistency-Token': placed.b.token } });
    expect(own.status).toBe(200);
    const customers = new Set(own.body.items.map((o: { customerId: string }) => o.customerId));
    expect([...customers]).toEqual(['cus_conf_a']);
    expect(own.body.items.map((o: { id: string }) => o.id)).toContain(placed.a.id);
    const other = await customerA('GET', '/orders?customerId=cus_conf_b');
    expect(other.status).toBe(403);
    expect(other.body.type).toBe('https://errors.orders.example/forbidden');
  });

  it("answers another customer's order history with 404, exactly as an unknown order", async () => {
    expect((await customerA('GET', `/orders/${placed.a.id}/history`)).body.items.map((e: { type: string }) => e.type)).toEqual(['OrderPlaced', 'PaymentRecorded']);
    const others = await customerA('GET', `/orders/${placed.b.id}/history`);
    const unknownId = randomUUID();
    const unknown = await customerA('GET', `/orders/${unknownId}/history`);
    expect(others.status).toBe(404);
    expect(unknown.status).toBe(404);
    const { correlationId: _a, ...othersBody } = others.body;
    const { correlationId: _b, ...unknownBody } = unknown.body;
    expect(JSON.stringify(othersBody).split(placed.b.id).join('{id}')).toBe(JSON.stringify(unknownBody).split(unknownId).join('{id}'));
    // Paging on does not get round it: a cursor of one's own order is bound to that order.
    const page = await customerB('GET', `/orders/${placed.b.id}/history?limit=1`);
    expect((await customerA('GET', `/orders/${placed.b.id}/history?limit=1&cursor=${encodeURIComponent(page.body.nextCursor)}`)).status).toBe(404);
  });
});

describe('the fulfilment queue under a customer token with shipments:write', () => {
  it('refuses the queue and its feed with 403, as JSON and as Server-Sent Events', async () => {
    for (const path of ['/fulfilment-queue', '/fulfilment-queue/changes', '/fulfilment-queue/changes?wait=1']) {
      const response = await customerA('GET', path);
      expect(response.status, path).toBe(403);
      expect(response.body.type).toBe('https://errors.orders.example/forbidden');
      expect(JSON.stringify(response.body)).not.toContain('Ada Lovelace');
    }
    const stream = await fetch(`${service.url}/fulfilment-queue/changes`, { headers: { Authorization: `Bearer ${tokenA}`, Accept: 'text/event-stream' } });
    expect(stream.status).toBe(403);
    expect(await stream.text()).not.toContain('entered');
    // The staff token still reads both.
    expect((await staff('GET', '/fulfilment-queue', { headers: { 'Consistency-Token': placed.b.token } })).body.items.map((e: { orderId: string }) => e.orderId)).toContain(placed.a.id);
  });
});

describe('feed positions', () => {
  const beyond = async () => {
    const head = (await service.events.headPosition())!;
    return { head, beyond: encodePosition(BigInt('0x' + head.slice(0, 16)) + 1000n) };
  };

  it('refuses an `after` beyond the head of the log with 400, and accepts the head itself', async () => {
    const { head, beyond: far } = await beyond();
    const refused = await staff('GET', `/fulfilment-queue/changes?after=${far}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ type: 'https://errors.orders.example/validation-failed', errors: [{ pointer: '/after' }] });
    expect((await staff('GET', `/fulfilment-queue/changes?after=${far}&wait=1`)).status).toBe(400);
    const atHead = await staff('GET', `/fulfilment-queue/changes?after=${head}`);
    expect(atHead.status).toBe(200);
  });

  it('refuses a Last-Event-ID beyond the head of the log with 400 before the stream begins', async () => {
    const { beyond: far } = await beyond();
    const token = await service.token({ sub: 'staff' });
    const response = await fetch(`${service.url}/fulfilment-queue/changes`, { headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream', 'Last-Event-ID': far } });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(await response.json()).toMatchObject({ type: 'https://errors.orders.example/validation-failed', errors: [{ pointer: '/headers/last-event-id' }] });
  });
});
