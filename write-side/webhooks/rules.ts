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

// ---- Delivery retries and disabling (the delivery worker's schedule, written once) ----

/**
 * How long after a failed attempt the next one is due: after the 1st failure 5 s, then 1 min,
 * 5 min, 30 min, 2 h, 8 h, and then every RETRY_EVERY_MS, for as long as the next attempt's
 * nominal time stays within RETRY_FOR_MS of the first attempt (HTTP-CONTRACT "Webhooks").
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [5_000, 60_000, 300_000, 1_800_000, 7_200_000, 28_800_000];
export const RETRY_EVERY_MS = 12 * 60 * 60 * 1000;
/** About 3 days from the first attempt: no attempt is planned later than this, the delivery is then `failed`. */
export const RETRY_FOR_MS = 3 * 24 * 60 * 60 * 1000;
/** A subscription with failures and no success for this long (from the first failure since its last success) is disabled. */
export const DISABLE_AFTER_FAILING_MS = 3 * 24 * 60 * 60 * 1000;

/** The nominal wait after the `attemptsMade`-th failed attempt (1-based). */
export function retryDelayMs(attemptsMade: number): number {
  return RETRY_SCHEDULE_MS[attemptsMade - 1] ?? RETRY_EVERY_MS;
}

/**
 * When a delivery whose first attempt was at `firstAttemptAt` and which has failed `attemptsMade`
 * times is attempted next; null when it is to fail for good. The schedule is anchored to the first
 * attempt (the k-th retry's nominal time is the sum of the first k waits), so slow attempts do not
 * stretch it past 3 days; each wait has EQUAL jitter: its first half fixed, its second half spread
 * by `random()` (in [0, 1)), so retries of many deliveries that failed together spread out while
 * none comes sooner than half its wait, and the attempts stay in order. 12 attempts in all, the
 * last about 64 to 71 h after the first.
 */
export function nextAttemptAt(firstAttemptAt: Date, attemptsMade: number, random: () => number): Date | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 1) throw new RangeError(`attemptsMade is a count of failed attempts, at least 1, not ${attemptsMade}`);
  let before = 0;
  for (let k = 1; k < attemptsMade; k++) before += retryDelayMs(k);
  const wait = retryDelayMs(attemptsMade);
  if (before + wait > RETRY_FOR_MS) return null;
  const jittered = wait / 2 + Math.min(Math.max(random(), 0), 1) * (wait / 2);
  return new Date(firstAttemptAt.getTime() + before + Math.round(jittered));
}

/** Whether a subscription failing since `failingSince` (null: its last attempt succeeded) is to be disabled at `now`. */
export function shouldDisable(failingSince: Date | null, now: Date): boolean {
  return failingSince !== null && now.getTime() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS;
}
