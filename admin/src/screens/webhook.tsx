// A webhook subscription's page: the subscription, and its deliveries (newest first, by status, a
// page at a time) with each attempt, read again every 2 s while the page is open; a delivery can be
// attempted again at once.
import { useEffect, useState } from 'preact/hooks';
import { api, consistency, describe, type Schemas } from '../api';
import { href } from '../router';
import { Field, Notice, Pager, Refusal, Scroll, Status, Title, instant, useCursors, usePage, when } from '../ui';
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

export function WebhookPage({ id }: { id: string }) {
  const [subscription, setSubscription] = useState<Subscription | null>(null);
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const cursors = useCursors();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  useEffect(() => {
    void api.GET('/webhook-subscriptions/{id}', { params: { path: { id } } }).then(({ data, error, response }) => (data ? setSubscription(data) : setRefusal(describe(error, response))));
  }, [id]);
  const page = usePage(
    () => api.GET('/webhook-subscriptions/{id}/deliveries', { params: { path: { id }, query: { limit: 20, ...(status ? { status } : {}), ...(cursors.cursor ? { cursor: cursors.cursor } : {}) }, header: consistency() } }),
    [status, cursors.cursor, reloads],
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
      </div>
      <p class="muted">Read again every 2 seconds: new deliveries and attempts show as they are made.</p>
      <Notice message={notice} />
      <Refusal message={refusal} />
      {page ? (
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
          {page.items.length === 0 ? <p>No delivery{status ? ` is ${status}` : ' yet'}.</p> : null}
          <Pager cursors={cursors} nextCursor={page.nextCursor} />
        </>
      ) : null}
    </>
  );
}
