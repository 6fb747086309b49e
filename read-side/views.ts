// The read models' documents. An OrderView is the order's HTTP representation (HTTP-CONTRACT.md).
import type { Position } from '../write-side/kernel/event-store.js';
import type { Role } from '../write-side/kernel/access.js';
import type { Account } from '../write-side/accounts/types.js';
import type { LiveProduct } from '../write-side/catalogue/types.js';
import type { CustomerStatus } from '../write-side/customers/types.js';
import type { Job } from '../write-side/jobs/types.js';
import type { Address, ErasedAddress, OrderLine, OrderStatus, PlacedOrder } from '../write-side/orders/types.js';
import type { StoredAddress } from '../write-side/personal-data/order-fields.js';

/**
 * An order view as the read models store it: its address sealed with its customer's key (in clear
 * only when written before sealing began). Queries open it when they answer (OrderRepresentation).
 */
export interface OrderView {
  readonly id: string;
  readonly customerId: string;
  readonly status: OrderStatus;
  readonly currency: string;
  readonly lines: readonly OrderLine[];
  readonly total: number;
  readonly address: StoredAddress;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** The order stream's revision this view includes. */
  readonly revision: number;
}

/** The order's HTTP representation (HTTP-CONTRACT.md): the view with its address opened, or erased. */
export type OrderRepresentation = Omit<OrderView, 'address'> & { readonly address: Address | ErasedAddress };

/** An order as the fulfilment queue sees it: queued from payment until shipment or cancellation. */
export interface QueueEntry {
  readonly orderId: string;
  readonly customerId: string;
  readonly state: 'awaiting-payment' | 'queued' | 'left';
  readonly currency: string;
  readonly total: number;
  readonly lines: readonly OrderLine[];
  /** Sealed, as in OrderView. */
  readonly address: StoredAddress;
  /** When the payment was recorded; the queue's order. */
  readonly paidAt: string | null;
  readonly revision: number;
}

/** The one rule of the queue: an entry is in it while queued (paid, neither shipped nor cancelled). */
export function inFulfilmentQueue(entry: QueueEntry | null): boolean {
  return entry?.state === 'queued';
}

/**
 * A change of the fulfilment queue, recorded by its projection: an order enters the queue when
 * it is paid and leaves it when it ships or is cancelled. `position` is the log position of the
 * event that made it, so a consumer resumes exactly after the last change it handled.
 */
export interface QueueChange {
  readonly position: Position;
  readonly orderId: string;
  readonly change: 'entered' | 'left';
  readonly reason: 'paid' | 'shipped' | 'cancelled';
  /** When the event was recorded. */
  readonly at: string;
}

/** A SKU's stock levels as GET /stock lists them; `revision` is the SKU stream's. */
export interface StockView {
  readonly sku: string;
  readonly onHand: number;
  readonly reserved: number;
  /** onHand − reserved, never below 0. */
  readonly available: number;
  readonly updatedAt: string | null;
  readonly revision: number;
}

/** A job as the export workers see it: its state folded from its stream, with the revision it includes. */
export type JobView = Job & { readonly revision: number };

/** A queue entry as the API answers it: its address opened, or erased. */
export type QueueEntryRepresentation = Omit<QueueEntry, 'address'> & { readonly address: Address | ErasedAddress };

/** An account as the administrators list it: never its password's hash. */
export interface AccountView {
  readonly id: string;
  readonly email: string;
  readonly role: Role;
  /** Only for the `customer` role; null otherwise. */
  readonly customerId: string | null;
  readonly disabled: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly revision: number;
}

/** The account's representation (HTTP-CONTRACT "Accounts and login"), which is also its view: nothing of the password. */
export function accountRepresentation(account: Account, revision: number): AccountView {
  const { id, email, role, customerId, status, createdAt, updatedAt } = account;
  return { id, email, role, customerId, disabled: status === 'disabled', createdAt, updatedAt, revision };
}

export function orderRepresentation(order: PlacedOrder, revision: number): OrderRepresentation {
  const { id, customerId, status, currency, lines, total, address, createdAt, updatedAt } = order;
  return { id, customerId, status, currency, lines, total, address, createdAt, updatedAt, revision };
}

/** A product's HTTP representation (HTTP-CONTRACT "Catalogue"). */
export interface ProductRepresentation {
  readonly sku: string;
  readonly name: string;
  readonly description: string | null;
  readonly prices: { readonly [currency: string]: number };
  readonly status: 'draft' | 'active';
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly revision: number;
}

/**
 * A product as the `products` projection keeps it: its representation, or, once retired, the
 * last one with status `retired` (views are never deleted; the collection leaves them out).
 */
export type ProductView = Omit<ProductRepresentation, 'status'> & { readonly status: 'draft' | 'active' | 'retired' };

export function productRepresentation(product: LiveProduct, revision: number): ProductRepresentation {
  const { sku, name, description, prices, status, createdAt, updatedAt } = product;
  return { sku, name, description, prices, status, createdAt, updatedAt, revision };
}

/**
 * A customer's HTTP representation, and the key its exact email filter matches (lowercased). Once
 * erased, every personal member is null and `erasedAt` says when; until then `erasedAt` is null.
 */
export interface CustomerView {
  readonly id: string;
  readonly email: string | null;
  readonly name: string | null;
  readonly phone: string | null;
  readonly defaultAddress: Address | null;
  readonly status: CustomerStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly erasedAt: string | null;
  /** The customer stream's revision this view includes. */
  readonly revision: number;
  /** The email as the `email` filter compares it (unique-values.ts's normalization); null once erased. */
  readonly emailKey: string | null;
}

export type CustomerRepresentation = Omit<CustomerView, 'emailKey'>;

export function customerRepresentation(view: CustomerView): CustomerRepresentation {
  const { emailKey: _key, ...representation } = view;
  return representation;
}
