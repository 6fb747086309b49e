// daily-sales: the store's sales by UTC day, gathered from every order's stream (Projection.gathers).
// A day's view counts the orders placed that day and, per currency, the payments and the refunds
// recorded that day: a day's sales are its payments less its refunds. A payment or a refund names
// only its order: its currency is its order's OrderPlaced's, read back from the order's stream
// (Projection.history), so nothing is kept per order.
import { ORDER_STREAM_PREFIX } from '../../write-side/orders/codec.js';
import { decodeStoredOrderEvent, type StoredOrderEvent } from '../../write-side/orders/personal-data.js';
import { dayKey, utcDay, type CurrencySales, type DailySalesView, type SalesDay } from '../../read-side/orders/sales.js';
import type { EventContext, Projection } from '../projection.js';

type SalesEvent = Extract<StoredOrderEvent, { readonly type: 'OrderPlaced' | 'PaymentRecorded' | 'RefundRecorded' }>;

const NO_SALES: CurrencySales = { payments: 0, refunds: 0 };

/** When the event happened, by the decision's clock: the day it counts on. */
function dayOf(event: SalesEvent): string {
  switch (event.type) {
    case 'OrderPlaced':
      return utcDay(event.data.placedAt);
    case 'PaymentRecorded':
    case 'RefundRecorded':
      return utcDay(event.data.recordedAt);
  }
}

export const dailySales: Projection<'daily-sales', DailySalesView, SalesEvent> = {
  name: 'daily-sales',
  storage: {
    // 2: the days' views only (each order's currency was kept in a view of its own).
    version: 2,
    // A day's views are found by their keys (read-side/orders/sales.ts): no index to keep up to date
    // on every order placed.
    fields: [],
    indexes: [],
    noClearPersonalData: true,
  },
  streamPrefix: ORDER_STREAM_PREFIX,
  gathers: {},
  // Only these three are decoded (handles), and the projection keeps no address.
  decode: (recorded) => decodeStoredOrderEvent(recorded) as SalesEvent,
  handles: new Set(['OrderPlaced', 'PaymentRecorded', 'RefundRecorded']),
  keyOf: (event) => dayKey(dayOf(event)),
  history: (event) => event.type !== 'OrderPlaced',
  evolve(view: DailySalesView | null, event: SalesEvent, context: EventContext<DailySalesView, SalesEvent>): DailySalesView {
    const day: SalesDay = view ?? { day: dayOf(event), ordersPlaced: 0, currencies: {}, position: context.position, revision: -1 };
    const folded = { position: context.position, revision: day.revision + 1 };
    const add = (currency: string, payments: number, refunds: number): SalesDay['currencies'] => {
      const sales = day.currencies[currency] ?? NO_SALES;
      return { ...day.currencies, [currency]: { payments: sales.payments + payments, refunds: sales.refunds + refunds } };
    };
    switch (event.type) {
      case 'OrderPlaced':
        return { ...day, ordersPlaced: day.ordersPlaced + 1, ...folded };
      case 'PaymentRecorded':
        return { ...day, currencies: add(currencyOf(event, context), event.data.amount, 0), ...folded };
      case 'RefundRecorded':
        return { ...day, currencies: add(currencyOf(event, context), 0, event.data.amount), ...folded };
    }
  },
};

/** The currency of the order a payment or refund is of: its stream's OrderPlaced's, which came before. */
function currencyOf(event: SalesEvent, context: EventContext<DailySalesView, SalesEvent>): string {
  const placed = context.history?.find((earlier) => earlier.event.type === 'OrderPlaced')?.event;
  if (placed?.type !== 'OrderPlaced') throw new TypeError(`${event.type} of order ${event.data.orderId}, whose stream holds no OrderPlaced before it`);
  return placed.data.currency;
}
