// The webhook delivery worker's loop. The log is a real embedded event store (SqliteEventStore)
// with real appended events, and the two-worker test shares a real SqliteReadStore's leases and
// checkpoints. The other ports (subscriptions, messages, delivery log, sender, and elsewhere the
// checkpoints and leases) are small in-memory implementations of the worker's OWN ports: these are
// unit tests of the loop, not of messages.ts or the delivery log, whose real versions are wired at
// the merge. Time is a fake clock with fake timers: nothing waits for the wall clock.
import { afterEach, describe, expect, it } from 'vitest';
import type { Position, RecordedEvent } from '../../../write-side/kernel/event-store.js';
import { RETRY_FOR_MS } from '../../../write-side/webhooks/rules.js';
import type { AttemptOutcome, WebhookMessage, WebhookTarget } from '../../../workers/webhooks/sender.js';
import {
  WebhookDeliveryWorker,
  deliveryProcessName,
  type DeliveryAttempt,
  type DeliveryLogPort,
  type DeliveryProcessStore,
  type DeliveryState,
  type DeliverySubscription,
  type DeliveryWorkerOptions,
  type DeliveryWorkerPorts,
  type MessagesPort,
  type ReplayJobRef,
  type ReplayJobsPort,
  type SubscriptionsPort,
  replayProcessName,
  type Timers,
  SECRETS_KEPT_MS,
  SharedReads,
  subscriptionsPortOf,
} from '../../../workers/webhooks/delivery-worker.js';
import { WebhookService } from '../../../write-side/webhooks/service.js';
import { openEmbedded, type StoreFixture } from '../../support/event-stores.js';
import { openEmbeddedReadStore, type ReadStoreFixture } from '../../support/read-stores.js';
import { until } from '../../support/until.js';

const S = 1000;
const H = 3600 * S;
const T0 = Date.parse('2027-01-01T00:00:00.000Z');

