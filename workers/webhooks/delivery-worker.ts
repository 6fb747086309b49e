// The webhook delivery worker (HTTP-CONTRACT "Webhooks"): the log is the queue. Per subscription,
// a cursor over the whole log takes the events that are deliveries for it into a window, sends
// them (in order per resource, in parallel across resources, at most maxInFlight at once), retries
// failures on the schedule of write-side/webhooks/rules.ts and records every attempt through the
// delivery log, in batches. The subscription's process checkpoint is a LOW-WATER MARK: it moves
// past an event only once that event's delivery, and every one before it, is final and recorded,
// so a restart takes again everything after it (at least once; receivers drop repeats by
// webhook-id). Each subscription is worked by one process at a time, under a read-store lease.
// A replay (a job) runs the same way over a fixed range of the log, with a checkpoint of its own
// and its job's lease, one per subscription at a time; its sends are deliveries of their own.
// Everything that waits uses the injected clock and timers.
import type { ReadModelStore } from '../../read-side/read-store.js';
import type { EventStore, Position, RecordedEvent } from '../../write-side/kernel/event-store.js';
import { decodePosition, encodePosition, parsePosition } from '../../write-side/kernel/position.js';
import { serviceViewer } from '../../write-side/kernel/access.js';
import type { WriteContext } from '../../write-side/kernel/write-context.js';
import { DISABLE_AFTER_FAILING_MS, nextAttemptAt, shouldDisable } from '../../write-side/webhooks/rules.js';
import type { WebhookService } from '../../write-side/webhooks/service.js';
import type { AttemptOutcome, WebhookMessage, WebhookTarget } from './sender.js';

// ---- ports: what the worker needs from the rest of the service ----

/** A subscription the worker delivers to (active ones only: paused, disabled and deleted get nothing). */
export interface DeliverySubscription {
  readonly id: string;
  readonly url: string;
  /** Event types, or `["*"]` for every one. */
  readonly events: readonly string[];
  readonly apiVersion: string;
  /**
   * Where its deliveries begin while it has no checkpoint: the log position of its creation, so
   * that a new subscription gets what happened since it was made and not the log's history (a
   * replay's job). Absent: the log's head when the worker first takes it.
   */
  readonly from?: Position | null;
}

/** The subscriptions' side (the read model's list, and WebhookService's signingSecrets and disable). */
export interface SubscriptionsPort {
  activeSubscriptions(): Promise<readonly DeliverySubscription[]>;
  signingSecrets(subscriptionId: string, now: Date): Promise<readonly string[]>;
  /** WebhookService.disable with the worker's service viewer. */
  disable(subscriptionId: string, reason: string, context: WriteContext): Promise<unknown>;
}

/** The subscriptions port from the service's use cases (disable with this worker's service viewer) and a list of the active ones. */
export function subscriptionsPortOf(
  service: Pick<WebhookService, 'signingSecrets' | 'disable'>,
  activeSubscriptions: () => Promise<readonly DeliverySubscription[]>,
): SubscriptionsPort {
  const viewer = serviceViewer(PRINCIPAL);
  return {
    activeSubscriptions,
    signingSecrets: (id, now) => service.signingSecrets(id, now),
    disable: (id, reason, context) => service.disable(viewer, id, reason, context),
  };
}

/** An open replay job (queued or running), as the jobs' read model shows it. */
export interface ReplayJobRef {
  readonly id: string;
  readonly subscriptionId: string;
  /** Log positions or instants (UTC), both inclusive. */
  readonly from: string;
  readonly to: string;
  readonly status: 'queued' | 'running';
  readonly lease: { readonly workerId: string; readonly until: string } | null;
}

/** The replay jobs' side: the jobs' read model and JobService's lifecycle, with this worker as the job's holder. */
export interface ReplayJobsPort {
  /** Open replay jobs, oldest first. */
  open(): Promise<readonly ReplayJobRef[]>;
  /** Claims the job until leaseMs from now; false when it can no longer be claimed (another took it, or it ended). */
  start(jobId: string, holder: string, leaseMs: number): Promise<boolean>;
  /** Reports progress and extends the lease; throws when the job is no longer this holder's. */
  progress(jobId: string, holder: string, processed: number, total: number, leaseMs: number): Promise<void>;
  complete(jobId: string, holder: string, count: number): Promise<void>;
  /** Ends a claimed job whose subscription was deleted. */
  failDeleted(jobId: string, holder: string): Promise<void>;
  /** Whether the subscription was deleted (or never was): its replays fail. */
  subscriptionGone(subscriptionId: string): Promise<boolean>;
  /** The replay a log event asks for (a WebhookReplayRequested), or null: taken up at once, before the jobs' read model shows it. */
  requestedIn(recorded: RecordedEvent): ReplayJobRef | null;
  /** The prefixes of the streams whose events may ask for a replay: the only ones followed while nothing is being delivered. */
  readonly requestStreams: readonly string[];
}

/** A log event as a webhook event: its contract type, the resource it orders by, and its id. */
export interface WebhookEventRef {
  readonly type: string;
  readonly resource: string;
  readonly eventId: string;
}

/** workers/webhooks/messages.ts (webhookEventOf, and buildMessage with its readers bound). */
export interface MessagesPort {
  webhookEventOf(recorded: RecordedEvent): WebhookEventRef | null;
  buildMessage(ref: WebhookEventRef, recorded: RecordedEvent, apiVersion: string): Promise<string>;
}

export type AttemptResult = 'succeeded' | 'retrying' | 'failed';

/** One attempt as the delivery log records it. */
export interface DeliveryAttempt {
  readonly deliveryId: string;
  readonly eventId: string;
  readonly eventPosition: Position;
  readonly type: string;
  readonly resource: string;
  /** The replay that sends it; absent for a first delivery. */
  readonly jobId?: string;
  readonly at: string;
  readonly statusCode?: number;
  readonly error?: string;
  readonly durationMs: number;
  readonly outcome: AttemptResult;
  readonly nextAttemptAt: string | null;
}

/** A WebhookDeliveryRetryRequested, decoded. */
export interface RetryRequest {
  readonly subscriptionId: string;
  readonly deliveryId: string;
  readonly eventId: string;
  readonly eventPosition: Position;
  readonly type: string;
  readonly resource: string;
  readonly jobId?: string;
}

