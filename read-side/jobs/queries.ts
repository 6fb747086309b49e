// What the workers read of the jobs view: the jobs of their kind they may claim, and the export results they keep.
import type { ReadModelStore } from '../read-store.js';
import type { JobType } from '../../write-side/jobs/types.js';
import type { ExportJobView, JobView } from './views.js';

/** Jobs of one kind not finished (queued or running), oldest first, at most `limit`: its workers' candidates. */
export function openJobs<T extends JobType>(store: ReadModelStore, type: T, limit: number): Promise<Array<Extract<JobView, { type: T }>>> {
  return store.page<Extract<JobView, { type: T }>>('jobs', {
    where: [{ field: 'type', op: '=', value: type }, { field: 'status', op: 'in', values: ['queued', 'running'] }],
    order: { by: ['createdAt'], direction: 'asc' },
    limit,
  });
}

/** Succeeded exports whose result is still kept, the earliest finished first, at most `limit`. */
export function keptResults(store: ReadModelStore, limit: number): Promise<ExportJobView[]> {
  return store.page<ExportJobView>('jobs', { where: [{ field: 'hasResult', op: '=', value: 1 }], order: { by: ['finishedAt'], direction: 'asc' }, limit });
}
