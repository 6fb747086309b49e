// Webhook subscriptions over real HTTP: every route's statuses, headers and bodies; the secret in
// the creation's and the rotation's answers only; problem+json on bad input (a refused URL 422
// webhook-url-refused, an unknown event type 400, an unknown id 404, a stale If-Match 412), with
// nothing written on a refusal. The service is wired as bootstrap/ wires it, with the real URL
// check (workers/webhooks/address-policy.ts) and WEBHOOK_ALLOWED_HOSTS unset; the use cases' own
// tests inject theirs.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceViewer } from '../../write-side/kernel/access.js';
import { WebhookDeliveryService } from '../../write-side/webhooks/deliveries.js';
import { deliveryIdOf, type AttemptReport } from '../../write-side/webhooks/delivery-log.js';
import { WebhookService } from '../../write-side/webhooks/service.js';
import { client, startService, type TestService } from '../support/http.js';

const PROBLEM = 'https://errors.orders.example/';
const MERGE_PATCH = { 'Content-Type': 'application/merge-patch+json' };
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

let service: TestService;
let admin: ReturnType<typeof client>;
beforeAll(async () => {
  service = await startService({}, undefined);
  admin = client(service, await service.token({ sub: 'hooks-admin', scope: 'webhooks:admin' }));
});
afterAll(() => service.stop());

const key = () => ({ 'Idempotency-Key': `hook-${randomUUID()}` });
const body = (extra: object = {}) => ({ url: `https://hooks-${randomUUID().slice(0, 8)}.partner.example/in`, events: ['order.paid', 'order.shipped'], ...extra });

async function create(extra: object = {}) {
  const response = await admin('POST', '/webhook-subscriptions', { body: body(extra), headers: key() });
  expect(response.status).toBe(201);
  return response;
}

/**
 * Runs a request that must be refused, and checks that it appended nothing: no event since carries
 * its correlation id. (The service's own workers may append meanwhile: a delivery's attempts, or
 * the progress of a replay job an earlier test asked for.)
 */
async function refused(send: () => Promise<Awaited<ReturnType<typeof admin>>>, status: number, code: string) {
  const head = await service.events.headPosition();
  const response = await send();
  expect({ status: response.status, type: response.body?.type }).toEqual({ status, type: PROBLEM + code });
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const correlationId = response.headers.get('x-correlation-id');
  expect(correlationId).toBeTruthy();
  const since = await service.events.readAll({ after: head, maxCount: 10_000 });
  expect(since.filter((event) => event.metadata.correlationId === correlationId).map((event) => `${event.streamName} ${event.type}`)).toEqual([]);
  return response;
}