/** What the delivery log knows of a delivery (optional port: see DeliveryLogPort.states). */
export interface DeliveryState {
  readonly outcome: AttemptResult;
  readonly attempts: number;
  readonly firstAttemptAt: string;
  readonly lastAttemptAt: string;
  readonly nextAttemptAt: string | null;
}

/** The delivery log's write side (recordAttempts with the worker's viewer, the retry event's decoding, the id rule). */
export interface DeliveryLogPort {
  deliveryIdOf(subscriptionId: string, eventId: string, jobId?: string | null): string;
  /**
   * Appends one WebhookAttemptsRecorded to webhook-deliveries-<subscriptionId>; `failingSince` (the
   * live deliveries' flush alone gives it) is what failingSince answers after a restart.
   */
  recordAttempts(subscriptionId: string, attempts: readonly DeliveryAttempt[], context: WriteContext, failingSince?: string | null): Promise<unknown>;
  /** The retry request a log event is, or null. */
  retryRequestOf(recorded: RecordedEvent): RetryRequest | null;
  /**
   * Optional: what is recorded already of these deliveries. With it, a delivery taken again after a
   * restart continues its schedule (or, final already, is not sent again) instead of starting over.
   */
  states?(subscriptionId: string, deliveryIds: readonly string[]): Promise<ReadonlyMap<string, DeliveryState>>;
  /**
   * Optional: the time of the subscription's first failed attempt since its last successful one
   * (null: none, or its last attempt succeeded). With it, the 3 days before a failing subscription
   * is disabled count across restarts; without it, from the first failure this process saw.
   */
  failingSince?(subscriptionId: string): Promise<Date | null>;
}

/** workers/webhooks/sender.ts's send, with its options bound. */
export type Sender = (target: WebhookTarget, message: WebhookMessage) => Promise<AttemptOutcome>;

/** setTimeout and clearTimeout, injected so that tests drive time. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export type DeliveryProcessStore = Pick<ReadModelStore, 'processCheckpoint' | 'saveProcessCheckpoint' | 'acquireLease' | 'releaseLease'>;

export interface DeliveryWorkerPorts {
  readonly log: Pick<EventStore, 'readAll' | 'headPosition'> & Partial<Pick<EventStore, 'subscribeToAll'>>;
  readonly process: DeliveryProcessStore;
  readonly subscriptions: SubscriptionsPort;
  readonly messages: MessagesPort;
  readonly deliveries: DeliveryLogPort;
  readonly send: Sender;
  /** Optional: without it, no replay runs in this process. */
  readonly replays?: ReplayJobsPort;
}

export interface DeliveryWorkerOptions {
  /** This process, as the leases name it. */
  readonly holder: string;
  /** Deliveries taken from the log and not yet final, per subscription. */
  readonly maxPending?: number;
  /** Attempts under way at once, per subscription. */
  readonly maxInFlight?: number;
  /** Attempts under way at once, across every subscription of this process. */
  readonly maxInFlightTotal?: number;
  readonly batchSize?: number;
  /** How soon the log is read again once a read found its end. */
  readonly pollMs?: number;
  /** How often the list of subscriptions is read and the leases renewed (at most a third of leaseTtlMs apart). */
  readonly refreshMs?: number;
  readonly leaseTtlMs?: number;
  readonly clock?: () => Date;
  /** In [0, 1): the retries' jitter. */
  readonly random?: () => number;
  readonly timers?: Timers;
  /**
   * The event at a log position (a retry request names its event by position). By default the
   * log read from just below it (a commit before), which holds on the embedded store and on any
   * store whose readAll accepts every position.
   */
  readonly eventAt?: (position: Position) => Promise<RecordedEvent | null>;
  readonly onError?: (error: unknown) => void;
  /**
   * Follow the log live (its subscribeToAll, from the head) and read as soon as anything is
   * appended, instead of waiting for the next poll: the delay from a commit to its delivery is then
   * the time to read and send it, not pollMs. The polls go on beneath it (a subscription that
   * fails leaves them). Off by default: the tests drive time themselves.
   * The whole log is followed only while this process delivers something (a subscription's
   * deliveries or a replay); otherwise only the streams that ask for replays are (requestStreams),
   * so that a process with nothing to deliver does not read every event the shop writes.
   */
  readonly follow?: boolean;
}

export const WEBHOOKS_PROCESS_PREFIX = 'webhooks:';
/** How long a subscription's signing secrets are used before they are read again. */
export const SECRETS_KEPT_MS = 5_000;
export const REPLAYS_PROCESS_PREFIX = 'webhook-replays:';
/** How long one read of the log serves the runners at the same place, at most (SharedReads). */
const SHARED_READ_MS = 100;
const PRINCIPAL = 'service:webhook-delivery';

/** The checkpoint and the lease of a subscription's deliveries in the read store. */
export function deliveryProcessName(subscriptionId: string): string {
  return WEBHOOKS_PROCESS_PREFIX + subscriptionId;
}

/** The checkpoint of a replay's deliveries in the read store (its lease is its job's). */
export function replayProcessName(jobId: string): string {
  return REPLAYS_PROCESS_PREFIX + jobId;
}

/** The webhook-id of an event's messages: `evt_<event id>`, the same for every retry and replay. */
export function webhookIdOf(eventId: string): string {
  return eventId.startsWith('evt_') ? eventId : `evt_${eventId}`;
}

/** Whether a subscription's event selection takes this event type. */
export function selects(events: readonly string[], type: string): boolean {
  return events.includes('*') || events.includes(type);
}

const systemTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * A position below `position` with no other commit between: reading after it reaches `position`
 * (the embedded store reads by commit alone; on EventStoreDB, events of one commit differ in prepare).
 */
function justBefore(position: Position): Position | null {
  const { commit } = decodePosition(position);
  return commit > 0n ? encodePosition(commit - 1n, (1n << 64n) - 1n) : null;
}

interface Resolved {
  readonly maxPending: number;
  readonly maxInFlight: number;
  readonly batchSize: number;
  readonly pollMs: number;
  readonly clock: () => Date;
  readonly random: () => number;
  readonly timers: Timers;
  readonly eventAt: (position: Position) => Promise<RecordedEvent | null>;
  readonly onError: (error: unknown) => void;
  readonly reads: SharedReads;
}

