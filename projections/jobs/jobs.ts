// jobs: one document per job, its state folded from its stream by the job domain's own evolve.
// The export workers read it (open jobs to claim, kept results to expire) instead of folding
// the job streams themselves, and it resumes from its checkpoint like every projection.
import { decodeJobEvent, JOB_STREAM_PREFIX } from '../../write-side/jobs/codec.js';
import { evolveJob, initialJobState } from '../../write-side/jobs/decider.js';
import type { JobView } from '../../read-side/views.js';
import type { EventContext, Projection } from '../projection.js';

export const jobsView: Projection<'jobs'> = {
  name: 'jobs',
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
