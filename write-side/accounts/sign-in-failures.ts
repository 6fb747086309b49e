// Failed sign-ins per email, kept in the event store so that the limit holds across every API
// process and restart: five failures for one email within 15 minutes, and that email is refused
// until the oldest of them is 15 minutes old. Each email's failures go to one small stream per
// 15-minute bucket (the current and the previous bucket cover any window), which stops growing
// once the email is throttled, since a throttled sign-in is not tried and records nothing.
import { createHash } from 'node:crypto';
import type { EventStore } from '../kernel/event-store.js';

export const SIGN_IN_FAILURE_LIMIT = 5;
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const SIGN_IN_FAILURES_PREFIX = 'sign-in-failures-';

/** The email is not in the stream's name in clear. */
function stream(email: string, bucket: number): string {
  return `${SIGN_IN_FAILURES_PREFIX}${createHash('sha256').update(email).digest('hex').slice(0, 32)}-${bucket}`;
}

export class SignInFailures {
  constructor(
    private readonly store: EventStore,
    private readonly clock: () => Date,
  ) {}

  /** Seconds until this email may try again; null while it may. */
  async retryAfterSeconds(email: string): Promise<number | null> {
    const now = this.clock().getTime();
    const bucket = Math.floor(now / SIGN_IN_WINDOW_MS);
    const recorded = (await Promise.all([bucket - 1, bucket].map((b) => this.store.readStream(stream(email, b))))).flat();
    const times = recorded
      .map((r) => Date.parse(String(r.data.at)))
      .filter((at) => at > now - SIGN_IN_WINDOW_MS && at <= now)
      .sort((a, b) => a - b);
    if (times.length < SIGN_IN_FAILURE_LIMIT) return null;
    const until = times[times.length - SIGN_IN_FAILURE_LIMIT]! + SIGN_IN_WINDOW_MS;
    return Math.max(1, Math.ceil((until - now) / 1000));
  }

  async record(email: string, context: { correlationId: string }): Promise<void> {
    const now = this.clock();
    const event = {
      type: 'SignInFailed',
      data: { at: now.toISOString() },
      metadata: { schemaVersion: 1, principal: 'sign-in', correlationId: context.correlationId, causationId: null },
    };
    await this.store.appendToStream(stream(email, Math.floor(now.getTime() / SIGN_IN_WINDOW_MS)), [event], 'any');
  }
}
