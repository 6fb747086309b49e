// The rules of webhook subscriptions that more than the decider needs, written once: what an
// event selection may be, what a secret looks like, which secrets sign at an instant (the
// delivery worker's question), and the area's own errors. Pure functions.
import { AreaRuleBroken, NotFound, type FieldError } from '../kernel/errors.js';
import { ALL_WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES, type SigningKeys } from './types.js';

/** Unknown, or deleted: a deleted subscription reads as one that never was. */
export class SubscriptionNotFound extends NotFound {
  constructor(readonly subscriptionId: string) {
    super('webhook subscription', subscriptionId);
  }
}

/** What the URL check answers (the sender's checkWebhookUrl: https, and public unless WEBHOOK_ALLOWED_HOSTS lists the host). */
export type UrlVerdict = { readonly ok: true } | { readonly ok: false; readonly reason: string };
export type UrlCheck = (url: string) => UrlVerdict;

/** A subscription's URL that the URL check refused; `detail` says why. */
export class WebhookUrlRefused extends AreaRuleBroken {
  readonly rule = 'webhook-url-refused';
  override readonly details: { readonly errors: readonly FieldError[] };
  constructor(reason: string) {
    super(`The webhook URL is refused: ${reason}`);
    this.details = { errors: [{ pointer: '/url', message: reason }] };
  }
}

/** How many random bytes a secret holds, and how it is written (Standard Webhooks' `whsec_` + base64). */
export const SECRET_BYTES = 32;
export const SECRET_PREFIX = 'whsec_';

export function secretOf(bytes: Uint8Array): string {
  if (bytes.length !== SECRET_BYTES) throw new TypeError(`a webhook secret takes ${SECRET_BYTES} random bytes, not ${bytes.length}`);
  return SECRET_PREFIX + Buffer.from(bytes).toString('base64');
}

/** How long a rotated-out secret still signs, so that a receiver can switch to the new one in its own time. */
export const PREVIOUS_SECRET_VALID_MS = 24 * 60 * 60 * 1000;

export function previousValidUntil(rotatedAt: string): string {
  return new Date(Date.parse(rotatedAt) + PREVIOUS_SECRET_VALID_MS).toISOString();
}

/** The secrets a message sent at `now` is signed with: the current one first, then the previous one while it is valid. */
export function signingSecretsAt(keys: SigningKeys, now: Date): string[] {
  const previous = keys.previous && now.getTime() < Date.parse(keys.previous.validUntil) ? [keys.previous.secret] : [];
  return [keys.current, ...previous];
}

const KNOWN: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES);

/** What is wrong with an event selection: it is `["*"]` alone, or one or more distinct known event types. */
export function eventSelectionErrors(events: readonly string[], pointer = '/events'): FieldError[] {
  if (events.length === 0) return [{ pointer, message: 'must name at least one event type, or be ["*"]' }];
  if (events.includes(ALL_WEBHOOK_EVENTS)) return events.length === 1 ? [] : [{ pointer, message: '"*" stands alone: it already means every event type' }];
  const errors: FieldError[] = [];
  events.forEach((type, i) => {
    if (!KNOWN.has(type)) errors.push({ pointer: `${pointer}/${i}`, message: `is not an event type; one of ${WEBHOOK_EVENT_TYPES.join(', ')}` });
    else if (events.indexOf(type) !== i) errors.push({ pointer: `${pointer}/${i}`, message: `${type} is named twice` });
  });
  return errors;
}

// ---- the delivery log ----

/** Unknown, or of another subscription. */
export class DeliveryNotFound extends NotFound {
  constructor(readonly deliveryId: string) {
    super('webhook delivery', deliveryId);
  }
}