describe('creating and reading a subscription', () => {
  it('creates an active subscription: 201, Location, ETag, no-store, and the secret, which no read shows again', async () => {
    const sent = body({ description: 'Partner A' });
    const created = await admin('POST', '/webhook-subscriptions', { body: sent, headers: key() });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(created.headers.get('location')).toBe(`/webhook-subscriptions/${id}`);
    expect(created.headers.get('etag')).toBe('"0"');
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.headers.get('consistency-token')).toBeTruthy();
    expect(created.body).toEqual({
      id, url: sent.url, events: sent.events, apiVersion: '2027-01-01', status: 'active', description: 'Partner A', disabledReason: null, disabledAt: null,
      createdAt: expect.any(String), updatedAt: created.body.createdAt, revision: 0, secret: expect.stringMatching(SECRET),
    });
    const read = await admin('GET', `/webhook-subscriptions/${id}`);
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBe('"0"');
    const { secret: _secret, ...withoutSecret } = created.body;
    expect(read.body).toEqual(withoutSecret);
    expect(JSON.stringify(read.body)).not.toContain('whsec_');
    const again = await admin('GET', `/webhook-subscriptions/${id}`, { headers: { 'If-None-Match': '"0"' } });
    expect(again.status).toBe(304);
  });

  it('keeps the API version a subscription names, and ["*"] for every event type', async () => {
    const created = await create({ apiVersion: '2026-12-01', events: ['*'] });
    expect(created.body).toMatchObject({ apiVersion: '2026-12-01', events: ['*'] });
  });

  it('replays a retry with the same key and body (the same subscription and secret), and refuses the key with another body', async () => {
    const headers = key();
    const sent = body();
    const first = await admin('POST', '/webhook-subscriptions', { body: sent, headers });
    const head = await service.events.headPosition();
    const retry = await admin('POST', '/webhook-subscriptions', { body: sent, headers });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await service.events.headPosition()).toEqual(head);
    await refused(() => admin('POST', '/webhook-subscriptions', { body: { ...sent, events: ['order.placed'] }, headers }), 422, 'idempotency-key-reused');
  });

  it('needs an Idempotency-Key', async () => {
    await refused(() => admin('POST', '/webhook-subscriptions', { body: body() }), 400, 'idempotency-key-missing');
  });

  it('refuses a URL the check refuses with 422 webhook-url-refused, its reason in detail, nothing written', async () => {
    const response = await refused(() => admin('POST', '/webhook-subscriptions', { body: body({ url: 'http://hooks.partner.example/in' }), headers: key() }), 422, 'webhook-url-refused');
    expect(response.body).toMatchObject({ status: 422, title: 'Webhook URL refused', detail: expect.stringContaining('https'), errors: [{ pointer: '/url', message: expect.stringContaining('https') }] });
    await refused(() => admin('POST', '/webhook-subscriptions', { body: body({ url: 'not a url' }), headers: key() }), 422, 'webhook-url-refused');
  });

  it('refuses a URL naming an internal host (loopback, private, link-local, localhost, credentials) with 422, nothing written', async () => {
    for (const url of ['https://127.0.0.1/in', 'https://10.1.2.3/in', 'https://169.254.169.254/latest', 'https://[::1]/in', 'https://localhost/in', 'https://user:pw@hooks.partner.example/in']) {
      const response = await refused(() => admin('POST', '/webhook-subscriptions', { body: body({ url }), headers: key() }), 422, 'webhook-url-refused');
      expect(response.body.errors).toEqual([{ pointer: '/url', message: expect.any(String) }]);
    }
  });

  it('refuses an unknown event type, "*" beside another, an unserved API version, a missing URL and unknown members with 400 validation-failed, nothing written', async () => {
    for (const bad of [
      body({ events: ['order.paid', 'order.teleported'] }),
      body({ events: ['*', 'order.paid'] }),
      body({ events: [] }),
      body({ events: ['order.paid', 'order.paid'] }),
      body({ apiVersion: '2025-01-01' }),
      body({ secret: 'whsec_mine' }),
      { events: ['order.paid'] },
    ]) {
      const response = await refused(() => admin('POST', '/webhook-subscriptions', { body: bad, headers: key() }), 400, 'validation-failed');
      expect(response.body.errors.length).toBeGreaterThan(0);
    }
  });

  it('answers an unknown subscription 404 and a malformed id 400', async () => {
    expect((await admin('GET', `/webhook-subscriptions/${randomUUID()}`)).status).toBe(404);
    expect((await admin('GET', '/webhook-subscriptions/not-an-id')).body.type).toBe(`${PROBLEM}validation-failed`);
  });

  it('is served under every API version (the API has no per-version routes)', async () => {
    for (const version of ['2026-11-01', '2026-12-01', '2027-01-01']) {
      const response = await admin('POST', '/webhook-subscriptions', { body: body(), headers: { ...key(), 'Api-Version': version } });
      expect(response.status).toBe(201);
      expect(response.headers.get('api-version')).toBe(version);
      expect(response.body.apiVersion).toBe('2027-01-01');
    }
  });
});

