// The read models' documents. An OrderView is the order's HTTP representation (HTTP-CONTRACT.md).
import type { Address, OrderLine, OrderStatus, PlacedOrder } from '../write-side/orders/types.js';

export interface OrderView {
  readonly id: string;
  readonly customerId: string;
  readonly status: OrderStatus;
  readonly currency: string;
  readonly lines: readonly OrderLine[];
  readonly total: number;
  readonly address: Address;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** The order stream's revision this view includes. */
  readonly revision: number;
}

/** An order as the fulfilment queue sees it: queued from payment until shipment or cancellation. */
export interface QueueEntry {
  readonly orderId: string;
  readonly customerId: string;
  readonly state: 'awaiting-payment' | 'queued' | 'left';
  readonly currency: string;
  readonly total: number;
  readonly lines: readonly OrderLine[];
  readonly address: Address;
  /** When the payment was recorded; the queue's order. */
  readonly paidAt: string | null;
  readonly revision: number;
}

export function orderRepresentation(order: PlacedOrder, revision: number): OrderView {
  const { id, customerId, status, currency, lines, total, address, createdAt, updatedAt } = order;
  return { id, customerId, status, currency, lines, total, address, createdAt, updatedAt, revision };
}
