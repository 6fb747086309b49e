// The projector: follows the event log from a projection's checkpoint (catch-up, then live),
// applies events in batches, and starts again from the checkpoint after any failure.
import type { ProjectionProgress as ViewsProgress } from '../read-side/kernel/consistency.js';
import type { ProjectionName, ReadModelStore } from '../read-side/read-store.js';
import type { EventStore, EventSubscription, Position, RecordedEvent } from '../write-side/kernel/event-store.js';
import { comparePositions } from '../write-side/kernel/position.js';
import { applyBatch, historyFrom, type HistoryReader } from './apply.js';
import { rebuild } from './rebuild.js';
import { streamPrefixesOf, type AnyProjection } from './projection.js';

export interface ProjectorOptions {
  readonly batchSize?: number;
  /** How long a batch waits for more events after its first, while events come few (the most a write's projection is delayed by batching then). */
  readonly batchDelayMs?: number;
  /** The longest that wait grows to while events come many (see `nextBatchDelay`); a hurry cuts it short (`hurry`). */
  readonly maxBatchDelayMs?: number;
  readonly onError?: (error: unknown, retryInMs: number) => void;
  /**
   * Each position the views are known to include (the checkpoint when following starts, then each
   * batch's, and each place in the log the subscription moved past without an event of theirs),
   * and whether the projection is caught up there.
   */
  readonly onPosition?: (position: Position | null, reachedBy: 'checkpoint' | 'batch', caughtUp: boolean) => void;
  /**
   * How often, at most, the checkpoint is stored when only the subscription moved on (past other
   * streams' events): so that a start reads on from near the head, not from the projection's own
   * last event. Each batch stores it too, and so does a stop.
   */
  readonly checkpointEveryMs?: number;
  /**
   * Views with nothing yet, on a log of at least a batch, are filled as a rebuild fills them (the
   * service's projectors); without it, they are caught up event by event, as any others.
   */
  readonly fillFromNothing?: boolean;
}

export interface ProjectorStatus {
  readonly name: ProjectionName;
  readonly position: Position | null;
  /** True when no event the projection reads lies beyond its position. */
  readonly caughtUp: boolean;
  /** Age of the oldest event not yet looked at (applied, or passed as another stream's); 0 when caught up. */
  readonly lagMs: number;
}

/**
 * A status from what the projector knows, without scanning the log: caught up when its
 * subscription said it reached the end and everything it delivered is applied (or when nothing
 * at all lies beyond the position); otherwise the lag is the age of the first event after the
 * position, one indexed read whatever the log's length.
 */
export async function statusAt(events: EventStore, name: ProjectionName, position: Position | null, caughtUp: boolean): Promise<ProjectorStatus> {
  if (caughtUp) return { name, position, caughtUp, lagMs: 0 };
  const [next] = await events.readAll({ after: position, maxCount: 1 });
  return { name, position, caughtUp: next === undefined, lagMs: next ? Math.max(0, Date.now() - next.recordedAt.getTime()) : 0 };
}

/** How far a projection's views are, as the Consistency-Token waits ask (read-side/kernel/consistency.ts), and how far behind the log, as readiness and the lag metric ask. */
export interface ProjectionProgress extends ViewsProgress {
  status(): Promise<ProjectorStatus>;
}

const NOTHING_YET = Symbol('nothing-yet');

/** How often, by default, a checkpoint that only the subscription moved is stored (ProjectorOptions.checkpointEveryMs). */
export const CHECKPOINT_EVERY_MS = 1000;

/** How long a batch waits, by default, for more events after its first while they come few (ProjectorOptions.batchDelayMs). */
export const BATCH_DELAY_MS = 5;

/**
 * The longest, by default, that the wait grows to while events come many
 * (ProjectorOptions.maxBatchDelayMs). Under a steady stream of placements the projections'
 * thread spent a third less CPU per placement at 100 ms than at 20 ms, with as much more left to
 * the thread that serves the requests (docs/benchmarks.md). A read that waits for its own write
 * (a Consistency-Token) hurries the batch and does not wait it out.
 */