describe('the list', () => {
  it('pages newest first with a cursor and Link, leaves deleted subscriptions out, and shows no secret', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create()).body.id as string);
    const gone = await create();
    const deleted = await admin('DELETE', `/webhook-subscriptions/${gone.body.id}`);
    const consistency = deleted.headers.get('consistency-token')!;
    const items: Array<{ id: string }> = [];
    let path: string | null = '/webhook-subscriptions?limit=2';
    while (path) {
      const page = await admin('GET', path, { headers: { 'Consistency-Token': consistency } });
      expect(page.status).toBe(200);
      expect(page.headers.get('consistency-token')).toBeTruthy();
      expect(JSON.stringify(page.body)).not.toContain('whsec_');
      items.push(...page.body.items);
      const link = page.headers.get('link');
      expect(link === null).toBe(page.body.nextCursor === null);
      path = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1]! : null;
    }
    const listed = items.map((s) => s.id);
    expect(listed).not.toContain(gone.body.id);
    // Newest first: the three made here, in reverse, and no subscription twice.
    const mine = listed.filter((id) => ids.includes(id));
    expect(mine).toEqual([...ids].reverse());
    expect(new Set(listed).size).toBe(listed.length);
    for (const item of items) expect(item).not.toHaveProperty('secret');
  });

  it('refuses a limit out of range and a tampered cursor', async () => {
    expect((await admin('GET', '/webhook-subscriptions?limit=101')).body.type).toBe(`${PROBLEM}validation-failed`);
    expect((await admin('GET', '/webhook-subscriptions?cursor=tampered')).body.type).toBe(`${PROBLEM}invalid-cursor`);
  });
});

describe('changing a subscription', () => {
  it('applies a merge patch: 200 with the new ETag; null removes the description', async () => {
    const { body: created } = await create({ description: 'Partner' });
    const patched = await admin('PATCH', `/webhook-subscriptions/${created.id}`, { body: { status: 'paused', events: ['*'], description: null }, headers: { ...MERGE_PATCH, 'If-Match': '"0"' } });
    expect(patched.status).toBe(200);
    expect(patched.headers.get('etag')).toBe('"1"');
    expect(patched.body).toMatchObject({ id: created.id, status: 'paused', events: ['*'], description: null, revision: 1 });
    expect(patched.body).not.toHaveProperty('secret');
    expect((await admin('GET', `/webhook-subscriptions/${created.id}`)).body).toEqual(patched.body);
  });

  it('refuses a stale If-Match with 412, a refused URL with 422, status disabled and unknown members with 400, another media type with 415: nothing written', async () => {
    const { body: created } = await create();
    const path = `/webhook-subscriptions/${created.id}`;
    await refused(() => admin('PATCH', path, { body: { description: 'x' }, headers: { ...MERGE_PATCH, 'If-Match': '"7"' } }), 412, 'precondition-failed');
    const url = await refused(() => admin('PATCH', path, { body: { url: 'http://hooks.partner.example/' }, headers: MERGE_PATCH }), 422, 'webhook-url-refused');
    expect(url.body.detail).toContain('https');
    await refused(() => admin('PATCH', path, { body: { status: 'disabled' }, headers: MERGE_PATCH }), 400, 'validation-failed');
    await refused(() => admin('PATCH', path, { body: { events: ['order.teleported'] }, headers: MERGE_PATCH }), 400, 'validation-failed');
    await refused(() => admin('PATCH', path, { body: { apiVersion: '2026-12-01' }, headers: MERGE_PATCH }), 400, 'validation-failed');
    await refused(() => admin('PATCH', path, { body: {}, headers: MERGE_PATCH }), 400, 'validation-failed');
    const media = await refused(() => admin('PATCH', path, { body: { description: 'x' } }), 415, 'unsupported-media-type');
    expect(media.headers.get('accept-patch')).toBe('application/merge-patch+json');
    expect((await admin('GET', path)).body).toMatchObject({ revision: 0, url: created.url });
    await refused(() => admin('PATCH', `/webhook-subscriptions/${randomUUID()}`, { body: { description: 'x' }, headers: MERGE_PATCH }), 404, 'not-found');
  });

  it('shows a subscription the delivery worker disabled, with its reason; an admin re-enables it', async () => {
    const { body: created } = await create();
    // The delivery worker's use case, on the service's own event store.
    const webhooks = new WebhookService(service.events, { checkUrl: () => ({ ok: true }), apiVersions: { current: '2027-01-01', supported: ['2027-01-01'] } });
    await webhooks.disable(serviceViewer('webhook-delivery'), created.id as string, 'every delivery failed for 3 days', { correlationId: 'delivery' });
    const read = await admin('GET', `/webhook-subscriptions/${created.id}`);
    expect(read.body).toMatchObject({ status: 'disabled', disabledReason: 'every delivery failed for 3 days', disabledAt: expect.any(String) });
    const enabled = await admin('PATCH', `/webhook-subscriptions/${created.id}`, { body: { status: 'active' }, headers: MERGE_PATCH });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ status: 'active', disabledReason: null, disabledAt: null });
  });
});

