// The webhook subscriptions' use cases on every available event store: idempotent creation, the
// secret shown by the creation and the rotation only, the rotation's 24 h, disabling, deletion,
// and the URL check's refusals, with nothing written.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serviceViewer, type Viewer } from '../../../write-side/kernel/access.js';
import { Forbidden, IdempotencyKeyReused, ValidationFailed } from '../../../write-side/kernel/errors.js';
import { subscriptionStream } from '../../../write-side/webhooks/codec.js';
import { SubscriptionNotFound, WebhookUrlRefused, type UrlCheck } from '../../../write-side/webhooks/rules.js';
import { WebhookService, type NewSubscription } from '../../../write-side/webhooks/service.js';
import { availableStores, type StoreFixture } from '../../support/event-stores.js';

const admin = serviceViewer('webhooks-admin');
const customer: Viewer = { sub: 'cus-user', scopes: new Set(['webhooks:admin']), customerId: 'cus_1' };
const API_VERSIONS = { current: '2027-01-01', supported: ['2027-01-01', '2026-12-01', '2026-11-01'] };
const HOUR = 3_600_000;
/** Refuses what is not https: the test's own check, standing for the sender's. */
const httpsOnly: UrlCheck = (url) => (url.startsWith('https://') ? { ok: true } : { ok: false, reason: 'it must use https' });
const input: NewSubscription = { url: 'https://hooks.partner.example/in', events: ['order.paid'] };

