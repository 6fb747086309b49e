import { useEffect, useState } from 'preact/hooks';
import { api, describe, newKey, type Schemas } from '../api';
import { Field, Refusal, Title, when } from '../ui';

type Job = Schemas['ExportJob'];

/** The exports started in this tab, followed until they end. */
export function Exports() {
  const [jobs, setJobs] = useState<Job[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const running = jobs.filter((job) => job.status === 'queued' || job.status === 'running').map((job) => job.id);

  useEffect(() => {
    if (running.length === 0) return;
    const timer = setTimeout(async () => {
      const fresh = await Promise.all(running.map((id) => api.GET('/jobs/{id}', { params: { path: { id } } }).then((r) => r.data)));
      setJobs((list) => list.map((job) => fresh.find((f): f is Job => f?.type === 'order-export' && f.id === job.id) ?? job));
    }, 300);
    return () => clearTimeout(timer);
  }, [jobs]);

  async function start(event: Event) {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const status = String(data.get('status') ?? '') as NonNullable<Schemas['NewExport']['filter']>['status'] | '';
    const { data: job, error, response } = await api.POST('/exports', {
      params: { header: { 'Idempotency-Key': newKey() } },
      body: { format: String(data.get('format')) === 'csv' ? 'csv' : 'ndjson', ...(status ? { filter: { status } } : {}) },
    });
    if (job) {
      setJobs((list) => [job, ...list]);
      setRefusal(null);
    } else setRefusal(describe(error, response));
  }

  async function download(job: Job) {
    const { data, error, response } = await api.GET('/jobs/{id}/result', { params: { path: { id: job.id } }, parseAs: 'blob' });
    if (!data) return setRefusal(describe(error, response));
    const url = URL.createObjectURL(data);
    const link = document.createElement('a');
    link.href = url;
    link.download = `orders-${job.id}.${job.format ?? 'ndjson'}`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  return (
    <>
      <Title>Exports</Title>
      <form class="filters" onSubmit={start} aria-label="Start an export">
        <Field label="Format">
          <select name="format">
            <option value="ndjson">NDJSON</option>
            <option value="csv">CSV</option>
          </select>
        </Field>
        <Field label="Orders">
          <select name="status">
            <option value="">all</option>
            <option value="pending">pending</option>
            <option value="paid">paid</option>
            <option value="shipped">shipped</option>
            <option value="cancelled">cancelled</option>
          </select>
        </Field>
        <button type="submit">Start the export</button>
      </form>
      <Refusal message={refusal} />
      <ul class="jobs">
        {jobs.map((job) => {
          const { processed, total } = job.progress;
          return (
            <li key={job.id} class="panel">
              <p>
                <strong>{job.format?.toUpperCase()} export</strong> · {job.status} · started {when(job.createdAt)}
              </p>
              <progress max={Math.max(total, 1)} value={job.status === 'succeeded' ? Math.max(total, 1) : processed} aria-label={`Export ${job.id.slice(0, 8)} progress`}>
                {processed} of {total}
              </progress>
              <p class="muted">
                {processed} of {total} orders
              </p>
              {job.status === 'succeeded' && job.result ? (
                <button type="button" onClick={() => void download(job)}>
                  Download ({job.result.count} orders, {job.result.bytes} bytes)
                </button>
              ) : null}
              {job.error ? <Refusal message={job.error.detail} /> : null}
            </li>
          );
        })}
      </ul>
    </>
  );
}