describe('rotating the secret', () => {
  it('answers 200 with a new secret and the next revision; reads still show none', async () => {
    const { body: created } = await create();
    const rotated = await admin('POST', `/webhook-subscriptions/${created.id}/secret-rotation`);
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    expect(rotated.headers.get('etag')).toBe('"1"');
    expect(rotated.body).toMatchObject({ id: created.id, revision: 1, secret: expect.stringMatching(SECRET) });
    expect(rotated.body.secret).not.toBe(created.secret);
    expect(JSON.stringify((await admin('GET', `/webhook-subscriptions/${created.id}`)).body)).not.toContain('whsec_');
    await refused(() => admin('POST', `/webhook-subscriptions/${randomUUID()}/secret-rotation`), 404, 'not-found');
  });
});

describe('deleting a subscription', () => {
  it('answers 204; afterwards reads, changes and rotations are 404, and a second DELETE is 204 with nothing written', async () => {
    const { body: created } = await create();
    const path = `/webhook-subscriptions/${created.id}`;
    await refused(() => admin('DELETE', path, { headers: { 'If-Match': '"3"' } }), 412, 'precondition-failed');
    const deleted = await admin('DELETE', path, { headers: { 'If-Match': '"0"' } });
    expect(deleted.status).toBe(204);
    expect(deleted.headers.get('consistency-token')).toBeTruthy();
    await refused(() => admin('GET', path), 404, 'not-found');
    await refused(() => admin('PATCH', path, { body: { status: 'paused' }, headers: MERGE_PATCH }), 404, 'not-found');
    await refused(() => admin('POST', `${path}/secret-rotation`), 404, 'not-found');
    const head = await service.events.headPosition();
    expect((await admin('DELETE', path)).status).toBe(204);
    expect(await service.events.headPosition()).toEqual(head);
    await refused(() => admin('DELETE', `/webhook-subscriptions/${randomUUID()}`), 404, 'not-found');
  });
});

describe('who may', () => {
  it('refuses a customer token whatever its scopes, and a token without webhooks:admin, with 403; no token with 401; nothing written', async () => {
    const { body: created } = await create();
    const customer = client(service, await service.token({ sub: 'cus-user', customerId: 'cus_1', scope: 'webhooks:admin' }));
    const staff = client(service, await service.token({ sub: 'staff', scope: 'orders:read orders:write catalogue:write accounts:admin' }));
    const anonymous = client(service, null);
    for (const [who, status, code] of [[customer, 403, 'forbidden'], [staff, 403, 'forbidden'], [anonymous, 401, 'unauthenticated']] as const) {
      await refused(() => who('POST', '/webhook-subscriptions', { body: body(), headers: key() }), status, code);
      await refused(() => who('GET', '/webhook-subscriptions'), status, code);
      await refused(() => who('GET', `/webhook-subscriptions/${created.id}`), status, code);
      await refused(() => who('PATCH', `/webhook-subscriptions/${created.id}`, { body: { status: 'paused' }, headers: MERGE_PATCH }), status, code);
      await refused(() => who('POST', `/webhook-subscriptions/${created.id}/secret-rotation`), status, code);
      await refused(() => who('DELETE', `/webhook-subscriptions/${created.id}`), status, code);
      await refused(() => who('POST', `/webhook-subscriptions/${created.id}/replays`, { body: { from: '2027-01-01T00:00:00Z' }, headers: key() }), status, code);
    }
  });
});

