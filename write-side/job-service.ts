// Jobs on the write side: requesting an export, and the worker's claim, progress and outcome,
// each a command through the same handler as orders, so two workers never hold one job.
import { CommandHandler, type CommandResult } from './command-handler.js';
import type { EventStore } from './event-store.js';
import { keyId, type IdempotencyRequest } from './idempotency.js';
import { jobDecider } from './jobs/decider.js';
import { decodeJobEvent, encodeJobEvent, jobStream } from './jobs/codec.js';
import type { ExportFilter, ExportFormat, Job, JobCommand, JobEvent, JobProblem, JobResult, JobState } from './jobs/types.js';
import type { WriteContext } from './order-service.js';

export type JobResultOf = CommandResult<JobState, JobEvent>;

export class JobService {
  private readonly handler: CommandHandler<JobState, JobCommand, JobEvent>;
  private readonly clock: () => Date;

  constructor(
    private readonly store: EventStore,
    options: { clock?: () => Date } = {},
  ) {
    this.handler = new CommandHandler(store, jobDecider, { encode: encodeJobEvent, decode: decodeJobEvent });
    this.clock = options.clock ?? (() => new Date());
  }

  requestExport(
    input: { format: ExportFormat; filter: ExportFilter; customerId: string | null },
    context: WriteContext & { idempotency: IdempotencyRequest },
  ): Promise<JobResultOf> {
    const jobId = keyId(context.principal, context.idempotency.key);
    const data = { jobId, owner: context.principal, ...input };
    return this.run(jobId, { type: 'RequestExport', data, metadata: this.meta(context.principal) }, context);
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

  fail(jobId: string, workerId: string, error: JobProblem): Promise<JobResultOf> {
    return this.run(jobId, { type: 'FailJob', data: { jobId, workerId, error }, metadata: this.meta(workerId) }, this.workerContext(workerId));
  }

  expireResult(jobId: string, workerId: string): Promise<JobResultOf> {
    return this.run(jobId, { type: 'ExpireResult', data: { jobId }, metadata: this.meta(workerId) }, this.workerContext(workerId));
  }

  /** The job folded from its stream: always current. */
  async get(jobId: string): Promise<{ job: Job; revision: number } | null> {
    const recorded = await this.store.readStream(jobStream(jobId));
    const state = recorded.reduce((s, r) => jobDecider.evolve(s, decodeJobEvent(r)), jobDecider.initialState());
    return state.status === 'absent' ? null : { job: state, revision: recorded.at(-1)!.revision };
  }

  private run(jobId: string, command: JobCommand, context: WriteContext & { idempotency?: IdempotencyRequest }) {
    return this.handler.handle(jobStream(jobId), command, {
      principal: context.principal,
      correlationId: context.correlationId,
      causationId: context.causationId ?? null,
      ...(context.idempotency ? { idempotency: context.idempotency } : {}),
    });
  }

  private workerContext(workerId: string): WriteContext {
    return { principal: `worker:${workerId}`, correlationId: `job-worker:${workerId}` };
  }

  private meta(principal: string) {
    return { now: this.clock().toISOString(), principal };
  }

  private inFuture(ms: number): string {
    return new Date(this.clock().getTime() + ms).toISOString();
  }
}
