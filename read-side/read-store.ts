// The read-model store port: what projections write and queries read. Two adapters implement
// it (adapters/sqlite-read-store.ts, adapters/mongo-read-store.ts) and both pass
// tests/read-side/read-store.contract.ts.
import type { Position } from '../write-side/kernel/event-store.js';
import type { OrderStatus } from '../write-side/orders/types.js';
import type { AccountView, CustomerView, JobView, OrderView, ProductView, QueueChange, QueueEntry, StockView } from './views.js';

export interface Views {
  'order-views': OrderView;
  'fulfilment-queue': QueueEntry;
  jobs: JobView;
  stock: StockView;
  products: ProductView;
  customers: CustomerView;
  accounts: AccountView;
}
export type ProjectionName = keyof Views;
/**
 * What a projection records beside its views: a log of its changes, keyed by the log position of
 * the event that made each one, in the same generation as the views and by the same commit().
 * That is one transaction on the embedded store, but three writes on MongoDB (views, changes,
 * then the checkpoint): a commit cut short there leaves some of its views and changes written
 * under the old checkpoint, and the batch applied again writes each of them once.
 */
export interface Changes {
  'order-views': never;
  'fulfilment-queue': QueueChange;
  jobs: never;
  stock: never;
  products: never;
  customers: never;
  accounts: never;
}
export interface Change {
  readonly position: Position;
}
/** A recorded change and the key of the view it belongs to. */
export interface KeyedChange<C> {
  readonly key: string;
  readonly change: C;
}
export const PROJECTION_NAMES: readonly ProjectionName[] = ['order-views', 'fulfilment-queue', 'jobs', 'products', 'customers', 'stock', 'accounts'];

/** Every view carries the stream revision it includes; a view is never deleted, only changed. */
export interface Keyed<V> {
  readonly key: string;
  readonly view: V & { readonly revision: number };
}

/**
 * One generation of one projection's views and its checkpoint. A rebuild fills a new
 * generation while queries keep reading the active one, then activates it.
 */
export interface ViewStore<V, C extends Change = never> {
  readonly name: ProjectionName;
  readonly generation: number;
  checkpoint(): Promise<Position | null>;
  load(keys: readonly string[]): Promise<Map<string, V & { readonly revision: number }>>;
  /**
   * Writes the views and moves the checkpoint. A view is written only if its revision is
   * newer than the stored one, so applying a batch twice changes nothing; the checkpoint
   * only moves forward. Changes are recorded once each, by position, however often a batch is applied.
   */
  commit(views: readonly Keyed<V>[], checkpoint: Position, changes?: readonly KeyedChange<C>[]): Promise<void>;
  /** Every view of this generation in key order, in pages (for verify). */
  scan(afterKey: string | null, limit: number): Promise<Keyed<V>[]>;
  /** The recorded changes strictly after `after`, in position order, at most `limit` (for verify and the feed). */
  changes(after: Position | null, limit: number): Promise<KeyedChange<C>[]>;
  /** The recorded changes of these keys, in position order (for verify). */
  changesOf(keys: readonly string[]): Promise<KeyedChange<C>[]>;
}

export type SortDirection = 'asc' | 'desc';

/** Keyset position: the last item of the previous page. */
export interface OrderKey {
  readonly createdAt: string;
  readonly id: string;
}
/** Keyset position of the accounts' page (newest first). */
export interface AccountKey {
  readonly createdAt: string;
  readonly id: string;
}
export interface QueueKey {
  readonly paidAt: string;
  readonly orderId: string;
}

export type ProductSort = 'sku' | '-updatedAt';
/** Keyset position in the products: the sku, and for `-updatedAt` the time too. */
export interface ProductKey {
  readonly sku: string;
  readonly updatedAt?: string;
}
export interface ProductFilter {
  readonly status?: 'draft' | 'active';
}

/** An order view as stored JSON text, with its sort key: pages can be written out without re-encoding. */
export interface OrderJson {
  readonly id: string;
  readonly createdAt: string;
  readonly json: string;
}

