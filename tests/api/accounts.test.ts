// Accounts and sign-in through real HTTP: creating accounts (one per email), signing in (RFC 6749
// §5.1), one answer for an unknown email and a wrong password, the per-email limit, taking tokens
// away (disabling, a new password, a new role), and no password anywhere it could leak.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountService } from '../../write-side/accounts/service.js';
import { argon2Passwords } from '../../write-side/adapters/argon2-passwords.js';
import { client, startService, type TestService } from '../support/http.js';
import { until } from '../support/until.js';

const PROBLEM = 'https://errors.orders.example/';
const PASSWORD = 'correct horse battery staple';
let service: TestService;
let admin: ReturnType<typeof client>;
let sequence = 0;
const anonymous = () => client(service, null);
const key = () => ({ 'Idempotency-Key': `accounts-${++sequence}-${Date.now()}` });
const email = (name: string) => `${name}-${++sequence}@shop.example`;

async function create(body: Record<string, unknown>) {
  return admin('POST', '/accounts', { body, headers: key() });
}

async function signIn(address: string, password = PASSWORD) {
  return anonymous()('POST', '/auth/login', { body: { email: address, password } });
}

/** A new account of this role, signed in: its id and a client with its token. */
async function account(role: string, extra: Record<string, unknown> = {}) {
  const address = email(role);
  const created = await create({ email: address, password: PASSWORD, role, ...extra });
  expect(created.status).toBe(201);
  const login = await signIn(address);
  expect(login.status).toBe(200);
  return { id: created.body.id as string, email: address, token: login.body.access_token as string, as: client(service, login.body.access_token as string) };
}

beforeAll(async () => {
  service = await startService();
  admin = client(service, await service.token({ sub: 'accounts-admin', scope: 'accounts:admin orders:read customers:write' }));
});
afterAll(() => service?.stop());

