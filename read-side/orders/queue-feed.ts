// The fulfilment queue's changes as a feed (GET /fulfilment-queue/changes): read from the changes
// the fulfilment-queue projection records with their log positions, and followed live by waiting
// on the projection's progress. Staff only: the queue belongs to no single customer.
import { isStaff, type Viewer } from '../../write-side/kernel/access.js';
import { Forbidden, ValidationFailed } from '../../write-side/kernel/errors.js';
import type { Position } from '../../write-side/kernel/event-store.js';
import { comparePositions, encodePosition, parsePosition, successorOf } from '../../write-side/kernel/position.js';
import { Consistency, type ProjectionProgress } from '../kernel/consistency.js';
import type { ReadModelStore } from '../read-store.js';
import type { QueueChange } from './views.js';

/** Where the log ends: a feed position beyond it is one the log never gave out. */
export interface LogHead {
  headPosition(): Promise<Position | null>;
}

export interface FeedStart {
  /** The position to continue after, as the client sent it; absent starts at the beginning. */
  readonly after?: string;
  /** Where the client sent it: the `after` parameter or the Last-Event-ID header. */
  readonly from?: 'after' | 'last-event-id';
}

export interface FeedPage {
  readonly changes: readonly QueueChange[];
  /** The position to ask from next: past the last change, and past events that changed nothing. */
  readonly next: Position | null;
}

const FOLLOW_PAGE = 100;
/** How long a follower waits on the progress before it reads again (a progress that cannot be aborted is left this soon). */
const FOLLOW_WAIT_MS = 5000;
const ORIGIN = encodePosition(0n);

export class QueueFeed {
  private readonly consistency: Consistency;

  constructor(
    private readonly store: ReadModelStore,
    private readonly progress: ProjectionProgress,
    private readonly log: LogHead,
    consistencyWaitMs: number,
  ) {
    this.consistency = new Consistency(progress, 'queue', consistencyWaitMs);
  }

  /**
   * Up to `limit` changes after the start; when there are none yet, waits up to `waitMs` for the
   * first. With a write's Consistency-Token, the changes that write made are included.
   */
  async read(
    viewer: Viewer,
    start: FeedStart,
    options: { limit: number; waitMs: number; signal?: AbortSignal; consistencyToken?: string },
  ): Promise<FeedPage> {
    const after = await this.start(viewer, start);
    await this.consistency.reflect(options.consistencyToken);
    let page = await this.page(after, options.limit);
    const deadline = Date.now() + options.waitMs;
    while (page.changes.length === 0 && !options.signal?.aborted) {
      const remaining = deadline - Date.now();
      if (remaining <= 0 || !(await this.progress.waitFor(beyond(page.next), remaining, options.signal))) break;
      page = await this.page(page.next, options.limit);
    }
    return page;
  }

  /** Every change after the start, then live ones as the projection records them, until `signal` aborts. */
  async follow(viewer: Viewer, start: FeedStart, signal: AbortSignal): Promise<AsyncIterable<QueueChange>> {
    let after = await this.start(viewer, start);
    const feed = this;
    return {
      async *[Symbol.asyncIterator]() {
        while (!signal.aborted) {
          const page = await feed.page(after, FOLLOW_PAGE);
          for (const change of page.changes) {
            if (signal.aborted) return;
            yield change;
          }
          after = page.next;
          if (page.changes.length < FOLLOW_PAGE) await feed.progress.waitFor(beyond(after), FOLLOW_WAIT_MS, signal);
        }
      },
    };
  }

  /** Who may read the feed, and where it starts: a position the log has not reached is refused. */
  private async start(viewer: Viewer, start: FeedStart): Promise<Position | null> {
    if (!isStaff(viewer)) throw new Forbidden('The fulfilment queue belongs to no single customer: a customer token cannot read it.');
    if (start.after === undefined || start.after === '') return null;
    const pointer = start.from === 'last-event-id' ? '/headers/last-event-id' : '/after';
    const after = parsePosition(start.after);
    if (!after) throw new ValidationFailed([{ pointer, message: 'is not a position of this feed' }]);
    const head = (await this.log.headPosition()) ?? ORIGIN;
    if (comparePositions(after, head) > 0) throw new ValidationFailed([{ pointer, message: 'lies beyond the end of the log: it is no position this feed gave out' }]);
    return after;
  }

  private async page(after: Position | null, limit: number): Promise<FeedPage> {
    const { changes, checkpoint } = await this.store.changesAfter<QueueChange>('fulfilment-queue', after, limit);
    const last = changes.at(-1)?.position ?? null;
    // A full page may stop short of the checkpoint; otherwise every change up to it was read.
    const next = changes.length === limit ? last : latest(latest(after, last), checkpoint);
    return { changes, next };
  }
}

function latest(a: Position | null, b: Position | null): Position | null {
  if (a === null) return b;
  if (b === null) return a;
  return comparePositions(a, b) >= 0 ? a : b;
}

/** The position the views must reach to hold something after `position`. */
function beyond(position: Position | null): Position {
  return position === null ? ORIGIN : successorOf(position);
}