/**
 * One read of the log for every runner at the same place. The subscriptions that keep up with the
 * log each read the same batch after every append; this reads (and decodes) it once for all of
 * them, for at most `keepMs` after it was asked for. A runner that reads a little later than
 * another (its loop was busy when the append woke it) still takes the other's batch, and learns
 * whether anything was appended since that batch was read (`current`): if so, it reads on at once
 * from where the batch left it. An empty batch is shared only while current, so a runner never
 * waits on the log as it was before an append it was woken for.
 */
export class SharedReads {
  private appends = 0;
  private readonly recent = new Map<string, { readonly at: number; readonly appends: number; readonly batch: Promise<readonly RecordedEvent[]>; empty: boolean }>();

  constructor(
    private readonly log: Pick<EventStore, 'readAll'>,
    private readonly clock: () => Date,
    private readonly keepMs: number,
  ) {}

  async readAll(after: Position | null, maxCount: number): Promise<{ readonly batch: readonly RecordedEvent[]; readonly current: boolean }> {
    const key = `${after ?? ''}/${maxCount}`;
    const now = this.clock().getTime();
    const kept = this.recent.get(key);
    if (kept && now - kept.at <= this.keepMs && (kept.appends === this.appends || !kept.empty)) {
      return { batch: await kept.batch, current: kept.appends === this.appends };
    }
    const appends = this.appends;
    const batch = this.log.readAll({ after, maxCount });
    const entry = { at: now, appends, batch, empty: false };
    this.recent.delete(key);
    this.recent.set(key, entry);
    // A handful of places at once at most (live subscriptions, replays): the oldest goes first.
    if (this.recent.size > 16) this.recent.delete(this.recent.keys().next().value!);
    try {
      const read = await batch;
      entry.empty = read.length === 0;
      return { batch: read, current: appends === this.appends };
    } catch (error) {
      if (this.recent.get(key) === entry) this.recent.delete(key);
      throw error;
    }
  }

  appended(): void {
    this.appends++;
  }
}

/** The attempts under way across subscriptions; a runner that found no slot is called when one frees. */
class Slots {
  private used = 0;
  private readonly waiting = new Set<() => void>();
  constructor(private readonly max: number) {}

  take(onFree: () => void): boolean {
    if (this.used >= this.max) {
      this.waiting.add(onFree);
      return false;
    }
    this.used++;
    return true;
  }

  release(): void {
    this.used--;
    const waiting = [...this.waiting];
    this.waiting.clear();
    waiting.forEach((wake) => wake());
  }
}

interface Entry {
  readonly deliveryId: string;
  readonly ref: WebhookEventRef;
  readonly eventPosition: Position;
  /** The event, or for a retry request not loaded yet, null. */
  recorded: RecordedEvent | null;
  /** The cursor before this entry was taken: the mark while it is the first one not final. */
  readonly before: Position | null;
  /** A retry request's: one attempt, then final whatever its outcome. */
  readonly once: boolean;
  firstAttemptAt: Date | null;
  attempts: number;
  due: number;
  inFlight: boolean;
  /** The outcome is final (it leaves the window once recorded). */
  final: boolean;
  recordedFinal: boolean;
  /** The replay that sends it (a retry of a replay's delivery included); null for a first delivery. */
  readonly jobId: string | null;
  /** Its place in the window's order: of two deliveries due together, the earlier taken goes first. */
  readonly seq: number;
}

/**
 * The deliveries that may be attempted next, soonest due first (then in the order taken): the first
 * open delivery of each resource, when it is not under way. Pushed again whenever its due time
 * changes; a copy that no longer holds (the delivery started, ended, or was pushed again) is dropped
 * when it comes up, so that nothing is ever searched for.
 */
class DueQueue {
  private readonly heap: { readonly entry: Entry; readonly due: number }[] = [];

  push(entry: Entry): void {
    const heap = this.heap;
    heap.push({ entry, due: entry.due });
    for (let i = heap.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!DueQueue.before(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  /** The soonest delivery for which `holds` is true; those before it for which it is not are dropped. */
  peek(holds: (entry: Entry, due: number) => boolean): Entry | null {
    while (this.heap.length > 0) {
      const top = this.heap[0]!;
      if (holds(top.entry, top.due)) return top.entry;
      this.pop();
    }
    return null;
  }

  pop(): void {
    const heap = this.heap;
    const last = heap.pop()!;
    if (heap.length === 0) return;
    heap[0] = last;
    for (let i = 0; ; ) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < heap.length && DueQueue.before(heap[left]!, heap[least]!)) least = left;
      if (right < heap.length && DueQueue.before(heap[right]!, heap[least]!)) least = right;
      if (least === i) return;
      [heap[i], heap[least]] = [heap[least]!, heap[i]!];
      i = least;
    }
  }

  clear(): void {
    this.heap.length = 0;
  }

  private static before(a: { entry: Entry; due: number }, b: { entry: Entry; due: number }): boolean {
    return a.due < b.due || (a.due === b.due && a.entry.seq < b.entry.seq);
  }
}

/** A replay's job: the range it sends again (log positions or instants, both inclusive). */
export interface ReplayScope {
  readonly jobId: string;
  readonly from: string;
  readonly to: string;
}

/** One subscription's deliveries in this process, while it holds their lease. */
class SubscriptionRunner {
  private readonly name: string;
  private cursor: Position | null = null;
  private saved: Position | null = null;
  private window: Entry[] = [];
  /** The open (not final) deliveries of each resource in the window, in order: only the first may be attempted. */
  private readonly open = new Map<string, Entry[]>();
  /** The first open delivery of each resource, while it is not under way. */
  private readonly due = new DueQueue();
  private taken = 0;
  private inFlight = 0;
  private readonly tasks = new Set<Promise<void>>();
  private buffer: { entry: Entry; attempt: DeliveryAttempt }[] = [];
  private flushing: Promise<void> | null = null;
  private flushRetryAt = 0;
  private pumping = false;
  private again = false;
  private nextReadAt = 0;
  private timer: unknown = null;
  private failingSince: Date | null = null;
  private stopped = false;
  private started: Promise<void> | null = null;
  /** A replay's last position (inclusive): null until its range is scanned, or when the range holds nothing. */
  private end: Position | null = null;
  private reachedEnd = false;
  private done = false;
  /** A replay's progress: the events of its range the subscription selects, and how many of them are final. */
  total = 0;
  processed = 0;
  /**
   * The log's head when this runner began: only deliveries of events up to it can have been
   * attempted by a process before this one (a lease passes on only after the last holder stopped
   * attempting), so the delivery log's states are asked for those alone.
   */
  private resumeUntil: Position | null = null;
  /** The secrets, as read at most SECRETS_KEPT_MS ago. */
  private secrets: { readonly values: Promise<readonly string[]>; readonly until: number } | null = null;