describe('replays', () => {
  const replay = (id: string, sent: object, headers = key()) => admin('POST', `/webhook-subscriptions/${id}/replays`, { body: sent, headers });

  it('answers 202 with the job, Location and Retry-After; the job reads back from GET /jobs/{id}; the range ends at the log\'s head when to is absent', async () => {
    const { body: created } = await create();
    // The service's own workers may append meanwhile (a delivery's attempts): to lies between the heads before and after.
    const headBefore = (await service.events.headPosition())!;
    const headers = key();
    const asked = await replay(created.id, { from: '2027-01-01T10:00:00+02:00' }, headers);
    const headAfter = (await service.events.headPosition())!;
    expect(asked.status).toBe(202);
    expect(asked.headers.get('location')).toBe(`/jobs/${asked.body.id}`);
    expect(asked.headers.get('retry-after')).toBe('1');
    expect(asked.body.to >= headBefore && asked.body.to < headAfter).toBe(true);
    expect(asked.body).toEqual({
      id: asked.body.id, type: 'webhook-replay', status: 'queued', subscriptionId: created.id, from: '2027-01-01T08:00:00.000Z', to: asked.body.to,
      progress: { processed: 0, total: 0 }, createdAt: expect.any(String), startedAt: null, finishedAt: null, result: null, error: null,
    });
    // The service's delivery worker takes it up at once: it may be running or done already.
    const job = await admin('GET', `/jobs/${asked.body.id}`);
    expect(job.status).toBe(200);
    const { id, type, subscriptionId, from, to, createdAt } = asked.body;
    expect(job.body).toMatchObject({ id, type, subscriptionId, from, to, createdAt });
    // A replay has no file.
    expect((await admin('GET', `/jobs/${asked.body.id}/result`)).status).toBe(404);
    // The same key and body: the same job, nothing more written to it.
    const retried = await replay(created.id, { from: '2027-01-01T10:00:00+02:00' }, headers);
    expect(retried.status).toBe(202);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body).toMatchObject({ id, type, subscriptionId, from, to, createdAt });
    expect((await service.events.readStream(`job-${asked.body.id}`)).filter((e) => e.type === 'WebhookReplayRequested')).toHaveLength(1);
  });

  it('takes log positions, both inclusive', async () => {
    const { body: created, headers } = await create();
    const position = headers.get('consistency-token')!;
    const asked = await replay(created.id, { from: position, to: position });
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ from: position, to: position });
  });

  it('refuses a bound that is neither a position nor an instant, a position the log has not reached, a range that ends before it begins, and unknown members with 400; nothing written', async () => {
    const { body: created, headers } = await create();
    const position = headers.get('consistency-token')!;
    const beyond = 'f'.repeat(16) + '0'.repeat(16);
    for (const sent of [{ from: 'yesterday' }, { from: beyond }, { from: '2027-02-01T00:00:00Z', to: '2027-01-01T00:00:00Z' }, { from: position, to: '0'.repeat(32) }, { from: position, extra: 1 }, {}]) {
      await refused(() => replay(created.id, sent), 400, 'validation-failed');
    }
    const problem = await refused(() => replay(created.id, { from: '7fffffffffffffff7fffffffffffffff' }), 400, 'validation-failed');
    expect(problem.body.errors).toEqual([{ pointer: '/from', message: 'is not a position the log has reached' }]);
  });

  it('answers 404 for an unknown or deleted subscription, and 400 for a malformed id; nothing written', async () => {
    await refused(() => replay(randomUUID(), { from: '2027-01-01T00:00:00Z' }), 404, 'not-found');
    const { body: created } = await create();
    expect((await admin('DELETE', `/webhook-subscriptions/${created.id}`)).status).toBe(204);
    await refused(() => replay(created.id, { from: '2027-01-01T00:00:00Z' }), 404, 'not-found');
    await refused(() => replay('not-a-uuid', { from: '2027-01-01T00:00:00Z' }), 400, 'validation-failed');
  });

  it('lets only the admin who asked (or an auditor) read the job', async () => {
    const { body: created } = await create();
    const asked = await replay(created.id, { from: '2027-01-01T00:00:00Z' });
    const otherAdmin = client(service, await service.token({ sub: 'other-admin', scope: 'webhooks:admin' }));
    expect((await otherAdmin('GET', `/jobs/${asked.body.id}`)).status).toBe(404);
    const auditor = client(service, await service.token({ sub: 'auditor', scope: 'audit:read' }));
    expect((await auditor('GET', `/jobs/${asked.body.id}`)).body).toMatchObject({ id: asked.body.id, type: 'webhook-replay' });
  });
});

