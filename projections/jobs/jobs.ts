// jobs: one document per job, its state folded from its stream by the job domain's own evolve.
// The workers read it (open jobs of their kind to claim, kept export results to expire) instead
// of folding the job streams themselves, and it resumes from its checkpoint like every projection.
import { decodeJobEvent, JOB_STREAM_PREFIX } from '../../write-side/jobs/codec.js';
import { evolveJob, initialJobState } from '../../write-side/jobs/decider.js';
import type { JobView } from '../../read-side/jobs/views.js';
import type { JobEvent } from '../../write-side/jobs/types.js';
import type { EventContext, Projection } from '../projection.js';

export const jobsView: Projection<'jobs', JobView, JobEvent> = {
  name: 'jobs',
  storage: {
    // 2: the job's API version (ExportRequested version 2). 3: its type (webhook replays are jobs too).
    version: 3,
    fields: [
      { name: 'type', type: 'text', value: (v) => v.type },
      { name: 'status', type: 'text', value: (v) => v.status },
      { name: 'createdAt', type: 'text', value: (v) => v.createdAt },
      { name: 'finishedAt', type: 'text', nullable: true, value: (v) => v.finishedAt },
      // Only a succeeded export has a result file, until it expires.
      {
        name: 'hasResult', type: 'integer', value: (v) => (v.type === 'order-export' && v.result ? 1 : 0),
        derived: { equals: { type: 'order-export', status: 'succeeded' }, present: ['result'] },
      },
    ],
    // The open jobs of a kind oldest first (its workers' candidates), the kept results earliest finished first.
    indexes: [['type', 'status', 'createdAt'], ['hasResult', 'finishedAt']],
  },
  streamPrefix: JOB_STREAM_PREFIX,
  decode: decodeJobEvent,
  handles: new Set(['ExportRequested', 'WebhookReplayRequested', 'JobStarted', 'JobProgressed', 'JobSucceeded', 'JobFailed', 'JobResultExpired']),
  keyOf: (event) => event.data.jobId,
  evolve(view: JobView | null, event, { revision }: EventContext): JobView {
    const job = evolveJob(view ?? initialJobState(), event);
    if (job.status === 'absent') throw new TypeError(`${event.type} left job ${event.data.jobId} absent`);
    return { ...job, revision };
  },
};
