// Webhook subscriptions (HTTP-CONTRACT "Webhooks"): the list; a new subscription, whose secret is
// shown here once; pause and resume; a new secret; delete after a confirmation. A subscription's
// deliveries are on its own page (webhook.tsx).
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, consistency, describe, newKey, type Schemas } from '../api';
import { API_VERSION } from '../generated/api';
import { href } from '../router';
import { Confirm, Empty, Field, Notice, Pager, Refusal, Scroll, Status, Title, formValue, useCursors, usePage, when } from '../ui';

type Subscription = Schemas['WebhookSubscription'];
type Events = Schemas['NewWebhookSubscription']['events'];
type EventType = Exclude<Events[number], '*'>;

/** Every event type of the contract, with what it tells (a Record: the compiler finds one left out). */
export const EVENT_TYPES: Record<EventType, string> = {
  'order.placed': 'an order was placed',
  'order.paid': 'an order was paid',
  'order.address_changed': 'an order’s address changed',
  'order.shipped': 'an order shipped, in part or whole',
  'order.cancelled': 'an order was cancelled',
  'order.edited': 'an order’s lines were edited',
  'order.refunded': 'a refund was recorded',
  'return.requested': 'a return was requested',
  'return.received': 'a return was received',
  'product.changed': 'a product was defined, changed or retired',
  'stock.low': 'a SKU’s available stock fell below its threshold',
  'customer.erased': 'a customer’s personal data was erased',
};

export const eventsOf = (subscription: Subscription) => (subscription.events.includes('*') ? 'every event' : subscription.events.join(', '));

/** A secret as the creation or a rotation answered it: kept in this screen's state alone, so it is gone once the screen is left. */
interface Shown {
  readonly url: string;
  readonly secret: string;
  readonly rotated: boolean;
}

