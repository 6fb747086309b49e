// Jobs on the write side: requesting an export, and the worker's claim, progress and outcome,
// each a command through the same handler as orders, so two workers never hold one job.
// A job belongs to the principal that asked for it (sub and customer together): only it, or a
// staff auditor, reads it; and a principal holds at most MAX_ACTIVE_EXPORTS queued or running.
import { LRUCache } from 'lru-cache';
import { auditsJobs, owns, type Viewer } from '../kernel/access.js';
import { CommandHandler, type CommandResult } from '../kernel/command-handler.js';
import { ExportLimitReached, JobNotFound } from '../kernel/errors.js';
import { RevisionConflict, type EventStore } from '../kernel/event-store.js';
import { keyId, refuseKeyOfAnother, type IdempotencyRequest } from '../kernel/idempotency.js';
import { jobDecider } from './decider.js';
import { decodeJobEvent, encodeJobEvent, exportSlotTaken, exportSlotsStream, jobStream } from './codec.js';
import type { ExportFilter, ExportFormat, Job, JobCommand, JobEvent, JobError, JobResult, JobState } from './types.js';
import type { WriteContext } from '../kernel/write-context.js';

/** Exports one principal may have queued or running at once (HTTP-CONTRACT.md: "say 5"). */
export const MAX_ACTIVE_EXPORTS = 5;
const SLOT_ATTEMPTS = 8;
/**
 * A listed job whose request is not written yet holds its slot this long: it is being written
 * by a request in flight, unless that request died (then the slot comes back).
 */
const UNWRITTEN_SLOT_MS = 60_000;

export type JobResultOf = CommandResult<JobState, JobEvent>;

export class JobService {
  private readonly handler: CommandHandler<JobState, JobCommand, JobEvent>;
  private readonly clock: () => Date;
  /** Jobs seen finished: they never become active again, so their streams are not read twice. */
  private readonly finished = new LRUCache<string, true>({ max: 100_000 });

  constructor(
    private readonly store: EventStore,
    options: { clock?: () => Date } = {},
  ) {
    this.handler = new CommandHandler(store, jobDecider, { encode: encodeJobEvent, decode: decodeJobEvent });
    this.clock = options.clock ?? (() => new Date());
  }

  /** Starts an export of the orders the viewer sees: a customer's token exports only its own customer's. */
  async requestExport(
    viewer: Viewer,
    { apiVersion = '2026-11-01', ...input }: { format: ExportFormat; filter: ExportFilter; apiVersion?: string },
    context: WriteContext & { idempotency: IdempotencyRequest },
  ): Promise<JobResultOf> {
    const jobId = keyId(viewer.sub, context.idempotency.key);
    const data = { jobId, owner: viewer.sub, customerId: viewer.customerId, ...input, apiVersion };
    const command: JobCommand = { type: 'RequestExport', data, metadata: this.meta(viewer.sub) };
    // A retry of a request that made its job is answered by the handler (a replay), never refused.
    // A key another request holds is refused before it takes a slot, not after.
    if ((await this.store.readStream(jobStream(jobId), { toRevision: 0 })).length === 0) {
      await refuseKeyOfAnother(this.store, viewer.sub, context.idempotency, jobStream(jobId));
      await this.takeSlot(viewer, jobId, context);
    }
    return this.run(jobId, command, { ...context, principal: viewer.sub });
  }

  /**
   * Records a webhook replay's job (WebhookService.requestReplay checks its subscription and range
   * first). No cap: only admins replay, and the delivery worker runs one replay per subscription at a time.
   */
  async requestReplay(viewer: Viewer, input: { subscriptionId: string; from: string; to: string }, context: WriteContext & { idempotency: IdempotencyRequest }): Promise<JobResultOf> {
    const jobId = keyId(viewer.sub, context.idempotency.key);
    const command: JobCommand = { type: 'RequestReplay', data: { jobId, owner: viewer.sub, customerId: null, ...input }, metadata: this.meta(viewer.sub) };
    if ((await this.store.readStream(jobStream(jobId), { toRevision: 0 })).length === 0) {
      await refuseKeyOfAnother(this.store, viewer.sub, context.idempotency, jobStream(jobId));
    }
    return this.run(jobId, command, { ...context, principal: viewer.sub });
  }

