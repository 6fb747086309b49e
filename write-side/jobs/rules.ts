// The job rules that more than the decider needs, written once: whether a job can be claimed
// (the decider's StartJob, the export worker's choice) and how long a result is kept (the
// worker's expiry, the job's representation).
import type { Job } from './types.js';

/** Whether a worker may claim the job at `now`: it waits for one, or its worker's lease has lapsed. */
export function claimable(job: Job, now: string): boolean {
  return job.status === 'queued' || (job.status === 'running' && job.lease !== null && job.lease.until < now);
}

/** When the job's result file is removed: `retentionMs` after the job succeeded; null while there is none. */
export function resultExpiresAt(job: Job, retentionMs: number): string | null {
  return job.result && job.finishedAt ? new Date(Date.parse(job.finishedAt) + retentionMs).toISOString() : null;
}
