// stock: one document per SKU, its levels as GET /stock lists them. The counters follow the
// events alone: the stock decider appends a release or a commit only for a live reservation.
import { decodeStockEvent, STOCK_STREAM_PREFIX } from '../../write-side/stock/codec.js';
import type { StockEvent } from '../../write-side/stock/types.js';
import type { StockView } from '../../read-side/stock/views.js';
import type { EventContext, Projection } from '../projection.js';

export const stockView: Projection<'stock', StockView, StockEvent> = {
  name: 'stock',
  storage: {
    fields: [{ name: 'available', type: 'integer', value: (v) => v.available }],
    // By sku, those below a level.
    indexes: [['available']],
  },
  streamPrefix: STOCK_STREAM_PREFIX,
  decode: decodeStockEvent,
  // StockFellLow changes no level; handled so that a view's revision is its stream's, as GET /stock/{sku} answers it.
  handles: new Set(['StockAdjusted', 'StockReserved', 'ReservationReleased', 'ReservationCommitted', 'StockFellLow']),
  keyOf: (event) => event.data.sku,
  evolve(view: StockView | null, event: StockEvent, { revision }: EventContext): StockView {
    const { onHand, reserved } = view ?? { onHand: 0, reserved: 0 };
    const next = (levels: { onHand: number; reserved: number }, updatedAt: string): StockView => ({
      sku: event.data.sku,
      onHand: levels.onHand,
      reserved: levels.reserved,
      available: Math.max(0, levels.onHand - levels.reserved),
      updatedAt,
      revision,
    });
    switch (event.type) {
      case 'StockAdjusted':
        return next({ onHand: onHand + event.data.delta, reserved }, event.data.adjustedAt);
      case 'StockReserved':
        return next({ onHand, reserved: reserved + event.data.quantity }, event.data.reservedAt);
      case 'ReservationReleased':
        return next({ onHand, reserved: reserved - event.data.quantity }, event.data.releasedAt);
      case 'ReservationCommitted':
        return next({ onHand: onHand - event.data.quantity, reserved: reserved - event.data.quantity }, event.data.committedAt);
      case 'StockFellLow':
        return next({ onHand, reserved }, event.data.at);
      default: {
        const unknown: never = event;
        throw new TypeError(`unhandled event ${(unknown as StockEvent).type}`);
      }
    }
  },
};
