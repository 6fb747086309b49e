// The export worker: reads the jobs view (kept by the jobs projection), claims a job that can be
// claimed (queued, or its worker's lease lapsed), writes the export file, and records the outcome.
// Several workers can run against one store: the claim is an append at an expected revision, so
// one of them wins. Export files hold personal data in clear: the worker also follows the key
// store's erasures and deletes every kept file that may hold an erased customer's data.
import { randomUUID } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { OpenedViews } from '../read-side/orders/opened-views.js';
import { keptResults, openJobs } from '../read-side/jobs/queries.js';
import type { ExportJobView as JobView } from '../read-side/jobs/views.js';
import { orderConditions } from '../read-side/orders/queries.js';
import { orderJsonFor } from '../read-side/orders/status.js';
import type { ReadModelStore } from '../read-side/read-store.js';
import { StateConflict } from '../write-side/kernel/errors.js';
import { StoreUnavailable } from '../write-side/kernel/event-store.js';
import type { JobService } from '../write-side/jobs/service.js';
import type { KeyStore } from '../write-side/personal-data/key-store.js';
import { claimable, resultExpiresAt } from '../write-side/jobs/rules.js';
import type { ExportJob, JobError } from '../write-side/jobs/types.js';
import { CONTENT_TYPES, writeExport } from './export-file.js';

export interface ExportWorkerOptions {
  readonly exportsDir: string;
  readonly workerId?: string;
  /** How long a claim holds without a progress report. */
  readonly leaseMs?: number;
  /** How long a result file is kept after the job succeeded. */
  readonly retentionMs?: number;
  /** How often the jobs view is read for work. */
  readonly pollMs?: number;
  readonly pageSize?: number;
  /**
   * An export whose run started up to this long after an erasure (by the clocks of two processes,
   * which may differ) is still taken to hold the erased data: deleting one needlessly costs a new
   * export, keeping one wrongly would keep erased data. Default 1 s.
   */
  readonly erasureClockMarginMs?: number;
  readonly onError?: (error: unknown, what: string) => void;
}

/** The worker is stopping: the job is left to its lease, for another worker to take over. */
class Abandoned extends Error {}

/** How many jobs one look at the view considers. */
const CANDIDATES = 100;
/** How many kept results one look checks against the erasures. */
const KEPT_RESULTS = 10_000;

/** What the worker needs of the customers' personal data. */
export interface ExportPersonalData {
  /** Opens the addresses of a page of views; the worker asks the key store, not a cache. */
  readonly views: OpenedViews;
  readonly erasures: Pick<KeyStore, 'erasuresSince'>;
}

export class ExportWorker {
  readonly workerId: string;
  private readonly leaseMs: number;
  private readonly retentionMs: number;
  private readonly pollMs: number;
  private timer: NodeJS.Timeout | null = null;
  private looking: Promise<void> | null = null;
  private current: Promise<void> | null = null;
  private readonly expiring = new Set<string>();
  /** Jobs this worker failed to claim, at the revision it saw, and when to try again unless the job moves first. */
  private readonly lost = new Map<string, { revision: number; until: number }>();
  private stopping = false;

  constructor(
    private readonly jobService: JobService,
    private readonly readModels: ReadModelStore,
    private readonly personal: ExportPersonalData,
    private readonly options: ExportWorkerOptions,
  ) {
    this.workerId = options.workerId ?? randomUUID();
    this.leaseMs = options.leaseMs ?? 30_000;
    this.retentionMs = options.retentionMs ?? 24 * 3600_000;
    this.pollMs = options.pollMs ?? 500;
  }

  start(): void {
    this.stopping = false;
    this.timer = setInterval(() => this.tick(), this.pollMs);
    this.tick();
  }

