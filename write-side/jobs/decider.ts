// The job decider: who may claim a job, keep it, and end it. A worker holds a job by a lease
// that its progress reports extend; a lease that lapses (the worker died) lets another
// worker take the job over, up to MAX_ATTEMPTS attempts.
import { JobNotFound, StateConflict } from '../kernel/errors.js';
import { claimable } from './rules.js';
import type { Job, JobCommand, JobEvent, JobResult, JobState } from './types.js';

export const MAX_ATTEMPTS = 3;

export { JobNotFound };

export const initialJobState = (): JobState => ({ status: 'absent' });


export function evolveJob(state: JobState, event: JobEvent): JobState {
  switch (event.type) {
    case 'ExportRequested': {
      const { jobId, owner, customerId, format, filter, apiVersion, requestedAt } = event.data;
      return {
        status: 'queued', id: jobId, type: 'order-export', owner, customerId, format, filter, apiVersion,
        progress: { processed: 0, total: 0 }, createdAt: requestedAt, startedAt: null, finishedAt: null,
        result: null, resultExpiredAt: null, error: null, lease: null, attempts: 0,
      };
    }
    case 'WebhookReplayRequested': {
      const { jobId, owner, customerId, subscriptionId, from, to, requestedAt } = event.data;
      return {
        status: 'queued', id: jobId, type: 'webhook-replay', owner, customerId, subscriptionId, from, to,
        progress: { processed: 0, total: 0 }, createdAt: requestedAt, startedAt: null, finishedAt: null,
        result: null, error: null, lease: null, attempts: 0,
      };
    }
    case 'JobStarted': {
      const job = existing(state, event.data.jobId);
      return { ...job, status: 'running', startedAt: event.data.startedAt, progress: { processed: 0, total: 0 }, lease: { workerId: event.data.workerId, until: event.data.leaseUntil }, attempts: event.data.attempt };
    }
    case 'JobProgressed': {
      const job = existing(state, event.data.jobId);
      return { ...job, progress: { processed: event.data.processed, total: event.data.total }, lease: { workerId: event.data.workerId, until: event.data.leaseUntil } };
    }
    case 'JobSucceeded': {
      const job = existing(state, event.data.jobId);
      const { count } = event.data.result;
      return { ...withResult(job, event.data.result), status: 'succeeded', progress: { processed: count, total: count }, finishedAt: event.data.finishedAt, lease: null };
    }
    case 'JobFailed':
      return { ...existing(state, event.data.jobId), status: 'failed', error: event.data.error, finishedAt: event.data.finishedAt, lease: null };
    case 'JobResultExpired': {
      const job = existing(state, event.data.jobId);
      return job.type === 'order-export' ? { ...job, result: null, resultExpiredAt: event.data.expiredAt } : job;
    }
    default: {
      const unknown: never = event;
      throw new TypeError(`unhandled event ${(unknown as JobEvent).type}`);
    }
  }
}

export function decideJob(command: JobCommand, state: JobState): JobEvent[] {
  const now = command.metadata.now;
  switch (command.type) {
    case 'RequestExport':
      if (state.status !== 'absent') throw conflict(state, 'already exists');
      return [{ type: 'ExportRequested', schemaVersion: 2, data: { ...command.data, requestedAt: now } }];
    case 'RequestReplay':
      if (state.status !== 'absent') throw conflict(state, 'already exists');
      return [{ type: 'WebhookReplayRequested', schemaVersion: 1, data: { ...command.data, requestedAt: now } }];
    case 'StartJob': {
      const job = existing(state, command.data.jobId);
      if (!claimable(job, now)) throw conflict(job, 'is not waiting for a worker');
      if (job.attempts >= MAX_ATTEMPTS) {
        return [{
          type: 'JobFailed', schemaVersion: 2,
          data: { jobId: job.id, workerId: null, finishedAt: now, error: { code: 'attempts-exhausted', detail: `The ${job.type === 'order-export' ? 'export' : 'replay'} was abandoned after ${job.attempts} attempts that did not finish.` } },
        }];
      }
      const { jobId, workerId, leaseUntil } = command.data;
      return [{ type: 'JobStarted', schemaVersion: 1, data: { jobId, workerId, leaseUntil, attempt: job.attempts + 1, startedAt: now } }];
    }
    case 'RecordProgress': {
      const job = holding(state, command.data.jobId, command.data.workerId);
      const { workerId, processed, total, leaseUntil } = command.data;
      return [{ type: 'JobProgressed', schemaVersion: 1, data: { jobId: job.id, workerId, processed, total, leaseUntil } }];
    }
    case 'CompleteJob': {
      const job = holding(state, command.data.jobId, command.data.workerId);
      withResult(job, command.data.result);
      return [{ type: 'JobSucceeded', schemaVersion: 1, data: { jobId: job.id, workerId: command.data.workerId, result: command.data.result, finishedAt: now } }];
    }
    case 'FailJob': {
      const job = holding(state, command.data.jobId, command.data.workerId);
      return [{ type: 'JobFailed', schemaVersion: 2, data: { jobId: job.id, workerId: command.data.workerId, error: command.data.error, finishedAt: now } }];
    }
    case 'ExpireResult': {
      const job = existing(state, command.data.jobId);
      if (job.type !== 'order-export' || job.status !== 'succeeded' || job.result === null) return [];
      return [{ type: 'JobResultExpired', schemaVersion: 1, data: { jobId: job.id, expiredAt: now } }];
    }
    default: {
      const unknown: never = command;
      throw new TypeError(`unhandled command ${(unknown as JobCommand).type}`);
    }
  }
}

export const jobDecider = { initialState: initialJobState, evolve: evolveJob, decide: decideJob };

function existing(state: JobState, jobId: string): Job {
  if (state.status === 'absent') throw new JobNotFound(jobId);
  return state;
}

/** The job with its result, which must be one of its kind: an export's has a file, a replay's does not. */
function withResult(job: Job, result: JobResult): Job {
  if (job.type === 'order-export' && 'file' in result) return { ...job, result };
  if (job.type === 'webhook-replay' && !('file' in result)) return { ...job, result: { count: result.count } };
  throw new TypeError(`a result of another kind of job for ${job.type} job ${job.id}`);
}

/** The job, as long as this worker still holds its lease. */
function holding(state: JobState, jobId: string, workerId: string): Job {
  const job = existing(state, jobId);
  if (job.status !== 'running' || job.lease?.workerId !== workerId) throw conflict(job, `is no longer held by worker ${workerId}`);
  return job;
}

function conflict(job: Job, why: string): StateConflict {
  return new StateConflict(`Job ${job.id} ${why} (it is ${job.status}).`, job.status);
}
