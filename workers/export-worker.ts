// The export worker: follows the job streams, claims a job that is queued (or whose worker's
// lease lapsed), writes the export file, and records the outcome. Several workers can run
// against one store: the claim is an append at an expected revision, so one of them wins.
import { randomUUID } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReadModelStore } from '../read-side/read-store.js';
import { StateConflict } from '../write-side/errors.js';
import { StoreUnavailable, type EventStore, type EventSubscription } from '../write-side/event-store.js';
import type { JobService } from '../write-side/job-service.js';
import { decodeJobEvent, JOB_STREAM_PREFIX } from '../write-side/jobs/codec.js';
import { evolveJob, initialJobState } from '../write-side/jobs/decider.js';
import type { Job, JobError, JobState } from '../write-side/jobs/types.js';
import { CONTENT_TYPES, writeExport } from './export-file.js';

export interface ExportWorkerOptions {
  readonly exportsDir: string;
  readonly workerId?: string;
  /** How long a claim holds without a progress report. */
  readonly leaseMs?: number;
  /** How long a result file is kept after the job succeeded. */
  readonly retentionMs?: number;
  readonly pollMs?: number;
  readonly pageSize?: number;
  readonly onError?: (error: unknown, what: string) => void;
}

/** The worker is stopping: the job is left to its lease, for another worker to take over. */
class Abandoned extends Error {}

export class ExportWorker {
  readonly workerId: string;
  private readonly leaseMs: number;
  private readonly retentionMs: number;
  private readonly pollMs: number;
  private readonly jobs = new Map<string, Job>();
  private subscription: EventSubscription | null = null;
  private following: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<void> | null = null;
  private readonly expiring = new Set<string>();
  /** Jobs this worker failed to claim, and when to try again unless their stream moves first. */
  private readonly lost = new Map<string, number>();
  private stopping = false;

  constructor(
    private readonly events: EventStore,
    private readonly jobService: JobService,
    private readonly readModels: ReadModelStore,
    private readonly options: ExportWorkerOptions,
  ) {
    this.workerId = options.workerId ?? randomUUID();
    this.leaseMs = options.leaseMs ?? 30_000;
    this.retentionMs = options.retentionMs ?? 24 * 3600_000;
    this.pollMs = options.pollMs ?? 500;
  }

  start(): void {
    this.stopping = false;
    this.following = this.follow();
    this.timer = setInterval(() => this.tick(), this.pollMs);
  }