export const MAX_BATCH_DELAY_MS = 100;

/** A batch of at least this many events counts as one of many: the next waits longer. */
export const BUSY_BATCH = 2;

/**
 * How long the next batch waits for more events after its first, given the last batch. Each batch
 * is one read-store transaction, whose fixed cost (on the embedded store about as much as writing
 * a view, on the thread that serves the requests) is shared by its events. While they come many,
 * the wait doubles, up to `max`, so that more share it; while they come few, it falls back to
 * `base`, so that a lone write is readable (Consistency-Token) after `base`, not after `max`.
 */
export function nextBatchDelay(current: number, lastBatch: number, base: number, max: number): number {
  return lastBatch >= BUSY_BATCH ? Math.min(current * 2, Math.max(base, max)) : base;
}

/**
 * The views' checkpoint lies past the end of the event log: the log was replaced (wiped, or
 * restored from an older copy) under read models that outlived it. Followed on from there, the
 * projection would skip every event until the log grew past the old checkpoint, and the views
 * would silently miss them; so it stops, failing readiness, until the views are rebuilt.
 */
export class CheckpointBeyondLog extends Error {
  override readonly name = 'CheckpointBeyondLog';
  constructor(
    readonly projection: ProjectionName,
    readonly checkpoint: Position,
    readonly end: Position | null,
  ) {
    super(
      `projection ${projection}: its views' checkpoint ${checkpoint} lies past the end of the event log (${end ?? 'an empty log'}); ` +
        'the log was replaced or restored from an older copy. Rebuild the views from this log: npm run projections -- rebuild',
    );
  }
}

export class Projector<N extends ProjectionName = ProjectionName> {
  private running = false;
  private loop: Promise<void> | null = null;
  private subscription: EventSubscription | null = null;
  private current: Position | null = null;
  private failure: { readonly since: Date; readonly error: unknown } | null = null;
  private readonly waiters = new Set<{ position: Position; resolve: (reached: boolean) => void }>();
  private readonly batchSize: number;
  /** The earlier events of a stream, for a projection that folds events with their history. */
  private readonly history: HistoryReader;
  private readonly batchDelayMs: number;
  private readonly maxBatchDelayMs: number;
  /** Events delivered by the subscription, and of those, applied (counted from the projector's start). */
  private delivered = 0;
  private applied = 0;
  /** Where the subscription said it reached the end of the log: after that many deliveries. Null until it has. */
  private endAt: number | null = null;
  /** The furthest position a reader is held up for (`hurry`), and until when it waits. */
  private hurried: { readonly position: Position; readonly until: number } | null = null;
  /** Ends the wait for more events of the batch being gathered, if one is. */
  private cutWindow: (() => void) | null = null;

  constructor(
    private readonly events: EventStore,
    private readonly readModels: ReadModelStore,
    readonly projection: AnyProjection<N>,
    private readonly options: ProjectorOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 1000;
    this.history = historyFrom(events);
    this.batchDelayMs = options.batchDelayMs ?? BATCH_DELAY_MS;
    this.maxBatchDelayMs = options.maxBatchDelayMs ?? MAX_BATCH_DELAY_MS;
  }

  /** The subscription reached the end of the log, and every event it delivered is applied. */
  get caughtUp(): boolean {
    return this.endAt !== null && this.applied === this.delivered;
  }

  get position(): Position | null {
    return this.current;
  }

  /** Since when, and why, the projection has been failing to move on; null while it is well. */
  get failing(): { readonly since: Date; readonly error: unknown } | null {
    return this.failure;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.subscription?.close();
    await this.loop;
    for (const waiter of this.waiters) waiter.resolve(false);
    this.waiters.clear();
  }

