// The orders' views: an order as the order-views projection keeps it (its HTTP representation,
// HTTP-CONTRACT.md, with the address sealed), and its entry in the fulfilment queue.
import type { Position } from '../../write-side/kernel/event-store.js';
import type { Address, Balance, ErasedAddress, LineState, OrderStatus, PlacedOrder } from '../../write-side/orders/types.js';
import type { StoredAddress } from '../../write-side/orders/personal-data.js';

/**
 * An order view as the read models store it: its address sealed with its customer's key (in clear
 * only when written before sealing began). Queries open it when they answer (OrderRepresentation).
 */
export interface OrderView {
  readonly id: string;
  readonly customerId: string;
  readonly status: OrderStatus;
  readonly currency: string;
  /** Each line with what of it shipped, was cancelled and came back. */
  readonly lines: readonly LineState[];
  readonly total: number;
  readonly balance: Balance;
  readonly address: StoredAddress;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** The order stream's revision this view includes. */
  readonly revision: number;
}

/** The order's HTTP representation (HTTP-CONTRACT.md): the view with its address opened, or erased. */
export type OrderRepresentation = Omit<OrderView, 'address'> & { readonly address: Address | ErasedAddress };

/** An order as the fulfilment queue sees it: queued from payment until nothing remains to ship, or cancellation. */
export interface QueueEntry {
  readonly orderId: string;
  readonly customerId: string;
  readonly state: 'awaiting-payment' | 'queued' | 'left';
  readonly currency: string;
  readonly total: number;
  readonly lines: readonly LineState[];
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

/** A queue entry as the API answers it: its address opened, or erased. */
export type QueueEntryRepresentation = Omit<QueueEntry, 'address'> & { readonly address: Address | ErasedAddress };

export function orderRepresentation(order: PlacedOrder, revision: number): OrderRepresentation {
  const { id, customerId, status, currency, lines, total, balance, address, createdAt, updatedAt } = order;
  return { id, customerId, status, currency, lines, total, balance, address, createdAt, updatedAt, revision };
}
