// A job as GET /jobs/{id} answers it, of either kind: an order export (its file while it is
// kept) or a webhook replay (its subscription, its range and how many events it sent).
import { resultExpiresAt } from '../../write-side/jobs/rules.js';
import type { Job, ReplayJob } from '../../write-side/jobs/types.js';
import { jobErrorProblem } from '../problem.js';

export function jobRepresentation(job: Job, retentionMs: number) {
  if (job.type === 'webhook-replay') return replayRepresentation(job);
  const { id, type, status, format, filter, progress, createdAt, startedAt, finishedAt, error, resultExpiredAt } = job;
  return {
    id, type, status, format, filter, progress, createdAt, startedAt, finishedAt,
    result: job.result ? { href: `/jobs/${id}/result`, contentType: job.result.contentType, count: job.result.count, bytes: job.result.bytes } : null,
    resultExpiresAt: resultExpiresAt(job, retentionMs),
    resultExpiredAt,
    error: error ? jobErrorProblem(error) : null,
  };
}

export function replayRepresentation(job: ReplayJob) {
  const { id, type, status, subscriptionId, from, to, progress, createdAt, startedAt, finishedAt, result, error } = job;
  return { id, type, status, subscriptionId, from, to, progress, createdAt, startedAt, finishedAt, result, error: error ? jobErrorProblem(error) : null };
}
