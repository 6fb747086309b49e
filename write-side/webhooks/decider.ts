// The webhook subscription decider: pure functions from (command, state) to events and from
// (state, event) to state. The command brings `now` and any new secret; the URL check is the
// service's (it may look further than the command). What a subscription shows is folded by
// evolveDetails alone, which the projection shares: it never reads a secret.
import { StateConflict, ValidationFailed } from '../kernel/errors.js';
import { eventSelectionErrors, previousValidUntil, SubscriptionNotFound } from './rules.js';
import {
  isLive,
  type LiveSubscription,
  type SigningKeys,
  type Subscription,
  type SubscriptionChanges,
  type SubscriptionDetails,
  type SubscriptionPatch,
  type WebhookCommand,
  type WebhookEvent,
  type WebhookSubscriptionDeleted,
} from './types.js';

export const initialSubscription = (): Subscription => ({ status: 'absent' });

/** The subscription as it shows after the event, from what it showed before (null before its creation). */
export function evolveDetails(details: SubscriptionDetails | null, event: Exclude<WebhookEvent, WebhookSubscriptionDeleted>): SubscriptionDetails {
  if (event.type === 'WebhookSubscriptionCreated') {
    const { subscriptionId: id, url, events, apiVersion, description, createdAt } = event.data;
    return { id, url, events, apiVersion, description, status: 'active', disabledReason: null, disabledAt: null, createdAt, updatedAt: createdAt };
  }
  if (!details) throw new TypeError(`${event.type} of webhook subscription ${event.data.subscriptionId}, which was never created`);
  switch (event.type) {
    case 'WebhookSubscriptionChanged': {
      const { url, events, status, description } = event.data.changes;
      return {
        ...details,
        ...(url === undefined ? {} : { url }),
        ...(events === undefined ? {} : { events }),
        ...(description === undefined ? {} : { description }),
        // A status an admin sets ends a disablement: its reason goes with it.
        ...(status === undefined ? {} : { status, disabledReason: null, disabledAt: null }),
        updatedAt: event.data.changedAt,
      };
    }
    case 'WebhookSecretRotated':
      return { ...details, updatedAt: event.data.rotatedAt };
    case 'WebhookSubscriptionDisabled':
      return { ...details, status: 'disabled', disabledReason: event.data.reason, disabledAt: event.data.disabledAt, updatedAt: event.data.disabledAt };
    default: {
      const unknown: never = event;
      throw new TypeError(`unhandled event ${(unknown as WebhookEvent).type}`);
    }
  }
}

/** The signing secrets after the event. */
function evolveKeys(keys: SigningKeys | null, event: WebhookEvent): SigningKeys | null {
  switch (event.type) {
    case 'WebhookSubscriptionCreated':
      return { current: event.data.secret, previous: null };
    case 'WebhookSecretRotated':
      if (!keys) throw new TypeError(`WebhookSecretRotated of webhook subscription ${event.data.subscriptionId}, which has no secret`);
      return { current: event.data.secret, previous: { secret: keys.current, validUntil: event.data.previousValidUntil } };
    default:
      return keys;
  }
}

export function evolveSubscription(state: Subscription, event: WebhookEvent): Subscription {
  if (event.type === 'WebhookSubscriptionDeleted') return { status: 'deleted', id: event.data.subscriptionId, deletedAt: event.data.deletedAt };
  const live = isLive(state) ? state : null;
  const secrets = evolveKeys(live ? live.secrets : null, event);
  if (!secrets) throw new TypeError(`${event.type} left webhook subscription ${event.data.subscriptionId} without a secret`);
  return { ...evolveDetails(live && detailsOf(live), event), secrets };
}

export function decideSubscription(command: WebhookCommand, state: Subscription): WebhookEvent[] {
  const now = command.metadata.now;
  switch (command.type) {
    case 'CreateSubscription': {
      if (state.status !== 'absent') throw new StateConflict(`Webhook subscription ${state.id} exists already.`, state.status);
      const { subscriptionId, url, events, apiVersion, description, secret } = command.data;
      refuseSelection(events);
      return [{ type: 'WebhookSubscriptionCreated', schemaVersion: 1, data: { subscriptionId, url, events, apiVersion, description, secret, createdAt: now } }];
    }
    case 'ChangeSubscription': {
      const { subscriptionId, patch } = command.data;
      const live = existing(state, subscriptionId);
      if (patch.events !== undefined) refuseSelection(patch.events);
      const changes = changedMembers(live, patch);
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'WebhookSubscriptionChanged', schemaVersion: 1, data: { subscriptionId, changes, changedAt: now } }];
    }
    case 'RotateSecret': {
      const { subscriptionId, secret } = command.data;
      existing(state, subscriptionId);
      return [{ type: 'WebhookSecretRotated', schemaVersion: 1, data: { subscriptionId, secret, previousValidUntil: previousValidUntil(now), rotatedAt: now } }];
    }
    case 'DisableSubscription': {
      const { subscriptionId, reason } = command.data;
      // Disabled already: the first reason stands.
      if (existing(state, subscriptionId).status === 'disabled') return [];
      return [{ type: 'WebhookSubscriptionDisabled', schemaVersion: 1, data: { subscriptionId, reason, disabledAt: now } }];
    }
    case 'DeleteSubscription': {
      const { subscriptionId } = command.data;
      if (state.status === 'absent') throw new SubscriptionNotFound(subscriptionId);
      // Deleting again changes nothing (a retried DELETE).
      if (state.status === 'deleted') return [];
      return [{ type: 'WebhookSubscriptionDeleted', schemaVersion: 1, data: { subscriptionId, deletedAt: now } }];
    }
    default: {
      const unknown: never = command;
      throw new TypeError(`unhandled command ${(unknown as WebhookCommand).type}`);
    }
  }
}

export const subscriptionDecider = { initialState: initialSubscription, evolve: evolveSubscription, decide: decideSubscription };

/** What a live subscription shows: its state without its secrets. */
export function detailsOf(subscription: LiveSubscription): SubscriptionDetails {
  const { secrets: _secrets, ...details } = subscription;
  return details;
}

function existing(state: Subscription, subscriptionId: string): LiveSubscription {
  if (!isLive(state)) throw new SubscriptionNotFound(subscriptionId);
  return state;
}

function refuseSelection(events: readonly string[]): void {
  const errors = eventSelectionErrors(events);
  if (errors.length > 0) throw new ValidationFailed(errors, 'The event types are not a valid selection.');
}

/** The patch merged onto the subscription (RFC 7396), reduced to the members whose value it changes. */
function changedMembers(current: LiveSubscription, patch: SubscriptionPatch): SubscriptionChanges {
  const changes: { -readonly [K in keyof SubscriptionChanges]: SubscriptionChanges[K] } = {};
  if (patch.url !== undefined && patch.url !== current.url) changes.url = patch.url;
  if (patch.events !== undefined && JSON.stringify(patch.events) !== JSON.stringify(current.events)) changes.events = patch.events;
  if (patch.description !== undefined && patch.description !== current.description) changes.description = patch.description;
  if (patch.status !== undefined && patch.status !== current.status) changes.status = patch.status;
  return changes;
}