describe('the delivery log', () => {
  const minute = (m: number) => new Date(Date.UTC(2027, 0, 2, 10, m)).toISOString();
  const attempt = (eventId: string, m: number, outcome: AttemptReport['outcome']): AttemptReport => ({
    eventId, eventPosition: `pos-${eventId}`, type: 'order.paid', resource: 'order-1', at: minute(m), durationMs: 30, outcome,
    ...(outcome === 'succeeded' ? { statusCode: 200 } : { error: 'connection refused' }), nextAttemptAt: outcome === 'retrying' ? minute(m + 1) : null,
  });
  /** A subscription with three deliveries (the worker's use case on the service's own event store): e1 succeeded, e2 failed, e3 pending; and the token of the last write. */
  async function withDeliveries() {
    const id = (await create()).body.id as string;
    const log = new WebhookDeliveryService(service.events, { deliveries: { find: async () => null } });
    await log.recordAttempts(serviceViewer('webhook-delivery'), id, [attempt('e1', 0, 'retrying'), attempt('e2', 1, 'retrying'), attempt('e3', 2, 'retrying')], { correlationId: 'delivery' });
    const last = await log.recordAttempts(serviceViewer('webhook-delivery'), id, [attempt('e1', 3, 'succeeded'), attempt('e2', 4, 'failed')], { correlationId: 'delivery' });
    return { id, token: last.position as string, ids: ['e1', 'e2', 'e3'].map((e) => deliveryIdOf(id, e)) };
  }

  it('pages a subscription\'s deliveries newest first with a cursor and Link, each with its attempts', async () => {
    const { id, token, ids } = await withDeliveries();
    const first = await admin('GET', `/webhook-subscriptions/${id}/deliveries?limit=2`, { headers: { 'Consistency-Token': token } });
    expect(first.status).toBe(200);
    expect(first.body.items.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.items[1]).toEqual({
      id: ids[1], eventId: 'e2', type: 'order.paid', jobId: null, status: 'failed',
      attempts: [{ at: minute(1), error: 'connection refused', durationMs: 30 }, { at: minute(4), error: 'connection refused', durationMs: 30 }],
      attemptCount: 2, nextAttemptAt: null, createdAt: minute(1), updatedAt: minute(4),
    });
    expect(first.body.items[0]).toMatchObject({ status: 'pending', nextAttemptAt: minute(3) });
    const link = /^<([^>]+)>; rel="next"$/.exec(first.headers.get('link')!)![1]!;
    const second = await admin('GET', link);
    expect(second.body).toEqual({ items: [expect.objectContaining({ id: ids[0], status: 'succeeded', attempts: [expect.anything(), { at: minute(3), statusCode: 200, durationMs: 30 }] })], nextCursor: null });
    expect(second.headers.get('link')).toBeNull();
  });

  it('filters by status, the cursor bound to it', async () => {
    const { id, token, ids } = await withDeliveries();
    const path = `/webhook-subscriptions/${id}/deliveries`;
    for (const [status, expected] of [['succeeded', [ids[0]]], ['failed', [ids[1]]], ['pending', [ids[2]]]] as const) {
      const page = await admin('GET', `${path}?status=${status}`, { headers: { 'Consistency-Token': token } });
      expect(page.body.items.map((d: { id: string }) => d.id)).toEqual(expected);
    }
    const paged = await admin('GET', `${path}?limit=1`);
    expect((await admin('GET', `${path}?status=failed&cursor=${encodeURIComponent(paged.body.nextCursor)}`)).body.type).toBe(`${PROBLEM}invalid-cursor`);
  });

  it('refuses a bad query with 400: an unknown status, a limit out of range, an unknown parameter, a malformed id', async () => {
    const { id } = await withDeliveries();
    for (const query of ['status=retrying', 'limit=0', 'limit=101', 'since=yesterday']) {
      const response = await admin('GET', `/webhook-subscriptions/${id}/deliveries?${query}`);
      expect({ query, status: response.status, type: response.body.type }).toEqual({ query, status: 400, type: `${PROBLEM}validation-failed` });
    }
    expect((await admin('GET', '/webhook-subscriptions/not-a-uuid/deliveries')).status).toBe(400);
  });

  it('answers 404 problem+json for the deliveries of an unknown or deleted subscription', async () => {
    const unknown = await admin('GET', `/webhook-subscriptions/${randomUUID()}/deliveries`);
    expect({ status: unknown.status, type: unknown.body.type }).toEqual({ status: 404, type: `${PROBLEM}not-found` });
    expect(unknown.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const { id } = await withDeliveries();
    await admin('DELETE', `/webhook-subscriptions/${id}`);
    expect((await admin('GET', `/webhook-subscriptions/${id}/deliveries`)).status).toBe(404);
  });

  it('retries a delivery: 202, a WebhookDeliveryRetryRequested in the log, and the delivery pending, due at once', async () => {
    const { id, token, ids } = await withDeliveries();
    // The retry finds the delivery in the read model: as an admin would, after seeing it in the page.
    await admin('GET', `/webhook-subscriptions/${id}/deliveries`, { headers: { 'Consistency-Token': token } });
    const retried = await admin('POST', `/webhook-subscriptions/${id}/deliveries/${ids[1]}/retry`);
    expect(retried.status).toBe(202);
    expect(retried.body).toEqual({ deliveryId: ids[1], requestedAt: expect.any(String) });
    const consistency = retried.headers.get('consistency-token')!;
    expect(consistency).toBeTruthy();
    const log = await service.events.readStream(`webhook-deliveries-${id}`);
    expect(log.at(-1)).toMatchObject({
      type: 'WebhookDeliveryRetryRequested', metadata: { principal: 'hooks-admin' },
      data: { subscriptionId: id, deliveryId: ids[1], eventId: 'e2', eventPosition: 'pos-e2', type: 'order.paid', resource: 'order-1', requestedAt: expect.any(String) },
    });
    const page = await admin('GET', `/webhook-subscriptions/${id}/deliveries?status=pending`, { headers: { 'Consistency-Token': consistency } });
    expect(page.body.items.find((d: { id: string }) => d.id === ids[1])).toMatchObject({ status: 'pending', nextAttemptAt: log.at(-1)!.data.requestedAt, attemptCount: 2 });
    // A pending one may be retried too.
    expect((await admin('POST', `/webhook-subscriptions/${id}/deliveries/${ids[2]}/retry`)).status).toBe(202);
  });

  it('answers 404 problem+json for a retry of an unknown delivery, another subscription\'s, or of an unknown subscription, with nothing written; 400 for a malformed id', async () => {
    const { id, token, ids } = await withDeliveries();
    const other = await withDeliveries();
    await admin('GET', `/webhook-subscriptions/${other.id}/deliveries`, { headers: { 'Consistency-Token': other.token } });
    await admin('GET', `/webhook-subscriptions/${id}/deliveries`, { headers: { 'Consistency-Token': token } });
    await refused(() => admin('POST', `/webhook-subscriptions/${id}/deliveries/${randomUUID()}/retry`), 404, 'not-found');
    await refused(() => admin('POST', `/webhook-subscriptions/${id}/deliveries/${other.ids[0]}/retry`), 404, 'not-found');
    await refused(() => admin('POST', `/webhook-subscriptions/${randomUUID()}/deliveries/${ids[0]}/retry`), 404, 'not-found');
    await refused(() => admin('POST', `/webhook-subscriptions/${id}/deliveries/not-a-uuid/retry`), 400, 'validation-failed');
  });
});
