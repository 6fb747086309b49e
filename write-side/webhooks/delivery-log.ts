// The delivery log's rules, pure: a delivery's id, the events the two use cases record, and how a
// delivery is folded from its log (what the deliveries projection shares). One event may hold
// attempts of several deliveries (a worker's flush): deliveryParts splits it into one event per
// delivery, which is what evolveDelivery folds.
import { v5 as uuidv5 } from 'uuid';
import { ValidationFailed } from '../kernel/errors.js';
import type { AttemptSummary, Delivery, RecordedAttempt, WebhookAttemptsRecorded, WebhookDeliveryEvent, WebhookDeliveryRetryRequested } from './types.js';

/** The namespace of delivery ids (UUID v5): fixed, so that the worker and the log name a delivery alike. */
const DELIVERY_NAMESPACE = 'c4a3c1e2-6f0b-5d7e-9a41-3b8f2d6e1a57';

/**
 * A delivery is one event of the store sent to one subscription, the first time or again by a
 * replay (its job's id): its id, the same wherever it is computed.
 */
export function deliveryIdOf(subscriptionId: string, eventId: string, jobId?: string | null): string {
  return uuidv5(jobId ? `${subscriptionId}/${eventId}/replay/${jobId}` : `${subscriptionId}/${eventId}`, DELIVERY_NAMESPACE);
}

/**
 * How many attempts a delivery keeps, the latest: a delivery retried for days (or retried by
 * hand again and again) must not grow its view without end. attemptCount counts them all.
 */
export const MAX_ATTEMPTS_KEPT = 50;

/** What a delivery is attempted with again: the event it sends. */
export type DeliveredEvent = Pick<Delivery, 'id' | 'subscriptionId' | 'eventId' | 'eventPosition' | 'type' | 'resource' | 'jobId'>;

/** An attempt as the worker reports it; its delivery's id, if given, is computed again here (deliveryIdOf), so the log cannot hold another. */
export type AttemptReport = Omit<RecordedAttempt, 'deliveryId'> & { readonly deliveryId?: string };

/** The attempts as recorded: each with the id of its delivery. Refuses an empty list alone. `failingSince`: the live deliveries' (see the event). */
export function attemptsRecorded(subscriptionId: string, attempts: readonly AttemptReport[], failingSince?: string | null): WebhookAttemptsRecorded {
  if (attempts.length === 0) throw new ValidationFailed([{ pointer: '/attempts', message: 'must hold at least one attempt' }], 'There are no attempts to record.');
  return {
    type: 'WebhookAttemptsRecorded',
    schemaVersion: 1,
    data: {
      subscriptionId,
      attempts: attempts.map((attempt) => ({ ...attempt, deliveryId: deliveryIdOf(subscriptionId, attempt.eventId, attempt.jobId) })),
      ...(failingSince === undefined ? {} : { failingSince }),
    },
  };
}

/** Since when the subscription has failed, as the last flush of its delivery log says; null when it says nothing (a replay's flush) or its last attempt succeeded. */
export function failingSinceOf(last: WebhookDeliveryEvent | null): string | null {
  return last?.type === 'WebhookAttemptsRecorded' ? (last.data.failingSince ?? null) : null;
}

export function retryRequested(delivery: DeliveredEvent, requestedAt: string): WebhookDeliveryRetryRequested {
  const { id: deliveryId, subscriptionId, eventId, eventPosition, type, resource, jobId } = delivery;
  return { type: 'WebhookDeliveryRetryRequested', schemaVersion: 1, data: { subscriptionId, deliveryId, eventId, eventPosition, type, resource, ...(jobId ? { jobId } : {}), requestedAt } };
}

/** The event split by delivery: one event per delivery it touches, each with that delivery's attempts alone, in their order. */
export function deliveryParts(event: WebhookDeliveryEvent): WebhookDeliveryEvent[] {
  if (event.type === 'WebhookDeliveryRetryRequested') return [event];
  const byDelivery = new Map<string, RecordedAttempt[]>();
  for (const attempt of event.data.attempts) {
    const attempts = byDelivery.get(attempt.deliveryId);
    if (attempts) attempts.push(attempt);
    else byDelivery.set(attempt.deliveryId, [attempt]);
  }
  if (byDelivery.size === 1) return [event];
  return [...byDelivery.values()].map((attempts) => ({ ...event, data: { ...event.data, attempts } }));
}

/** The one delivery a part touches (deliveryParts). */
export function deliveryOfPart(part: WebhookDeliveryEvent): string {
  if (part.type === 'WebhookDeliveryRetryRequested') return part.data.deliveryId;
  const first = part.data.attempts[0];
  if (!first) throw new TypeError(`WebhookAttemptsRecorded of subscription ${part.data.subscriptionId} without attempts`);
  return first.deliveryId;
}

/** The delivery after one part of its log (null before its first); the part touches this delivery alone. */
export function evolveDelivery(delivery: Delivery | null, part: WebhookDeliveryEvent): Delivery {
  switch (part.type) {
    case 'WebhookAttemptsRecorded':
      return part.data.attempts.reduce<Delivery | null>((current, attempt) => afterAttempt(current, part.data.subscriptionId, attempt), delivery)!;
    case 'WebhookDeliveryRetryRequested': {
      const { subscriptionId, deliveryId, eventId, eventPosition, type, resource, jobId, requestedAt } = part.data;
      // Attempted again at once: pending, due now.
      const base = delivery ?? { id: deliveryId, subscriptionId, eventId, eventPosition, type, resource, jobId: jobId ?? null, attempts: [], attemptCount: 0, createdAt: requestedAt };
      return { ...base, status: 'pending', nextAttemptAt: requestedAt, updatedAt: requestedAt };
    }
    default: {
      const unknown: never = part;
      throw new TypeError(`unhandled event ${(unknown as WebhookDeliveryEvent).type}`);
    }
  }
}

function afterAttempt(delivery: Delivery | null, subscriptionId: string, attempt: RecordedAttempt): Delivery {
  const { deliveryId: id, eventId, eventPosition, type, resource, jobId, at, outcome } = attempt;
  const base = delivery ?? { id, subscriptionId, eventId, eventPosition, type, resource, jobId: jobId ?? null, attempts: [], attemptCount: 0, createdAt: at };
  const attempts = [...base.attempts, summaryOf(attempt)];
  return {
    ...base,
    status: outcome === 'retrying' ? 'pending' : outcome,
    attempts: attempts.length > MAX_ATTEMPTS_KEPT ? attempts.slice(-MAX_ATTEMPTS_KEPT) : attempts,
    attemptCount: base.attemptCount + 1,
    nextAttemptAt: outcome === 'retrying' ? attempt.nextAttemptAt : null,
    updatedAt: at,
  };
}

/** An attempt as a delivery shows it: the status code of the answer, or the error when none came (both when the worker gave both). */
function summaryOf({ at, statusCode, error, durationMs }: RecordedAttempt): AttemptSummary {
  return { at, ...(statusCode === undefined ? {} : { statusCode }), ...(error === undefined ? {} : { error }), durationMs };
}