for (const [name, open] of availableStores) {
  describe(`webhook subscriptions on ${name}`, () => {
    let fixture: StoreFixture;
    let now: Date;
    let draws: number;
    let service: WebhookService;
    beforeEach(async () => {
      fixture = await open();
      now = new Date('2027-01-02T10:00:00.000Z');
      draws = 0;
      // Each draw is 32 bytes of one value: 1 for the first secret, 2 for the next, …
      service = new WebhookService(fixture.store, { checkUrl: httpsOnly, apiVersions: API_VERSIONS, clock: () => now, random: (n) => new Uint8Array(n).fill(++draws) });
    });
    afterEach(() => fixture.dispose());

    const secretNo = (n: number) => `whsec_${Buffer.alloc(32, n).toString('base64')}`;
    const keyed = (key = randomUUID(), fingerprint = 'fp') => ({ correlationId: 'corr', idempotency: { key, fingerprint } });
    const context = { correlationId: 'corr' };

    it('creates an active subscription with a whsec_ secret of the random source, on the current API version unless it names one', async () => {
      const created = await service.create(admin, input, keyed());
      expect(created.secret).toBe(secretNo(1));
      expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(created).toMatchObject({ revision: 0, replayed: false, subscription: { url: input.url, events: ['order.paid'], apiVersion: '2027-01-01', status: 'active', description: null, disabledReason: null } });
      const older = await service.create(admin, { ...input, apiVersion: '2026-12-01', description: 'old client' }, keyed());
      expect(older.subscription).toMatchObject({ apiVersion: '2026-12-01', description: 'old client' });
      const [event] = await fixture.store.readStream(subscriptionStream(created.subscription.id));
      expect(event).toMatchObject({ type: 'WebhookSubscriptionCreated', data: { secret: secretNo(1) }, metadata: { principal: admin.sub, correlationId: 'corr' } });
    });

    it('replays a creation retried with its key: the same subscription and secret, nothing new written; another request with the key is refused', async () => {
      const key = randomUUID();
      const first = await service.create(admin, input, keyed(key));
      const head = await fixture.store.headPosition();
      const retry = await service.create(admin, input, keyed(key));
      expect(retry).toMatchObject({ replayed: true, secret: first.secret, revision: 0, subscription: first.subscription });
      expect(await fixture.store.headPosition()).toEqual(head);
      await expect(service.create(admin, { ...input, url: 'https://other.example/' }, keyed(key, 'another'))).rejects.toBeInstanceOf(IdempotencyKeyReused);
      expect(await fixture.store.headPosition()).toEqual(head);
    });

    it('shows the secret on creation and rotation only: reads, changes and disabling never hold it', async () => {
      const created = await service.create(admin, input, keyed());
      const id = created.subscription.id;
      const answers = [
        await service.get(admin, id),
        await service.change(admin, id, { description: 'Partner' }, context),
        await service.disable(serviceViewer('webhook-delivery'), id, 'every delivery failed for 3 days', context),
      ];
      for (const answer of answers) {
        expect(answer).not.toHaveProperty('secret');
        expect(JSON.stringify(answer)).not.toContain('whsec_');
      }
      const rotated = await service.rotateSecret(admin, id, context);
      expect(rotated.secret).toBe(secretNo(2));
      expect(JSON.stringify(await service.get(admin, id))).not.toContain('whsec_');
    });

    it('signs with the current secret first and, for 24 h after a rotation, the previous one too', async () => {
      const { subscription } = await service.create(admin, input, keyed());
      expect(await service.signingSecrets(subscription.id, now)).toEqual([secretNo(1)]);
      now = new Date(now.getTime() + HOUR);
      const rotatedAt = now.getTime();
      await service.rotateSecret(admin, subscription.id, context);
      expect(await service.signingSecrets(subscription.id, new Date(rotatedAt))).toEqual([secretNo(2), secretNo(1)]);
      expect(await service.signingSecrets(subscription.id, new Date(rotatedAt + 24 * HOUR - 1))).toEqual([secretNo(2), secretNo(1)]);
      expect(await service.signingSecrets(subscription.id, new Date(rotatedAt + 24 * HOUR))).toEqual([secretNo(2)]);
      // A second rotation within the 24 h ends the oldest secret at once.
      now = new Date(rotatedAt + 2 * HOUR);
      await service.rotateSecret(admin, subscription.id, context);
      expect(await service.signingSecrets(subscription.id, now)).toEqual([secretNo(3), secretNo(2)]);
    });

    it('disables a subscription with its reason; disabling it again writes nothing; an admin re-enables it', async () => {
      const { subscription } = await service.create(admin, input, keyed());
      const worker = serviceViewer('webhook-delivery');
      const disabled = await service.disable(worker, subscription.id, 'every delivery failed for 3 days', context);
      expect(disabled.subscription).toMatchObject({ status: 'disabled', disabledReason: 'every delivery failed for 3 days', disabledAt: now.toISOString() });
      const head = await fixture.store.headPosition();
      expect((await service.disable(worker, subscription.id, 'again', context)).subscription.disabledReason).toBe('every delivery failed for 3 days');
      expect(await fixture.store.headPosition()).toEqual(head);
      expect((await service.change(admin, subscription.id, { status: 'active' }, context)).subscription).toMatchObject({ status: 'active', disabledReason: null, disabledAt: null });
    });

    it('deletes a subscription: afterwards it reads as unknown, has no secrets, cannot change; deleting again writes nothing', async () => {
      const { subscription } = await service.create(admin, input, keyed());
      const id = subscription.id;
      await service.delete(admin, id, context);
      expect(await service.get(admin, id)).toBeNull();
      await expect(service.signingSecrets(id, now)).rejects.toBeInstanceOf(SubscriptionNotFound);
      await expect(service.change(admin, id, { status: 'paused' }, context)).rejects.toBeInstanceOf(SubscriptionNotFound);
      await expect(service.rotateSecret(admin, id, context)).rejects.toBeInstanceOf(SubscriptionNotFound);
      const head = await fixture.store.headPosition();
      expect((await service.delete(admin, id, context)).events).toEqual([]);
      expect(await fixture.store.headPosition()).toEqual(head);
      await expect(service.delete(admin, randomUUID(), context)).rejects.toBeInstanceOf(SubscriptionNotFound);
    });

    it('refuses a URL the check refuses, on creation and on change, with webhook-url-refused and its reason, writing nothing', async () => {
      const { subscription } = await service.create(admin, input, keyed());
      const head = await fixture.store.headPosition();
      for (const attempt of [() => service.create(admin, { ...input, url: 'http://hooks.partner.example/in' }, keyed()), () => service.change(admin, subscription.id, { url: 'ftp://hooks.partner.example/' }, context)]) {
        const refusal = await attempt().then(() => null, (error: unknown) => error);
        expect(refusal).toBeInstanceOf(WebhookUrlRefused);
        expect(refusal).toMatchObject({ rule: 'webhook-url-refused', message: expect.stringContaining('it must use https') });
      }
      expect(await fixture.store.headPosition()).toEqual(head);
      expect((await service.get(admin, subscription.id))?.subscription.url).toBe(input.url);
    });

    it('refuses an API version that is not served, and a customer token whatever its scopes, writing nothing', async () => {
      const head = await fixture.store.headPosition();
      await expect(service.create(admin, { ...input, apiVersion: '2025-01-01' }, keyed())).rejects.toBeInstanceOf(ValidationFailed);
      await expect(service.create(customer, input, keyed())).rejects.toBeInstanceOf(Forbidden);
      expect(await fixture.store.headPosition()).toEqual(head);
    });
  });
}
