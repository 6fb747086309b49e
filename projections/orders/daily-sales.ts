// daily-sales: the store's sales by UTC day, gathered from every order's stream (Projection.gathers).
// A day's view counts the orders placed that day and, per currency, the payments and the refunds
// recorded that day: a day's sales are its payments less its refunds. A payment or a refund names
// only its order, so each OrderPlaced also keeps a small view of the order's currency, which the
// fold of its payment and refunds reads. The home summary charts the last 30 days of them.
import { ORDER_STREAM_PREFIX } from '../../write-side/orders/codec.js';
import { decodeStoredOrderEvent, type StoredOrderEvent } from '../../write-side/orders/personal-data.js';
import { dayKey, salesOrderKey, utcDay, type CurrencySales, type DailySalesView, type SalesDay } from '../../read-side/orders/sales.js';
import type { EventContext, Projection } from '../projection.js';

type SalesEvent = Extract<StoredOrderEvent, { readonly type: 'OrderPlaced' | 'PaymentRecorded' | 'RefundRecorded' }>;
/** An event as folded into one view: the order's own (its currency), or the day's it happened on. */
type SalesPart = SalesEvent & { readonly part?: 'order' | 'day' };

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

export const dailySales: Projection<'daily-sales', DailySalesView, SalesPart> = {
  name: 'daily-sales',
  storage: {
    // A day's views are found by their keys (read-side/orders/sales.ts): no index to keep up to date
    // on every order placed, and the orders' views are in no list.
    fields: [],
    indexes: [],
    noClearPersonalData: true,
  },
  streamPrefix: ORDER_STREAM_PREFIX,
  gathers: {
    reads: (part) => (part.part === 'day' && part.type !== 'OrderPlaced' ? [salesOrderKey(part.data.orderId)] : []),
  },
  // Only these three are decoded (handles), and the projection keeps no address.
  decode: (recorded) => decodeStoredOrderEvent(recorded) as SalesEvent,
  handles: new Set(['OrderPlaced', 'PaymentRecorded', 'RefundRecorded']),
  parts: (event) => (event.type === 'OrderPlaced' ? [{ ...event, part: 'order' }, { ...event, part: 'day' }] : [{ ...event, part: 'day' }]),
  keyOf: (part) => (part.part === 'order' ? salesOrderKey(part.data.orderId) : dayKey(dayOf(part))),
  evolve(view: DailySalesView | null, part: SalesPart, context: EventContext<DailySalesView>): DailySalesView {
    const folded = { position: context.position, revision: (view?.revision ?? -1) + 1 };
    if (part.part === 'order') {
      if (part.type !== 'OrderPlaced') throw new TypeError(`${part.type} folded into an order's currency`);
      return { kind: 'order', orderId: part.data.orderId, currency: part.data.currency, ...folded };
    }
    if (view !== null && view.kind !== 'day') throw new TypeError(`a day's sales folded into order ${view.orderId}'s view`);
    const day: SalesDay = view ?? { kind: 'day', day: dayOf(part), ordersPlaced: 0, currencies: {}, ...folded };
    const add = (currency: string, payments: number, refunds: number): SalesDay['currencies'] => {
      const sales = day.currencies[currency] ?? NO_SALES;
      return { ...day.currencies, [currency]: { payments: sales.payments + payments, refunds: sales.refunds + refunds } };
    };
    switch (part.type) {
      case 'OrderPlaced':
        return { ...day, ordersPlaced: day.ordersPlaced + 1, ...folded };
      case 'PaymentRecorded':
        return { ...day, currencies: add(currencyOf(part, context), part.data.amount, 0), ...folded };
      case 'RefundRecorded':
        return { ...day, currencies: add(currencyOf(part, context), 0, part.data.amount), ...folded };
    }
  },
};

/** The currency of the order a payment or refund is of: its OrderPlaced came before, and kept it. */
function currencyOf(part: SalesEvent, context: EventContext<DailySalesView>): string {
  const order = context.view?.(salesOrderKey(part.data.orderId)) ?? null;
  if (order?.kind !== 'order') throw new TypeError(`${part.type} of order ${part.data.orderId}, whose OrderPlaced was not folded`);
  return order.currency;
}
