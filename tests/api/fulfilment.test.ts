// The fulfilment side: the queue as a collection, and its changes as SSE and as a long-poll.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, newOrder, startService, type TestService } from '../support/http.js';
import { receiveStock, TEST_SKUS } from '../support/seed.js';

let service: TestService;
let api: ReturnType<typeof client>;
let n = 0;
const key = () => `fq-${Date.now()}-${n++}`;

beforeAll(async () => {
  service = await startService();
  await receiveStock(service.events, TEST_SKUS);
  api = client(service, await service.token({ sub: 'fulfilment' }));
});
afterAll(() => service.stop());

async function placeAndPay(pay = true) {
  const placed = await api('POST', '/orders', { body: newOrder(), headers: { 'Idempotency-Key': key() } });
  if (!pay) return { id: placed.body.id as string, token: placed.headers.get('consistency-token')! };
  const paid = await api('POST', `/orders/${placed.body.id}/payments`, { body: { amount: placed.body.total, reference: 'psp' }, headers: { 'Idempotency-Key': key() } });
  return { id: placed.body.id as string, token: paid.headers.get('consistency-token')! };
}

/**
 * Reads Server-Sent Events until `count` events arrived, or `comments` comment blocks (the
 * opening one, then heartbeats): what comes as it comes, with no short deadline. The 60 s abort
 * only ends a read whose test has failed already (its timeout comes first).
 */
async function readEvents(headers: Record<string, string>, count: number, comments = Infinity) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 60_000);
  const response = await fetch(`${service.url}/fulfilment-queue/changes`, {
    headers: { Authorization: `Bearer ${await service.token({ sub: 'fulfilment' })}`, Accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  const events: Array<{ id: string; event: string; data: Record<string, string> }> = [];
  let seen = 0;
  let buffer = '';
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (block.startsWith(':') || block.startsWith('retry')) {
          seen++;
          continue;
        }
        const fields = Object.fromEntries(block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]));
        events.push({ id: fields.id!, event: fields.event!, data: JSON.parse(fields.data!) });
      }
      if (events.length >= count || seen >= comments) break;
    }
  } catch (error) {
    if ((error as Error).name !== 'AbortError') throw error; // the time ran out: return what came
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  return { events: events.slice(0, count), comments: seen };
}

