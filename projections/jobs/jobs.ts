// jobs: one document per job, its state folded from its stream by the job domain's own evolve.
// The export workers read it (open jobs to claim, kept results to expire) instead of folding
// the job streams themselves, and it resumes from its checkpoint like every projection.
import { decodeJobEvent, JOB_STREAM_PREFIX } from '../../write-side/jobs/codec.js';
import { evolveJob, initialJobState } from '../../write-side/jobs/decider.js';
import type { JobView } from '../../read-side/jobs/views.js';
import type { JobEvent } from '../../write-side/jobs/types.js';
import type { EventContext, Projection } from '../projection.js';

export const jobsView: Projection<'jobs', JobView, JobEvent> = {
  name: 'jobs',
  storage: {
    // 2: the job's API version (ExportRequested version 2).
    version: 2,
    fields: [
      { name: 'status', type: 'text', value: (v) => v.status },
      { name: 'createdAt', type: 'text', value: (v) => v.createdAt },
      { name: 'finishedAt', type: 'text', nullable: true, value: (v) => v.finishedAt },
      // Only a succeeded job has a result, until it expires.
      { name: 'hasResult', type: 'integer', value: (v) => (v.result ? 1 : 0), derived: { equals: { status: 'succeeded' }, present: ['result'] } },
    ],
    // The open jobs oldest first (the workers' candidates), the kept results earliest finished first.
    indexes: [['status', 'createdAt'], ['hasResult', 'finishedAt']],
  },
  streamPrefix: JOB_STREAM_PREFIX,
  decode: decodeJobEvent,
  handles: new Set(['ExportRequested', 'JobStarted', 'JobProgressed', 'JobSucceeded', 'JobFailed', 'JobResultExpired']),
  keyOf: (event) => event.data.jobId,
  evolve(view: JobView | null, event, { revision }: EventContext): JobView {
    const job = evolveJob(view ?? initialJobState(), event);
    if (job.status === 'absent') throw new TypeError(`${event.type} left job ${event.data.jobId} absent`);
    return { ...job, revision };
  },
};
