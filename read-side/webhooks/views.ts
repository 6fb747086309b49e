// The webhook subscriptions' and deliveries' views and representations. None holds a secret: the
// secrets live in the subscription's events alone (docs/webhooks.md).
import type { Delivery, EventSelection, SubscriptionDetails, SubscriptionStatus } from '../../write-side/webhooks/types.js';

/** A subscription's HTTP representation (HTTP-CONTRACT "Webhooks"). */
export interface SubscriptionRepresentation {
  readonly id: string;
  readonly url: string;
  readonly events: EventSelection;
  readonly apiVersion: string;
  readonly status: SubscriptionStatus;
  readonly description: string | null;
  /** Why the delivery worker disabled it, and when; null unless `disabled`. */
  readonly disabledReason: string | null;
  readonly disabledAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly revision: number;
}

/**
 * A subscription as the `webhook-subscriptions` projection keeps it: its representation, or, once
 * deleted, the last one with status `deleted` (views are never deleted; the collection leaves them out).
 */
export type SubscriptionView = Omit<SubscriptionRepresentation, 'status'> & { readonly status: SubscriptionStatus | 'deleted' };

/** The representation, members in the documented order. */
export function subscriptionRepresentation(details: SubscriptionDetails, revision: number): SubscriptionRepresentation {
  const { id, url, events, apiVersion, status, description, disabledReason, disabledAt, createdAt, updatedAt } = details;
  return { id, url, events, apiVersion, status, description, disabledReason, disabledAt, createdAt, updatedAt, revision };
}

/** A delivery's HTTP representation (HTTP-CONTRACT "Webhooks"): the latest attempts only (MAX_ATTEMPTS_KEPT), attemptCount counts them all. */
export type DeliveryRepresentation = Pick<Delivery, 'id' | 'eventId' | 'type' | 'jobId' | 'status' | 'attempts' | 'attemptCount' | 'nextAttemptAt' | 'createdAt' | 'updatedAt'>;

/** A delivery as the `webhook-deliveries` projection keeps it: what its log shows (with the event's position and resource, which a retry records), and the log's revision it reflects. */
export type DeliveryView = Delivery & { readonly revision: number };

/** The representation, members in the documented order. */
export function deliveryRepresentation(view: Delivery): DeliveryRepresentation {
  const { id, eventId, type, jobId, status, attempts, attemptCount, nextAttemptAt, createdAt, updatedAt } = view;
  return { id, eventId, type, jobId, status, attempts, attemptCount, nextAttemptAt, createdAt, updatedAt };
}