export function Webhooks() {
  const cursors = useCursors();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // One key per opened form: a retry of the same submission is the same subscription, with the same secret.
  const [creating, setCreating] = useState<{ key: string; every: boolean } | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const [deleting, setDeleting] = useState<Subscription | null>(null);
  const [reloads, setReloads] = useState(0);
  const { page, loading } = usePage(() => api.GET('/webhook-subscriptions', { params: { query: { limit: 20, ...(cursors.cursor ? { cursor: cursors.cursor } : {}) }, header: consistency() } }), [cursors.cursor, reloads], setRefusal);

  async function create(event: Event) {
    event.preventDefault();
    if (!creating) return;
    const events = (creating.every ? ['*'] : new FormData(event.currentTarget as HTMLFormElement).getAll('events').map(String)) as Events;
    if (events.length === 0) return setRefusal('Choose at least one event type, or every event.');
    const description = formValue(event, 'description');
    const { data, error, response } = await api.POST('/webhook-subscriptions', {
      params: { header: { 'Idempotency-Key': creating.key } },
      body: { url: formValue(event, 'url'), events, apiVersion: API_VERSION, ...(description ? { description } : {}) },
    });
    if (!data) return setRefusal(describe(error, response));
    setShown({ url: data.url, secret: data.secret, rotated: false });
    setNotice(`${data.url} is subscribed to ${eventsOf(data)}.`);
    setRefusal(null);
    setCreating(null);
    setReloads(reloads + 1);
  }

  async function setStatus(subscription: Subscription, status: 'active' | 'paused') {
    const { error, response } = await api.PATCH('/webhook-subscriptions/{id}', { params: { path: { id: subscription.id } }, body: { status }, headers: { 'Content-Type': 'application/merge-patch+json' } });
    if (!response.ok) return setRefusal(describe(error, response));
    setNotice(status === 'paused' ? `${subscription.url} is paused: nothing is sent to it until it is resumed.` : `${subscription.url} is active: messages are sent to it again.`);
    setRefusal(null);
    setReloads(reloads + 1);
  }

  async function rotate(subscription: Subscription) {
    const { data, error, response } = await api.POST('/webhook-subscriptions/{id}/secret-rotation', { params: { path: { id: subscription.id } } });
    if (!data) return setRefusal(describe(error, response));
    setShown({ url: data.url, secret: data.secret, rotated: true });
    setNotice(`${data.url} has a new secret.`);
    setRefusal(null);
  }

  async function remove(subscription: Subscription) {
    setDeleting(null);
    const { error, response } = await api.DELETE('/webhook-subscriptions/{id}', { params: { path: { id: subscription.id } } });
    if (!response.ok) return setRefusal(describe(error, response));
    if (shown?.url === subscription.url) setShown(null);
    setNotice(`The subscription of ${subscription.url} was deleted: nothing more is sent to it.`);
    setRefusal(null);
    setReloads(reloads + 1);
  }

  return (
    <>
      <Title>Webhooks</Title>
      <div class="filters">
        <button type="button" onClick={() => (setCreating({ key: newKey(), every: true }), setRefusal(null))}>
          New subscription
        </button>
      </div>
      <Notice message={notice} />
      <Refusal message={refusal} />
      {shown ? <Secret shown={shown} onKept={() => setShown(null)} /> : null}
      {creating ? (
        <form class="panel" onSubmit={create} aria-label="New subscription">
          <h2>New subscription</h2>
          <Field label="URL" hint="https, and a public host (or one WEBHOOK_ALLOWED_HOSTS lists)">
            <input name="url" type="url" required maxLength={2048} autocomplete="off" />
          </Field>
          <fieldset>
            <legend>Events</legend>
            <label class="check">
              <input type="radio" name="every" checked={creating.every} onChange={() => setCreating({ ...creating, every: true })} />
              Every event (*), those added later too
            </label>
            <label class="check">
              <input type="radio" name="every" checked={!creating.every} onChange={() => setCreating({ ...creating, every: false })} />
              Chosen events
            </label>
            {creating.every ? null : (
              <fieldset class="checks">
                <legend>Event types</legend>
                {Object.entries(EVENT_TYPES).map(([type, what]) => (
                  <label class="check" key={type}>
                    <input type="checkbox" name="events" value={type} />
                    <span>
                      <span class="mono">{type}</span> <span class="muted">{what}</span>
                    </span>
                  </label>
                ))}
              </fieldset>
            )}
          </fieldset>
          <Field label="Description (optional)">
            <input name="description" maxLength={500} />
          </Field>
          <div class="actions">
            <button type="submit">Create the subscription</button>
            <button type="button" class="secondary" onClick={() => setCreating(null)}>
              Close
            </button>
          </div>
        </form>
      ) : null}
      {deleting ? (
        <Confirm
          question={`Delete the subscription of ${deleting.url}? Nothing more is sent to it, and its deliveries can no longer be read.`}
          confirm="Delete the subscription"
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        />
      ) : null}
      {page && page.items.length === 0 && cursors.page === 1 ? (
        <Empty>
          <p>No URL is subscribed.</p>
          <p>New subscription sends the store’s events (orders placed, paid, shipped, …) to a URL of yours, signed with a secret shown once.</p>
        </Empty>
      ) : page ? (
        <>
          <Scroll label="Subscriptions">
            <table>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Events</th>
                  <th scope="col">Status</th>
                  <th scope="col">Since</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((subscription) => (
                  <tr key={subscription.id} data-subscription={subscription.id}>
                    <td class="wide">
                      <span class="mono">{subscription.url}</span>
                      {subscription.description ? <div class="muted">{subscription.description}</div> : null}
                    </td>
                    <td>{eventsOf(subscription)}</td>
                    <td>
                      <Status value={subscription.status} />
                      {subscription.disabledReason ? <div class="muted">{subscription.disabledReason}</div> : null}
                    </td>
                    <td>{when(subscription.createdAt)}</td>
                    <td class="actions">
                      <a href={href('webhooks', subscription.id)} aria-label={`Deliveries to ${subscription.url}`}>
                        Deliveries
                      </a>
                      {subscription.status === 'active' ? (
                        <button type="button" class="secondary" onClick={() => void setStatus(subscription, 'paused')} aria-label={`Pause ${subscription.url}`}>
                          Pause
                        </button>
                      ) : (
                        <button type="button" onClick={() => void setStatus(subscription, 'active')} aria-label={`Resume ${subscription.url}`}>
                          Resume
                        </button>
                      )}
                      <button type="button" class="secondary" onClick={() => void rotate(subscription)} aria-label={`New secret for ${subscription.url}`}>
                        New secret
                      </button>
                      <button type="button" class="danger" onClick={() => setDeleting(subscription)} aria-label={`Delete ${subscription.url}`}>
                        Delete…
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

/** A signing secret, shown once, with a way to copy it; its heading takes the focus so that a screen reader reads it out. */
function Secret({ shown, onKept }: { shown: Shown; onKept: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const code = useRef<HTMLElement>(null);
  const [copied, setCopied] = useState<string | null>(null);
  useEffect(() => {
    setCopied(null);
    heading.current?.focus();
  }, [shown]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(shown.secret);
      setCopied('The secret is on the clipboard.');
    } catch {
      if (code.current) getSelection()?.selectAllChildren(code.current);
      setCopied('The browser did not let the app copy it: the secret is selected, copy it with Ctrl+C (⌘C on a Mac).');
    }
  }

  return (
    <section class="panel secret" aria-labelledby="secret-heading">
      <h2 id="secret-heading" tabIndex={-1} ref={heading}>
        {shown.rotated ? 'The new signing secret' : 'The signing secret'} of <span class="mono">{shown.url}</span>
      </h2>
      <p>
        <code class="mono" ref={code}>
          {shown.secret}
        </code>
      </p>
      <p>
        <strong>Shown this once.</strong> Keep it now, where the receiver verifies each message’s webhook-signature: no page shows it again, and it is gone from here once you leave this screen.
      </p>
      {shown.rotated ? <p>The old secret still signs every message for 24 hours too, so the receiver can switch to the new one in its own time.</p> : null}
      <div class="actions">
        <button type="button" onClick={() => void copy()}>
          Copy the secret
        </button>
        <button type="button" class="secondary" onClick={onKept}>
          I have kept it
        </button>
      </div>
      <Notice message={copied} />
    </section>
  );
}