  /**
   * Records the job in its principal's list of exports, unless MAX_ACTIVE_EXPORTS of the listed
   * ones are queued or running. The list is appended at the revision it was counted at, so two
   * requests racing for the last slot cannot both take it.
   */
  private async takeSlot(viewer: Viewer, jobId: string, context: WriteContext): Promise<void> {
    const stream = exportSlotsStream(viewer.sub, viewer.customerId);
    for (let attempt = 1; attempt <= SLOT_ATTEMPTS; attempt++) {
      const recorded = await this.store.readStream(stream);
      if (recorded.some((r) => r.data.jobId === jobId)) return;
      const unwrittenSince = this.clock().getTime() - UNWRITTEN_SLOT_MS;
      let active = 0;
      for (const r of recorded) if (await this.holdsSlot(String(r.data.jobId), r.recordedAt.getTime() > unwrittenSince)) active++;
      if (active >= MAX_ACTIVE_EXPORTS) throw new ExportLimitReached(MAX_ACTIVE_EXPORTS);
      const event = exportSlotTaken(jobId, { principal: viewer.sub, correlationId: context.correlationId, causationId: context.causationId ?? null });
      try {
        await this.store.appendToStream(stream, [event], recorded.at(-1)?.revision ?? 'no_stream');
        return;
      } catch (error) {
        if (!(error instanceof RevisionConflict)) throw error;
      }
    }
    throw new ExportLimitReached(MAX_ACTIVE_EXPORTS);
  }

  /** Queued or running; or not written yet, while `recent` (its request may still be writing it). */
  private async holdsSlot(jobId: string, recent: boolean): Promise<boolean> {
    if (this.finished.has(jobId)) return false;
    const found = await this.fold(jobId);
    if (!found) return recent;
    if (found.job.status === 'queued' || found.job.status === 'running') return true;
    this.finished.set(jobId, true);
    return false;
  }

  /** Claims the job for this worker until `leaseMs` from now; throws when it is not claimable. */
  start(jobId: string, workerId: string, leaseMs: number): Promise<JobResultOf> {
    const data = { jobId, workerId, leaseUntil: this.inFuture(leaseMs) };
    return this.run(jobId, { type: 'StartJob', data, metadata: this.meta(workerId) }, this.workerContext(workerId));
  }

  progress(jobId: string, workerId: string, processed: number, total: number, leaseMs: number): Promise<JobResultOf> {
    const data = { jobId, workerId, processed, total, leaseUntil: this.inFuture(leaseMs) };
    return this.run(jobId, { type: 'RecordProgress', data, metadata: this.meta(workerId) }, this.workerContext(workerId));
  }

  complete(jobId: string, workerId: string, result: JobResult): Promise<JobResultOf> {
    return this.run(jobId, { type: 'CompleteJob', data: { jobId, workerId, result }, metadata: this.meta(workerId) }, this.workerContext(workerId));
  }

  fail(jobId: string, workerId: string, error: JobError): Promise<JobResultOf> {
    return this.run(jobId, { type: 'FailJob', data: { jobId, workerId, error }, metadata: this.meta(workerId) }, this.workerContext(workerId));
  }

  expireResult(jobId: string, workerId: string): Promise<JobResultOf> {
    return this.run(jobId, { type: 'ExpireResult', data: { jobId }, metadata: this.meta(workerId) }, this.workerContext(workerId));
  }

  /** The job folded from its stream, always current, when the viewer started it or audits as staff; null otherwise, as for an unknown job. */
  async get(viewer: Viewer, jobId: string): Promise<{ job: Job; revision: number } | null> {
    const found = await this.fold(jobId);
    return found && (owns(viewer, found.job) || auditsJobs(viewer)) ? found : null;
  }

  /** The job the viewer may see, or JobNotFound. */
  async visible(viewer: Viewer, jobId: string): Promise<Job> {
    const found = await this.get(viewer, jobId);
    if (!found) throw new JobNotFound(jobId);
    return found.job;
  }

  private async fold(jobId: string): Promise<{ job: Job; revision: number } | null> {
    const recorded = await this.store.readStream(jobStream(jobId));
    const state = recorded.reduce((s, r) => jobDecider.evolve(s, decodeJobEvent(r)), jobDecider.initialState());
    return state.status === 'absent' ? null : { job: state, revision: recorded.at(-1)!.revision };
  }

  private run(jobId: string, command: JobCommand, context: WriteContext & { principal: string; idempotency?: IdempotencyRequest }) {
    return this.handler.handle(jobStream(jobId), command, {
      principal: context.principal,
      correlationId: context.correlationId,
      causationId: context.causationId ?? null,
      ...(context.idempotency ? { idempotency: context.idempotency } : {}),
    });
  }

  private workerContext(workerId: string): WriteContext & { principal: string } {
    return { principal: `worker:${workerId}`, correlationId: `job-worker:${workerId}` };
  }

  private meta(principal: string) {
    return { now: this.clock().toISOString(), principal };
  }

  private inFuture(ms: number): string {
    return new Date(this.clock().getTime() + ms).toISOString();
  }
}
