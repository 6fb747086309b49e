// The store's sales by day, as the `daily-sales` projection keeps them: a view per UTC day with
// the orders placed that day and, per currency, the payments and refunds recorded that day.
import type { Position } from '../../write-side/kernel/event-store.js';

/** What a day's payments and refunds came to in one currency, in its minor units. */
export interface CurrencySales {
  readonly payments: number;
  readonly refunds: number;
}

/** A UTC day (YYYY-MM-DD): the orders placed, and per currency the payments and refunds recorded. */
export interface SalesDay {
  readonly day: string;
  readonly ordersPlaced: number;
  readonly currencies: { readonly [currency: string]: CurrencySales };
  /** The log position of the last event folded in, and how many were (a view gathered across streams). */
  readonly position: Position;
  readonly revision: number;
}

export type DailySalesView = SalesDay;

export const dayKey = (day: string): string => `day:${day}`;

/** The UTC day of an instant, as the views key it. */
export function utcDay(instant: string | Date): string {
  return (typeof instant === 'string' ? new Date(instant) : instant).toISOString().slice(0, 10);
}

/** The keys of the days from `from` to `to` (inclusive), oldest first: the views are found by key, so that no index is kept up to date for them. */
export function salesDayKeys(from: string, to: string): string[] {
  const keys: string[] = [];
  for (let day = Date.parse(from); day <= Date.parse(to); day += 86_400_000) keys.push(dayKey(utcDay(new Date(day))));
  return keys;
}