  /** Stops claiming; a running export stops at its next page, or is left to its lease after `graceMs`. */
  async stop(graceMs = 2000): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.subscription?.close();
    await this.following;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.current, new Promise((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
  }

  /** Keeps the state of every job that is not finished with, from the job streams. */
  private async follow(): Promise<void> {
    let backoff = 100;
    while (!this.stopping) {
      const subscription = this.events.subscribeToAll({ after: null, streamPrefixes: [JOB_STREAM_PREFIX] });
      this.subscription = subscription;
      this.jobs.clear();
      try {
        for await (const recorded of subscription) {
          const event = decodeJobEvent(recorded);
          this.lost.delete(event.data.jobId);
          const job = evolveJob(this.jobs.get(event.data.jobId) ?? (initialJobState() as JobState), event);
          if (job.status === 'absent') continue;
          const done = job.status === 'failed' || (job.status === 'succeeded' && job.result === null);
          if (done) this.jobs.delete(job.id);
          else this.jobs.set(job.id, job);
          if (job.status === 'queued') this.tick();
          backoff = 100;
        }
      } catch (error) {
        if (this.stopping) return;
        this.options.onError?.(error, 'following the job streams');
        await new Promise((r) => setTimeout(r, backoff));
        backoff = Math.min(backoff * 2, 5000);
      }
    }
  }

  private tick(): void {
    if (this.stopping) return;
    const now = new Date().toISOString();
    if (!this.current) {
      const claimable = [...this.jobs.values()].find(
        (job) => (this.lost.get(job.id) ?? 0) <= Date.now() && (job.status === 'queued' || (job.status === 'running' && job.lease !== null && job.lease.until < now)),
      );
      if (claimable) {
        this.current = this.claimAndRun(claimable.id).finally(() => {
          this.current = null;
          // Not straight away: a retry made of promises alone would starve the timers and I/O.
          setImmediate(() => this.tick());
        });
      }
    }
    const expiredBefore = new Date(Date.now() - this.retentionMs).toISOString();
    for (const job of this.jobs.values()) {
      if (job.status === 'succeeded' && job.result && job.finishedAt! < expiredBefore) void this.expire(job);
    }
  }

  private async claimAndRun(jobId: string): Promise<void> {
    let claimed;
    try {
      claimed = await this.jobService.start(jobId, this.workerId, this.leaseMs);
    } catch (error) {
      // Another worker claimed it first, or it is no longer waiting: wait for its stream to say more.
      this.lost.set(jobId, Date.now() + this.pollMs);
      if (!(error instanceof StateConflict)) this.options.onError?.(error, `claiming job ${jobId}`);
      return;
    }
    const job = claimed.state;
    if (job.status !== 'running' || job.lease?.workerId !== this.workerId) return; // given up after too many attempts
    await this.run(job);
  }

  private async run(job: Job): Promise<void> {
    const name = `${job.id}-${job.attempts}.${job.format}`;
    const path = join(this.options.exportsDir, name);
    const partial = `${path}.partial`;
    const filter = {
      ...(job.filter.status ? { status: job.filter.status } : {}),
      ...(job.filter.createdFrom ? { createdFrom: job.filter.createdFrom } : {}),
      ...(job.filter.createdTo ? { createdTo: job.filter.createdTo } : {}),
      ...(job.customerId ? { customerId: job.customerId } : {}),
    };
    const reportEveryMs = Math.min(1000, this.leaseMs / 3);
    try {
      const total = await this.readModels.countOrders(filter);
      await this.jobService.progress(job.id, this.workerId, 0, total, this.leaseMs);
      let reported = Date.now();
      const { count, bytes } = await writeExport(this.readModels, job.format, filter, partial, async (processed) => {
        if (this.stopping) throw new Abandoned();
        if (Date.now() - reported < reportEveryMs) return;
        reported = Date.now();
        await this.jobService.progress(job.id, this.workerId, processed, Math.max(total, processed), this.leaseMs);
      }, this.options.pageSize);
      await rename(partial, path);
      try {
        await this.jobService.complete(job.id, this.workerId, { file: name, contentType: CONTENT_TYPES[job.format], count, bytes });
      } catch (error) {
        await rm(path, { force: true });
        throw error;
      }
    } catch (error) {
      await rm(partial, { force: true });
      if (error instanceof Abandoned) return;
      // The lease went to another worker (this one was too slow to report): theirs is the run that counts.
      if (error instanceof StateConflict) return;
      this.options.onError?.(error, `running export ${job.id}`);
      await this.jobService.fail(job.id, this.workerId, problemOf(error)).catch((e: unknown) => this.options.onError?.(e, `failing job ${job.id}`));
    }
  }

  private async expire(job: Job): Promise<void> {
    if (!job.result || this.expiring.has(job.id)) return;
    this.expiring.add(job.id);
    try {
      await rm(join(this.options.exportsDir, job.result.file), { force: true });
      await this.jobService.expireResult(job.id, this.workerId);
    } catch (error) {
      this.options.onError?.(error, `expiring the result of job ${job.id}`);
    } finally {
      this.expiring.delete(job.id);
    }
  }
}

function problemOf(error: unknown): JobError {
  if (error instanceof StoreUnavailable) return { code: 'store-unavailable', detail: 'A store was unavailable during the export; start a new export.' };
  return { code: 'export-failed', detail: 'The export failed unexpectedly; start a new export.' };
}