  constructor(
    public subscription: DeliverySubscription,
    private readonly ports: DeliveryWorkerPorts,
    private readonly slots: Slots,
    private readonly config: Resolved,
    private readonly onDisabled: (runner: SubscriptionRunner) => void,
    private readonly onFailed: (runner: SubscriptionRunner) => void,
    /** A replay's job, and what to do once every event of its range is final and recorded; null for the live deliveries. */
    readonly replay: { readonly scope: ReplayScope; readonly onDone: (runner: SubscriptionRunner) => void } | null = null,
  ) {
    this.name = replay ? replayProcessName(replay.scope.jobId) : deliveryProcessName(subscription.id);
  }

  start(): void {
    this.started = this.begin().then(
      () => this.poke(),
      (error: unknown) => {
        // Retried by the worker's next refresh, which finds this runner gone.
        this.config.onError(error);
        this.stopped = true;
        this.onFailed(this);
      },
    );
  }

  private async begin(): Promise<void> {
    this.resumeUntil = await this.ports.log.headPosition();
    if (this.replay) return this.beginReplay(this.replay.scope);
    if (this.ports.deliveries.failingSince) this.failingSince = await this.ports.deliveries.failingSince(this.subscription.id);
    const checkpoint = await this.ports.process.processCheckpoint(this.name);
    if (checkpoint !== null) {
      this.cursor = checkpoint;
      this.saved = checkpoint;
      return;
    }
    // The first start: where it begins is saved at once, so a crash does not move it.
    const from = this.subscription.from !== undefined ? this.subscription.from : await this.ports.log.headPosition();
    this.cursor = from;
    if (from !== null) {
      await this.ports.process.saveProcessCheckpoint(this.name, from);
      this.saved = from;
    }
  }

