import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { describe, type Schemas } from '../api';
import { FIRST_QUERY, ordersPage, takeFirstPage } from '../first-page';
import { href } from '../router';
import { Field, Pager, Refusal, Scroll, Status, Title, money, useCursors, when } from '../ui';

type Query = NonNullable<Schemas['OrderListQuery']>;
const STATUSES = ['pending', 'paid', 'partially_shipped', 'shipped', 'cancelled'] as const;

type Answer = Awaited<ReturnType<typeof ordersPage>>;
// The cast: openapi-fetch 0.17's Readable<> drops members typed null (ErasedAddress's), which the body has.
const pageOf = ({ data }: Answer) => (data as Schemas['OrderPage'] | undefined) ?? null;
const refusalOf = ({ data, error, response }: Answer) => (data ? null : describe(error, response));

export function Orders() {
  const [filter, setFilter] = useState(FIRST_QUERY);
  const cursors = useCursors();
  // The page asked for at the app's start (first-page.ts), when this is the screen it opened on:
  // the answer when it is in already (then the screen is drawn with it at once), else its promise.
  const [first] = useState(takeFirstPage);
  const inAlready = first !== null && !(first instanceof Promise) ? first : null;
  const [page, setPage] = useState(inAlready && pageOf(inAlready));
  const [refusal, setRefusal] = useState(inAlready && refusalOf(inAlready));
  const opening = useRef(true);

  // A layout effect, so that the request leaves before the first paint: Preact runs plain effects
  // only after a frame, which on a busy machine delays the first page by that frame.
  useLayoutEffect(() => {
    const started = opening.current ? first : null;
    opening.current = false;
    // Drawn from it already.
    if (started !== null && !(started instanceof Promise)) return;
    let current = true;
    void (started ?? ordersPage(filter, cursors.cursor)).then((answer) => {
      if (!current) return;
      setPage(pageOf(answer));
      setRefusal(refusalOf(answer));
    });
    return () => void (current = false);
  }, [filter, cursors.cursor]);

  function apply(event: Event) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const status = String(data.get('status') ?? '');
    const customerId = String(data.get('customerId') ?? '').trim();
    setFilter({
      ...(status ? { status: status as Query['status'] } : {}),
      ...(customerId ? { customerId } : {}),
      sort: String(data.get('sort')) === 'createdAt' ? 'createdAt' : '-createdAt',
    });
    cursors.reset();
  }

  return (
    <>
      <Title>Orders</Title>
      <form class="filters" onSubmit={apply} aria-label="Filter orders">
        <Field label="Status">
          <select name="status" defaultValue={filter.status ?? ''}>
            <option value="">any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Customer">
          <input name="customerId" defaultValue={filter.customerId ?? ''} placeholder="cus_…" />
        </Field>
        <Field label="Sort">
          <select name="sort" defaultValue={filter.sort}>
            <option value="-createdAt">newest first</option>
            <option value="createdAt">oldest first</option>
          </select>
        </Field>
        <button type="submit">Apply</button>
      </form>
      <Refusal message={refusal} />
      {page ? (
        <>
          <Scroll label="Orders">
            <table>
              <thead>
                <tr>
                  <th scope="col">Order</th>
                  <th scope="col">Customer</th>
                  <th scope="col">Status</th>
                  <th scope="col" class="num">
                    Total
                  </th>
                  <th scope="col">Placed</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((order) => (
                  <tr key={order.id}>
                    <td>
                      <a href={href('orders', order.id)}>{order.id.slice(0, 8)}</a>
                    </td>
                    <td>{order.customerId}</td>
                    <td>
                      <Status value={order.status} />
                    </td>
                    <td class="num">{money(order.total, order.currency)}</td>
                    <td>{when(order.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
          {page.items.length === 0 ? <p>No order matches.</p> : null}
          <Pager cursors={cursors} nextCursor={page.nextCursor} />
        </>
      ) : null}
    </>
  );
}