/** Lets the worker's promises and the stores' I/O run (no fake time passes). */
async function settle(): Promise<void> {
  for (let i = 0; i < 4; i++) {
    for (let j = 0; j < 10; j++) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

class FakeTime {
  now = T0;
  private next = 0;
  private pending: { id: number; at: number; callback: () => void }[] = [];
  readonly clock = () => new Date(this.now);
  readonly timers: Timers = {
    setTimeout: (callback, ms) => {
      const id = ++this.next;
      this.pending.push({ id, at: this.now + ms, callback });
      return id;
    },
    clearTimeout: (handle) => {
      this.pending = this.pending.filter((t) => t.id !== handle);
    },
  };

  /** Moves the clock on by `ms`, firing each timer due on the way at its own instant. */
  async advance(ms: number): Promise<void> {
    const target = this.now + ms;
    await settle();
    for (;;) {
      const due = this.pending.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.pending = this.pending.filter((t) => t !== due);
      this.now = Math.max(this.now, due.at);
      due.callback();
      await settle();
    }
    this.now = target;
    await settle();
  }
}

const TYPES: Record<string, string> = { OrderPlaced: 'order.placed', OrderPaid: 'order.paid', OrderShipped: 'order.shipped' };

const messages: MessagesPort = {
  webhookEventOf: (recorded) => {
    const type = TYPES[recorded.type];
    return type && recorded.streamName.startsWith('order-') ? { type, resource: recorded.streamName, eventId: `${recorded.streamName}.${recorded.revision}` } : null;
  },
  buildMessage: async (ref, recorded, apiVersion) => JSON.stringify({ id: `evt_${ref.eventId}`, type: ref.type, position: recorded.position, apiVersion }),
};

/** The delivery log, in memory: every recordAttempts call, and the states folded from them. */
class MemoryDeliveryLog implements DeliveryLogPort {
  readonly calls: { subscriptionId: string; attempts: readonly DeliveryAttempt[]; failingSince: string | null | undefined }[] = [];
  failing = false;
  constructor(private readonly withStates = false) {
    if (!withStates) {
      Object.defineProperty(this, 'states', { value: undefined });
      Object.defineProperty(this, 'failingSince', { value: undefined });
    }
  }
  deliveryIdOf(subscriptionId: string, eventId: string, jobId?: string | null): string {
    return jobId ? `${subscriptionId}/${eventId}/${jobId}` : `${subscriptionId}/${eventId}`;
  }
  async recordAttempts(subscriptionId: string, attempts: readonly DeliveryAttempt[], _context: unknown, failingSince?: string | null): Promise<void> {
    if (this.failing) throw new Error('the log is down');
    this.calls.push({ subscriptionId, attempts, failingSince });
  }
  retryRequestOf(recorded: RecordedEvent) {
    if (recorded.type !== 'WebhookDeliveryRetryRequested') return null;
    const d = recorded.data as { subscriptionId: string; deliveryId: string; eventId: string; eventPosition: string; type: string; resource: string };
    return { ...d, eventPosition: d.eventPosition as Position };
  }
  /** The delivery ids each states() call asked for. */
  readonly asked: string[][] = [];
  async states(subscriptionId: string, deliveryIds: readonly string[]): Promise<ReadonlyMap<string, DeliveryState>> {
    this.asked.push([...deliveryIds]);
    const found = new Map<string, DeliveryState>();
    for (const attempt of this.attempts(subscriptionId)) {
      if (!deliveryIds.includes(attempt.deliveryId)) continue;
      const before = found.get(attempt.deliveryId);
      found.set(attempt.deliveryId, {
        outcome: attempt.outcome,
        attempts: (before?.attempts ?? 0) + 1,
        firstAttemptAt: before?.firstAttemptAt ?? attempt.at,
        lastAttemptAt: attempt.at,
        nextAttemptAt: attempt.nextAttemptAt,
      });
    }
    return found;
  }
  async failingSince(subscriptionId: string): Promise<Date | null> {
    let since: string | null = null;
    for (const attempt of this.attempts(subscriptionId)) since = attempt.outcome === 'succeeded' ? null : (since ?? attempt.at);
    return since === null ? null : new Date(since);
  }
  attempts(subscriptionId: string): DeliveryAttempt[] {
    return this.calls.filter((c) => c.subscriptionId === subscriptionId).flatMap((c) => c.attempts);
  }
}

/** Checkpoints and leases in memory (leases never lapse on their own: `expire` is a crash's TTL running out). */
class MemoryProcessStore implements DeliveryProcessStore {
  readonly checkpoints = new Map<string, Position>();
  readonly leases = new Map<string, string>();
  async processCheckpoint(name: string) {
    return this.checkpoints.get(name) ?? null;
  }
  async saveProcessCheckpoint(name: string, position: Position) {
    const saved = this.checkpoints.get(name);
    if (saved === undefined || position > saved) this.checkpoints.set(name, position);
  }
  async acquireLease(name: string, holder: string) {
    const current = this.leases.get(name);
    if (current !== undefined && current !== holder) return false;
    this.leases.set(name, holder);
    return true;
  }
  async releaseLease(name: string, holder: string) {
    if (this.leases.get(name) === holder) this.leases.delete(name);
  }
  expire(holder: string) {
    for (const [name, h] of this.leases) if (h === holder) this.leases.delete(name);
  }
}

class MemorySubscriptions implements SubscriptionsPort {
  readonly disabled: { id: string; reason: string }[] = [];
  secretReads = 0;
  secret = 'whsec_' + Buffer.alloc(32, 1).toString('base64');
  constructor(public list: DeliverySubscription[]) {}
  async activeSubscriptions() {
    return this.list;
  }
  async signingSecrets() {
    this.secretReads++;
    return [this.secret];
  }
  async disable(id: string, reason: string) {
    this.disabled.push({ id, reason });
    this.list = this.list.filter((s) => s.id !== id);
  }
}

/** The replay jobs, in memory: the jobs' lifecycle as JobService keeps it (a lease claimed, renewed by progress, lapsing when `lapse` says). */
class MemoryReplayJobs implements ReplayJobsPort {
  readonly jobs: {
    id: string; subscriptionId: string; from: string; to: string; status: 'queued' | 'running' | 'succeeded' | 'failed';
    lease: { workerId: string; until: string } | null; attempts: number; progress: { processed: number; total: number }[]; count?: number;
  }[] = [];
  readonly gone = new Set<string>();
  add(id: string, subscriptionId: string, from: string, to: string) {
    this.jobs.push({ id, subscriptionId, from, to, status: 'queued', lease: null, attempts: 0, progress: [] });
  }
  job(id: string) {
    return this.jobs.find((j) => j.id === id)!;
  }
  async open(): Promise<ReplayJobRef[]> {
    return this.jobs.flatMap((j) => ((j.status === 'queued' || j.status === 'running') && !this.unseen.has(j.id) ? [{ ...j, status: j.status }] : []));
  }
  async start(jobId: string, holder: string, leaseMs: number) {
    const job = this.job(jobId);
    const lapsed = job.status === 'running' && job.lease !== null && Date.parse(job.lease.until) < Date.now();
    if (job.status !== 'queued' && !lapsed) return false;
    Object.assign(job, { status: 'running', lease: { workerId: holder, until: new Date(Date.now() + leaseMs).toISOString() }, attempts: job.attempts + 1 });
    return true;
  }
  private holding(jobId: string, holder: string) {
    const job = this.job(jobId);
    if (job.status !== 'running' || job.lease?.workerId !== holder) throw new Error(`job ${jobId} is not ${holder}'s`);
    return job;
  }
  async progress(jobId: string, holder: string, processed: number, total: number, leaseMs: number) {
    const job = this.holding(jobId, holder);
    job.progress.push({ processed, total });
    job.lease = { workerId: holder, until: new Date(Date.now() + leaseMs).toISOString() };
  }
  async complete(jobId: string, holder: string, count: number) {
    Object.assign(this.holding(jobId, holder), { status: 'succeeded', count, lease: null });
  }
  async failDeleted(jobId: string, holder: string) {
    Object.assign(this.holding(jobId, holder), { status: 'failed', lease: null });
  }
  async subscriptionGone(subscriptionId: string) {
    return this.gone.has(subscriptionId);
  }
  /** The read model lags: a job added `unseen` is not listed by open() until `see`; the log's request names it. */
  readonly unseen = new Set<string>();
  readonly requestStreams = ['job-'];
  requestedIn(recorded: RecordedEvent): ReplayJobRef | null {
    if (recorded.type !== 'WebhookReplayRequested') return null;
    const { jobId, subscriptionId, from, to } = recorded.data as { jobId: string; subscriptionId: string; from: string; to: string };
    return { id: jobId, subscriptionId, from, to, status: 'queued', lease: null };
  }
  /** The holder died: its lease runs out. */
  lapse(jobId: string) {
    this.job(jobId).lease = { workerId: this.job(jobId).lease!.workerId, until: new Date(0).toISOString() };
  }
}

type Answer = AttemptOutcome | 'hold';
const OK: AttemptOutcome = { ok: true, statusCode: 204, durationMs: 3 };
const DOWN: AttemptOutcome = { ok: false, statusCode: 503, durationMs: 3 };

/** The sender port: answers at once, or holds an attempt until the test resolves it. */
class FakeEndpoint {
  readonly sent: { url: string; id: string; at: number; secrets: readonly string[] }[] = [];
  readonly held: { url: string; id: string; resolve: (outcome: AttemptOutcome) => void }[] = [];
  private readonly active = new Map<string, number>();
  overlapping = 0;
  constructor(
    private readonly time: { now: number },
    public answer: (url: string, id: string) => Answer = () => OK,
  ) {}
  readonly send = async (target: WebhookTarget, message: WebhookMessage): Promise<AttemptOutcome> => {
    const key = `${target.url} ${message.id}`;
    this.active.set(key, (this.active.get(key) ?? 0) + 1);
    if (this.active.get(key)! > 1) this.overlapping++;
    this.sent.push({ url: target.url, id: message.id, at: this.time.now, secrets: target.secrets });
    const answer = this.answer(target.url, message.id);
    const outcome = answer === 'hold' ? await new Promise<AttemptOutcome>((resolve) => this.held.push({ url: target.url, id: message.id, resolve })) : answer;
    this.active.set(key, this.active.get(key)! - 1);
    return outcome;
  };
  ids(url = URL_A): string[] {
    return this.sent.filter((s) => s.url === url).map((s) => s.id);
  }
  release(id: string, outcome: AttemptOutcome = OK): void {
    const i = this.held.findIndex((h) => h.id === id);
    if (i < 0) throw new Error(`${id} is not held`);
    this.held.splice(i, 1)[0]!.resolve(outcome);
  }
}

const URL_A = 'https://a.example/hooks';
const URL_B = 'https://b.example/hooks';
// from: null, the start of the log: these tests append first, then start the worker.
const subA: DeliverySubscription = { id: 'sub-a', url: URL_A, events: ['*'], apiVersion: '2027-01-01', from: null };
const subB: DeliverySubscription = { id: 'sub-b', url: URL_B, events: ['*'], apiVersion: '2027-01-01', from: null };

const meta = { schemaVersion: 1, correlationId: 'test', causationId: null, principal: 'test' };
const opened: (StoreFixture | ReadStoreFixture)[] = [];
const workers: WebhookDeliveryWorker[] = [];

afterEach(async () => {
  for (const worker of workers.splice(0)) void worker.stop();
  for (const store of opened.splice(0)) await store.dispose();
});

async function setup(subs: DeliverySubscription[], options: Partial<DeliveryWorkerOptions> & { states?: boolean } = {}) {
  const fixture = await openEmbedded();
  opened.push(fixture);
  const store = fixture.store;
  const time = new FakeTime();
  const endpoint = new FakeEndpoint(time);
  const log = new MemoryDeliveryLog(options.states ?? false);
  const process = new MemoryProcessStore();
  const subscriptions = new MemorySubscriptions(subs);
  const replays = new MemoryReplayJobs();
  // The log as the worker sees it, each read's `after` noted, and each event its live subscriptions were handed.
  const reads: (string | null)[] = [];
  const followed: string[] = [];
  const counted: DeliveryWorkerPorts['log'] = {
    readAll: (o) => (reads.push(o.after ?? null), store.readAll(o)),
    headPosition: () => store.headPosition(),
    subscribeToAll: (o) => {
      const live = store.subscribeToAll(o);
      return {
        async *[Symbol.asyncIterator]() {
          for await (const event of live) {
            followed.push(event.streamName);
            yield event;
          }
        },
        close: () => live.close(),
      };
    },
  };
  const worker = (holder: string, clockAndTimers: FakeTime = time, more: Partial<DeliveryWorkerOptions> = {}) => {
    const w = new WebhookDeliveryWorker(
      { log: counted, process, subscriptions, messages, deliveries: log, send: endpoint.send, replays },
      { holder, clock: clockAndTimers.clock, timers: clockAndTimers.timers, random: () => 1, pollMs: 1000, refreshMs: 10_000, leaseTtlMs: 60_000, ...options, ...more },
    );
    workers.push(w);
    return w;
  };
  const append = async (stream: string, ...types: string[]) => {
    const result = await store.appendToStream(stream, types.map((type) => ({ type, data: {}, metadata: meta })), 'any');
    return result.position;
  };
  return { store, time, endpoint, log, process, subscriptions, replays, worker, append, reads, followed };
}

/** For the tests that run days of fake time: the list and the leases read hourly, not every 10 s. */
const LONG = { refreshMs: H, leaseTtlMs: 4 * H };

const evt = (stream: string, revision: number) => `evt_${stream}.${revision}`;

describe('the webhook delivery worker', () => {
  it('sends a resource’s events in order (the next only after the first succeeded or failed for good), other resources meanwhile', async () => {
    const t = await setup([subA], { pollMs: H, ...LONG });
    await t.append('order-1', 'OrderPlaced', 'OrderPaid');
    await t.append('order-2', 'OrderPlaced', 'OrderPaid');
    t.endpoint.answer = () => 'hold';
    t.worker('w1').start();
    await until(() => t.endpoint.held.length === 2);
    await settle();
    expect(t.endpoint.ids()).toEqual([evt('order-1', 0), evt('order-2', 0)]);

    t.endpoint.release(evt('order-2', 0));
    await until(() => t.endpoint.held.length === 2);
    expect(t.endpoint.ids()).toEqual([evt('order-1', 0), evt('order-2', 0), evt('order-2', 1)]);

    // order-1's first fails for good (a retry request's single attempt is not needed: the schedule runs out).
    t.endpoint.release(evt('order-1', 0), DOWN);
    t.endpoint.answer = (_, id) => (id === evt('order-1', 0) ? DOWN : 'hold');
    await t.time.advance(RETRY_FOR_MS - 2 * H);
    expect(t.endpoint.ids().filter((id) => id === evt('order-1', 1))).toEqual([]);
    await t.time.advance(2 * H);
    const attempts = t.log.attempts('sub-a').filter((a) => a.eventId === 'order-1.0');
    expect(attempts).toHaveLength(12);
    expect(attempts.at(-1)!.outcome).toBe('failed');
    await until(() => t.endpoint.ids().includes(evt('order-1', 1)));
  });

  it('with follow, reads an event as soon as it is appended, not at the next poll', async () => {
    // The fake clock never moves: without the live subscription's wake-up the event appended after
    // the worker's first (empty) read would wait for a poll an hour on, which never comes.
    const t = await setup([subA], { pollMs: H, ...LONG, follow: true });
    t.worker('w1').start();
    await until(() => t.process.leases.size === 1);
    await settle();
    await t.append('order-9', 'OrderPlaced');
    await until(() => t.endpoint.ids().includes(evt('order-9', 0)));

    const u = await setup([subA], { pollMs: H, ...LONG });
    u.worker('w2').start();
    await until(() => u.process.leases.size === 1);
    await settle();
    await u.append('order-9', 'OrderPlaced');
    await settle();
    expect(u.endpoint.sent).toEqual([]);
  });

  it('with follow, reads only the streams that ask for replays while it delivers nothing, and the whole log while it does', async () => {
    const t = await setup([], { pollMs: H, ...LONG, follow: true });
    t.worker('w1').start();
    // The worker follows the log from here on.
    await until(async () => (await t.append('job-0', 'JobProgressed'), t.followed.includes('job-0')));
    // Nothing to deliver: an order's event is not handed to the worker; the job's event after it is.
    await t.append('order-1', 'OrderPlaced');
    await t.append('job-a', 'JobProgressed');
    await until(() => t.followed.includes('job-a'));
    expect(t.followed.filter((stream) => !stream.startsWith('job-'))).toEqual([]);

    // A subscription to deliver: every event wakes it (the fake clock stands still, so no poll does).
    t.subscriptions.list = [{ ...subA, from: (await t.store.headPosition())! }];
    await t.time.advance(LONG.refreshMs);
    await until(() => t.process.leases.size === 1);
    await settle();
    await t.append('order-2', 'OrderPlaced');
    await until(() => t.endpoint.ids().includes(evt('order-2', 0)));
    expect(t.followed).toContain('order-2');

    // Gone again: the first event after it ends the whole log's follower; the later ones are not read.
    t.subscriptions.list = [];
    await t.time.advance(LONG.refreshMs);
    await until(() => t.process.leases.size === 0);
    await t.append('order-3', 'OrderPlaced');
    await t.append('order-4', 'OrderPlaced');
    await t.append('job-b', 'JobProgressed');
    await until(() => t.followed.includes('job-b'));
    await settle();
    expect(t.followed.filter((stream) => stream === 'order-4')).toEqual([]);
    expect(t.endpoint.ids()).toEqual([evt('order-2', 0)]);
  });

  it('attempts different resources in parallel, at most maxInFlight per subscription and maxInFlightTotal in all', async () => {
    const t = await setup([subA, subB], { maxInFlight: 3, maxInFlightTotal: 5 });
    for (let i = 0; i < 10; i++) await t.append(`order-${i}`, 'OrderPlaced');
    t.endpoint.answer = () => 'hold';
    t.worker('w1').start();
    await until(() => t.endpoint.held.length === 5);
    await settle();
    expect(t.endpoint.held).toHaveLength(5);
    expect(t.endpoint.ids(URL_A).length).toBeLessThanOrEqual(3);
    expect(t.endpoint.ids(URL_B).length).toBeLessThanOrEqual(3);

    t.endpoint.answer = () => OK;
    for (const held of [...t.endpoint.held]) t.endpoint.release(held.id);
    await until(() => t.endpoint.sent.length === 20);
    expect(new Set(t.endpoint.ids(URL_A)).size).toBe(10);
    expect(new Set(t.endpoint.ids(URL_B)).size).toBe(10);
  });

  it('retries a failing endpoint on the schedule, then records the delivery failed', async () => {
    const t = await setup([subA], { pollMs: H, ...LONG });
    await t.append('order-1', 'OrderPlaced');
    t.endpoint.answer = () => DOWN;
    t.worker('w1').start();
    await until(() => t.endpoint.sent.length === 1);
    await t.time.advance(4 * S);
    expect(t.endpoint.sent).toHaveLength(1);
    await t.time.advance(1 * S);
    expect(t.endpoint.sent).toHaveLength(2);
    await t.time.advance(RETRY_FOR_MS - H);
    const times = t.endpoint.sent.map((s) => (s.at - T0) / S);
    // random() = 1: the nominal schedule, 5 s, 1 min, 5 min, 30 min, 2 h, 8 h, then 12 h apart.
    expect(times).toEqual([0, 5, 65, 365, 2165, 9365, 38165, 81365, 124565, 167765, 210965, 254165]);
    const attempts = t.log.attempts('sub-a');
    expect(attempts.map((a) => a.outcome)).toEqual([...Array<string>(11).fill('retrying'), 'failed']);
    expect(attempts[0]).toMatchObject({ statusCode: 503, nextAttemptAt: new Date(T0 + 5 * S).toISOString(), eventId: 'order-1.0', type: 'order.placed', resource: 'order-1' });
    expect(attempts.at(-1)!.nextAttemptAt).toBeNull();
    // Final: the mark moves past it.
    await until(() => t.process.checkpoints.get(deliveryProcessName('sub-a')) !== undefined);
  });

  it('keeps its checkpoint at the low-water mark: after a crash only what was not final is sent again', async () => {
    const t = await setup([subA], { states: false });
    await t.append('order-1', 'OrderPlaced');
    await t.append('order-2', 'OrderPlaced');
    const third = await t.append('order-3', 'OrderPlaced');
    t.endpoint.answer = (_, id) => (id === evt('order-2', 0) ? 'hold' : OK);
    t.worker('w1').start();
    await until(() => t.log.attempts('sub-a').length === 2);
    await settle();
    // order-1 is final, order-2 is not: the mark lies after order-1, before order-2.
    const mark = t.process.checkpoints.get(deliveryProcessName('sub-a'));
    expect(mark).toBeDefined();
    expect(mark! < third).toBe(true);

    // The process dies (its attempt on order-2 never ends); its lease runs out; another takes over.
    t.process.expire('w1');
    const restarted = new FakeTime();
    restarted.now = t.time.now;
    t.endpoint.answer = () => OK;
    t.worker('w2', restarted).start();
    await until(() => t.endpoint.sent.length === 5);
    await settle();
    expect(t.endpoint.ids()).toEqual([evt('order-1', 0), evt('order-2', 0), evt('order-3', 0), evt('order-2', 0), evt('order-3', 0)]);
    // Two duplicates: order-2's attempt under way, and order-3, final but beyond the mark.
    const duplicates = t.endpoint.sent.length - new Set(t.endpoint.ids()).size;
    expect(duplicates).toBe(2);
    await until(() => t.process.checkpoints.get(deliveryProcessName('sub-a')) === third);
  });

  it('with the delivery log’s states, a restart sends again only the deliveries that were not final', async () => {
    const t = await setup([subA], { states: true });
    await t.append('order-1', 'OrderPlaced');
    await t.append('order-2', 'OrderPlaced');
    const third = await t.append('order-3', 'OrderPlaced');
    t.endpoint.answer = (_, id) => (id === evt('order-2', 0) ? 'hold' : OK);
    t.worker('w1').start();
    await until(() => t.log.attempts('sub-a').length === 2);
    t.process.expire('w1');
    const restarted = new FakeTime();
    restarted.now = t.time.now;
    t.endpoint.answer = () => OK;
    t.worker('w2', restarted).start();
    await until(() => t.process.checkpoints.get(deliveryProcessName('sub-a')) === third);
    expect(t.endpoint.ids()).toEqual([evt('order-1', 0), evt('order-2', 0), evt('order-3', 0), evt('order-2', 0)]);
  });

  it('does not let a slow subscription delay a healthy one', async () => {
    const t = await setup([subA, subB], { maxInFlight: 4, maxInFlightTotal: 16 });
    for (let i = 0; i < 30; i++) await t.append(`order-${i}`, 'OrderPlaced');
    t.endpoint.answer = (url) => (url === URL_A ? 'hold' : OK);
    t.worker('w1').start();
    await until(() => t.endpoint.ids(URL_B).length === 30);
    expect(t.endpoint.ids(URL_A)).toHaveLength(4);
    expect(t.time.now).toBe(T0);
    await until(() => t.process.checkpoints.get(deliveryProcessName('sub-b')) !== undefined);
    for (const held of [...t.endpoint.held]) t.endpoint.release(held.id);
  });

  it('disables a subscription whose deliveries failed for 3 days, and sends it nothing more', async () => {
    const t = await setup([subA], { pollMs: H, ...LONG });
    await t.append('order-1', 'OrderPlaced');
    t.endpoint.answer = () => DOWN;
    const worker = t.worker('w1');
    worker.start();
    await until(() => t.endpoint.sent.length === 1);
    await t.time.advance(RETRY_FOR_MS - 1);
    expect(t.subscriptions.disabled).toEqual([]);
    await t.append('order-2', 'OrderPlaced');
    await t.time.advance(1);
    await until(() => t.subscriptions.disabled.length === 1);
    expect(t.subscriptions.disabled[0]!.reason).toContain('3 days');
    const sent = t.endpoint.sent.length;
    await t.time.advance(2 * H);
    expect(t.endpoint.sent).toHaveLength(sent);
    expect(worker.working).toEqual([]);
    expect(t.process.leases.size).toBe(0);
  });

  it('with the real subscription use cases: signs with the subscription’s secret, and disables it with its reason', async () => {
    const t = await setup([], { pollMs: H });
    const service = new WebhookService(t.store, {
      checkUrl: () => ({ ok: true }),
      apiVersions: { current: '2027-01-01', supported: ['2027-01-01'] },
      clock: () => new Date(t.time.now),
      random: (n) => new Uint8Array(n).fill(7),
    });
    const admin = { sub: 'admin', scopes: new Set(['webhooks:admin']), customerId: null };
    const created = await service.create(admin, { url: URL_A, events: ['*'] }, { correlationId: 'c', idempotency: { key: 'k1', fingerprint: 'f' } });
    const id = created.subscription.id;
    const port = subscriptionsPortOf(service, async () => {
      const current = await service.get(admin, id);
      return current && current.subscription.status === 'active' ? [{ id, url: current.subscription.url, events: current.subscription.events, apiVersion: current.subscription.apiVersion, from: created.position }] : [];
    });
    await t.append('order-1', 'OrderPlaced');
    t.endpoint.answer = () => DOWN;
    const worker = new WebhookDeliveryWorker(
      { log: t.store, process: t.process, subscriptions: port, messages, deliveries: t.log, send: t.endpoint.send },
      { holder: 'w1', clock: t.time.clock, timers: t.time.timers, random: () => 1, pollMs: H, ...LONG },
    );
    workers.push(worker);
    worker.start();
    await until(() => t.endpoint.sent.length === 1);
    expect(t.endpoint.sent[0]!.secrets).toEqual([created.secret]);
    await t.time.advance(RETRY_FOR_MS + H);
    // The disabling is an append through the embedded store's writer thread, and the retries before
    // it are the worker's own I/O: on a loaded machine they can outlast advance()'s few yields (it
    // failed so once with the suite beside stress-ng), so the test waits for the subscription to
    // read disabled, moving the clock on an hour at a time meanwhile, not assuming it at once.
    const disabled = await until(async () => {
      const current = await service.get(admin, id);
      if (current?.subscription.status !== 'disabled') await t.time.advance(H);
      return current;
    }, (current) => current?.subscription.status === 'disabled');
    expect(disabled!.subscription).toMatchObject({ status: 'disabled', disabledReason: expect.stringContaining('3 days') });
    expect(worker.working).toEqual([]);
  });

  it('counts the 3 days before disabling across a restart, from the delivery log', async () => {
    const t = await setup([subA], { pollMs: H, states: true, ...LONG });
    await t.append('order-1', 'OrderPlaced');
    t.endpoint.answer = () => DOWN;
    const first = t.worker('w1');
    first.start();
    await until(() => t.endpoint.sent.length === 1);
    await t.time.advance(2 * 24 * H);
    await first.stop();
    const second = t.worker('w2');
    second.start();
    await until(() => second.working.length === 1);
    await t.time.advance(24 * H - 1);
    expect(t.subscriptions.disabled).toEqual([]);
    await t.time.advance(1);
    await until(() => t.subscriptions.disabled.length === 1);
  });

  it('sends a subscription only the event types it selected, and moves its mark past the others', async () => {
    const t = await setup([{ ...subA, events: ['order.paid'] }]);
    await t.append('order-1', 'OrderPlaced', 'OrderPaid', 'OrderShipped');
    const last = await t.append('customer-1', 'CustomerRegistered');
    t.worker('w1').start();
    await until(() => t.process.checkpoints.get(deliveryProcessName('sub-a')) === last);
    expect(t.endpoint.ids()).toEqual([evt('order-1', 1)]);
  });

  it('begins a new subscription at its creation’s position, or at the log’s head when it names none, not at the log’s start', async () => {
    const t = await setup([]);
    await t.append('order-1', 'OrderPlaced');
    const created = await t.append('order-2', 'OrderPlaced');
    const worker = t.worker('w1');
    worker.start();
    await settle();
    t.subscriptions.list = [{ ...subA, from: created }, { id: 'sub-b', url: URL_B, events: ['*'], apiVersion: '2027-01-01' }];
    await t.time.advance(10_000);
    await until(() => worker.working.length === 2);
    await until(() => t.process.checkpoints.size === 2);
    await t.append('order-3', 'OrderPlaced');
    await t.time.advance(1000);
    await until(() => t.endpoint.sent.length === 2);
    await settle();
    expect(t.endpoint.ids(URL_A)).toEqual([evt('order-3', 0)]);
    expect(t.endpoint.ids(URL_B)).toEqual([evt('order-3', 0)]);
  });

  it('sends nothing more to a subscription that left the active list (paused, disabled, deleted), and lets its lease go', async () => {
    const t = await setup([subA, subB]);
    await t.append('order-1', 'OrderPlaced');
    const worker = t.worker('w1');
    worker.start();
    await until(() => t.endpoint.sent.length === 2);
    t.subscriptions.list = [subB];
    await t.time.advance(10_000);
    await until(() => worker.working.length === 1);
    expect(t.process.leases.has(deliveryProcessName('sub-a'))).toBe(false);
    await t.append('order-2', 'OrderPlaced');
    await t.time.advance(1000);
    await until(() => t.endpoint.ids(URL_B).length === 2);
    await settle();
    expect(t.endpoint.ids(URL_A)).toEqual([evt('order-1', 0)]);
  });

  it('starts no attempt once its lease may have lapsed (the store unreachable), and goes on after a renewal', async () => {
    const t = await setup([subA], { leaseTtlMs: 30 });
    await t.append('order-1', 'OrderPlaced', 'OrderPaid');
    t.endpoint.answer = (_, id) => (id === evt('order-1', 0) ? 'hold' : OK);
    t.worker('w1').start();
    // Renewed every 10 ms of fake time, so that a slow machine does not let it lapse meanwhile.
    await until(async () => (await t.time.advance(10), t.endpoint.held.length === 1));
    const acquire = t.process.acquireLease.bind(t.process);
    t.process.acquireLease = async () => {
      throw new Error('the read store is unreachable');
    };
    await t.time.advance(10);
    // The lease's own clock is the wall clock: past two thirds of its 30 ms, it is not surely ours.
    await new Promise((resolve) => setTimeout(resolve, 40));
    t.endpoint.release(evt('order-1', 0));
    await settle();
    expect(t.endpoint.ids()).toEqual([evt('order-1', 0)]);
    t.process.acquireLease = acquire;
    await until(async () => (await t.time.advance(10), t.endpoint.ids().length === 2));
    expect(t.endpoint.ids()).toEqual([evt('order-1', 0), evt('order-1', 1)]);
  });

  it('attempts a failed delivery again, once, when a retry is requested', async () => {
    const t = await setup([subA], { pollMs: H / 2, ...LONG });
    const position = await t.append('order-1', 'OrderPlaced');
    t.endpoint.answer = () => DOWN;
    t.worker('w1').start();
    await until(() => t.endpoint.sent.length === 1);
    await t.time.advance(RETRY_FOR_MS - H);
    expect(t.log.attempts('sub-a').at(-1)!.outcome).toBe('failed');
    const sent = t.endpoint.sent.length;

    t.endpoint.answer = () => OK;
    await t.store.appendToStream(
      'webhook-deliveries-sub-a',
      [{ type: 'WebhookDeliveryRetryRequested', data: { subscriptionId: 'sub-a', deliveryId: 'sub-a/order-1.0', eventId: 'order-1.0', eventPosition: position, type: 'order.placed', resource: 'order-1' }, metadata: meta }],
      'any',
    );
    // A request for another subscription is not this one's.
    await t.store.appendToStream(
      'webhook-deliveries-sub-x',
      [{ type: 'WebhookDeliveryRetryRequested', data: { subscriptionId: 'sub-x', deliveryId: 'sub-x/order-1.0', eventId: 'order-1.0', eventPosition: position, type: 'order.placed', resource: 'order-1' }, metadata: meta }],
      'any',
    );
    await t.time.advance(H / 2);
    await until(() => t.endpoint.sent.length === sent + 1);
    await settle();
    expect(t.endpoint.sent).toHaveLength(sent + 1);
    expect(t.log.attempts('sub-a').at(-1)).toMatchObject({ deliveryId: 'sub-a/order-1.0', outcome: 'succeeded' });
    // A success: the subscription is not disabled when the 3 days are up.
    await t.time.advance(3 * H);
    expect(t.subscriptions.disabled).toEqual([]);
  });

  it('takes at most maxPending open deliveries from the log, and reads on as they become final', async () => {
    const t = await setup([subA], { maxPending: 2, maxInFlight: 16 });
    for (let i = 0; i < 5; i++) await t.append(`order-${i}`, 'OrderPlaced');
    t.endpoint.answer = () => 'hold';
    t.worker('w1').start();
    await until(() => t.endpoint.held.length === 2);
    await t.time.advance(5000);
    expect(t.endpoint.ids()).toEqual([evt('order-0', 0), evt('order-1', 0)]);
    t.endpoint.answer = () => OK;
    for (const held of [...t.endpoint.held]) t.endpoint.release(held.id);
    await until(async () => (await t.time.advance(1000), t.endpoint.sent.length === 5));
    expect(t.endpoint.ids()).toEqual([0, 1, 2, 3, 4].map((i) => evt(`order-${i}`, 0)));
  });

  it('makes a delivery still being retried due at once when a retry is requested', async () => {
    const t = await setup([subA], { pollMs: 500 });
    const position = await t.append('order-1', 'OrderPlaced');
    t.endpoint.answer = () => DOWN;
    t.worker('w1').start();
    await until(() => t.endpoint.sent.length === 1);
    await t.store.appendToStream(
      'webhook-deliveries-sub-a',
      [{ type: 'WebhookDeliveryRetryRequested', data: { subscriptionId: 'sub-a', deliveryId: 'sub-a/order-1.0', eventId: 'order-1.0', eventPosition: position, type: 'order.placed', resource: 'order-1' }, metadata: meta }],
      'any',
    );
    t.endpoint.answer = () => OK;
    await t.time.advance(1000);
    await until(() => t.endpoint.sent.length === 2);
    // Well before its 5 s, and once: the request joined the open delivery rather than adding one.
    expect(t.endpoint.sent[1]!.at - T0).toBeLessThanOrEqual(1000);
    await t.time.advance(10_000);
    expect(t.endpoint.sent).toHaveLength(2);
    expect(t.log.attempts('sub-a').map((a) => a.outcome)).toEqual(['retrying', 'succeeded']);
  });

  it('records the outcomes in one call per flush, and keeps them for the next when the log refuses', async () => {
    const t = await setup([subA]);
    for (let i = 0; i < 6; i++) await t.append(`order-${i}`, 'OrderPlaced');
    t.log.failing = true;
    t.worker('w1').start();
    await until(() => t.endpoint.sent.length === 6);
    await settle();
    expect(t.process.checkpoints.size).toBe(0);
    t.log.failing = false;
    await t.time.advance(1000);
    await until(() => t.log.attempts('sub-a').length === 6);
    expect(t.log.calls.length).toBeLessThan(6);
    expect(t.endpoint.sent).toHaveLength(6);
  });
});

describe('two delivery workers sharing a read store', () => {
  it('never attempt the same delivery at once: one holds a subscription’s lease, the other takes over when it stops', async () => {
    const events = await openEmbedded();
    const read: ReadStoreFixture = await openEmbeddedReadStore();
    opened.push(events, read);
    const time = new FakeTime();
    const endpoint = new FakeEndpoint(time, () => 'hold');
    const log = new MemoryDeliveryLog();
    const subscriptions = new MemorySubscriptions([subA, subB]);
    const make = (holder: string) => {
      const w = new WebhookDeliveryWorker(
        { log: events.store, process: read.store, subscriptions, messages, deliveries: log, send: endpoint.send },
        { holder, clock: time.clock, timers: time.timers, random: () => 1, pollMs: 1000, refreshMs: 10_000, leaseTtlMs: 600_000 },
      );
      workers.push(w);
      return w;
    };
    for (let i = 0; i < 5; i++) await events.store.appendToStream(`order-${i}`, [{ type: 'OrderPlaced', data: {}, metadata: meta }], 'any');
    const one = make('worker-1');
    const two = make('worker-2');
    one.start();
    await until(() => one.working.length === 2);
    two.start();
    await until(() => endpoint.held.length === 10);
    await time.advance(10_000);
    expect(two.working).toEqual([]);
    expect(endpoint.sent).toHaveLength(10);

    endpoint.answer = () => OK;
    for (const held of [...endpoint.held]) endpoint.release(held.id);
    await until(() => log.attempts('sub-a').length === 5 && log.attempts('sub-b').length === 5);
    await one.stop();
    await time.advance(10_000);
    await until(() => two.working.length === 2);
    for (let i = 5; i < 8; i++) await events.store.appendToStream(`order-${i}`, [{ type: 'OrderPlaced', data: {}, metadata: meta }], 'any');
    await time.advance(1000);
    await until(() => endpoint.sent.length === 16);
    await settle();
    expect(endpoint.overlapping).toBe(0);
    expect(endpoint.sent).toHaveLength(16);
    expect(new Set(endpoint.sent.map((s) => `${s.url} ${s.id}`)).size).toBe(16);
  });

});

describe('the webhook delivery worker’s replays', () => {
  /** A subscription whose live deliveries begin at the log's head: only a replay sends what came before. */
  const liveFromHead = async (t: Awaited<ReturnType<typeof setup>>, sub = subA) => {
    t.subscriptions.list = [{ ...sub, from: (await t.store.headPosition())! }];
  };

  it('sends every selected event of a range of positions again, in order per resource, as deliveries of the job, which then succeeds with their count', async () => {
    const t = await setup([], { pollMs: H, ...LONG });
    await t.append('order-0', 'OrderPlaced');
    await t.append('order-1', 'OrderPlaced', 'OrderPaid');
    await t.append('other-1', 'Noise');
    const to = await t.append('order-2', 'OrderPlaced');
    await t.append('order-3', 'OrderPlaced');
    await liveFromHead(t);
    // The position of the first event of order-1's commit: from is inclusive.
    const first = (await t.store.readStream('order-1'))[0]!.position;
    t.replays.add('job-1', 'sub-a', first, to);
    t.endpoint.answer = (_, id) => (id === evt('order-1', 0) ? 'hold' : OK);
    t.worker('w1').start();
    await until(() => t.endpoint.held.length === 1);
    await settle();
    // order-1's second event waits for its first; order-2 goes meanwhile.
    expect(t.endpoint.ids()).toEqual([evt('order-1', 0), evt('order-2', 0)]);
    t.endpoint.release(evt('order-1', 0));
    await until(() => t.replays.job('job-1').status === 'succeeded');
    expect(t.endpoint.ids()).toEqual([evt('order-1', 0), evt('order-2', 0), evt('order-1', 1)]);
    expect(t.replays.job('job-1').count).toBe(3);
    const attempts = t.log.attempts('sub-a');
    // One attempt per event, each a delivery of the job's own (not the event's first delivery).
    expect(new Map(attempts.map((a) => [a.deliveryId, [a.jobId, a.outcome]]))).toEqual(new Map([
      ['sub-a/order-1.0/job-1', ['job-1', 'succeeded']],
      ['sub-a/order-1.1/job-1', ['job-1', 'succeeded']],
      ['sub-a/order-2.0/job-1', ['job-1', 'succeeded']],
    ]));
    expect(attempts).toHaveLength(3);
    // Its runner is gone, and the live deliveries sent nothing of the history.
    expect(t.endpoint.ids().filter((id) => id === evt('order-0', 0) || id === evt('order-3', 0))).toEqual([]);
  });

  it('takes an instant as the first event recorded at or after it, and the last at or before it', async () => {
    const t = await setup([], { pollMs: H, ...LONG });
    await t.append('order-1', 'OrderPlaced');
    // The store stamps each commit with the wall clock: a few ms apart, so that they differ.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await t.append('order-2', 'OrderPlaced');
    await new Promise((resolve) => setTimeout(resolve, 5));
    await t.append('order-3', 'OrderPlaced');
    await new Promise((resolve) => setTimeout(resolve, 5));
    await t.append('order-4', 'OrderPlaced');
    await liveFromHead(t);
    const at = async (stream: string) => (await t.store.readStream(stream))[0]!.recordedAt.toISOString();
    t.replays.add('job-1', 'sub-a', await at('order-2'), await at('order-3'));
    t.worker('w1').start();
    await until(() => t.replays.job('job-1').status === 'succeeded');
    expect(t.endpoint.ids()).toEqual([evt('order-2', 0), evt('order-3', 0)]);
    expect(t.replays.job('job-1').count).toBe(2);
  });

  it('succeeds at once, with 0, when its range holds no event the subscription selects', async () => {
    const t = await setup([], { pollMs: H, ...LONG });
    const only = await t.append('other-1', 'Noise');
    await liveFromHead(t);
    t.replays.add('job-1', 'sub-a', only, only);
    t.worker('w1').start();
    await until(() => t.replays.job('job-1').status === 'succeeded');
    expect(t.replays.job('job-1').count).toBe(0);
    expect(t.endpoint.sent).toEqual([]);
  });

  it('reports its progress at each refresh, and a restart goes on from its checkpoint, counting what was final already', async () => {
    const t = await setup([], { states: true });
    await t.append('order-1', 'OrderPlaced');
    await t.append('order-2', 'OrderPlaced');
    const last = await t.append('order-3', 'OrderPlaced');
    await liveFromHead(t);
    t.replays.add('job-1', 'sub-a', (await t.store.readStream('order-1'))[0]!.position, last);
    t.endpoint.answer = (_, id) => (id === evt('order-2', 0) ? 'hold' : OK);
    t.worker('w1').start();
    await until(() => t.log.attempts('sub-a').length === 2);
    await until(() => t.process.checkpoints.get(replayProcessName('job-1')) !== undefined);
    await t.time.advance(10 * S);
    expect(t.replays.job('job-1').progress.at(-1)).toEqual({ processed: 2, total: 3 });

    // The process dies with order-2's attempt under way; the job's lease lapses; another process takes it up.
    t.process.expire('w1');
    t.replays.lapse('job-1');
    const restarted = new FakeTime();
    restarted.now = t.time.now;
    t.endpoint.answer = () => OK;
    const w2 = t.worker('w2', restarted);
    w2.start();
    await until(() => t.replays.job('job-1').status === 'succeeded');
    expect(t.replays.job('job-1')).toMatchObject({ attempts: 2, count: 3 });
    // order-1 was final below the mark; order-3 final beyond it (the delivery log says so): only order-2 is sent again.
    expect(t.endpoint.ids()).toEqual([evt('order-1', 0), evt('order-2', 0), evt('order-3', 0), evt('order-2', 0)]);
    expect(w2.replaying).toEqual([]);
  });

  it('runs one replay of a subscription at a time, oldest first, and none while the subscription is paused', async () => {
    const t = await setup([], { pollMs: H, ...LONG });
    const p1 = await t.append('order-1', 'OrderPlaced');
    const p2 = await t.append('order-2', 'OrderPlaced');
    t.replays.add('job-1', 'sub-a', p1, p1);
    t.replays.add('job-2', 'sub-a', p2, p2);
    // Paused: not in the active list.
    const worker = t.worker('w1');
    worker.start();
    await settle();
    expect(t.replays.job('job-1').status).toBe('queued');
    await liveFromHead(t);
    t.endpoint.answer = () => 'hold';
    await t.time.advance(LONG.refreshMs);
    await until(() => t.endpoint.held.length === 1);
    expect(worker.replaying).toEqual(['job-1']);
    expect(t.replays.job('job-2').status).toBe('queued');
    t.endpoint.answer = () => OK;
    t.endpoint.release(evt('order-1', 0));
    await until(() => t.replays.job('job-1').status === 'succeeded');
    await t.time.advance(LONG.refreshMs);
    await until(() => t.replays.job('job-2').status === 'succeeded');
    expect(t.endpoint.ids()).toEqual([evt('order-1', 0), evt('order-2', 0)]);
  });

  it('fails the replays of a deleted subscription, and does not let their failures disable a live subscription', async () => {
    const t = await setup([], { pollMs: H, ...LONG });
    const p1 = await t.append('order-1', 'OrderPlaced');
    t.replays.add('job-gone', 'sub-gone', p1, p1);
    t.replays.gone.add('sub-gone');
    t.replays.add('job-1', 'sub-a', p1, p1);
    await liveFromHead(t);
    t.endpoint.answer = () => DOWN;
    t.worker('w1').start();
    await until(() => t.replays.job('job-gone').status === 'failed');
    // The replay's delivery is retried on the schedule for 3 days and fails for good; the subscription stays.
    await t.time.advance(RETRY_FOR_MS + H);
    await until(() => t.replays.job('job-1').status === 'succeeded');
    expect(t.log.attempts('sub-a').at(-1)).toMatchObject({ jobId: 'job-1', outcome: 'failed' });
    expect(t.subscriptions.disabled).toEqual([]);
  });

  it('with follow, takes up a replay as soon as its request is in the log, before the jobs\' read model lists it', async () => {
    const t = await setup([], { pollMs: H, ...LONG, follow: true });
    const p1 = await t.append('order-1', 'OrderPlaced');
    await liveFromHead(t);
    t.worker('w1').start();
    await until(() => t.process.leases.size === 1);
    await settle();
    t.replays.add('job-1', 'sub-a', p1, p1);
    t.replays.unseen.add('job-1');
    await t.store.appendToStream('job-job-1', [{ type: 'WebhookReplayRequested', data: { jobId: 'job-1', subscriptionId: 'sub-a', from: p1, to: p1 }, metadata: meta }], 'no_stream');
    // The fake clock stands still: no refresh comes; the request in the log starts the replay.
    await until(() => t.replays.job('job-1').status === 'succeeded');
    expect(t.endpoint.ids()).toEqual([evt('order-1', 0)]);
  });
});

describe('what the worker reads per attempt', () => {
  it('reads a subscription\'s secrets at most once per SECRETS_KEPT_MS, and signs with a rotated one after that', async () => {
    const t = await setup([subA], { pollMs: H, ...LONG });
    for (let i = 0; i < 5; i++) await t.append(`order-${i}`, 'OrderPlaced');
    t.worker('w1').start();
    await until(() => t.endpoint.sent.length === 5);
    expect(t.subscriptions.secretReads).toBe(1);
    const rotated = 'whsec_' + Buffer.alloc(32, 2).toString('base64');
    t.subscriptions.secret = rotated;
    await t.append('order-5', 'OrderPlaced');
    await t.time.advance(LONG.refreshMs);
    await until(() => t.endpoint.sent.length === 6);
    // Read again only once SECRETS_KEPT_MS had passed.
    expect(t.subscriptions.secretReads).toBe(2);
    expect(t.endpoint.sent.at(-1)!.secrets).toEqual([rotated]);
    expect(LONG.refreshMs).toBeGreaterThan(SECRETS_KEPT_MS);
  });

  it('reads the log once for the subscriptions at the same place, and each still sees every later event', async () => {
    // The fake clock never moves, so a read is shared until the next append alone.
    const t = await setup([subA, subB], { pollMs: H, ...LONG, follow: true });
    t.worker('w1').start();
    await until(() => t.process.leases.size === 2);
    await settle();
    for (let i = 1; i <= 3; i++) {
      const head = await t.store.headPosition();
      const before = t.reads.filter((after) => after === head).length;
      await t.append(`order-${i}`, 'OrderPlaced');
      await until(() => t.endpoint.ids(URL_A).length === i && t.endpoint.ids(URL_B).length === i);
      await settle();
      expect(t.reads.filter((after) => after === head).length - before).toBe(1);
    }
    expect(t.endpoint.ids(URL_B)).toEqual(t.endpoint.ids(URL_A));
  });

  it('shares a batch read before an append, saying it is not current, but never an empty one', async () => {
    let now = 0;
    const appended: RecordedEvent[] = [];
    const asked: (string | null)[] = [];
    const log = { readAll: async (o: { after?: Position | null }) => (asked.push(o.after ?? null), [...appended]) };
    const reads = new SharedReads(log as never, () => new Date(now), 100);
    expect(await reads.readAll(null, 10)).toEqual({ batch: [], current: true });
    expect(await reads.readAll(null, 10)).toEqual({ batch: [], current: true });
    expect(asked).toHaveLength(1);
    // An append: the empty batch is not shared any more.
    appended.push({ position: 'p1' } as never);
    reads.appended();
    expect(await reads.readAll(null, 10)).toEqual({ batch: appended, current: true });
    expect(asked).toHaveLength(2);
    // Another append: the batch holding p1 is shared with a runner that reads later, which is told to read on.
    reads.appended();
    expect(await reads.readAll(null, 10)).toEqual({ batch: appended, current: false });
    expect(asked).toHaveLength(2);
    // Past keepMs, nothing is shared.
    now += 101;
    await reads.readAll(null, 10);
    expect(asked).toHaveLength(3);
  });

  it('asks the delivery log for the states of the deliveries up to the log\'s head at its start alone', async () => {
    const t = await setup([subA], { states: true, follow: true, pollMs: H, ...LONG });
    await t.append('order-1', 'OrderPlaced');
    t.worker('w1').start();
    await until(() => t.endpoint.sent.length === 1);
    expect(t.log.asked).toEqual([['sub-a/order-1.0']]);
    await t.append('order-2', 'OrderPlaced');
    await until(() => t.endpoint.sent.length === 2);
    expect(t.log.asked).toEqual([['sub-a/order-1.0']]);
  });

  it('says in each live flush since when the subscription has failed, and nothing of it in a replay\'s', async () => {
    const t = await setup([subA], { pollMs: H, ...LONG });
    const p1 = await t.append('order-1', 'OrderPlaced');
    t.endpoint.answer = () => DOWN;
    t.worker('w1').start();
    await until(() => t.log.calls.length === 1);
    expect(t.log.calls[0]!.failingSince).toBe(new Date(T0).toISOString());
    t.endpoint.answer = () => OK;
    await t.time.advance(5 * S);
    await until(() => t.log.calls.length === 2);
    expect(t.log.calls[1]!.failingSince).toBeNull();
    t.replays.add('job-1', 'sub-a', p1, p1);
    await t.time.advance(LONG.refreshMs);
    await until(() => t.replays.job('job-1').status === 'succeeded');
    expect(t.log.calls.at(-1)).toMatchObject({ attempts: [{ jobId: 'job-1' }], failingSince: undefined });
  });
});