  /**
   * A replay's range, scanned once at each start: where reading begins (its checkpoint, or just
   * before the range), its last position, and how many events of it the subscription selects
   * (the job's total), of which those up to the checkpoint are final already. An instant stands
   * for the first event recorded at or after it (from) and the last at or before it (to).
   */
  private async beginReplay({ from, to }: ReplayScope): Promise<void> {
    const checkpoint = await this.ports.process.processCheckpoint(this.name);
    const fromPosition = parsePosition(from);
    const toPosition = parsePosition(to);
    const fromMs = fromPosition ? 0 : Date.parse(from);
    const toMs = toPosition ? 0 : Date.parse(to);
    let start: Position | null = fromPosition ? justBefore(fromPosition) : null;
    let scanned = start;
    let end: Position | null = null;
    let total = 0;
    let processed = 0;
    for (;;) {
      const batch = await this.ports.log.readAll({ after: scanned, maxCount: this.config.batchSize });
      let past = false;
      for (const recorded of batch) {
        if (fromPosition ? recorded.position < fromPosition : end === null && recorded.recordedAt.getTime() < fromMs) {
          scanned = start = recorded.position;
          continue;
        }
        if (toPosition ? recorded.position > toPosition : recorded.recordedAt.getTime() > toMs) {
          past = true;
          break;
        }
        scanned = end = recorded.position;
        const ref = this.ports.messages.webhookEventOf(recorded);
        if (!ref || !selects(this.subscription.events, ref.type)) continue;
        total++;
        if (checkpoint !== null && recorded.position <= checkpoint) processed++;
      }
      if (past || batch.length < this.config.batchSize || this.stopped) break;
      // A long range: the rest of the process gets the thread between batches.
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.total = total;
    this.processed = processed;
    this.end = end;
    this.cursor = checkpoint ?? start;
    this.saved = checkpoint;
    if (end === null || (this.cursor !== null && this.cursor >= end)) this.reachEnd();
  }

  private reachEnd(): void {
    this.reachedEnd = true;
    this.nextReadAt = Number.POSITIVE_INFINITY;
  }

  /** A replay whose every event is final and recorded is done: its job succeeds (the worker's onDone). */
  private finishIfDone(): void {
    if (!this.replay || this.done || this.stopped || !this.reachedEnd) return;
    if (this.window.length > 0 || this.buffer.length > 0 || this.flushing || this.inFlight > 0) return;
    this.done = true;
    this.replay.onDone(this);
  }

  /** Stops taking and attempting; waits for the attempts under way and records their outcomes. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) this.config.timers.clearTimeout(this.timer);
    this.timer = null;
    await this.started;
    while (this.tasks.size > 0) await Promise.all([...this.tasks]);
    // A flush's end starts the next while outcomes wait: wait for them all, then flush what is left.
    while (this.flushing) await this.flushing;
    if (this.buffer.length > 0) await this.flush().catch((error: unknown) => this.config.onError(error));
  }

  /** New events in the log: read them now rather than at the next poll. */
  nudge(): void {
    this.nextReadAt = 0;
    this.poke();
  }

  /** Runs the loop now (an attempt ended, a slot freed, a timer fired). */
  poke(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    this.pump()
      .catch((error: unknown) => {
        this.config.onError(error);
        this.nextReadAt = this.config.clock().getTime() + this.config.pollMs;
      })
      .finally(() => {
        this.pumping = false;
        if (this.again && !this.stopped) this.poke();
        else this.scheduleWake();
      });
  }

  private async pump(): Promise<void> {
    do {
      this.again = false;
      const now = this.config.clock();
      if (!this.replay && shouldDisable(this.failingSince, now)) return this.disable(now);
      if (this.window.length < this.config.maxPending && now.getTime() >= this.nextReadAt) await this.read();
      if (this.stopped) return;
      this.startDue(this.config.clock().getTime());
      this.finishIfDone();
      // A long catch-up reads batch after batch: other subscriptions, and requests, get the thread between them.
      if (this.again) await new Promise((resolve) => setImmediate(resolve));
    } while (this.again && !this.stopped);
  }

  private async read(): Promise<void> {
    if (this.reachedEnd) return;
    // A replay reads for itself: what it reads within its range decides when it ends.
    const { batch, current } = this.replay
      ? { batch: await this.ports.log.readAll({ after: this.cursor, maxCount: this.config.batchSize }), current: true }
      : await this.config.reads.readAll(this.cursor, this.config.batchSize);
    const taken: Entry[] = [];
    const jobId = this.replay?.scope.jobId ?? null;
    let full = false;
    for (const recorded of batch) {
      if (this.window.length >= this.config.maxPending) {
        full = true;
        break;
      }
      if (this.replay && (this.end === null || recorded.position > this.end)) break;
      const before = this.cursor;
      this.cursor = recorded.position;
      // Retry requests are the live deliveries' to take (a replay's delivery's too).
      const request = this.replay ? null : this.ports.deliveries.retryRequestOf(recorded);
      if (request) {
        if (request.subscriptionId === this.subscription.id) this.retry(request, before);
        continue;
      }
      const ref = this.ports.messages.webhookEventOf(recorded);
      if (!ref || !selects(this.subscription.events, ref.type)) continue;
      const entry = this.entry(this.ports.deliveries.deliveryIdOf(this.subscription.id, ref.eventId, jobId), ref, recorded.position, recorded, before, false, jobId);
      this.window.push(entry);
      taken.push(entry);
    }
    const resumable = this.resumeUntil === null ? [] : taken.filter((entry) => entry.eventPosition <= this.resumeUntil!);
    if (resumable.length > 0 && this.ports.deliveries.states) await this.resume(resumable, this.ports.deliveries.states.bind(this.ports.deliveries));
    for (const entry of taken) if (!entry.final) this.enqueue(entry);
    // A replay ends at its range's last position (or the log's end, should that be gone).
    if (this.replay && (batch.length === 0 || (this.cursor !== null && this.end !== null && this.cursor >= this.end))) this.reachEnd();
    // At the log's end (or a window full), the next read waits; otherwise the loop reads on, as it
    // does after a batch read before the last append it was woken for (a shared one).
    else if (!full && (batch.length === this.config.batchSize || !current)) this.again = true;
    else this.nextReadAt = this.config.clock().getTime() + this.config.pollMs;
    this.flushSoon();
  }

  /** Continues what the delivery log already holds of deliveries taken again (after a restart). */
  private async resume(taken: readonly Entry[], states: NonNullable<DeliveryLogPort['states']>): Promise<void> {
    const known = await states(this.subscription.id, taken.map((e) => e.deliveryId));
    for (const entry of taken) {
      const state = known.get(entry.deliveryId);
      if (!state) continue;
      if (state.outcome !== 'retrying' || state.nextAttemptAt === null) {
        entry.final = true;
        entry.recordedFinal = true;
        if (this.replay) this.processed++;
        continue;
      }
      entry.attempts = state.attempts;
      entry.firstAttemptAt = new Date(state.firstAttemptAt);
      entry.due = Date.parse(state.nextAttemptAt);
    }
    this.window = this.window.filter((e) => !e.recordedFinal);
  }

  /** A retry request puts its delivery back into the window, due now. */
  private retry(request: RetryRequest, before: Position | null): void {
    const open = this.open.get(request.resource)?.find((e) => e.deliveryId === request.deliveryId);
    if (open) {
      open.due = this.config.clock().getTime();
      if (!open.inFlight) this.due.push(open);
      return;
    }
    const ref: WebhookEventRef = { type: request.type, resource: request.resource, eventId: request.eventId };
    // Ordered by the request's place in the log: after every event of the resource taken before it.
    const entry = this.entry(request.deliveryId, ref, request.eventPosition, null, before, true, request.jobId ?? null);
    this.window.push(entry);
    this.enqueue(entry);
  }

  private entry(deliveryId: string, ref: WebhookEventRef, eventPosition: Position, recorded: RecordedEvent | null, before: Position | null, once: boolean, jobId: string | null): Entry {
    return { deliveryId, ref, eventPosition, recorded, before, once, firstAttemptAt: null, attempts: 0, due: 0, inFlight: false, final: false, recordedFinal: false, jobId, seq: this.taken++ };
  }

  /** An open delivery joins its resource's line; the first of the line may be attempted. */
  private enqueue(entry: Entry): void {
    const line = this.open.get(entry.ref.resource);
    if (line) return void line.push(entry);
    this.open.set(entry.ref.resource, [entry]);
    this.due.push(entry);
  }

  /** A delivery became final: the next of its resource may be attempted. */
  private dequeue(entry: Entry): void {
    const line = this.open.get(entry.ref.resource);
    if (!line || line[0] !== entry) return;
    line.shift();
    const next = line[0];
    if (next === undefined) this.open.delete(entry.ref.resource);
    else if (!next.inFlight) this.due.push(next);
  }

  /** Whether a copy in the due queue still stands for a delivery that may be attempted at that time. */
  private readonly eligible = (entry: Entry, due: number): boolean =>
    !entry.final && !entry.inFlight && entry.due === due && this.open.get(entry.ref.resource)?.[0] === entry;

  /** Starts every eligible, due delivery there is room for: the first open one of its resource, soonest due first. */
  private startDue(now: number): void {
    if (Date.now() > this.leaseUntil) return;
    while (this.inFlight < this.config.maxInFlight) {
      const entry = this.due.peek(this.eligible);
      if (entry === null || entry.due > now) return;
      if (!this.slots.take(() => this.poke())) return;
      this.due.pop();
      this.attempt(entry);
    }
  }

  private attempt(entry: Entry): void {
    entry.inFlight = true;
    this.inFlight++;
    const task = this.run(entry).finally(() => {
      this.tasks.delete(task);
      this.poke();
    });
    this.tasks.add(task);
  }

  private async run(entry: Entry): Promise<void> {
    const at = this.config.clock();
    let outcome: AttemptOutcome;
    try {
      let message: WebhookMessage;
      let secrets: readonly string[];
      try {
        entry.recorded ??= await this.config.eventAt(entry.eventPosition);
        if (entry.recorded === null) {
          outcome = { ok: false, error: 'the event is no longer in the log', durationMs: 0 };
          entry.firstAttemptAt ??= at;
          return this.settle(entry, at, outcome, true);
        }
        secrets = await this.secretsAt(at);
        // Built for each attempt, never kept: a message sent after a customer's erasure must not carry their data.
        message = { id: webhookIdOf(entry.ref.eventId), body: await this.ports.messages.buildMessage(entry.ref, entry.recorded, this.subscription.apiVersion) };
      } catch (error) {
        // Not an attempt (nothing was sent): tried again after pollMs, not counted.
        this.config.onError(error);
        entry.due = this.config.clock().getTime() + this.config.pollMs;
        return;
      }
      try {
        outcome = await this.ports.send({ url: this.subscription.url, secrets }, message);
      } catch (error) {
        outcome = { ok: false, error: error instanceof Error ? error.message : String(error), durationMs: 0 };
      }
      entry.firstAttemptAt ??= at;
      this.settle(entry, at, outcome, false);
    } finally {
      entry.inFlight = false;
      this.inFlight--;
      if (entry.final) this.dequeue(entry);
      else this.due.push(entry);
      this.slots.release();
    }
  }

  /**
   * The secrets a message sent at `at` is signed with, read again at most SECRETS_KEPT_MS apart
   * rather than at every attempt: a rotation's new secret is used within that time, and the old
   * one it replaces still signs for 24 h, so a receiver accepts either meanwhile.
   */
  private secretsAt(at: Date): Promise<readonly string[]> {
    if (this.secrets && at.getTime() < this.secrets.until) return this.secrets.values;
    // One read for the attempts that start together; a read that fails is not kept.
    const kept = { values: this.ports.subscriptions.signingSecrets(this.subscription.id, at), until: at.getTime() + SECRETS_KEPT_MS };
    this.secrets = kept;
    kept.values.catch(() => {
      if (this.secrets === kept) this.secrets = null;
    });
    return kept.values;
  }

  private settle(entry: Entry, at: Date, outcome: AttemptOutcome, forGood: boolean): void {
    entry.attempts++;
    let next: Date | null = null;
    if (!outcome.ok) next = forGood || entry.once ? null : nextAttemptAt(entry.firstAttemptAt ?? at, entry.attempts, this.config.random);
    // Whether the subscription is failing is the live deliveries' to say (a replay sends old events).
    if (!this.replay) this.failingSince = outcome.ok ? null : (this.failingSince ?? at);
    if (next) entry.due = next.getTime();
    else entry.final = true;
    const result: AttemptResult = outcome.ok ? 'succeeded' : next ? 'retrying' : 'failed';
    this.buffer.push({
      entry,
      attempt: {
        deliveryId: entry.deliveryId,
        eventId: entry.ref.eventId,
        eventPosition: entry.eventPosition,
        type: entry.ref.type,
        resource: entry.ref.resource,
        ...(entry.jobId !== null && { jobId: entry.jobId }),
        at: at.toISOString(),
        ...(outcome.statusCode !== undefined && { statusCode: outcome.statusCode }),
        ...(outcome.error !== undefined && { error: outcome.error }),
        durationMs: outcome.durationMs,
        outcome: result,
        nextAttemptAt: next ? next.toISOString() : null,
      },
    });
    this.flushSoon();
  }

  /** One flush at a time; outcomes that end meanwhile go in the next, as one recordAttempts call. */
  private flushSoon(): void {
    if (this.flushing) return;
    if (this.config.clock().getTime() < this.flushRetryAt) return;
    this.flushing = this.flush()
      .catch((error: unknown) => {
        this.config.onError(error);
        this.flushRetryAt = this.config.clock().getTime() + this.config.pollMs;
      })
      .finally(() => {
        this.flushing = null;
        if (this.buffer.length > 0 || this.markAhead()) this.flushSoon();
        this.finishIfDone();
        this.scheduleWake();
      });
  }

  private markAhead(): boolean {
    const mark = this.mark();
    return mark !== null && mark !== this.saved && !this.stoppedByLease;
  }

  /** The position every delivery up to which is final and recorded. */
  private mark(): Position | null {
    const first = this.window[0];
    return first ? first.before : this.cursor;
  }

  private async flush(): Promise<void> {
    const taken = this.buffer;
    this.buffer = [];
    if (taken.length > 0) {
      try {
        const context: WriteContext = { correlationId: `webhook-delivery:${this.subscription.id}:${taken[0]!.attempt.deliveryId}:${taken[0]!.attempt.at}`, causationId: null };
        const failing = this.replay ? undefined : (this.failingSince?.toISOString() ?? null);
        await this.ports.deliveries.recordAttempts(this.subscription.id, taken.map((t) => t.attempt), context, failing);
      } catch (error) {
        this.buffer = [...taken, ...this.buffer];
        throw error;
      }
      for (const { entry } of taken) {
        if (!entry.final) continue;
        entry.recordedFinal = true;
        if (this.replay) this.processed++;
      }
      this.window = this.window.filter((e) => !e.recordedFinal);
    }
    const mark = this.mark();
    if (mark !== null && mark !== this.saved && !this.stoppedByLease) {
      await this.ports.process.saveProcessCheckpoint(this.name, mark);
      this.saved = mark;
    }
  }

  /** Set when the lease was lost: another process may own the checkpoint now. */
  stoppedByLease = false;
  /**
   * Until when (the store's clock, Date.now, as the lease is kept) the lease is surely this
   * process's: the last renewal's start plus two thirds of its time to live. No attempt starts
   * after it until a renewal, so that one lapsed while the store was unreachable never lets two
   * processes send the same delivery.
   */
  leaseUntil = 0;

  private scheduleWake(): void {
    if (this.stopped) return;
    if (this.timer !== null) this.config.timers.clearTimeout(this.timer);
    this.timer = null;
    const now = this.config.clock().getTime();
    const times: number[] = [];
    if (this.window.length < this.config.maxPending) times.push(this.nextReadAt);
    if (this.failingSince) times.push(this.failingSince.getTime() + DISABLE_AFTER_FAILING_MS);
    if (this.buffer.length > 0) times.push(this.flushRetryAt);
    const soonest = this.due.peek(this.eligible);
    if (soonest !== null) times.push(soonest.due);
    // Only times to come: what is due now has just been tried, or waits for an event (an attempt's
    // or a flush's end, a slot, a renewal) that pokes the loop, and so does every delivery behind
    // the soonest; a timer at 0 would spin.
    const at = Math.min(...times.filter((t) => t > now));
    if (!Number.isFinite(at)) return;
    this.timer = this.config.timers.setTimeout(() => {
      this.timer = null;
      if (this.buffer.length > 0) this.flushSoon();
      this.poke();
    }, Math.max(0, at - now));
  }

  private async disable(now: Date): Promise<void> {
    const reason = `every delivery failed since ${this.failingSince!.toISOString()} (3 days without a success)`;
    await this.ports.subscriptions.disable(this.subscription.id, reason, { correlationId: `webhook-disable:${this.subscription.id}:${now.toISOString()}`, causationId: null });
    this.stopped = true;
    this.onDisabled(this);
  }
}

/** A follower of the whole log: its subscription once made, and its end. */
interface Waking {
  live: { close(): Promise<void> } | null;
  done: Promise<void>;
}

/**
 * Delivers every active subscription's webhooks: start() begins (reading the subscriptions and
 * taking their leases every refreshMs), stop() ends every attempt under way, records their outcomes,
 * saves the marks and releases the leases.
 */
export class WebhookDeliveryWorker {
  private readonly config: Resolved;
  private readonly slots: Slots;
  private readonly runners = new Map<string, SubscriptionRunner>();
  /** The replays this process runs, by job id: at most one per subscription. */
  private readonly replayRunners = new Map<string, SubscriptionRunner>();
  /** Replays seen asked for in the log, not yet looked at. */
  private requested: ReplayJobRef[] = [];
  /** Disabled by this process: not taken again while the list still shows them active. */
  private readonly disabled = new Set<string>();
  /** A lease just taken, for the runner about to be made. */
  private readonly leaseUntil = new Map<string, number>();
  private readonly refreshMs: number;
  private readonly leaseTtlMs: number;
  private timer: unknown = null;
  private running: Promise<void> | null = null;
  private live: { close(): Promise<void> } | null = null;
  private following: Promise<void> | null = null;
  /** The whole log's follower, while this process delivers something (see DeliveryWorkerOptions.follow). */
  private waking: Waking | null = null;
  private stopped = true;