/** Keyset position of the customers' list (newest first): the last item of the previous page. */
export interface CustomerKey {
  readonly createdAt: string;
  readonly id: string;
}

export interface CustomerFilter {
  /** Only the customer whose `emailKey` is this (an exact, case-insensitive email filter). */
  readonly emailKey?: string;
}

export interface OrderFilter {
  readonly status?: OrderStatus;
  readonly customerId?: string;
  /** Inclusive lower bound on createdAt, an ISO 8601 UTC instant as the views store it. */
  readonly createdFrom?: string;
  /** Exclusive upper bound on createdAt. */
  readonly createdTo?: string;
}

export interface ReadModelStore {
  views<N extends ProjectionName>(name: N, generation: number): ViewStore<Views[N], Changes[N]>;
  activeGeneration(name: ProjectionName): Promise<number>;
  /** A new, empty generation, not yet active. */
  createGeneration(name: ProjectionName): Promise<number>;
  /** Makes the generation the one queries read, and drops the older ones. */
  activateGeneration(name: ProjectionName, generation: number): Promise<void>;

  getOrder(id: string): Promise<OrderView | null>;
  /** Orders by (createdAt, id) in the direction, strictly after `after`, at most `limit`. */
  listOrders(filter: OrderFilter, direction: SortDirection, after: OrderKey | null, limit: number): Promise<OrderView[]>;
  /** The same page as listOrders, each view as its JSON text. */
  listOrderJson(filter: OrderFilter, direction: SortDirection, after: OrderKey | null, limit: number): Promise<OrderJson[]>;
  countOrders(filter: OrderFilter): Promise<number>;
  /** Queued orders by (paidAt, orderId) ascending, strictly after `after`, at most `limit`. */
  listQueue(after: QueueKey | null, limit: number): Promise<QueueEntry[]>;
  /**
   * The fulfilment queue's changes strictly after `after` in position order, at most `limit`,
   * with the checkpoint of the generation they were read from, taken before them: every change
   * up to that checkpoint is in the answer unless `limit` cut it short.
   */
  listQueueChanges(after: Position | null, limit: number): Promise<{ changes: QueueChange[]; checkpoint: Position | null }>;

  /**
   * Products not retired, by sku ascending or by (updatedAt, sku) descending, strictly after
   * `after`, at most `limit`.
   */
  listProducts(filter: ProductFilter, sort: ProductSort, after: ProductKey | null, limit: number): Promise<ProductView[]>;
  /** Customers by (createdAt, id) descending, newest first, strictly after `after`, at most `limit`. */
  listCustomers(filter: CustomerFilter, after: CustomerKey | null, limit: number): Promise<CustomerView[]>;
  /** Accounts by (createdAt, id) descending, newest first, strictly after `after`, at most `limit`. */
  listAccounts(after: AccountKey | null, limit: number): Promise<AccountView[]>;

  /** Jobs not finished (queued or running), oldest first, at most `limit`: the export workers' candidates. */
  listOpenJobs(limit: number): Promise<JobView[]>;
  /** Succeeded jobs whose result is still kept, the earliest finished first, at most `limit`. */
  listJobResults(limit: number): Promise<JobView[]>;

  /**
   * SKUs by sku ascending, strictly after `afterSku`, at most `limit`; with `below`, only those
   * whose available stock is below it.
   */
  listStock(below: number | null, afterSku: string | null, limit: number): Promise<StockView[]>;

  /** A background process's own position in the log (the stock reconciler's); null before it saved one. */
  processCheckpoint(name: string): Promise<Position | null>;
  /** Saves it; a position not beyond the saved one changes nothing. */
  saveProcessCheckpoint(name: string, position: Position): Promise<void>;

  /**
   * Takes the named lease for `holder`, or renews it, until `ttlMs` from now; true when
   * `holder` holds it now. A lease another holder has renewed within its time is not taken.
   * (The projector role: one process projects, a standby waits for the lease to lapse.)
   */
  acquireLease(name: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up if `holder` holds it, so that a standby takes it over at once. */
  releaseLease(name: string, holder: string): Promise<void>;

  close(): Promise<void>;
}