describe('POST /accounts', () => {
  it('creates an account: 201, Location, the representation without any password or hash', async () => {
    const address = email('Staff');
    const response = await create({ email: address.toUpperCase(), password: PASSWORD, role: 'staff' });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`/accounts/${response.body.id}`);
    expect(response.body).toEqual({
      id: expect.any(String), email: address.toLowerCase(), role: 'staff', customerId: null, disabled: false,
      createdAt: expect.any(String), updatedAt: expect.any(String), revision: 0,
    });
    const read = await admin('GET', `/accounts/${response.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(response.body);
  });

  it('refuses a second account with the same email, whatever its case: 409 email-in-use, nothing written', async () => {
    const address = email('twice');
    expect((await create({ email: address, password: PASSWORD, role: 'staff' })).status).toBe(201);
    const head = await service.events.headPosition();
    const again = await create({ email: address.toUpperCase(), password: `${PASSWORD}!`, role: 'auditor' });
    expect(again.status).toBe(409);
    expect(again.body.type).toBe(`${PROBLEM}email-in-use`);
    expect(await service.events.headPosition()).toEqual(head);
  });

  it('replays a retry with the same Idempotency-Key: the same account, Idempotent-Replayed', async () => {
    const body = { email: email('retry'), password: PASSWORD, role: 'fulfilment' };
    const headers = key();
    const first = await admin('POST', '/accounts', { body, headers });
    const second = await admin('POST', '/accounts', { body, headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });

  it.each([
    ['a password of 11 characters', { password: 'x'.repeat(11), role: 'staff' }, '/password'],
    ['a password of 257 characters', { password: 'x'.repeat(257), role: 'staff' }, '/password'],
    ['an unknown role', { password: PASSWORD, role: 'root' }, '/role'],
    ['a customer account without its customer', { password: PASSWORD, role: 'customer' }, '/customerId'],
    ['a staff account with a customer', { password: PASSWORD, role: 'staff', customerId: 'cus_1' }, '/customerId'],
  ])('refuses %s: 400 validation-failed, nothing written', async (_name, body, pointer) => {
    const head = await service.events.headPosition();
    const response = await create({ email: email('bad'), ...body });
    expect(response.status).toBe(400);
    expect(response.body.type).toBe(`${PROBLEM}validation-failed`);
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    expect(await service.events.headPosition()).toEqual(head);
  });

  it('refuses a customer account for a customer that does not exist: 422 unknown-customer, nothing written', async () => {
    const head = await service.events.headPosition();
    const response = await create({ email: email('guest'), password: PASSWORD, role: 'customer', customerId: 'cus_nobody' });
    expect(response.status).toBe(422);
    expect(response.body.type).toBe(`${PROBLEM}unknown-customer`);
    expect(await service.events.headPosition()).toEqual(head);
  });

  it('accepts a password of 12 characters, and of 256', async () => {
    expect((await create({ email: email('short'), password: 'é'.repeat(12), role: 'staff' })).status).toBe(201);
    expect((await create({ email: email('long'), password: 'x'.repeat(256), role: 'staff' })).status).toBe(201);
  });
});

describe('POST /auth/login', () => {
  it('answers the RFC 6749 §5.1 fields with Cache-Control: no-store, for a token that names the account and its role', async () => {
    const address = email('login');
    const customer = await admin('POST', '/customers', { body: { email: address, name: 'Ada Lovelace' }, headers: key() });
    expect(customer.status).toBe(201);
    const customerId = customer.body.id as string;
    const created = await create({ email: address, password: PASSWORD, role: 'customer', customerId });
    const response = await signIn(address.toUpperCase());
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 900, scope: 'orders:read orders:write catalogue:read customers:read customers:write' });
    const claims = decodeJwt(response.body.access_token as string);
    expect(claims).toMatchObject({ sub: created.body.id, customer_id: customerId, scope: response.body.scope, account_version: 0 });
    expect(claims.exp! - claims.iat!).toBe(900);
    const me = await client(service, response.body.access_token as string)('GET', '/accounts/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual(created.body);
  });

  it('answers an unknown email exactly as a wrong password: 401 invalid-credentials', async () => {
    const known = await account('staff');
    const wrong = await signIn(known.email, `${PASSWORD}?`);
    const unknown = await signIn(email('nobody'));
    for (const response of [wrong, unknown]) {
      expect(response.status).toBe(401);
      expect(response.body.type).toBe(`${PROBLEM}invalid-credentials`);
    }
    const { correlationId: _a, ...a } = wrong.body;
    const { correlationId: _b, ...b } = unknown.body;
    expect(a).toEqual(b);
  });

  it('refuses an email after 5 failures (429 with Retry-After, even with the right password), while other emails still sign in', async () => {
    const target = await account('auditor');
    const other = await account('auditor');
    for (let i = 0; i < 5; i++) expect((await signIn(target.email, `wrong password ${i}`)).status).toBe(401);
    const throttled = await signIn(target.email);
    expect(throttled.status).toBe(429);
    expect(throttled.body.type).toBe(`${PROBLEM}rate-limited`);
    const retryAfter = Number(throttled.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect((await signIn(other.email)).status).toBe(200);
  });

  it('refuses bad input with 400 validation-failed', async () => {
    const response = await anonymous()('POST', '/auth/login', { body: { email: 'a@b.example' } });
    expect(response.status).toBe(400);
    expect(response.body.type).toBe(`${PROBLEM}validation-failed`);
  });
});

describe('taking tokens away', () => {
  it('a disabled account: its earlier token is refused (401 unauthenticated), it cannot sign in; enabled again, it can', async () => {
    const user = await account('staff');
    expect((await user.as('GET', '/accounts/me')).status).toBe(200);
    const disabled = await admin('PATCH', `/accounts/${user.id}`, { body: { disabled: true }, headers: { 'Content-Type': 'application/merge-patch+json' } });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ id: user.id, disabled: true, revision: 1 });
    const refused = await user.as('GET', '/accounts/me');
    expect(refused.status).toBe(401);
    expect(refused.body.type).toBe(`${PROBLEM}unauthenticated`);
    expect((await signIn(user.email)).status).toBe(401);
    await admin('PATCH', `/accounts/${user.id}`, { body: { disabled: false }, headers: { 'Content-Type': 'application/merge-patch+json' } });
    expect((await user.as('GET', '/accounts/me')).status).toBe(401);
    expect((await signIn(user.email)).status).toBe(200);
  });

  it('a new password: the earlier token is refused, the old password no longer signs in, the new one does', async () => {
    const user = await account('fulfilment');
    const wrong = await user.as('POST', '/accounts/me/password', { body: { currentPassword: 'not the password', newPassword: 'a brand new passphrase' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.type).toBe(`${PROBLEM}invalid-credentials`);
    const changed = await user.as('POST', '/accounts/me/password', { body: { currentPassword: PASSWORD, newPassword: 'a brand new passphrase' } });
    expect(changed.status).toBe(204);
    expect((await user.as('GET', '/accounts/me')).status).toBe(401);
    expect((await signIn(user.email)).status).toBe(401);
    expect((await signIn(user.email, 'a brand new passphrase')).status).toBe(200);
  });

  it('a new role: the earlier token is refused, a new sign-in carries the new role’s scopes', async () => {
    const user = await account('auditor');
    const patched = await admin('PATCH', `/accounts/${user.id}`, { body: { role: 'staff' }, headers: { 'Content-Type': 'application/merge-patch+json' } });
    expect(patched.body.role).toBe('staff');
    expect((await user.as('GET', '/accounts/me')).status).toBe(401);
    expect((await signIn(user.email)).body.scope).toContain('orders:write');
  });

  it('refuses to make a staff account a customer’s: 400 validation-failed, nothing written', async () => {
    const user = await account('staff');
    const head = await service.events.headPosition();
    const response = await admin('PATCH', `/accounts/${user.id}`, { body: { role: 'customer' }, headers: { 'Content-Type': 'application/merge-patch+json' } });
    expect(response.status).toBe(400);
    expect(await service.events.headPosition()).toEqual(head);
  });

  it('another API process refuses a disabled account’s token once its standing is read again', async () => {
    const user = await account('staff');
    // A second process's view of the same event store: its standing is kept for at most standingTtlMs.
    const elsewhere = new AccountService(service.events, argon2Passwords(), { standingTtlMs: 50 });
    expect(await elsewhere.standing(user.id)).toEqual({ tokenVersion: 0, disabled: false });
    await admin('PATCH', `/accounts/${user.id}`, { body: { disabled: true }, headers: { 'Content-Type': 'application/merge-patch+json' } });
    // Until its 50 ms are over and it forgot the standing: polled with no deadline but the test's, not for 2 s.
    await until(() => elsewhere.knownStanding(user.id) === undefined, Boolean, 20);
    expect(await elsewhere.standing(user.id)).toEqual({ tokenVersion: 1, disabled: true });
  });
});

describe('reading accounts', () => {
  it('GET /accounts/me with a token the service did not issue to an account: 404', async () => {
    const response = await client(service, await service.token({ sub: 'dev-token' }))('GET', '/accounts/me');
    expect(response.status).toBe(404);
    expect(response.body.type).toBe(`${PROBLEM}not-found`);
  });

  it('GET /accounts pages newest first, and waits for a write’s Consistency-Token', async () => {
    const first = await create({ email: email('page'), password: PASSWORD, role: 'staff' });
    const second = await create({ email: email('page'), password: PASSWORD, role: 'staff' });
    const page = await admin('GET', '/accounts?limit=1', { headers: { 'Consistency-Token': second.headers.get('consistency-token')! } });
    expect(page.status).toBe(200);
    expect(page.body.items).toEqual([second.body]);
    expect(page.headers.get('link')).toMatch(/rel="next"/);
    const next = await admin('GET', `/accounts?limit=1&cursor=${encodeURIComponent(page.body.nextCursor as string)}`);
    expect(next.body.items).toEqual([first.body]);
    expect(JSON.stringify(page.body)).not.toMatch(/password|argon2/i);
  });

  it('GET /accounts/{id} of an unknown account: 404', async () => {
    expect((await admin('GET', '/accounts/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('passwords never kept in clear', () => {
  it('no store file and no log line holds a password that was used', async () => {
    const secret = 'a password nobody should ever find 123';
    const address = email('secret');
    expect((await create({ email: address, password: secret, role: 'staff' })).status).toBe(201);
    expect((await signIn(address, secret)).status).toBe(200);
    expect((await signIn(address, `${secret} but wrong`)).status).toBe(401);
    const files = readdirSync(service.dataDir).filter((name) => name.includes('sqlite'));
    expect(files.some((name) => name.startsWith('events'))).toBe(true);
    for (const name of files) expect(readFileSync(join(service.dataDir, name)).includes(secret), name).toBe(false);
    expect(service.logs.join('\n')).not.toContain(secret);
  });
});