  constructor(
    private readonly ports: DeliveryWorkerPorts,
    private readonly options: DeliveryWorkerOptions,
  ) {
    const log = ports.log;
    this.leaseTtlMs = options.leaseTtlMs ?? 30_000;
    this.refreshMs = Math.min(options.refreshMs ?? 10_000, Math.floor(this.leaseTtlMs / 3));
    this.slots = new Slots(options.maxInFlightTotal ?? 64);
    const pollMs = options.pollMs ?? 1000;
    const clock = options.clock ?? (() => new Date());
    this.config = {
      maxPending: options.maxPending ?? 1000,
      maxInFlight: options.maxInFlight ?? 16,
      batchSize: options.batchSize ?? 250,
      pollMs,
      clock,
      random: options.random ?? Math.random,
      timers: options.timers ?? systemTimers,
      eventAt:
        options.eventAt ??
        (async (position) => {
          const near = await log.readAll({ after: justBefore(position), maxCount: 16 });
          return near.find((e) => e.position === position) ?? null;
        }),
      onError: options.onError ?? (() => undefined),
      // Well within a poll: a runner reading at its poll never gets the batch of an earlier one.
      reads: new SharedReads(log, clock, Math.min(SHARED_READ_MS, pollMs / 2)),
    };
  }

  /** The subscriptions this process works now (holds the lease of). */
  get working(): readonly string[] {
    return [...this.runners.keys()];
  }

