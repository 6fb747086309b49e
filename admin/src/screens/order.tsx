import { useEffect, useState } from 'preact/hooks';
import { api, describe, newKey, type Schemas } from '../api';
import { href } from '../router';
import { Field, Notice, Refusal, Status, Title, formValue, money, when } from '../ui';
import type { Done } from './order/action';
import { EditForm } from './order/edit';
import { History } from './order/history';
import { Balance, Lines } from './order/lines';
import { returnable } from './order/quantities';
import { RefundForm, Refunds } from './order/refunds';
import { ReturnForm, Returns, type ReturnAction } from './order/returns';
import { ShipForm, Shipments } from './order/shipments';

type Order = Schemas['Order'];
type HistoryEvent = Schemas['HistoryEvent'];
type Action = 'address' | 'payment' | 'shipment' | 'return' | 'refund' | 'edit' | 'cancel';

export function OrderPage({ id, can }: { id: string; can: (scope: string) => boolean }) {
  const [order, setOrder] = useState<Order | null>(null);
  const [shipments, setShipments] = useState<Schemas['Shipment'][]>([]);
  const [returns, setReturns] = useState<Schemas['Return'][]>([]);
  const [history, setHistory] = useState<HistoryEvent[] | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // An action of the bar, or one on a return of the list.
  const [open, setOpen] = useState<Action | ReturnAction | null>(null);
  // One key per opened form: a retry of the same submission is the same request.
  const [key, setKey] = useState(newKey);

  async function load() {
    const path = { params: { path: { id } } };
    const [one, shipped, returned] = await Promise.all([api.GET('/orders/{id}', path), api.GET('/orders/{id}/shipments', path), api.GET('/orders/{id}/returns', path)]);
    // The casts: openapi-fetch 0.17's Readable<> drops members typed null (ErasedAddress's), which the body has.
    if (one.data) setOrder(one.data as Order);
    else setRefusal(describe(one.error, one.response));
    if (shipped.data) setShipments(shipped.data.items);
    if (returned.data) setReturns(returned.data.items);
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

  function openAction(action: Action | ReturnAction | null) {
    setOpen(action);
    setKey(newKey());
    setRefusal(null);
    setNotice(null);
  }

  const done: Done = async (result, what) => {
    if (result.response.ok) {
      setOpen(null);
      setRefusal(null);
      setNotice(what);
      await load();
      return true;
    }
    setNotice(null);
    setRefusal(describe(result.error, result.response));
    // The order moved on meanwhile: show it as it is now, with the actions its state allows.
    if (result.response.status === 409 || result.response.status === 412) await load();
    return false;
  };

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

  async function cancel(event: Event) {
    event.preventDefault();
    const reason = formValue(event, 'reason');
    const result = await api.POST('/orders/{id}/cancellation', { params: { path: { id } }, body: reason ? { reason } : {} });
    await done(result, order?.status === 'partially_shipped' ? 'What had not shipped was cancelled.' : 'The order was cancelled.');
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
  const shipping = order.status === 'paid' || order.status === 'partially_shipped';
  const actions: Array<{ action: Action; label: string; allowed: boolean }> = [
    { action: 'address', label: 'Change the address', allowed: open_ && can('orders:write') },
    { action: 'payment', label: 'Record a payment', allowed: order.status === 'pending' && can('payments:write') },
    { action: 'shipment', label: 'Ship', allowed: shipping && can('shipments:write') },
    { action: 'return', label: 'Request a return', allowed: order.status !== 'cancelled' && [...returnable(order.lines, returns).values()].some((n) => n > 0) && can('returns:write') },
    { action: 'refund', label: 'Record a refund', allowed: order.balance.paid > order.balance.refunded && can('refunds:write') },
    // Only before anything ships: an order shipped in part is partially_shipped.
    { action: 'edit', label: 'Edit the lines', allowed: open_ && can('orders:write') },
    { action: 'cancel', label: 'Cancel the order', allowed: (open_ || order.status === 'partially_shipped') && can('orders:write') },
  ];
  const form = { order, idempotencyKey: key, done, refuse: setRefusal };
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
      {open === 'shipment' ? <ShipForm {...form} /> : null}
      {open === 'return' ? <ReturnForm {...form} returns={returns} /> : null}
      {open === 'refund' ? <RefundForm {...form} /> : null}
      {open === 'edit' ? <EditForm order={order} done={done} refuse={setRefusal} /> : null}
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
      <Lines order={order} />

      <h2>Balance</h2>
      <Balance order={order} />
      {history ? <Refunds history={history} currency={order.currency} /> : null}
      <Shipments shipments={shipments} />
      <Returns order={order} returns={returns} writer={can('returns:write')} open={typeof open === 'object' ? open : null} setOpen={openAction} done={done} />

      <h2>Address</h2>
      <address>
        {[a.name, a.line1, a.line2, `${a.postalCode ?? ''} ${a.city ?? ''}`.trim(), a.region, a.country].filter(Boolean).map((part, i) => (
          <span key={i}>
            {part}
            <br />
          </span>
        ))}
      </address>

      {history ? <History history={history} currency={order.currency} /> : null}
    </>
  );
}
