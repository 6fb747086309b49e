// The projections: the one list of them. Every map by projection name (their views, events and
// changes, the read store's storage, the projectors the service runs) is derived from it, so a
// new projection is its module plus one entry here.
import type { ReadStorage } from '../read-side/read-store.js';
import { accountsView } from './accounts/accounts.js';
import { productsView } from './catalogue/products.js';
import { customersView } from './customers/customers.js';
import { jobsView } from './jobs/jobs.js';
import { dailySales } from './orders/daily-sales.js';
import { fulfilmentQueue } from './orders/fulfilment-queue.js';
import { orderViews } from './orders/order-views.js';
import { returnsView } from './orders/returns.js';
import type { ChangeOf, EventOf, ViewOf } from './projection.js';
import { stockView } from './stock/stock.js';
import { webhookDeliveriesView } from './webhooks/deliveries.js';
import { webhookSubscriptionsView } from './webhooks/subscriptions.js';

const REGISTERED = [orderViews, fulfilmentQueue, jobsView, productsView, customersView, stockView, accountsView, webhookSubscriptionsView, webhookDeliveriesView, returnsView, dailySales] as const;

type Registered = (typeof REGISTERED)[number];
export type ProjectionName = Registered['name'];
export type ProjectionNamed<N extends ProjectionName> = Extract<Registered, { readonly name: N }>;
/** The view, the events and the changes of each projection, by name. */
export type Views = { readonly [N in ProjectionName]: ViewOf<ProjectionNamed<N>> };
export type ProjectionEvents = { readonly [N in ProjectionName]: EventOf<ProjectionNamed<N>> };
export type Changes = { readonly [N in ProjectionName]: ChangeOf<ProjectionNamed<N>> };

export const PROJECTION_NAMES: readonly ProjectionName[] = REGISTERED.map((projection) => projection.name);

export const PROJECTIONS = Object.fromEntries(REGISTERED.map((projection) => [projection.name, projection])) as {
  readonly [N in ProjectionName]: ProjectionNamed<N>;
};

/** What the read store keeps for each projection: the adapters derive their tables, collections and indexes from it. */
export const READ_STORAGE: ReadStorage = REGISTERED.map((projection) => ({ ...projection.storage, name: projection.name }));

/** One value per projection, made by `make`: the maps the composition root wires. */
export function perProjection<T>(make: (projection: Registered) => T): { readonly [N in ProjectionName]: T } {
  return Object.fromEntries(REGISTERED.map((projection) => [projection.name, make(projection)])) as { readonly [N in ProjectionName]: T };
}
