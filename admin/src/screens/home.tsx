// The home screen: the store at a glance (GET /summary, docs/home-summary.md), followed live. Each
// figure links to the list behind it, on the screen that shows that list (links.ts).
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { BarChart, type DayAmount } from '../chart';
import { screenOf } from '../links';
import { href } from '../router';
import { useSummary, type StoreSummary } from '../summary';
import { Empty, Refusal, Scroll, Title, ago, count, day, money, when } from '../ui';

/** Re-renders every `ms`, so that the ages shown grow with the clock between answers (no request). */
function useTick(ms: number): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), ms);
    return () => clearInterval(timer);
  }, [ms]);
}

function Figure({ name, label, value, to, children }: { name: string; label: string; value: number; to: string; children?: ComponentChildren }) {
  return (
    <li class="card" data-figure={name}>
      <h2>{label}</h2>
      <a class="count" href={to}>
        <span class="value">{count(value)}</span>
        <span class="sr"> {label.toLowerCase()}: show the list</span>
      </a>
      {children}
    </li>
  );
}

/** Each currency's days: what the chart draws and the table lists. */
const seriesOf = (sales: StoreSummary['sales']) =>
  sales.currencies.map((currency) => ({
    currency,
    days: sales.days.map((d): DayAmount => ({ date: d.date, amount: d.sales.find((s) => s.currency === currency)?.net ?? 0 })),
  }));

/** The oldest item behind a figure: its order, linked, and how long ago it was placed, paid or requested. */
function Oldest({ lead, orderId, at, done, age }: { lead: string; orderId: string; at: string; done: string; age: string }) {
  return (
    <p>
      {lead} <a href={href('orders', orderId)}>{orderId.slice(0, 8)}</a>, {done}{' '}
      <time dateTime={at} title={when(at)}>
        {age}
      </time>
      .
    </p>
  );
}