  /** Resolves true once the views include `position`, false after `timeoutMs` or when `signal` aborts. */
  waitFor(position: Position, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.current !== null && comparePositions(this.current, position) >= 0) return Promise.resolve(true);
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const abandon = () => waiter.resolve(false);
      const waiter = {
        position,
        resolve: (reached: boolean) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', abandon);
          this.waiters.delete(waiter);
          resolve(reached);
        },
      };
      const timer = setTimeout(abandon, timeoutMs);
      signal?.addEventListener('abort', abandon, { once: true });
      this.waiters.add(waiter);
    });
  }

  /**
   * A reader is held up until the views include `position` (it sent a write's Consistency-Token),
   * for up to `forMs`: the batch being gathered is applied at once, and until the views get there
   * (or that time has passed) each batch is applied as soon as it holds the position, its wait
   * for more no longer than the shortest. A follower's wait for the next change does not hurry.
   */
  hurry(position: Position, forMs: number): void {
    if (this.current !== null && comparePositions(this.current, position) >= 0) return;
    const was = this.hurried;
    this.hurried = {
      position: was === null || comparePositions(position, was.position) > 0 ? position : was.position,
      until: Math.max(Date.now() + forMs, was?.until ?? 0),
    };
    this.cutWindow?.();
  }

  /** The position a reader is held up for, while one is; null otherwise. */
  private hurriedTo(): Position | null {
    const hurried = this.hurried;
    if (hurried === null) return null;
    if (Date.now() > hurried.until || (this.current !== null && comparePositions(this.current, hurried.position) >= 0)) {
      this.hurried = null;
      return null;
    }
    return hurried.position;
  }

  async status(): Promise<ProjectorStatus> {
    const status = await statusAt(this.events, this.projection.name, this.current, this.caughtUp);
    // Nothing left to apply means nothing is failing to be applied (a read failure that has passed).
    if (status.caughtUp) this.failure = null;
    return status;
  }

  private async run(): Promise<void> {
    let backoff = 100;
    while (this.running) {
      try {
        await this.follow(() => {
          backoff = 100;
          this.failure = null;
        });
      } catch (error) {
        if (!this.running) break;
        this.failure ??= { since: new Date(), error };
        this.options.onError?.(error, backoff);
        await new Promise((r) => setTimeout(r, backoff));
        backoff = Math.min(backoff * 2, 5000);
      }
    }
  }

  /** One subscription's life: from the active generation's checkpoint until a failure or a switch. */
  private async follow(onProgress: () => void): Promise<void> {
    const name = this.projection.name;
    const generation = await this.readModels.activeGeneration(name);
    const views = this.readModels.views(name, generation);
    // The generation's own checkpoint is the truth, even when it lies behind the previous one.
    this.current = await views.checkpoint();
    this.options.onPosition?.(this.current, 'checkpoint', false);
    if (this.current === null && this.options.fillFromNothing === true && (await this.events.readAll({ after: null, maxCount: this.batchSize })).length === this.batchSize) {
      // Views with nothing yet, on a log of some length (a first start on a store with history,
      // read models deleted): filled as a rebuild fills them, in a generation whose indexes are
      // built once at the end, a several times cheaper catch-up than keeping every index up to
      // date through it (bench:restart). Then followed from the checkpoint it reached.
      await rebuild(this.events, this.readModels, this.projection, { goOn: () => this.running });
      return;
    }
    if (this.current !== null) {
      const end = await (this.events.endPosition ? this.events.endPosition() : this.events.headPosition());
      if (end === null || comparePositions(this.current, end) > 0) throw new CheckpointBeyondLog(name, this.current, end);
    }
    let stored = this.current;
    this.endAt = null;
    this.delivered = this.applied = 0;
    // A checkpoint that another fill of the views reached (a rebuild) answers the waits it covers.
    this.answerWaiters();
    // A place the subscription moved past (after that many deliveries), not yet known to be applied.
    let passed: { readonly position: Position; readonly after: number } | null = null;
    let flushing: NodeJS.Timeout | null = null;
    const storeCheckpoint = async () => {
      const position = this.current;
      if (position === null || (stored !== null && comparePositions(position, stored) <= 0)) return;
      await views.commit([], position);
      stored = position;
    };
    const flushLater = () => {
      flushing ??= setTimeout(() => {
        flushing = null;
        storeCheckpoint().catch(() => {}); // the next batch, or the stop, stores it
      }, this.options.checkpointEveryMs ?? CHECKPOINT_EVERY_MS);
    };
    /** Moves on to what the subscription passed, once every event delivered before it is applied. */
    const reach = () => {
      if (passed === null || this.applied < passed.after) return;
      if (this.advance(passed.position)) flushLater();
      passed = null;
    };
    const subscription = this.events.subscribeToAll({
      after: this.current,
      streamPrefixes: streamPrefixesOf(this.projection),
      onCheckpoint: (position) => {
        passed = { position, after: this.delivered };
        reach();
      },
      onCaughtUp: () => {
        const was = this.caughtUp;
        this.endAt = this.delivered;
        if (this.caughtUp && !was) this.options.onPosition?.(this.current, 'batch', true);
      },
    });
    this.subscription = subscription;
    const iterator = subscription[Symbol.asyncIterator]();
    try {
      let next = iterator.next();
      let delay = this.batchDelayMs;
      while (this.running) {
        const first = await next;
        if (first.done) return;
        const batch: RecordedEvent[] = [first.value];
        this.delivered++;
        next = iterator.next();
        // Gather what arrives within a few milliseconds, up to a batch: under a steady stream of
        // writes, one read-model commit then carries many events instead of one each. Not past
        // the position a reader is held up for (hurry): the batch that holds it is applied at once.
        const holds = (recorded: RecordedEvent) => {
          const hurried = this.hurriedTo();
          return hurried !== null && comparePositions(recorded.position, hurried) >= 0;
        };
        let timer: NodeJS.Timeout | undefined;
        const window = new Promise<typeof NOTHING_YET>((r) => {
          timer = setTimeout(r, this.hurriedTo() === null ? delay : this.batchDelayMs, NOTHING_YET);
          this.cutWindow = () => r(NOTHING_YET);
        });
        let full = holds(first.value);
        while (!full && batch.length < this.batchSize) {
          const more = await Promise.race([next, window]);
          if (more === NOTHING_YET || more.done) break;
          batch.push(more.value);
          this.delivered++;
          next = iterator.next();
          full = holds(more.value);
        }
        this.cutWindow = null;
        clearTimeout(timer);
        delay = nextBatchDelay(delay, batch.length, this.batchDelayMs, this.maxBatchDelayMs);
        if ((await this.readModels.activeGeneration(name)) !== generation) return; // a rebuild switched generations
        const position = await applyBatch(this.projection, views, batch, this.history);
        if (position !== null) stored = position;
        this.applied += batch.length;
        this.advance(position);
        reach();
        onProgress();
      }
    } finally {
      if (flushing) clearTimeout(flushing);
      this.subscription = null;
      await subscription.close();
      // Where the subscription got to past other streams' events, for the next start to read on from.
      if ((await this.readModels.activeGeneration(name).catch(() => null)) === generation) await storeCheckpoint().catch(() => {});
    }
  }

  /** Moves the position forward (never back); true when it moved. */
  private advance(position: Position | null): boolean {
    if (position === null) return false;
    if (this.current !== null && comparePositions(position, this.current) <= 0) return false;
    this.current = position;
    this.options.onPosition?.(position, 'batch', this.caughtUp);
    this.answerWaiters();
    return true;
  }

  private answerWaiters(): void {
    const position = this.current;
    if (position === null) return;
    for (const waiter of this.waiters) if (comparePositions(position, waiter.position) >= 0) waiter.resolve(true);
  }
}
