import { useEffect, useState } from 'preact/hooks';
import { api, describe, newKey, type Schemas } from '../api';
import { href, hrefWith } from '../router';
import { follow } from '../sse';
import { Empty, Field, Notice, Refusal, Scroll, Title, formValue, money, when } from '../ui';

interface Entry {
  readonly orderId: string;
  readonly customerId: string;
  readonly total: number;
  readonly currency: string;
  readonly paidAt: string;
}

export function Queue() {
  const [entries, setEntries] = useState<Entry[] | null>(null);
  const [live, setLive] = useState<'connecting' | 'live' | string>('connecting');
  const [refusal, setRefusal] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [shipping, setShipping] = useState<{ orderId: string; key: string } | null>(null);

  useEffect(() => {
    const stop = new AbortController();
    void (async () => {
      // The first page, then every change after the position it reflects, live.
      const { data, error, response } = await api.GET('/fulfilment-queue', { params: { query: { limit: 100 } } });
      if (!data) return setRefusal(describe(error, response));
      setEntries(data.items.map((item) => ({ orderId: item.orderId, customerId: item.customerId, total: item.total, currency: item.currency, paidAt: item.paidAt })));
      setLive('live');
      await follow(
        '/fulfilment-queue/changes',
        response.headers.get('Consistency-Token'),
        (event) => {
          if (event.event !== 'entered' && event.event !== 'left') return;
          setLive('live');
          const change = JSON.parse(event.data) as Schemas['QueueChange'];
          if (change.change === 'left') return setEntries((list) => (list ?? []).filter((entry) => entry.orderId !== change.orderId));
          void api.GET('/orders/{id}', { params: { path: { id: change.orderId } } }).then(({ data: order }) => {
            // A partially shipped order stays in the queue until nothing remains to ship.
            if (!order || (order.status !== 'paid' && order.status !== 'partially_shipped')) return;
            const entry = { orderId: order.id, customerId: order.customerId, total: order.total, currency: order.currency, paidAt: change.at };
            setEntries((list) => [...(list ?? []).filter((e) => e.orderId !== entry.orderId), entry]);
          });
        },
        setLive,
        stop.signal,
      );
    })();
    return () => stop.abort();
  }, []);

  async function ship(event: Event) {
    event.preventDefault();
    if (!shipping) return;
    const { error, response } = await api.POST('/orders/{id}/shipments', {
      params: { path: { id: shipping.orderId }, header: { 'Idempotency-Key': shipping.key } },
      body: { carrier: formValue(event, 'carrier'), trackingNumber: formValue(event, 'trackingNumber') },
    });
    if (response.ok) {
      setNotice(`Order ${shipping.orderId.slice(0, 8)} was shipped.`);
      setRefusal(null);
      setEntries((list) => (list ?? []).filter((entry) => entry.orderId !== shipping.orderId));
      setShipping(null);
    } else {
      setRefusal(describe(error, response));
    }
  }

  return (
    <>
      <Title>Fulfilment queue</Title>
      <p class="muted" aria-live="polite">
        {live === 'live' ? 'Live: paid orders appear here as they are paid.' : live === 'connecting' ? 'Connecting…' : live}
      </p>
      <Notice message={notice} />
      <Refusal message={refusal} />
      {entries ? (
        <Scroll label="Orders waiting to ship">
          <table>
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Customer</th>
                <th scope="col" class="num">
                  Total
                </th>
                <th scope="col">Paid</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.orderId} data-order={entry.orderId}>
                  <td>
                    <a href={href('orders', entry.orderId)}>{entry.orderId.slice(0, 8)}</a>
                  </td>
                  <td>{entry.customerId}</td>
                  <td class="num">{money(entry.total, entry.currency)}</td>
                  <td>{when(entry.paidAt)}</td>
                  <td>
                    {shipping?.orderId === entry.orderId ? (
                      <form class="inline" onSubmit={ship} aria-label={`Ship order ${entry.orderId.slice(0, 8)}`}>
                        <Field label="Carrier">
                          <input name="carrier" required />
                        </Field>
                        <Field label="Tracking number">
                          <input name="trackingNumber" required />
                        </Field>
                        <button type="submit">Ship</button>
                        <button type="button" class="secondary" onClick={() => setShipping(null)}>
                          Close
                        </button>
                      </form>
                    ) : (
                      <button type="button" onClick={() => setShipping({ orderId: entry.orderId, key: newKey() })} aria-label={`Ship order ${entry.orderId.slice(0, 8)}`}>
                        Ship…
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      ) : null}
      {entries?.length === 0 ? (
        <Empty>
          <p>No paid order is waiting.</p>
          <p>
            Orders appear here as they are paid: <a href={hrefWith(['orders'], { status: 'pending', sort: 'createdAt' })}>see the orders awaiting payment</a>.
          </p>
        </Empty>
      ) : null}
    </>
  );
}
