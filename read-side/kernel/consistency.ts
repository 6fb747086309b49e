// The Consistency-Token wait, the one for every read of projected views: parse the token, wait
// (up to a limit) until the views include its position, and tell the position the answer reflects.
import { ValidationFailed, ViewsBehind } from '../../write-side/kernel/errors.js';
import type { EventStore, Position } from '../../write-side/kernel/event-store.js';
import { comparePositions, encodePosition, parsePosition, successorOf } from '../../write-side/kernel/position.js';

/**
 * How far a projection's views have come. The projector implements it in its own process; a
 * process that only reads can implement it by polling the checkpoints in the read store.
 */
export interface ProjectionProgress {
  /** The log position the views include; null before their first event. */
  readonly position: Position | null;
  /** Resolves true once the views include `position`; false after `timeoutMs` (or when `signal` aborts, where supported). */
  waitFor(position: Position, timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
  /**
   * A reader is held up until the views include `position`, for up to `forMs`: apply what has
   * come without waiting to gather more. Where the projector runs elsewhere (another process,
   * polled through its checkpoint) there is none.
   */
  hurry?(position: Position, forMs: number): void;
}

/**
 * Whether the log holds an event these views read after `after` (their position) up to `upTo`.
 * A token of a write to streams the views do not read (a product write, for the orders) lies
 * beyond anything they will reach until their own next event: when nothing of theirs lies
 * between, they include that write's effect on them already.
 */
export type PendingEvents = (after: Position | null, upTo: Position) => Promise<boolean>;

export class Consistency {
  constructor(
    private readonly progress: ProjectionProgress,
    /** What the views are called in the 503's message ("collections", "queue"). */
    private readonly views: string,
    private readonly waitMs: number,
    private readonly pending?: PendingEvents,
  ) {}

  /** The position the answer reflects, once the views include the token's (when one is given). */
  async reflect(token: string | undefined): Promise<Position> {
    if (token !== undefined && token !== '') {
      const position = parsePosition(token);
      if (!position) throw new ValidationFailed([{ pointer: '/headers/consistency-token', message: 'is not a consistency token of this service' }]);
      const reached = (await this.progress.waitFor(position, 0)) || (this.pending !== undefined && !(await this.pending(this.progress.position, position)));
      if (!reached) {
        this.progress.hurry?.(position, this.waitMs);
        if (!(await this.progress.waitFor(position, this.waitMs))) throw new ViewsBehind(this.views);
      }
    }
    return this.progress.position ?? encodePosition(0n);
  }

  /**
   * Resolves true once the views include something past `position` (what an answer reflected: a
   * follower's wait for the next change), false after `timeoutMs` or when `signal` aborts.
   */
  waitPast(position: Position, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    return this.progress.waitFor(successorOf(position), timeoutMs, signal);
  }
}

/**
 * The Consistency-Token waits of a service: on the views of a projection that reads the streams
 * under `streamPrefixes`, which a write to other streams never holds up (PendingEvents).
 */
export function consistencyOn(log: Pick<EventStore, 'headPosition' | 'readAll'>, waitMs: number) {
  return (progress: ProjectionProgress, streamPrefixes: readonly string[], views: string): Consistency =>
    new Consistency(progress, views, waitMs, async (after, upTo) => {
      // A position the log has not reached is no write's: the views wait for it as for any other.
      const head = await log.headPosition();
      if (head === null || comparePositions(upTo, head) > 0) return true;
      const [next] = await log.readAll({ after, maxCount: 1, streamPrefixes });
      return next !== undefined && comparePositions(next.position, upTo) <= 0;
    });
}
