// The stock decider: pure functions, no I/O or clock. It keeps 0 ≤ reserved ≤ onHand, and holds
// one reservation per order: reserving again for an order that holds one changes nothing.
import { Map as ImmutableMap } from 'immutable';
import { IdempotencyKeyReused, InsufficientStock } from '../kernel/errors.js';
import type { LiveReservations, Stock, StockCommand, StockEvent } from './types.js';

const NO_RESERVATIONS: LiveReservations = ImmutableMap<string, number>();

export const initialStock = (sku = ''): Stock => ({ sku, onHand: 0, reserved: 0, live: NO_RESERVATIONS, updatedAt: null });

export const available = (stock: Pick<Stock, 'onHand' | 'reserved'>): number => Math.max(0, stock.onHand - stock.reserved);

/** The quantity the order holds reserved, or undefined. */
export function reservationOf(live: LiveReservations, orderId: string): number | undefined {
  return live.get(orderId);
}

/** Every live reservation (for the auditor and the snapshots). */
export function liveReservations(live: LiveReservations): Map<string, number> {
  return new Map(live);
}

function withReservation(live: LiveReservations, orderId: string, quantity: number | null): LiveReservations {
  return quantity === null ? live.delete(orderId) : live.set(orderId, quantity);
}

export function evolveStock(state: Stock, event: StockEvent): Stock {
  switch (event.type) {
    case 'StockAdjusted':
      return { ...state, sku: event.data.sku, onHand: state.onHand + event.data.delta, updatedAt: event.data.adjustedAt };
    case 'StockReserved':
      return {
        ...state,
        sku: event.data.sku,
        reserved: state.reserved + event.data.quantity,
        live: withReservation(state.live, event.data.orderId, event.data.quantity),
        updatedAt: event.data.reservedAt,
      };
    case 'ReservationReleased':
      return { ...state, reserved: state.reserved - event.data.quantity, live: withReservation(state.live, event.data.orderId, null), updatedAt: event.data.releasedAt };
    case 'ReservationCommitted':
      return {
        ...state,
        onHand: state.onHand - event.data.quantity,
        reserved: state.reserved - event.data.quantity,
        live: withReservation(state.live, event.data.orderId, null),
        updatedAt: event.data.committedAt,
      };
    default: {
      const unknown: never = event;
      throw new TypeError(`unhandled event ${(unknown as StockEvent).type}`);
    }
  }
}

export function decideStock(command: StockCommand, state: Stock): StockEvent[] {
  const now = command.metadata.now;
  switch (command.type) {
    case 'AdjustStock': {
      const { sku, adjustmentId, delta, reason, note } = command.data;
      if (!Number.isSafeInteger(delta) || delta === 0) throw new TypeError('a stock adjustment needs a non-zero integer delta');
      const onHand = state.onHand + delta;
      if (onHand < state.reserved) {
        throw new InsufficientStock([{ pointer: '/delta', message: `would take ${sku} on hand to ${onHand}, below the ${state.reserved} reserved`, available: available(state) }]);
      }
      return [{ type: 'StockAdjusted', schemaVersion: 1, data: { sku, adjustmentId, delta, reason, note, onHand, reserved: state.reserved, adjustedAt: now } }];
    }
    case 'ReserveStock': {
      const { sku, orderId, quantity } = command.data;
      if (!Number.isSafeInteger(quantity) || quantity < 1) throw new TypeError('a reservation needs a positive integer quantity');
      const held = reservationOf(state.live, orderId);
      if (held === quantity) return [];
      // Only a second request under the same key (the order id is the key's) can ask another quantity.
      if (held !== undefined) throw new IdempotencyKeyReused();
      if (quantity > available(state)) {
        throw new InsufficientStock([{ pointer: '/quantity', message: `${sku}: ${quantity} asked, ${available(state)} available`, available: available(state) }]);
      }
      return [{ type: 'StockReserved', schemaVersion: 1, data: { sku, orderId, quantity, reservedAt: now } }];
    }
    case 'ReleaseReservation': {
      const { sku, orderId, reason } = command.data;
      const quantity = reservationOf(state.live, orderId);
      if (quantity === undefined) return [];
      return [{ type: 'ReservationReleased', schemaVersion: 1, data: { sku, orderId, quantity, reason, releasedAt: now } }];
    }
    case 'CommitReservation': {
      const { sku, orderId } = command.data;
      const quantity = reservationOf(state.live, orderId);
      if (quantity === undefined) return [];
      return [{ type: 'ReservationCommitted', schemaVersion: 1, data: { sku, orderId, quantity, committedAt: now } }];
    }
    default: {
      const unknown: never = command;
      throw new TypeError(`unhandled command ${(unknown as StockCommand).type}`);
    }
  }
}

export const stockDecider = { initialState: () => initialStock(), evolve: evolveStock, decide: decideStock };
