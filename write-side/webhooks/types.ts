// Webhook subscription events, commands and state: readonly data, unions on `type` and `status`.
// The signing secrets are part of the state and of two events (the creation and a rotation); they
// are never part of what a subscription shows (SubscriptionDetails), which is all a projection folds.
import type { CommandMetadata } from '../kernel/write-context.js';

/** The event types a subscription may ask for (HTTP-CONTRACT "Webhooks"); `*` asks for all of them. */
export const WEBHOOK_EVENT_TYPES = [
  'order.placed',
  'order.paid',
  'order.address_changed',
  'order.shipped',
  'order.cancelled',
  'order.edited',
  'order.refunded',
  'return.requested',
  'return.received',
  'product.changed',
  'stock.low',
  'customer.erased',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const ALL_WEBHOOK_EVENTS = '*';

/** What a subscription asks for: some event types, or `["*"]` for every one, also those added later. */
export type EventSelection = readonly WebhookEventType[] | readonly [typeof ALL_WEBHOOK_EVENTS];

/** `disabled` is set by the delivery worker alone (every delivery failed for 3 days); an admin may set it active again. */
export type SubscriptionStatus = 'active' | 'paused' | 'disabled';
/** What a PATCH may set. */
export type SettableStatus = Exclude<SubscriptionStatus, 'disabled'>;

/** What a client sets on a subscription at its creation. */
export interface SubscriptionSettings {
  readonly url: string;
  readonly events: EventSelection;
  readonly apiVersion: string;
  readonly description: string | null;
}

/** An RFC 7396 merge patch of a subscription: null removes the description. */
export interface SubscriptionPatch {
  readonly url?: string;
  readonly events?: EventSelection;
  readonly status?: SettableStatus;
  readonly description?: string | null;
}

/** The members a change may record, with their new values. */
export interface SubscriptionChanges {
  readonly url?: string;
  readonly events?: EventSelection;
  readonly status?: SettableStatus;
  readonly description?: string | null;
}

// ---- events (past tense) ----

/** `secret` is the first signing secret: held by the subscription's events alone, never by a view. */
export type WebhookSubscriptionCreated = {
  readonly type: 'WebhookSubscriptionCreated';
  readonly schemaVersion: 1;
  readonly data: SubscriptionSettings & { readonly subscriptionId: string; readonly secret: string; readonly createdAt: string };
};

/** Only the members that changed, with their new values; a status set by it clears a disabled subscription's reason. */
export type WebhookSubscriptionChanged = {
  readonly type: 'WebhookSubscriptionChanged';
  readonly schemaVersion: 1;
  readonly data: { readonly subscriptionId: string; readonly changes: SubscriptionChanges; readonly changedAt: string };
};

/** The new secret; the one it replaces stays valid for signing until `previousValidUntil`. */
export type WebhookSecretRotated = {
  readonly type: 'WebhookSecretRotated';
  readonly schemaVersion: 1;
  readonly data: { readonly subscriptionId: string; readonly secret: string; readonly previousValidUntil: string; readonly rotatedAt: string };
};

export type WebhookSubscriptionDisabled = {
  readonly type: 'WebhookSubscriptionDisabled';
  readonly schemaVersion: 1;
  readonly data: { readonly subscriptionId: string; readonly reason: string; readonly disabledAt: string };
};

export type WebhookSubscriptionDeleted = {
  readonly type: 'WebhookSubscriptionDeleted';
  readonly schemaVersion: 1;
  readonly data: { readonly subscriptionId: string; readonly deletedAt: string };
};

export type WebhookEvent = WebhookSubscriptionCreated | WebhookSubscriptionChanged | WebhookSecretRotated | WebhookSubscriptionDisabled | WebhookSubscriptionDeleted;
export type WebhookEventName = WebhookEvent['type'];

// ---- commands (the clock, and any secret, arrive inside them) ----

export type CreateSubscription = {
  readonly type: 'CreateSubscription';
  readonly data: SubscriptionSettings & { readonly subscriptionId: string; readonly secret: string };
  readonly metadata: CommandMetadata;
};

export type ChangeSubscription = {
  readonly type: 'ChangeSubscription';
  readonly data: { readonly subscriptionId: string; readonly patch: SubscriptionPatch };
  readonly metadata: CommandMetadata;
};

export type RotateSecret = {
  readonly type: 'RotateSecret';
  readonly data: { readonly subscriptionId: string; readonly secret: string };
  readonly metadata: CommandMetadata;
};

export type DisableSubscription = {
  readonly type: 'DisableSubscription';
  readonly data: { readonly subscriptionId: string; readonly reason: string };
  readonly metadata: CommandMetadata;
};

export type DeleteSubscription = {
  readonly type: 'DeleteSubscription';
  readonly data: { readonly subscriptionId: string };
  readonly metadata: CommandMetadata;
};

export type WebhookCommand = CreateSubscription | ChangeSubscription | RotateSecret | DisableSubscription | DeleteSubscription;

// ---- state ----

/** What a subscription shows: everything but its secrets. */
export interface SubscriptionDetails extends SubscriptionSettings {
  readonly id: string;
  readonly status: SubscriptionStatus;
  /** Why the delivery worker disabled it; null unless `disabled`. */
  readonly disabledReason: string | null;
  readonly disabledAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The secrets messages are signed with: the current one, and the one it replaced while its 24 h run. */
export interface SigningKeys {
  readonly current: string;
  readonly previous: { readonly secret: string; readonly validUntil: string } | null;
}

export interface LiveSubscription extends SubscriptionDetails {
  readonly secrets: SigningKeys;
}

export interface DeletedSubscription {
  readonly status: 'deleted';
  readonly id: string;
  readonly deletedAt: string;
}

export type Subscription = { readonly status: 'absent' } | LiveSubscription | DeletedSubscription;

export function isLive(subscription: Subscription): subscription is LiveSubscription {
  return subscription.status === 'active' || subscription.status === 'paused' || subscription.status === 'disabled';
}

// ---- the delivery log: one stream per subscription, `webhook-deliveries-<subscriptionId>` ----
// Each delivery is one event of the store sent to one subscription; its id is deliveryIdOf
// (subscriptionId, eventId) (rules.ts). What the worker's attempts came to, and an admin's
// retries, are facts appended with any expected revision: none decides on another.

/** What an attempt came to: the delivery succeeded, will be tried again at `nextAttemptAt`, or failed for good. */
export type AttemptOutcome = 'succeeded' | 'retrying' | 'failed';

/** One attempt to send one event to one subscription. `statusCode` when an answer came, `error` when none did (a timeout, a refused connection). */
export interface RecordedAttempt {
  readonly deliveryId: string;
  /** The store's event, and its log position. */
  readonly eventId: string;
  readonly eventPosition: string;
  /** The webhook event type, e.g. `order.paid`. */
  readonly type: WebhookEventType;
  /** The resource the event is of (an order's id, a SKU…): deliveries of one resource go in log order. */
  readonly resource: string;
  /** The replay (its job's id) that sent the event again; absent for the event's first delivery. */
  readonly jobId?: string;
  readonly at: string;
  readonly statusCode?: number;
  readonly error?: string;
  readonly durationMs: number;
  readonly outcome: AttemptOutcome;
  /** When the next attempt is due; null unless the outcome is `retrying`. */
  readonly nextAttemptAt: string | null;
}

/** A batch of attempts, as the delivery worker flushes them (one event per flush). */
export type WebhookAttemptsRecorded = {
  readonly type: 'WebhookAttemptsRecorded';
  readonly schemaVersion: 1;
  readonly data: {
    readonly subscriptionId: string;
    readonly attempts: readonly RecordedAttempt[];
    /**
     * The live deliveries' flush says since when the subscription has failed (its first failed
     * attempt since its last success; null: its last attempt succeeded), so that the 3 days before
     * it is disabled count across restarts. Absent from a replay's flush, and from older events.
     */
    readonly failingSince?: string | null;
  };
};

/** An admin asked for a delivery to be attempted again at once; the worker reads it from the log. */
export type WebhookDeliveryRetryRequested = {
  readonly type: 'WebhookDeliveryRetryRequested';
  readonly schemaVersion: 1;
  readonly data: {
    readonly subscriptionId: string;
    readonly deliveryId: string;
    readonly eventId: string;
    readonly eventPosition: string;
    readonly type: WebhookEventType;
    readonly resource: string;
    /** The replay that made the delivery; absent for a first delivery. */
    readonly jobId?: string;
    readonly requestedAt: string;
  };
};

export type WebhookDeliveryEvent = WebhookAttemptsRecorded | WebhookDeliveryRetryRequested;
export type WebhookDeliveryEventName = WebhookDeliveryEvent['type'];

/** What a delivery's log shows of it: pending while an attempt is due (after a `retrying` outcome or a retry request), then succeeded or failed. */
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** An attempt as a delivery shows it: an answer's status code, or the error when none came. */
export interface AttemptSummary {
  readonly at: string;
  readonly statusCode?: number;
  readonly error?: string;
  readonly durationMs: number;
}

/** A delivery as its log shows it, folded by evolveDelivery (delivery-log.ts). */
export interface Delivery {
  readonly id: string;
  readonly subscriptionId: string;
  readonly eventId: string;
  readonly eventPosition: string;
  readonly type: WebhookEventType;
  readonly resource: string;
  /** The replay (its job's id) whose delivery this is; null for the event's first delivery. */
  readonly jobId: string | null;
  readonly status: DeliveryStatus;
  /** The latest attempts, oldest first: at most MAX_ATTEMPTS_KEPT (delivery-log.ts). */
  readonly attempts: readonly AttemptSummary[];
  /** How many attempts were made in all, those no longer kept included. */
  readonly attemptCount: number;
  readonly nextAttemptAt: string | null;
  /** Its first attempt, or the retry request that came first. */
  readonly createdAt: string;
  readonly updatedAt: string;
}
