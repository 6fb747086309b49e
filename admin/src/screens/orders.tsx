// The orders list (GET /orders, docs/orders-list.md): filtered by status, placed dates, customer and
// SKU, sorted by date or by total in one currency, a page at a time. The filter is the route's
// query (#/orders?status=pending&sort=createdAt), so the home screen's figures link to it. The form
// offers every parameter; a combination the API does not serve is refused with a 400, whose
// detail is shown.
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { describe, type Schemas } from '../api';
import { FIRST_QUERY, ordersPage, takeFirstPage, type OrderFilter } from '../first-page';
import { href, keepQuery } from '../router';
import { Empty, Field, Pager, Refusal, Scroll, Status, Title, money, sameDeps, useCursors, when } from '../ui';

type Query = NonNullable<Schemas['OrderListQuery']>;
const STATUSES = ['pending', 'paid', 'partially_shipped', 'shipped', 'cancelled'] as const;
const SORTS: Record<Query['sort'], string> = { '-createdAt': 'newest first', createdAt: 'oldest first', '-total': 'largest total first', total: 'smallest total first' };
const byTotal = (sort: Query['sort']) => sort === 'total' || sort === '-total';

type Answer = Awaited<ReturnType<typeof ordersPage>>;
// The cast: openapi-fetch 0.17's Readable<> drops members typed null (ErasedAddress's), which the body has.
const pageOf = ({ data }: Answer) => (data as Schemas['OrderPage'] | undefined) ?? null;
const refusalOf = ({ data, error, response }: Answer) => (data ? null : describe(error, response));

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/**
 * 00:00 of a date input's day (YYYY-MM-DD), `plusDays` later, in the browser's time zone, as an
 * RFC 3339 date-time with that zone's offset at that instant (2027-01-05T00:00:00+01:00). Where
 * the clocks skip midnight, the first instant of the day.
 */
export function localMidnight(date: string, plusDays = 0): string {
  const [y = 0, m = 1, d = 1] = date.split('-').map(Number);
  const at = new Date(y, m - 1, d + plusDays);
  const offset = -at.getTimezoneOffset();
  const zone = `${offset < 0 ? '-' : '+'}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
  return `${pad(at.getFullYear(), 4)}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}:00${zone}`;
}

/** The browser's day (YYYY-MM-DD) of an instant, `minusMs` before it: a date input's value. */
function localDate(instant: string | undefined, minusMs = 0): string {
  const ms = instant ? Date.parse(instant) : NaN;
  if (Number.isNaN(ms)) return '';
  const at = new Date(ms - minusMs);
  return `${pad(at.getFullYear(), 4)}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/** The filter a route's query names; what it does not name is left out, an unknown sort is the default. */
function filterOf(query: URLSearchParams): OrderFilter {
  const value = (name: string) => query.get(name)?.trim() || undefined;
  const status = value('status') as Query['status'] | undefined;
  const sort = value('sort') as Query['sort'] | undefined;
  const picked = {
    status: status && (STATUSES as readonly string[]).includes(status) ? status : undefined,
    customerId: value('customerId'),
    sku: value('sku'),
    createdFrom: value('createdFrom'),
    createdTo: value('createdTo'),
    currency: value('currency') as Query['currency'] | undefined,
  };
  return { ...Object.fromEntries(Object.entries(picked).filter(([, v]) => v !== undefined)), sort: sort && sort in SORTS ? sort : FIRST_QUERY.sort };
}

/** What the form shows: the filter, with its instants as the browser's days ("to" is the last day included). */
const draftOf = (filter: OrderFilter) => ({
  status: filter.status ?? '',
  customerId: filter.customerId ?? '',
  sku: filter.sku ?? '',
  from: localDate(filter.createdFrom),
  to: localDate(filter.createdTo, 1),
  sort: filter.sort,
  currency: filter.currency ?? '',
});
type Draft = ReturnType<typeof draftOf>;

function filterOfDraft(draft: Draft): OrderFilter {
  const picked: Omit<OrderFilter, 'sort'> = {
    ...(draft.status ? { status: draft.status as Query['status'] } : {}),
    ...(draft.customerId.trim() ? { customerId: draft.customerId.trim() } : {}),
    ...(draft.sku.trim() ? { sku: draft.sku.trim() } : {}),
    ...(draft.from ? { createdFrom: localMidnight(draft.from) } : {}),
    // The last day named is included: the range ends at the next day's start (createdTo is exclusive).
    ...(draft.to ? { createdTo: localMidnight(draft.to, 1) } : {}),
    ...(byTotal(draft.sort) && draft.currency ? { currency: draft.currency as Query['currency'] } : {}),
  };
  return { ...picked, sort: draft.sort };
}