  /** The replays this process runs now (their job ids). */
  get replaying(): readonly string[] {
    return [...this.replayRunners.keys()];
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.tick();
    if (this.options.follow) this.following = this.follow().catch((error: unknown) => this.config.onError(error));
  }

  private readonly tick = (): void => {
    this.timer = null;
    this.running = this.refresh()
      .catch((error: unknown) => this.config.onError(error))
      .finally(() => {
        this.running = null;
        if (!this.stopped) this.timer = this.config.timers.setTimeout(this.tick, this.refreshMs);
      });
  };

  /** Refreshes now rather than at the next tick (a replay was asked for), unless a refresh is under way. */
  private refreshNow(): void {
    if (this.stopped || this.running || this.timer === null) return;
    this.config.timers.clearTimeout(this.timer);
    this.tick();
  }

  /** Takes up a replay as soon as its request is appended to the log (see DeliveryWorkerOptions.follow). */
  private async follow(): Promise<void> {
    const subscribe = this.ports.log.subscribeToAll?.bind(this.ports.log);
    const replays = this.ports.replays;
    if (!subscribe || !replays) return;
    const live = subscribe({ after: await this.ports.log.headPosition(), streamPrefixes: replays.requestStreams });
    this.live = live;
    if (this.stopped) return void (await live.close());
    for await (const event of live) {
      if (this.stopped) break;
      const requested = replays.requestedIn(event);
      if (requested) {
        this.requested.push(requested);
        this.refreshNow();
      }
    }
  }

  /** Whether this process delivers nothing now: no subscription's deliveries, no replay. */
  private get idle(): boolean {
    return this.runners.size === 0 && this.replayRunners.size === 0;
  }

