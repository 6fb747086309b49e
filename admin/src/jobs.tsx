// Jobs (GET /jobs/{id}): an order export or a webhook replay, started by a screen and followed
// there until it ends. Both screens that start one (exports.tsx, webhook.tsx) use this.
import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from './api';

export type Job = Schemas['Job'];
export type JobOf<K extends Job['type']> = Extract<Job, { type: K }>;

/** How soon a queued or running job is read again. */
const FOLLOW_MS = 300;

export const isOpen = (job: Job) => job.status === 'queued' || job.status === 'running';

/**
 * The jobs of one type started in this screen, newest first, each read again until it has
 * succeeded or failed; `add` follows a new one (the POST's answer). They live in the screen's
 * state: leaving the screen stops following them.
 */
export function useJobs<K extends Job['type']>(type: K): { jobs: JobOf<K>[]; add: (job: JobOf<K>) => void } {
  const [jobs, setJobs] = useState<JobOf<K>[]>([]);

  useEffect(() => {
    const open = jobs.filter(isOpen).map((job) => job.id);
    if (open.length === 0) return;
    const timer = setTimeout(async () => {
      const fresh = await Promise.all(open.map((id) => api.GET('/jobs/{id}', { params: { path: { id } } }).then((r) => r.data)));
      // A new list even when nothing was read: the next round follows it.
      setJobs((list) => list.map((job) => fresh.find((f): f is JobOf<K> => f?.type === type && f.id === job.id) ?? job));
    }, FOLLOW_MS);
    return () => clearTimeout(timer);
  }, [jobs]);

  return { jobs, add: (job) => setJobs((list) => [job, ...list]) };
}

/** A job's progress bar, named for the job, and its "processed of total" in the job's unit (orders, events). */
export function JobProgress({ job, label, unit }: { job: Job; label: string; unit: string }) {
  const { processed, total } = job.progress;
  return (
    <>
      <progress max={Math.max(total, 1)} value={job.status === 'succeeded' ? Math.max(total, 1) : processed} aria-label={label}>
        {processed} of {total}
      </progress>
      <p class="muted">
        {processed} of {total} {unit}
      </p>
    </>
  );
}
