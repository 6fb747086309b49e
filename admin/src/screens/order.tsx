import { useEffect, useState } from 'preact/hooks';
import { api, describe, newKey, type Schemas } from '../api';
import { href } from '../router';
import { Field, Notice, Refusal, Scroll, Status, Title, formValue, money, when } from '../ui';

type Order = Schemas['Order'];
type HistoryEvent = Schemas['HistoryEvent'];
type Action = 'address' | 'payment' | 'shipment' | 'cancel';

export function OrderPage({ id, can }: { id: string; can: (scope: string) => boolean }) {
  const [order, setOrder] = useState<Order | null>(null);
  const [history, setHistory] = useState<HistoryEvent[] | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [open, setOpen] = useState<Action | null>(null);
  // One key per opened form: a retry of the same submission is the same request.
  const [key, setKey] = useState(newKey);

  async function load() {
    const { data, error, response } = await api.GET('/orders/{id}', { params: { path: { id } } });
    // The casts: openapi-fetch 0.17's Readable<> drops members typed null (ErasedAddress's), which the body has.
    if (data) setOrder(data as Order);
    else setRefusal(describe(error, response));
    if (can('audit:read')) {
      const events: HistoryEvent[] = [];
      let cursor: string | undefined;
      do {
        const page = await api.GET('/orders/{id}/history', { params: { path: { id }, query: { limit: 100, ...(cursor ? { cursor } : {}) } } });
        if (!page.data) break;
        events.push(...(page.data.items as HistoryEvent[]));
        cursor = page.data.nextCursor ?? undefined;
      } while (cursor);
      setHistory(events);
    }
  }
  useEffect(() => void load(), [id]);

  function openAction(action: Action | null) {
    setOpen(action);
    setKey(newKey());
    setRefusal(null);
    setNotice(null);
  }

  async function done(result: { error?: unknown; response: Response }, what: string) {
    if (result.response.ok) {
      setOpen(null);
      setNotice(what);
      await load();
    } else {
      setRefusal(describe(result.error, result.response));
      // The order moved on meanwhile: show it as it is now, with the actions its state allows.
      if (result.response.status === 409 || result.response.status === 412) await load();
    }
  }

  async function changeAddress(event: Event) {
    event.preventDefault();
    const value = (name: string) => formValue(event, name);
    const address = {
      name: value('name'),
      line1: value('line1'),
      line2: value('line2') || null,
      city: value('city'),
      postalCode: value('postalCode'),
      region: value('region') || null,
      country: value('country').toUpperCase() as Schemas['Address']['country'],
    };
    const result = await api.PATCH('/orders/{id}', {
      params: { path: { id } },
      body: { address },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    await done(result, 'The address was changed.');
  }

  async function pay(event: Event) {
    event.preventDefault();
    if (!order) return;
    const result = await api.POST('/orders/{id}/payments', {
      params: { path: { id }, header: { 'Idempotency-Key': key } },
      body: { amount: order.total, reference: formValue(event, 'reference') },
    });
    await done(result, 'The payment was recorded.');
  }

  async function ship(event: Event) {
    event.preventDefault();
    const result = await api.POST('/orders/{id}/shipments', {
      params: { path: { id }, header: { 'Idempotency-Key': key } },
      body: { carrier: formValue(event, 'carrier'), trackingNumber: formValue(event, 'trackingNumber') },
    });
    await done(result, 'The order was shipped.');
  }

  async function cancel(event: Event) {
    event.preventDefault();
    const reason = formValue(event, 'reason');
    const result = await api.POST('/orders/{id}/cancellation', { params: { path: { id } }, body: reason ? { reason } : {} });
    await done(result, 'The order was cancelled.');
  }

  if (!order) {
    return (
      <>
        <Title>Order</Title>
        <Refusal message={refusal} />
      </>
    );
  }
  const open_ = order.status === 'pending' || order.status === 'paid';
  const actions: Array<{ action: Action; label: string; allowed: boolean }> = [
    { action: 'address', label: 'Change the address', allowed: open_ && can('orders:write') },
    { action: 'payment', label: 'Record a payment', allowed: order.status === 'pending' && can('payments:write') },
    { action: 'shipment', label: 'Ship', allowed: order.status === 'paid' && can('shipments:write') },
    { action: 'cancel', label: 'Cancel the order', allowed: open_ && can('orders:write') },
  ];
  const a = order.address;
  return (
    <>
      <p>
        <a href={href('orders')}>← Orders</a>
      </p>
      <Title>
        Order <span class="mono">{order.id}</span>
      </Title>
      <p>
        <Status value={order.status} /> · customer {order.customerId} · placed {when(order.createdAt)} · revision {order.revision}
      </p>
      <Notice message={notice} />
      <Refusal message={refusal} />
      <div class="actions">
        {actions
          .filter((item) => item.allowed || open === item.action)
          .map((item) => (
            <button key={item.action} type="button" class={open === item.action ? 'secondary' : ''} aria-expanded={open === item.action} onClick={() => openAction(open === item.action ? null : item.action)}>
              {item.label}
            </button>
          ))}
      </div>
      {open === 'address' ? (
        <form class="panel" onSubmit={changeAddress} aria-label="Change the address">
          <Field label="Name">
            <input name="name" defaultValue={a.name ?? ''} required />
          </Field>
          <Field label="Address line 1">
            <input name="line1" defaultValue={a.line1 ?? ''} required />
          </Field>
          <Field label="Address line 2">
            <input name="line2" defaultValue={a.line2 ?? ''} />
          </Field>
          <Field label="City">
            <input name="city" defaultValue={a.city ?? ''} required />
          </Field>
          <Field label="Postal code">
            <input name="postalCode" defaultValue={a.postalCode ?? ''} required />
          </Field>
          <Field label="Region">
            <input name="region" defaultValue={a.region ?? ''} />
          </Field>
          <Field label="Country (ISO code)">
            <input name="country" defaultValue={a.country ?? ''} required maxLength={2} />
          </Field>
          <button type="submit">Save the address</button>
        </form>
      ) : null}
      {open === 'payment' ? (
        <form class="panel" onSubmit={pay} aria-label="Record a payment">
          <p>Amount: {money(order.total, order.currency)} (the order's total)</p>
          <Field label="Payment reference">
            <input name="reference" required />
          </Field>
          <button type="submit">Record the payment</button>
        </form>
      ) : null}
      {open === 'shipment' ? (
        <form class="panel" onSubmit={ship} aria-label="Ship the order">
          <Field label="Carrier">
            <input name="carrier" required />
          </Field>
          <Field label="Tracking number">
            <input name="trackingNumber" required />
          </Field>
          <button type="submit">Ship the order</button>
        </form>
      ) : null}
      {open === 'cancel' ? (
        <form class="panel" onSubmit={cancel} aria-label="Cancel the order">
          <Field label="Reason (optional)">
            <input name="reason" />
          </Field>
          <button type="submit" class="danger">
            Cancel the order
          </button>
        </form>
      ) : null}

      <h2>Lines</h2>
      <Scroll label="Order lines">
        <table>
          <thead>
            <tr>
              <th scope="col">SKU</th>
              <th scope="col" class="num">
                Quantity
              </th>
              <th scope="col" class="num">
                Unit price
              </th>
              <th scope="col" class="num">
                Line total
              </th>
            </tr>
          </thead>
          <tbody>
            {order.lines.map((line) => (
              <tr key={line.sku}>
                <td>{line.sku}</td>
                <td class="num">{line.quantity}</td>
                <td class="num">{money(line.unitPrice, order.currency)}</td>
                <td class="num">{money(line.lineTotal, order.currency)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={3}>
                Total
              </th>
              <td class="num">{money(order.total, order.currency)}</td>
            </tr>
          </tfoot>
        </table>
      </Scroll>

      <h2>Address</h2>
      <address>
        {[a.name, a.line1, a.line2, `${a.postalCode ?? ''} ${a.city ?? ''}`.trim(), a.region, a.country].filter(Boolean).map((part, i) => (
          <span key={i}>
            {part}
            <br />
          </span>
        ))}
      </address>

      {history ? (
        <>
          <h2>History</h2>
          <ol class="timeline">
            {history.map((event) => (
              <li key={event.position}>
                <strong>{event.type}</strong> <time dateTime={event.recordedAt}>{when(event.recordedAt)}</time>
                <span class="muted"> by {event.metadata.principal} · revision {event.revision}</span>
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </>
  );
}
