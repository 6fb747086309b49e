// The store at a glance (GET /summary): its figures as the home screen of the administration app
// shows them, each with the href of the filtered list behind it. See docs/home-summary.md.

/** A day's sales in one currency, in its minor units: payments less refunds recorded that day. */
export interface CurrencySalesFigure {
  readonly currency: string;
  readonly payments: number;
  readonly refunds: number;
  readonly net: number;
}

export interface SalesDayFigure {
  /** A UTC day, YYYY-MM-DD. */
  readonly date: string;
  readonly ordersPlaced: number;
  /** One entry per currency that had a payment or a refund that day, by currency code. */
  readonly sales: readonly CurrencySalesFigure[];
}

export interface Linked {
  readonly href: string;
}

export interface Counted extends Linked {
  readonly count: number;
}

/** How long the oldest item of a figure has waited, as of the summary's asOf. */
export interface Age {
  readonly ageSeconds: number;
}

export interface StoreSummary {
  /** When the figures were read (the service's clock): ages count to it, and `today` is its UTC day. */
  readonly asOf: string;
  readonly timeZone: 'UTC';
  readonly sales: Linked & {
    readonly from: string;
    readonly to: string;
    /** Every currency in the days below, by code: the chart's series. */
    readonly currencies: readonly string[];
    /** Every day from `from` to `to`, oldest first, days without an order or a payment included. */
    readonly days: readonly SalesDayFigure[];
  };
  readonly ordersPlacedToday: Counted;
  readonly awaitingPayment: Counted & { readonly oldest: (Age & { readonly orderId: string; readonly placedAt: string }) | null };
  readonly awaitingShipment: Counted & {
    readonly paid: Counted;
    readonly partiallyShipped: Counted;
    readonly oldest: (Age & { readonly orderId: string; readonly paidAt: string }) | null;
  };
  readonly returnsAwaitingReceipt: Counted & { readonly oldest: (Age & { readonly returnId: string; readonly orderId: string; readonly requestedAt: string }) | null };
  /** Null for a token without stock:read. */
  readonly lowStock:
    | (Counted & { readonly mostPressing: readonly { readonly sku: string; readonly name: string | null; readonly available: number; readonly lowStockThreshold: number; readonly href: string }[] })
    | null;
  /** Null for a token without webhooks:admin. */
  readonly failedDeliveries:
    | (Counted & { readonly subscriptions: readonly { readonly subscriptionId: string; readonly url: string; readonly status: string; readonly count: number; readonly href: string }[] })
    | null;
}
