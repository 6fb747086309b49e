// The stock decider: pure functions, no I/O or clock. It keeps 0 ≤ reserved ≤ onHand, and holds
// one reservation per order: reserving again for an order that holds one changes nothing.
import { IdempotencyKeyReused, InsufficientStock } from '../kernel/errors.js';
import { Reservations } from './reservations.js';
import { fellBelow } from './rules.js';
import type { LiveReservations, Stock, StockCommand, StockEvent } from './types.js';

const NO_RESERVATIONS: LiveReservations = Reservations.EMPTY;

export const initialStock = (sku = ''): Stock => ({ sku, onHand: 0, reserved: 0, live: NO_RESERVATIONS, committed: NO_RESERVATIONS, fences: NO_RESERVATIONS, updatedAt: null });

export const available = (stock: Pick<Stock, 'onHand' | 'reserved'>): number => Math.max(0, stock.onHand - stock.reserved);

/** The quantity the order holds reserved, or undefined. */
export function reservationOf(live: LiveReservations, orderId: string): number | undefined {
  return live.get(orderId);
}

/** Every live reservation (for the auditor and the snapshots). */
export function liveReservations(live: LiveReservations): Map<string, number> {
  return new Map(live);
}

/** The order's reservation less `quantity`: gone, with what was committed of it and its fence, once nothing is left. */
function lessOf(state: Stock, orderId: string, quantity: number, committed: number, orderRevision: number | undefined): Pick<Stock, 'live' | 'committed' | 'fences'> {
  const left = (state.live.get(orderId) ?? 0) - quantity;
  if (left <= 0) return { live: state.live.delete(orderId), committed: state.committed.delete(orderId), fences: state.fences.delete(orderId) };
  const total = (state.committed.get(orderId) ?? 0) + committed;
  return { live: state.live.set(orderId, left), committed: total > 0 ? state.committed.set(orderId, total) : state.committed, fences: fenced(state, orderId, orderRevision) };
}

function fenced(state: Stock, orderId: string, orderRevision: number | undefined): LiveReservations {
  if (orderRevision === undefined) return state.fences;
  return state.fences.set(orderId, Math.max(orderRevision, state.fences.get(orderId) ?? -1));
}

export function evolveStock(state: Stock, event: StockEvent): Stock {
  switch (event.type) {
    case 'StockAdjusted':
      return { ...state, sku: event.data.sku, onHand: state.onHand + event.data.delta, updatedAt: event.data.adjustedAt };
    case 'StockReserved': {
      const { sku, orderId, quantity, reservedAt } = event.data;
      // A reservation an order holds already grows (an edit that raised a line).
      const live = state.live.set(orderId, (state.live.get(orderId) ?? 0) + quantity);
      return { ...state, sku, reserved: state.reserved + quantity, live, fences: fenced(state, orderId, event.data.orderRevision), updatedAt: reservedAt };
    }
    case 'ReservationReleased':
      return { ...state, reserved: state.reserved - event.data.quantity, ...lessOf(state, event.data.orderId, event.data.quantity, 0, event.data.orderRevision), updatedAt: event.data.releasedAt };
    case 'ReservationCommitted':
      return {
        ...state,
        onHand: state.onHand - event.data.quantity,
        reserved: state.reserved - event.data.quantity,
        ...lessOf(state, event.data.orderId, event.data.quantity, event.data.quantity, event.data.orderRevision),
        updatedAt: event.data.committedAt,
      };
    case 'StockFellLow':
      // No level changes; its time is the command's, as the event before it in the same append.
      return { ...state, updatedAt: event.data.at };
    default: {
      const unknown: never = event;
      throw new TypeError(`unhandled event ${(unknown as StockEvent).type}`);
    }
  }
}

/**
 * The command's events, and after them StockFellLow when they take the SKU's available units below
 * the threshold the command carries (rules.ts): in the same append, so a crash cannot record the
 * one without the other.
 */
export function decideStock(command: StockCommand, state: Stock): StockEvent[] {
  const events = decideLevels(command, state);
  const threshold = command.type === 'ReleaseReservation' ? 0 : command.data.lowStockThreshold;
  const before = available(state);
  // Available never goes below 0: when even 0 would not have fallen (no threshold, below it
  // already), nothing the command decided can have, and the events are not folded again.
  if (events.length === 0 || !fellBelow(before, 0, threshold)) return events;
  const after = events.reduce(evolveStock, state);
  if (!fellBelow(before, available(after), threshold)) return events;
  const { onHand, reserved } = after;
  return [...events, { type: 'StockFellLow', schemaVersion: 1, data: { sku: command.data.sku, onHand, reserved, available: available(after), threshold, at: command.metadata.now } }];
}

function decideLevels(command: StockCommand, state: Stock): StockEvent[] {
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
    case 'SettleReservation': {
      const { sku, orderId, reserved, shipped, reason, orderRevision, raise, force } = command.data;
      const held = reservationOf(state.live, orderId);
      if (held === undefined) {
        // Nothing held: settled already (a reservation is forgotten once nothing is left of it),
        // or a SKU the order did not hold yet (an edit added it), which nothing shipped of.
        if (!raise || shipped > 0 || reserved === 0) return [];
        if (reserved > available(state)) throw new InsufficientStock([{ pointer: '/quantity', message: `${sku}: ${reserved} asked, ${available(state)} available`, available: available(state) }]);
        return [{ type: 'StockReserved', schemaVersion: 1, data: { sku, orderId, quantity: reserved, reservedAt: now, orderRevision } }];
      }
      // Stale: a settle of a newer revision of the order was applied (an edit's raise before its append).
      if (!force && orderRevision < (state.fences.get(orderId) ?? -1)) return [];
      const events: StockEvent[] = [];
      const commit = Math.min(held, Math.max(0, shipped - (state.committed.get(orderId) ?? 0)));
      if (commit > 0) events.push({ type: 'ReservationCommitted', schemaVersion: 1, data: { sku, orderId, quantity: commit, committedAt: now, orderRevision } });
      const left = held - commit;
      if (reserved < left) events.push({ type: 'ReservationReleased', schemaVersion: 1, data: { sku, orderId, quantity: left - reserved, reason, releasedAt: now, orderRevision } });
      if (reserved > left && raise) {
        const more = reserved - left;
        if (more > available(state)) throw new InsufficientStock([{ pointer: '/quantity', message: `${sku}: ${more} more asked, ${available(state)} available`, available: available(state) }]);
        events.push({ type: 'StockReserved', schemaVersion: 1, data: { sku, orderId, quantity: more, reservedAt: now, orderRevision } });
      }
      return events;
    }
    default: {
      const unknown: never = command;
      throw new TypeError(`unhandled command ${(unknown as StockCommand).type}`);
    }
  }
}

export const stockDecider = { initialState: () => initialStock(), evolve: evolveStock, decide: decideStock };