  /**
   * Wakes everything this process delivers at each event appended to the log, from now until it
   * delivers nothing (the first event after that ends it). Called as a runner is made.
   */
  private wakeOnAppends(): void {
    const subscribe = this.ports.log.subscribeToAll?.bind(this.ports.log);
    if (!this.options.follow || !subscribe || this.stopped || this.waking) return;
    const waking: Waking = { live: null, done: Promise.resolve() };
    this.waking = waking;
    waking.done = (async () => {
      const live = subscribe({ after: await this.ports.log.headPosition() });
      waking.live = live;
      try {
        for await (const _ of live) {
          if (this.stopped || this.idle) break;
          this.config.reads.appended();
          for (const runner of this.runners.values()) runner.nudge();
          for (const runner of this.replayRunners.values()) runner.nudge();
        }
      } finally {
        if (this.waking === waking) this.waking = null;
        await live.close();
      }
      // A runner made as this one ended is woken by a follower of its own.
      if (!this.idle) this.wakeOnAppends();
    })().catch((error: unknown) => {
      if (this.waking === waking) this.waking = null;
      this.config.onError(error);
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) this.config.timers.clearTimeout(this.timer);
    this.timer = null;
    await this.live?.close();
    await this.following;
    const waking = this.waking;
    await waking?.live?.close();
    await waking?.done;
    await this.running;
    await Promise.all([...this.runners.keys()].map((id) => this.drop(id, true)));
    // A replay's job keeps its lease until it lapses; another process then takes it up from its checkpoint.
    await Promise.all([...this.replayRunners.keys()].map((id) => this.dropReplay(id)));
  }

  /** Reads the active subscriptions, renews the leases held, takes those free, and lets go of those gone. */
  async refresh(): Promise<void> {
    let active: readonly DeliverySubscription[];
    try {
      active = await this.ports.subscriptions.activeSubscriptions();
    } catch (error) {
      // The list is unknown: the leases held are still renewed, so that the work goes on meanwhile.
      this.config.onError(error);
      for (const [id, runner] of this.runners) {
        if (!(await this.lease(id))) {
          runner.stoppedByLease = true;
          await this.drop(id, false);
        }
      }
      await this.renewReplays(null);
      return;
    }
    const byId = new Map(active.map((s) => [s.id, s]));
    for (const id of this.disabled) if (!byId.has(id)) this.disabled.delete(id);
    for (const [id, runner] of this.runners) {
      const subscription = byId.get(id);
      if (!subscription) {
        await this.drop(id, true);
        continue;
      }
      runner.subscription = subscription;
      if (!(await this.lease(id))) {
        runner.stoppedByLease = true;
        await this.drop(id, false);
      }
    }
    for (const subscription of active) {
      if (this.stopped) return;
      if (this.runners.has(subscription.id) || this.disabled.has(subscription.id)) continue;
      if (!(await this.lease(subscription.id))) continue;
      const runner = new SubscriptionRunner(subscription, this.ports, this.slots, this.config, (r) => {
        this.disabled.add(r.subscription.id);
        void this.drop(r.subscription.id, true).catch((error: unknown) => this.config.onError(error));
      }, (r) => {
        void this.drop(r.subscription.id, true).catch((error: unknown) => this.config.onError(error));
      });
      runner.leaseUntil = this.leaseUntil.get(subscription.id) ?? 0;
      this.leaseUntil.delete(subscription.id);
      this.runners.set(subscription.id, runner);
      runner.start();
      this.wakeOnAppends();
    }
    await this.renewReplays(byId);
    await this.takeReplays(byId);
  }

  /**
   * Reports each replay's progress, which extends its job's lease; a replay whose subscription is
   * no longer active (`active`, when known) stops, and a replay whose job is no longer this process's stops.
   */
  private async renewReplays(active: ReadonlyMap<string, DeliverySubscription> | null): Promise<void> {
    const replays = this.ports.replays;
    if (!replays) return;
    for (const [jobId, runner] of this.replayRunners) {
      const subscription = active?.get(runner.subscription.id);
      if (active && !subscription) {
        await this.dropReplay(jobId);
        continue;
      }
      if (subscription) runner.subscription = subscription;
      const asked = Date.now();
      try {
        await replays.progress(jobId, this.options.holder, runner.processed, runner.total, this.leaseTtlMs);
        runner.leaseUntil = asked + Math.floor((this.leaseTtlMs * 2) / 3);
        runner.poke();
      } catch (error) {
        this.config.onError(error);
        runner.stoppedByLease = true;
        await this.dropReplay(jobId);
      }
    }
  }

  /**
   * Takes up the oldest open replay of each active subscription that has none running (here or
   * under another process's live lease); a replay of a deleted subscription fails.
   */
  private async takeReplays(active: ReadonlyMap<string, DeliverySubscription>): Promise<void> {
    const replays = this.ports.replays;
    if (!replays || this.stopped) return;
    const now = new Date().toISOString();
    const busy = new Set([...this.replayRunners.values()].map((runner) => runner.subscription.id));
    // The jobs' read model, and the requests seen in the log since (which it may not show yet).
    const seen = this.requested.splice(0);
    const open = await replays.open();
    const candidates = [...open, ...seen.filter((job) => !open.some((o) => o.id === job.id))];
    for (const job of candidates) {
      if (this.stopped) return;
      const live = job.status === 'running' && job.lease !== null && job.lease.until >= now;
      if (busy.has(job.subscriptionId) || this.replayRunners.has(job.id)) continue;
      busy.add(job.subscriptionId);
      if (live) continue;
      const subscription = active.get(job.subscriptionId);
      if (!subscription) {
        // Paused or disabled: its replays wait. Deleted: they fail.
        if (await replays.subscriptionGone(job.subscriptionId)) {
          if (await replays.start(job.id, this.options.holder, this.leaseTtlMs)) await replays.failDeleted(job.id, this.options.holder);
        }
        continue;
      }
      const asked = Date.now();
      if (!(await replays.start(job.id, this.options.holder, this.leaseTtlMs))) continue;
      const scope: ReplayScope = { jobId: job.id, from: job.from, to: job.to };
      const drop = () => void this.dropReplay(job.id).catch((error: unknown) => this.config.onError(error));
      const runner = new SubscriptionRunner(subscription, this.ports, this.slots, this.config, drop, drop, {
        scope,
        onDone: (done) => void this.completeReplay(job.id, done).catch((error: unknown) => this.config.onError(error)),
      });
      runner.leaseUntil = asked + Math.floor((this.leaseTtlMs * 2) / 3);
      this.replayRunners.set(job.id, runner);
      runner.start();
      this.wakeOnAppends();
    }
  }

  /** Every event of the replay's range is final and recorded: its job succeeds with their count. */
  private async completeReplay(jobId: string, runner: SubscriptionRunner): Promise<void> {
    if (this.replayRunners.get(jobId) !== runner) return;
    this.replayRunners.delete(jobId);
    await runner.stop();
    await this.ports.replays!.complete(jobId, this.options.holder, runner.total);
  }

  private async dropReplay(jobId: string): Promise<void> {
    const runner = this.replayRunners.get(jobId);
    if (!runner) return;
    this.replayRunners.delete(jobId);
    await runner.stop();
  }

  private async lease(id: string): Promise<boolean> {
    const asked = Date.now();
    try {
      const held = await this.ports.process.acquireLease(deliveryProcessName(id), this.options.holder, this.leaseTtlMs);
      if (held) {
        const until = asked + Math.floor((this.leaseTtlMs * 2) / 3);
        const runner = this.runners.get(id);
        if (runner) {
          runner.leaseUntil = until;
          runner.poke();
        } else this.leaseUntil.set(id, until);
      }
      return held;
    } catch (error) {
      this.config.onError(error);
      return this.runners.has(id);
    }
  }

  private async drop(id: string, release: boolean): Promise<void> {
    const runner = this.runners.get(id);
    if (!runner) return;
    this.runners.delete(id);
    await runner.stop();
    if (release) await this.ports.process.releaseLease(deliveryProcessName(id), this.options.holder).catch((error: unknown) => this.config.onError(error));
  }
}