let currencies: Array<{ code: string; name: string }> | undefined;
/** Every currency the browser knows, named in its locale; built when a sort by total is first chosen, not on the way to the first page. */
function currencyOptions(): Array<{ code: string; name: string }> {
  if (!currencies) {
    const names = new Intl.DisplayNames(undefined, { type: 'currency' });
    currencies = Intl.supportedValuesOf('currency').map((code) => ({ code, name: names.of(code) ?? code }));
  }
  return currencies;
}

export function Orders({ query }: { query: URLSearchParams }) {
  const [filter, setFilter] = useState(() => filterOf(query));
  const [draft, setDraft] = useState(() => draftOf(filter));
  const cursors = useCursors();
  // The page asked for at the app's start (first-page.ts), when this is the screen it opened on:
  // the answer when it is in already (then the screen is drawn with it at once), else its promise.
  const [first] = useState(takeFirstPage);
  const inAlready = first !== null && !(first instanceof Promise) ? first : null;
  const [page, setPage] = useState(inAlready && pageOf(inAlready));
  const [refusal, setRefusal] = useState(inAlready && refusalOf(inAlready));
  const opening = useRef(true);
  // The query (filter and cursor) the page shown answers: until the latest one's answer is in, the
  // pager waits, since the page's cursor belongs to the query it answered.
  const asked = [filter, cursors.cursor];
  const [answered, setAnswered] = useState<readonly unknown[] | null>(inAlready ? asked : null);
  const loading = !sameDeps(answered, asked);

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
      setAnswered(asked);
    });
    return () => void (current = false);
  }, [filter, cursors.cursor]);

  function show(next: OrderFilter) {
    setFilter(next);
    cursors.reset();
    const { sort, ...rest } = next;
    keepQuery({ ...rest, sort });
  }

  const change = (name: keyof Draft) => (event: Event) => setDraft({ ...draft, [name]: (event.currentTarget as HTMLInputElement | HTMLSelectElement).value });
  const chooseSort = (event: Event) => {
    const sort = (event.currentTarget as HTMLSelectElement).value as Query['sort'];
    // A sort by total is in one currency: the first listed order's, until another is chosen.
    setDraft({ ...draft, sort, currency: byTotal(sort) && !draft.currency ? (page?.items[0]?.currency ?? 'EUR') : draft.currency });
  };
  const filtered = Object.keys(filter).some((name) => name !== 'sort');

  return (
    <>
      <Title>Orders</Title>
      <form
        class="filters"
        aria-label="Filter orders"
        onSubmit={(event) => {
          event.preventDefault();
          show(filterOfDraft(draft));
        }}
      >
        <Field label="Status">
          <select name="status" value={draft.status} onChange={change('status')}>
            <option value="">any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Customer">
          <input name="customerId" value={draft.customerId} onInput={change('customerId')} placeholder="cus_…" />
        </Field>
        <Field label="SKU">
          <input name="sku" value={draft.sku} onInput={change('sku')} />
        </Field>
        <Field label="Placed from">
          <input name="from" type="date" value={draft.from} onInput={change('from')} />
        </Field>
        <Field label="Placed to (that day included)">
          <input name="to" type="date" value={draft.to} onInput={change('to')} />
        </Field>
        <Field label="Sort">
          <select name="sort" value={draft.sort} onChange={chooseSort}>
            {Object.entries(SORTS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        {byTotal(draft.sort) ? (
          <Field label="Currency">
            <select name="currency" value={draft.currency} onChange={change('currency')}>
              {currencyOptions().map(({ code, name }) => (
                <option key={code} value={code}>
                  {code} · {name}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        <button type="submit">Apply</button>
        {filtered ? (
          <button
            type="button"
            class="secondary"
            onClick={() => {
              setDraft(draftOf(FIRST_QUERY));
              show(FIRST_QUERY);
            }}
          >
            Clear the filters
          </button>
        ) : null}
      </form>
      <p class="muted hint">Dates are days in your time zone. A SKU goes with placed dates alone; a sort by total with nothing but its currency.</p>
      <Refusal message={refusal} />
      {page && page.items.length === 0 && cursors.page === 1 ? (
        filtered ? (
          <Empty>
            <p>No order matches these filters.</p>
            <p>Widen the dates, choose another status, or clear the filters to see every order.</p>
          </Empty>
        ) : (
          <Empty>
            <p>No orders yet. Orders placed through the API appear here.</p>
            <p>
              An order is placed with <code>POST /orders</code> (see the <a href="/openapi.json">API description</a>), for a product of the <a href={href('catalogue')}>catalogue</a> with stock.
            </p>
          </Empty>
        )
      ) : page ? (
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
          <Pager cursors={cursors} nextCursor={page.nextCursor} loading={loading} />
        </>
      ) : null}
    </>
  );
}