describe('fulfilment queue', () => {
  it('lists paid orders, oldest payment first, and drops them once shipped or cancelled', async () => {
    const a = await placeAndPay();
    const b = await placeAndPay();
    const c = await placeAndPay();
    await placeAndPay(false);
    await api('POST', `/orders/${b.id}/shipments`, { body: { carrier: 'DHL', trackingNumber: 'T' }, headers: { 'Idempotency-Key': key() } });
    const cancelled = await api('POST', `/orders/${c.id}/cancellation`);
    const page = await api('GET', '/fulfilment-queue?limit=100', { headers: { 'Consistency-Token': cancelled.headers.get('consistency-token')! } });
    expect(page.status).toBe(200);
    const ids = page.body.items.map((e: { orderId: string }) => e.orderId);
    expect(ids).toContain(a.id);
    expect(ids).not.toContain(b.id);
    expect(ids).not.toContain(c.id);
    const paidAts = page.body.items.map((e: { paidAt: string }) => e.paidAt);
    expect(paidAts).toEqual([...paidAts].sort());
    expect(page.body.items[0]).toMatchObject({ orderId: expect.any(String), total: 3998, address: { city: 'Berlin' }, paidAt: expect.any(String) });
  });

  it('pages with a cursor and needs shipments:write', async () => {
    for (let i = 0; i < 3; i++) await placeAndPay();
    const last = await placeAndPay();
    const first = await api('GET', '/fulfilment-queue?limit=2', { headers: { 'Consistency-Token': last.token } });
    expect(first.body.items).toHaveLength(2);
    const second = await api('GET', `/fulfilment-queue?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(second.body.items[0].paidAt >= first.body.items[1].paidAt).toBe(true);
    expect(second.body.items.map((e: { orderId: string }) => e.orderId)).not.toContain(first.body.items[1].orderId);
    const reader = client(service, await service.token({ scope: 'orders:read' }));
    expect((await reader('GET', '/fulfilment-queue')).status).toBe(403);
    expect((await reader('GET', '/fulfilment-queue/changes')).status).toBe(403);
  });
});

describe('queue changes', () => {
  it('long-polls: the changes after a position, then waits for the next one', async () => {
    const start = (await api('GET', '/fulfilment-queue/changes?limit=1000')).body.next;
    const paid = await placeAndPay();
    const pending = await placeAndPay(false);
    await api('POST', `/orders/${pending.id}/cancellation`); // a pending order never was in the queue
    const cancelled = await api('POST', `/orders/${paid.id}/cancellation`);
    // The changes come from the projection: the cancellation's token waits until it is included.
    const changes = await api('GET', `/fulfilment-queue/changes?after=${start}`, { headers: { 'Consistency-Token': cancelled.headers.get('consistency-token')! } });
    expect(changes.body.changes.map((c: { orderId: string; change: string; reason: string }) => [c.orderId, c.change, c.reason])).toEqual([
      [paid.id, 'entered', 'paid'],
      [paid.id, 'left', 'cancelled'],
    ]);
    const next = changes.body.next;
    expect((await api('GET', `/fulfilment-queue/changes?after=${next}`)).body.changes).toEqual([]);

    // 30 s, the longest wait, so that however slow the paying and its projection, the answer comes from the change.
    const waiting = api('GET', `/fulfilment-queue/changes?after=${next}&wait=30`);
    // Most likely lets the long-poll begin waiting before the change; if a loaded machine delays it, the change is there when it asks, and the answer is the same.
    await new Promise((r) => setTimeout(r, 200));
    const later = await placeAndPay();
    const started = Date.now();
    const arrived = await waiting;
    // Woken by the change, not by its wait running out: well short of the 30 s, however loaded the machine.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(arrived.body.changes).toEqual([expect.objectContaining({ orderId: later.id, change: 'entered' })]);
  });

  it('answers an empty long-poll after the wait', async () => {
    const end = (await api('GET', '/fulfilment-queue/changes?limit=1000')).body.next;
    const started = Date.now();
    const empty = await api('GET', `/fulfilment-queue/changes?after=${end}&wait=1`);
    expect(empty.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(empty.body.changes).toEqual([]);
    expect((await api('GET', '/fulfilment-queue/changes?after=nonsense')).status).toBe(400);
    expect((await api('GET', '/fulfilment-queue/changes?wait=31')).status).toBe(400);
  });

  it('streams Server-Sent Events with positions as ids, heartbeats, and resumes after Last-Event-ID', async () => {
    const start = (await api('GET', '/fulfilment-queue/changes?limit=1000')).body.next;
    const orders = [await placeAndPay(), await placeAndPay(), await placeAndPay()];
    const first = await readEvents({ 'Last-Event-ID': start }, 2);
    expect(first.events.map((e) => [e.event, e.data.orderId])).toEqual([['entered', orders[0]!.id], ['entered', orders[1]!.id]]);
    expect(first.events[0]!.id).toBe(first.events[0]!.data.position);
    const resumed = await readEvents({ 'Last-Event-ID': first.events[1]!.id }, 1);
    expect(resumed.events.map((e) => e.data.orderId)).toEqual([orders[2]!.id]);
    // Nothing more arrives: only heartbeats keep the connection alive. Read until the opening
    // comment and two heartbeats came (200 ms apart, or later on a loaded machine), not for 700 ms.
    const idle = await readEvents({ 'Last-Event-ID': resumed.events[0]!.id }, 1, 3);
    expect(idle.events).toEqual([]);
    expect(idle.comments).toBeGreaterThanOrEqual(3);
  });
});
