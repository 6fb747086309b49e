// What the export workers read of the jobs view: the jobs they may claim, and the results they keep.
import type { ReadModelStore } from '../read-store.js';
import type { JobView } from './views.js';

/** Jobs not finished (queued or running), oldest first, at most `limit`: the export workers' candidates. */
export function openJobs(store: ReadModelStore, limit: number): Promise<JobView[]> {
  return store.page<JobView>('jobs', { where: [{ field: 'status', op: 'in', values: ['queued', 'running'] }], order: { by: ['createdAt'], direction: 'asc' }, limit });
}

/** Succeeded jobs whose result is still kept, the earliest finished first, at most `limit`. */
export function keptResults(store: ReadModelStore, limit: number): Promise<JobView[]> {
  return store.page<JobView>('jobs', { where: [{ field: 'hasResult', op: '=', value: 1 }], order: { by: ['finishedAt'], direction: 'asc' }, limit });
}