function Sales({ sales, to }: { sales: StoreSummary['sales']; to: (apiHref: string) => string }) {
  const series = seriesOf(sales);
  return (
    <section class="sales" aria-labelledby="sales-heading">
      <h2 id="sales-heading">Sales per day, the last 30 days</h2>
      <p class="muted">Payments less refunds recorded each day (UTC days), in each currency apart: amounts are never converted.</p>
      {series.length === 0 ? (
        <Empty>
          <p>No payment was recorded in the last 30 days.</p>
          <p>
            Sales appear here as payments are recorded on orders: <a href={to(sales.href)}>see the orders</a>.
          </p>
        </Empty>
      ) : (
        <>
          <div class="charts">
            {series.map(({ currency, days }) => (
              <BarChart key={currency} currency={currency} days={days} />
            ))}
          </div>
          <details>
            <summary>The sales as a table</summary>
            <Scroll label="Sales per day">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Day (UTC)</th>
                    <th scope="col" class="num">
                      Orders placed
                    </th>
                    {series.map(({ currency }) => (
                      <th scope="col" class="num" key={currency}>
                        {currency}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {sales.days.map((d, i) => (
                    <tr key={d.date}>
                      <th scope="row">{day(d.date)}</th>
                      <td class="num">{count(d.ordersPlaced)}</td>
                      {series.map(({ currency, days }) => (
                        <td class="num" key={currency}>
                          {money(days[i]!.amount, currency)}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
          </details>
          <p>
            <a href={to(sales.href)}>See the orders, newest first</a>
          </p>
        </>
      )}
    </section>
  );
}

export function Home({ can }: { can: (scope: string) => boolean }) {
  const { summary, receivedAt, following } = useSummary();
  useTick(60_000);
  const to = (apiHref: string) => screenOf(apiHref, can);
  // An age as the service gave it, grown by the time since the answer came.
  const since = (ageSeconds: number) => ago(ageSeconds + (Date.now() - receivedAt) / 1000);

  return (
    <>
      <Title>The store at a glance</Title>
      <p class="muted" aria-live="polite">
        {following.state === 'live'
          ? 'Live: these figures change as the store does.'
          : following.state === 'connecting'
            ? 'Connecting…'
            : following.state === 'retrying'
              ? `${following.message} Trying again in ${following.seconds} s.`
              : null}
      </p>
      {following.state === 'refused' ? <Refusal message={following.message} /> : null}
      {summary ? (
        <>
          <ul class="cards">
            <Figure name="ordersPlacedToday" label="Orders placed today" value={summary.ordersPlacedToday.count} to={to(summary.ordersPlacedToday.href)}>
              <p class="muted">since 00:00 UTC</p>
            </Figure>
            <Figure name="awaitingPayment" label="Awaiting payment" value={summary.awaitingPayment.count} to={to(summary.awaitingPayment.href)}>
              {summary.awaitingPayment.oldest ? (
                <Oldest lead="The oldest," orderId={summary.awaitingPayment.oldest.orderId} at={summary.awaitingPayment.oldest.placedAt} done="was placed" age={since(summary.awaitingPayment.oldest.ageSeconds)} />
              ) : (
                <p class="muted">No order is waiting to be paid.</p>
              )}
            </Figure>
            <Figure name="awaitingShipment" label="Waiting to ship" value={summary.awaitingShipment.count} to={to(summary.awaitingShipment.href)}>
              <p>
                <a href={to(summary.awaitingShipment.paid.href)} data-part="paid">
                  {count(summary.awaitingShipment.paid.count)} paid
                </a>
                {' · '}
                <a href={to(summary.awaitingShipment.partiallyShipped.href)} data-part="partiallyShipped">
                  {count(summary.awaitingShipment.partiallyShipped.count)} partially shipped
                </a>
              </p>
              {summary.awaitingShipment.oldest ? (
                <Oldest lead="The first paid," orderId={summary.awaitingShipment.oldest.orderId} at={summary.awaitingShipment.oldest.paidAt} done="was paid" age={since(summary.awaitingShipment.oldest.ageSeconds)} />
              ) : null}
            </Figure>
            <Figure name="returnsAwaitingReceipt" label="Returns to receive" value={summary.returnsAwaitingReceipt.count} to={to(summary.returnsAwaitingReceipt.href)}>
              {summary.returnsAwaitingReceipt.oldest ? (
                <Oldest lead="The oldest, of order" orderId={summary.returnsAwaitingReceipt.oldest.orderId} at={summary.returnsAwaitingReceipt.oldest.requestedAt} done="was requested" age={since(summary.returnsAwaitingReceipt.oldest.ageSeconds)} />
              ) : (
                <p class="muted">No return is on its way back.</p>
              )}
            </Figure>
            {summary.lowStock ? (
              <Figure name="lowStock" label="Below their low-stock threshold" value={summary.lowStock.count} to={to(summary.lowStock.href)}>
                {summary.lowStock.mostPressing.length > 0 ? (
                  <ul class="pressing">
                    {summary.lowStock.mostPressing.map((item) => (
                      <li key={item.sku}>
                        <a href={to(item.href)}>{item.name ?? item.sku}</a> <span class="muted">{item.name ? item.sku : null}</span>: {count(item.available)} available, threshold {count(item.lowStockThreshold)}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p class="muted">Every product is at or above its threshold.</p>
                )}
              </Figure>
            ) : null}
            {summary.failedDeliveries ? (
              <Figure name="failedDeliveries" label="Failed webhook deliveries" value={summary.failedDeliveries.count} to={to(summary.failedDeliveries.href)}>
                {summary.failedDeliveries.subscriptions.length > 0 ? (
                  <ul class="pressing">
                    {summary.failedDeliveries.subscriptions.map((s) => (
                      <li key={s.subscriptionId}>
                        <a href={to(s.href)} class="mono">
                          {s.url}
                        </a>
                        : {count(s.count)}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p class="muted">Every receiver took what it was sent.</p>
                )}
              </Figure>
            ) : null}
          </ul>
          <Sales sales={summary.sales} to={to} />
        </>
      ) : null}
    </>
  );
}
