import { describe, expect, it } from 'vitest';
import { evolveSubscription, initialSubscription, subscriptionDecider } from '../../../write-side/webhooks/decider.js';
import { SubscriptionNotFound } from '../../../write-side/webhooks/rules.js';
import type { WebhookCommand, WebhookEvent } from '../../../write-side/webhooks/types.js';
import { StateConflict, ValidationFailed } from '../../../write-side/kernel/errors.js';
import { givenDecider } from '../../support/decider.js';

const given = givenDecider(subscriptionDecider);

const subscriptionId = '7c1e2a9b-0000-4000-8000-000000000001';
const meta = { now: '2027-01-02T10:00:00.000Z', principal: 'admin-1' };
const later = { now: '2027-01-02T11:00:00.000Z', principal: 'admin-1' };
const settings = { url: 'https://hooks.partner.example/in', events: ['order.paid', 'order.shipped'] as const, apiVersion: '2027-01-01', description: null };
const SECRET = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
const NEXT = `whsec_${Buffer.alloc(32, 2).toString('base64')}`;

const create: WebhookCommand = { type: 'CreateSubscription', data: { subscriptionId, ...settings, secret: SECRET }, metadata: meta };
const change = (patch: object): WebhookCommand => ({ type: 'ChangeSubscription', data: { subscriptionId, patch }, metadata: later });
const rotate: WebhookCommand = { type: 'RotateSecret', data: { subscriptionId, secret: NEXT }, metadata: later };
const disable: WebhookCommand = { type: 'DisableSubscription', data: { subscriptionId, reason: 'every delivery failed for 3 days' }, metadata: later };
const remove: WebhookCommand = { type: 'DeleteSubscription', data: { subscriptionId }, metadata: later };

const created: WebhookEvent = { type: 'WebhookSubscriptionCreated', schemaVersion: 1, data: { subscriptionId, ...settings, secret: SECRET, createdAt: meta.now } };
const changed = (changes: object): WebhookEvent => ({ type: 'WebhookSubscriptionChanged', schemaVersion: 1, data: { subscriptionId, changes, changedAt: later.now } });
const rotated: WebhookEvent = { type: 'WebhookSecretRotated', schemaVersion: 1, data: { subscriptionId, secret: NEXT, previousValidUntil: '2027-01-03T11:00:00.000Z', rotatedAt: later.now } };
const disabled: WebhookEvent = { type: 'WebhookSubscriptionDisabled', schemaVersion: 1, data: { subscriptionId, reason: 'every delivery failed for 3 days', disabledAt: later.now } };
const deleted: WebhookEvent = { type: 'WebhookSubscriptionDeleted', schemaVersion: 1, data: { subscriptionId, deletedAt: later.now } };

const fold = (...events: WebhookEvent[]) => events.reduce(evolveSubscription, initialSubscription());

describe('webhook subscription decider', () => {
  it('creates a subscription, active, with the secret the command brings', () => {
    given().when(create).then(created);
    expect(fold(created)).toMatchObject({ id: subscriptionId, status: 'active', disabledReason: null, secrets: { current: SECRET, previous: null } });
  });
  it('refuses a second creation on the same stream', () => given(created).when(create).thenFails(StateConflict, { currentStatus: 'active' }));
  it('refuses an unknown event type, and "*" beside another', () => {
    given().when({ ...create, data: { ...create.data, events: ['order.paid', 'order.teleported'] as never } }).thenFails(ValidationFailed, { errors: [{ pointer: '/events/1' }] });
    given().when({ ...create, data: { ...create.data, events: ['*', 'order.paid'] as never } }).thenFails(ValidationFailed, { errors: [{ pointer: '/events' }] });
    given().when({ ...create, data: { ...create.data, events: [] as never } }).thenFails(ValidationFailed);
    given(created).when(change({ events: ['order.paid', 'order.paid'] })).thenFails(ValidationFailed, { errors: [{ pointer: '/events/1' }] });
  });
  it('accepts ["*"] for every event type', () => given().when({ ...create, data: { ...create.data, events: ['*'] } }).thenMatches({ data: { events: ['*'] } }));

  it('records only the members a patch changes, and nothing for a patch that changes nothing', () => {
    given(created).when(change({ url: settings.url, description: 'Partner', status: 'paused' })).then(changed({ description: 'Partner', status: 'paused' }));
    given(created).when(change({ url: settings.url, events: ['order.paid', 'order.shipped'], status: 'active' })).then();
  });
  it('re-enables a disabled subscription, which clears its reason', () => {
    given(created, disabled).when(change({ status: 'active' })).then(changed({ status: 'active' }));
    expect(fold(created, disabled, changed({ status: 'active' }))).toMatchObject({ status: 'active', disabledReason: null, disabledAt: null });
  });
  it('keeps a disabled subscription disabled through a change of its URL', () =>
    expect(fold(created, disabled, changed({ url: 'https://elsewhere.example/' }))).toMatchObject({ status: 'disabled', disabledReason: 'every delivery failed for 3 days', url: 'https://elsewhere.example/' }));

  it('rotates the secret, keeping the replaced one valid for 24 h', () => {
    given(created).when(rotate).then(rotated);
    expect(fold(created, rotated)).toMatchObject({ secrets: { current: NEXT, previous: { secret: SECRET, validUntil: '2027-01-03T11:00:00.000Z' } }, updatedAt: later.now });
  });

  it('disables a subscription with its reason, once', () => {
    given(created).when(disable).then(disabled);
    given(created, disabled).when(disable).then();
    expect(fold(created, disabled)).toMatchObject({ status: 'disabled', disabledReason: 'every delivery failed for 3 days', disabledAt: later.now });
  });

  it('deletes a subscription once; afterwards it is unknown to every other command', () => {
    given(created).when(remove).then(deleted);
    given(created, deleted).when(remove).then();
    for (const command of [change({ status: 'paused' }), rotate, disable]) given(created, deleted).when(command).thenFails(SubscriptionNotFound);
    expect(fold(created, deleted)).toEqual({ status: 'deleted', id: subscriptionId, deletedAt: later.now });
  });
  it('refuses every command but the creation on a subscription that never was', () => {
    for (const command of [change({ status: 'paused' }), rotate, disable, remove]) given().when(command).thenFails(SubscriptionNotFound);
  });
});