  /** Stops claiming; a running export stops at its next page, or is left to its lease after `graceMs`. */
  async stop(graceMs = 2000): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.looking;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.current, new Promise((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
  }

  private tick(): void {
    if (this.stopping || this.looking) return;
    this.looking = this.look()
      .catch((error: unknown) => this.options.onError?.(error, 'reading the jobs view'))
      .finally(() => (this.looking = null));
  }

  /** One look at the jobs view: claim the first job that can be claimed, expire the results past their time. */
  private async look(): Promise<void> {
    if (!this.current) {
      const now = new Date().toISOString();
      const candidates = await openJobs(this.readModels, 'order-export', CANDIDATES);
      const job = candidates.find((candidate) => claimable(candidate, now) && !this.stillLost(candidate));
      if (job && !this.stopping) {
        this.current = this.claimAndRun(job).finally(() => {
          this.current = null;
          // Not straight away: a retry made of promises alone would starve the timers and I/O.
          setImmediate(() => this.tick());
        });
      }
    }
    const now = new Date().toISOString();
    const kept = await keptResults(this.readModels, KEPT_RESULTS);
    for (const job of kept.slice(0, CANDIDATES)) {
      const expiresAt = resultExpiresAt(job, this.retentionMs);
      if (expiresAt === null) continue;
      if (expiresAt > now) break; // the earliest finished first: the rest are kept longer still
      void this.expire(job);
    }
    // Runs of other workers (or of a dead one whose lease has not lapsed yet) may have written an
    // erased customer's data into their partial files: those go too (a live run then fails, and
    // its export is started again). This worker's own run is checked once it has succeeded.
    const running = (await openJobs(this.readModels, 'order-export', CANDIDATES)).filter((job) => job.status === 'running' && job.lease?.workerId !== this.workerId);
    for (const job of await this.holdingErasedData([...kept, ...running])) void (job.status === 'running' ? this.removeAttempts(job, job.attempts) : this.expire(job));
  }

  /**
   * The kept results (or running jobs) that may hold the data of a customer erased since: their
   * run began before the erasure (pages read after it find the key destroyed), and their filter
   * takes in that customer. A run still going when the erasure came is found here once it has succeeded.
   */
  private async holdingErasedData(kept: readonly JobView[]): Promise<JobView[]> {
    const margin = this.options.erasureClockMarginMs ?? 1000;
    const started = kept.map((job) => Date.parse(job.startedAt ?? job.createdAt) - margin);
    if (started.length === 0) return [];
    const erasures = await this.personal.erasures.erasuresSince(new Date(Math.min(...started)), KEPT_RESULTS);
    if (erasures.length === 0) return [];
    return kept.filter((job, i) =>
      erasures.some((e) => e.erasedAt.getTime() >= started[i]! && (job.customerId === null || job.customerId === e.subject)),
    );
  }

  /** Lost to another worker a moment ago, and its view has not moved since. */
  private stillLost(job: JobView): boolean {
    const lost = this.lost.get(job.id);
    if (!lost) return false;
    if (lost.revision === job.revision && lost.until > Date.now()) return true;
    this.lost.delete(job.id);
    return false;
  }

  private async claimAndRun(candidate: JobView): Promise<void> {
    const jobId = candidate.id;
    let claimed;
    try {
      claimed = await this.jobService.start(jobId, this.workerId, this.leaseMs);
    } catch (error) {
      // Another worker claimed it first, or it is no longer waiting: wait for the view to say more.
      this.lost.set(jobId, { revision: candidate.revision, until: Date.now() + 10 * this.pollMs });
      if (!(error instanceof StateConflict)) this.options.onError?.(error, `claiming job ${jobId}`);
      return;
    }
    const job = claimed.state;
    if (job.status !== 'absent' && job.type !== 'order-export') throw new TypeError(`job ${jobId} is a ${job.type}, not an export`);
    // The earlier attempts' runs are dead (their lease lapsed): a killed one leaves its partial
    // file behind, or its whole file if it died between writing it and recording it, personal
    // data in clear that no erasure would find, so it goes now.
    if (job.status !== 'absent') await this.removeAttempts(job, job.status === 'running' ? job.attempts - 1 : job.attempts);
    if (job.status !== 'running' || job.lease?.workerId !== this.workerId) return; // given up after too many attempts
    await this.run(job);
  }

  private async run(job: ExportJob): Promise<void> {
    const name = `${job.id}-${job.attempts}.${job.format}`;
    const path = join(this.options.exportsDir, name);
    const partial = `${path}.partial`;
    // As the version the export was asked under reads the orders, however long it waited to run.
    const filter = {
      apiVersion: job.apiVersion,
      ...(job.filter.status ? { status: job.filter.status } : {}),
      ...(job.filter.createdFrom ? { createdFrom: job.filter.createdFrom } : {}),
      ...(job.filter.createdTo ? { createdTo: job.filter.createdTo } : {}),
      ...(job.customerId ? { customerId: job.customerId } : {}),
    };
    const reportEveryMs = Math.min(1000, this.leaseMs / 3);
    try {
      const total = await this.readModels.count('order-views', orderConditions(filter));
      await this.jobService.progress(job.id, this.workerId, 0, total, this.leaseMs);
      let reported = Date.now();
      const open = async (rows: Parameters<OpenedViews['orderJson']>[0]) =>
        (await this.personal.views.orderJson(rows, { fresh: true })).map((row) => orderJsonFor(row, job.apiVersion));
      const { count, bytes } = await writeExport(this.readModels, open, job.format, filter, partial, async (processed) => {
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

  /**
   * The files of the job's attempts 1 to `attempts`, partial or whole: none of them is the job's
   * result, which only a succeeded job has (and a succeeded job is never run again).
   */
  private async removeAttempts(job: ExportJob, attempts: number): Promise<void> {
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const name = join(this.options.exportsDir, `${job.id}-${attempt}.${job.format}`);
      await rm(`${name}.partial`, { force: true });
      await rm(name, { force: true });
    }
  }

  private async expire(job: ExportJob): Promise<void> {
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
