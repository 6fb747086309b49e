import { useState } from 'preact/hooks';
import { api, describe, newKey, type Schemas } from '../api';
import { JobProgress, useJobs, type JobOf } from '../jobs';
import { Empty, Field, Refusal, Title, when } from '../ui';

type Job = JobOf<'order-export'>;

/** The exports started in this tab, followed until they end. */
export function Exports() {
  const { jobs, add } = useJobs('order-export');
  const [refusal, setRefusal] = useState<string | null>(null);

  async function start(event: Event) {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const status = String(data.get('status') ?? '') as NonNullable<Schemas['NewExport']['filter']>['status'] | '';
    const { data: job, error, response } = await api.POST('/exports', {
      params: { header: { 'Idempotency-Key': newKey() } },
      body: { format: String(data.get('format')) === 'csv' ? 'csv' : 'ndjson', ...(status ? { filter: { status } } : {}) },
    });
    if (job) {
      add(job);
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
      {jobs.length === 0 ? (
        <Empty>
          <p>No export was started in this tab.</p>
          <p>Choose a format and the orders, then Start the export: it is followed here until its file can be downloaded.</p>
        </Empty>
      ) : null}
      <ul class="jobs">
        {jobs.map((job) => (
          <li key={job.id} class="panel">
            <p>
              <strong>{job.format?.toUpperCase()} export</strong> · {job.status} · started {when(job.createdAt)}
            </p>
            <JobProgress job={job} label={`Export ${job.id.slice(0, 8)} progress`} unit="orders" />
            {job.status === 'succeeded' && job.result ? (
              <button type="button" onClick={() => void download(job)}>
                Download ({job.result.count} orders, {job.result.bytes} bytes)
              </button>
            ) : null}
            {job.error ? <Refusal message={job.error.detail} /> : null}
          </li>
        ))}
      </ul>
    </>
  );
}
