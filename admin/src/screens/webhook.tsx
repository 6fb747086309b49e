// A webhook subscription's page: the subscription, and its deliveries (newest first, by status or
// by replay, a page at a time) with each attempt, read again every 2 s while the page is open; a
// delivery can be attempted again at once. A replay sends the events of a range of dates again: its
// job is followed here until it ends, and its deliveries can be shown alone.
import { useEffect, useState } from 'preact/hooks';
import { api, consistency, describe, newKey, type Schemas } from '../api';
import { JobProgress, useJobs } from '../jobs';
import { href } from '../router';
import { Empty, Field, Notice, Pager, Refusal, Scroll, Status, Title, formValue, instant, useCursors, usePage, when } from '../ui';
import { eventsOf } from './webhooks';

type Subscription = Schemas['WebhookSubscription'];
type Delivery = Schemas['WebhookDelivery'];
type DeliveryStatus = Delivery['status'];
// The cast's type: openapi-typescript reads the attempt's anyOf (a statusCode or an error) as unknown.
interface Attempt {
  readonly at: string;
  readonly statusCode?: number;
  readonly error?: string;
  readonly durationMs: number;
}
const STATUSES: readonly DeliveryStatus[] = ['pending', 'succeeded', 'failed'];
const READ_AGAIN_MS = 2000;
/** The time zone a datetime-local input's value is read in: the browser's. */
const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A datetime-local input's value (a wall-clock time in the browser's zone) as an RFC 3339 instant in UTC; null when it is none. */
function utc(local: string): string | null {
  const ms = Date.parse(local);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/**
 * A replay's bound as its job records it: an instant, or a log position. The form sends instants
 * alone, so a position here is the end the job took when none was given: the log's head then.
 */
function Bound({ value }: { value: string }) {
  if (/^\d{4}-\d{2}-\d{2}T/.test(value)) return <time dateTime={value}>{instant(value)}</time>;
  return (
    <span>
      the latest event when asked (log position <span class="mono">{value}</span>)
    </span>
  );
}

const short = (id: string) => id.slice(0, 8);
const events = (n: number) => `${n} ${n === 1 ? 'event' : 'events'}`;

export function WebhookPage({ id, query }: { id: string; query: URLSearchParams }) {
  const [subscription, setSubscription] = useState<Subscription | null>(null);
  // The home screen's failed deliveries link here with ?status=failed.
  const asked = query.get('status') as DeliveryStatus | null;
  const [status, setStatus] = useState<DeliveryStatus | ''>(asked && STATUSES.includes(asked) ? asked : '');
  // The replay whose deliveries alone are listed (the jobId filter), if any.
  const [jobId, setJobId] = useState<string | null>(null);
  const cursors = useCursors();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  // One key per opened form: a retry of the same submission is the same replay.
  const [replaying, setReplaying] = useState<{ key: string } | null>(null);
  const replays = useJobs('webhook-replay');
  useEffect(() => {
    void api.GET('/webhook-subscriptions/{id}', { params: { path: { id } } }).then(({ data, error, response }) => (data ? setSubscription(data) : setRefusal(describe(error, response))));
  }, [id]);
  const { page, loading } = usePage(
    () => api.GET('/webhook-subscriptions/{id}/deliveries', { params: { path: { id }, query: { limit: 20, ...(status ? { status } : {}), ...(jobId ? { jobId } : {}), ...(cursors.cursor ? { cursor: cursors.cursor } : {}) }, header: consistency() } }),
    [status, jobId, cursors.cursor, reloads],
    setRefusal,
  );
  // Read again a moment after each answer: new deliveries and attempts show as the worker makes them.
  useEffect(() => {
    if (!page) return;
    const timer = setTimeout(() => setReloads((n) => n + 1), READ_AGAIN_MS);
    return () => clearTimeout(timer);
  }, [page]);

  async function retry(delivery: Delivery) {
    const { error, response } = await api.POST('/webhook-subscriptions/{id}/deliveries/{deliveryId}/retry', { params: { path: { id, deliveryId: delivery.id } } });
    if (!response.ok) return setRefusal(describe(error, response));
    setNotice(`The ${delivery.type} delivery ${delivery.id.slice(0, 8)} is attempted again now.`);
    setRefusal(null);
    setReloads((n) => n + 1);
  }

  async function replay(event: Event) {
    event.preventDefault();
    if (!replaying) return;
    const from = utc(formValue(event, 'from'));
    const to = formValue(event, 'to');
    const end = to ? utc(to) : null;
    if (!from || (to && !end)) return setRefusal('Give the dates and times in full.');
    const { data, error, response } = await api.POST('/webhook-subscriptions/{id}/replays', {
      params: { path: { id }, header: { 'Idempotency-Key': replaying.key } },
      body: { from, ...(end ? { to: end } : {}) },
    });
    if (!data) return setRefusal(describe(error, response));
    replays.add(data);
    setReplaying(null);
    setRefusal(null);
    setNotice(`Replay ${short(data.id)} is asked for: its progress shows under Replays.`);
  }

  function showReplay(job: string | null) {
    setJobId(job);
    cursors.reset();
  }

  return (
    <>
      <p>
        <a href={href('webhooks')}>← Webhooks</a>
      </p>
      <Title>
        Deliveries
        {subscription ? (
          <>
            {' '}
            to <span class="mono">{subscription.url}</span>
          </>
        ) : null}
      </Title>
      {subscription ? (
        <p>
          <Status value={subscription.status} /> · {eventsOf(subscription)} · API version {subscription.apiVersion} · since {when(subscription.createdAt)}
          {subscription.disabledReason ? ` · disabled: ${subscription.disabledReason}` : null}
        </p>
      ) : null}
      <Notice message={notice} />
      <Refusal message={refusal} />
      <div class="actions">
        <button type="button" aria-expanded={replaying !== null} onClick={() => (setReplaying(replaying ? null : { key: newKey() }), setRefusal(null))}>
          Replay events
        </button>
      </div>
      {replaying ? (
        <form class="panel" onSubmit={replay} aria-label="Replay events">
          <h2>Replay events</h2>
          <p class="muted">Every event of the range that this subscription selects is sent again, with its first webhook-id, so the receiver can drop those it has.</p>
          <Field label={`From, in ${ZONE} time`} hint="the first event recorded at or after it">
            <input name="from" type="datetime-local" step={1} required />
          </Field>
          <Field label={`To (optional), in ${ZONE} time`} hint="the last event recorded at or before it; empty: up to the latest event now">
            <input name="to" type="datetime-local" step={1} />
          </Field>
          <div class="actions">
            <button type="submit">Replay</button>
            <button type="button" class="secondary" onClick={() => setReplaying(null)}>
              Close
            </button>
          </div>
        </form>
      ) : null}
      {replays.jobs.length > 0 ? (
        <>
          <h2>Replays</h2>
          <ul class="jobs">
            {replays.jobs.map((job) => (
              <li key={job.id} class="panel" data-job={job.id}>
                <p>
                  <strong>Replay {short(job.id)}</strong> · <Status value={job.status} /> · from <Bound value={job.from} /> to <Bound value={job.to} />
                </p>
                <JobProgress job={job} label={`Replay ${short(job.id)} progress`} unit="events" />
                <div role="status">{job.status === 'succeeded' && job.result ? <p>{events(job.result.count)} sent again</p> : null}</div>
                {job.error ? <Refusal message={job.error.detail} /> : null}
                {job.status === 'succeeded' || job.status === 'failed' ? (
                  <button type="button" class="secondary" onClick={() => showReplay(job.id)} aria-label={`Show its deliveries: replay ${short(job.id)}`}>
                    Show its deliveries
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <div class="filters">
        <Field label="Status">
          <select value={status} onChange={(e) => (setStatus((e.currentTarget as HTMLSelectElement).value as DeliveryStatus | ''), cursors.reset())}>
            <option value="">any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </Field>
        {jobId ? (
          <p class="row">
            <span>
              Only replay <span class="mono">{short(jobId)}</span>’s deliveries
            </span>
            <button type="button" class="secondary" onClick={() => showReplay(null)}>
              Show every delivery
            </button>
          </p>
        ) : null}
      </div>
      <p class="muted">Read again every 2 seconds: new deliveries and attempts show as they are made.</p>
      {page && page.items.length === 0 && cursors.page === 1 ? (
        <Empty>
          <p>
            No delivery{jobId ? ` of replay ${short(jobId)}` : ''}
            {status ? ` is ${status}` : ' yet'}.
          </p>
          <p>{status || jobId ? 'Show every delivery, or choose another status.' : 'A delivery is made for each event of the types this URL is subscribed to, as it happens; Replay events sends past ones again.'}</p>
        </Empty>
      ) : page ? (
        <>
          <Scroll label="Deliveries">
            <table>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Action</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((delivery) => (
                  <tr key={delivery.id} data-delivery={delivery.id}>
                    <td>
                      {delivery.type}
                      <div class="muted mono">{delivery.eventId}</div>
                      {delivery.jobId ? (
                        <button type="button" class="secondary replay" onClick={() => showReplay(delivery.jobId)} aria-label={`Show only the deliveries of replay ${short(delivery.jobId)}`}>
                          replay {short(delivery.jobId)}
                        </button>
                      ) : null}
                    </td>
                    <td>
                      <Status value={delivery.status} />
                      {delivery.nextAttemptAt ? <div class="muted">next attempt {instant(delivery.nextAttemptAt)}</div> : null}
                    </td>
                    <td class="wide">
                      <ol class="attempts">
                        {(delivery.attempts as Attempt[]).map((attempt, i) => (
                          <li key={i}>
                            <time dateTime={attempt.at}>{instant(attempt.at)}</time> · {attempt.statusCode === undefined ? attempt.error : `HTTP ${attempt.statusCode}`} · {attempt.durationMs} ms
                          </li>
                        ))}
                      </ol>
                      {delivery.attemptCount > delivery.attempts.length ? <div class="muted">the latest {delivery.attempts.length} of {delivery.attemptCount} attempts</div> : null}
                    </td>
                    <td>
                      <button type="button" class="secondary" onClick={() => void retry(delivery)} aria-label={`Retry the ${delivery.type} delivery ${delivery.id.slice(0, 8)}`}>
                        Retry
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
          <Pager cursors={cursors} nextCursor={page.nextCursor} loading={loading} />
        </>
      ) : null}
    </>
  );
}
