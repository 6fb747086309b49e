// A day-by-day bar chart in hand-written SVG (no charting library): one chart per currency, since
// amounts in two currencies never share a scale. The SVG is stretched to its box's width, so its
// labels are HTML beside it, not SVG text that would stretch with it; it is named for screen readers
// by a sentence that says what it shows, and the screen gives the figures as a table too.
import { day, money } from './ui';

export interface DayAmount {
  /** A UTC day, YYYY-MM-DD. */
  readonly date: string;
  /** In the currency's minor units; negative when refunds outweigh payments. */
  readonly amount: number;
}

const WIDTH = 300;
const HEIGHT = 100;

/** What the chart shows, in a sentence: its span, its sum, its highest day and the last. */
export function describeChart(currency: string, days: readonly DayAmount[]): string {
  const first = days[0];
  const last = days.at(-1);
  if (!first || !last) return `No sales in ${currency}.`;
  const best = days.reduce((a, b) => (b.amount > a.amount ? b : a));
  const sum = days.reduce((total, d) => total + d.amount, 0);
  return (
    `Sales in ${currency} per day from ${day(first.date)} to ${day(last.date)}: ${money(sum, currency)} in all; ` +
    `the most ${money(best.amount, currency)} on ${day(best.date)}; ${money(last.amount, currency)} on ${day(last.date)}.`
  );
}

export function BarChart({ currency, days }: { currency: string; days: readonly DayAmount[] }) {
  const top = Math.max(0, ...days.map((d) => d.amount));
  const bottom = Math.min(0, ...days.map((d) => d.amount));
  const span = top - bottom || 1;
  const y = (amount: number) => ((top - amount) / span) * HEIGHT;
  const slot = WIDTH / Math.max(days.length, 1);
  return (
    <figure class="chart" data-currency={currency}>
      <figcaption>{currency}</figcaption>
      <div class="chart-plot">
        <div class="chart-scale" aria-hidden="true">
          <span>{money(top, currency)}</span>
          <span>{money(bottom, currency)}</span>
        </div>
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" role="img" aria-label={describeChart(currency, days)}>
          {days.map((d, i) => {
            // A day with any sales shows, however small beside the highest.
            const height = d.amount === 0 ? 0 : Math.max(Math.abs(y(d.amount) - y(0)), 0.8);
            return (
              <rect
                key={d.date}
                class={d.amount < 0 ? 'bar bar-negative' : 'bar'}
                x={i * slot + slot * 0.15}
                width={slot * 0.7}
                y={d.amount < 0 ? y(0) : y(0) - height}
                height={height}
                data-date={d.date}
                data-amount={d.amount}
              >
                <title>{`${day(d.date)}: ${money(d.amount, currency)}`}</title>
              </rect>
            );
          })}
          <line class="axis" x1={0} x2={WIDTH} y1={y(0)} y2={y(0)} vector-effect="non-scaling-stroke" />
        </svg>
        <div class="chart-days" aria-hidden="true">
          <span>{days[0] ? day(days[0].date) : ''}</span>
          <span>{days.at(-1) ? day(days.at(-1)!.date) : ''}</span>
        </div>
      </div>
    </figure>
  );
}
