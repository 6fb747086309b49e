// stock: one document per SKU, as GET /stock lists it: its levels, folded from its stock stream,
// held against its product, from the catalogue's stream of the same SKU (its name, its status and
// its lowStockThreshold), so that the list shows names, filters by a name's prefix, and knows the
// SKUs below their threshold (`low`), which the home summary counts. It gathers the SKU's two
// streams (Projection.gathers). The levels are one stream's fold, evolveStockLevels, which the
// stock webhooks' messages fold too. The counters follow the events alone: the stock decider
// appends a release or a commit only for a live reservation.
import { decodeProductEvent, PRODUCT_STREAM_PREFIX } from '../../write-side/catalogue/codec.js';
import type { ProductEvent } from '../../write-side/catalogue/types.js';
import { decodeStockEvent, STOCK_STREAM_PREFIX } from '../../write-side/stock/codec.js';
import type { StockEvent } from '../../write-side/stock/types.js';
import { isLow, nameKey, type StockLevels, type StockView } from '../../read-side/stock/views.js';
import type { EventContext, Projection } from '../projection.js';

/** A SKU's levels after one more event of its stock stream, at that event's revision in it. */
export function evolveStockLevels(view: StockLevels | null, event: StockEvent, { revision }: { readonly revision: number }): StockLevels {
  const { onHand, reserved } = view ?? { onHand: 0, reserved: 0 };
  const next = (levels: { onHand: number; reserved: number }, updatedAt: string): StockLevels => ({
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
    // It changes no level; folded so that the levels' revision is the stream's, as GET /stock/{sku} answers it.
    case 'StockFellLow':
      return next({ onHand, reserved }, event.data.at);
    default: {
      const unknown: never = event;
      throw new TypeError(`unhandled event ${(unknown as StockEvent).type}`);
    }
  }
}

type StockOrProductEvent = ProductEvent | StockEvent;
const PRODUCT_EVENTS: ReadonlySet<string> = new Set(['ProductDefined', 'ProductChanged', 'ProductRetired']);

export const stockView: Projection<'stock', StockView, StockOrProductEvent> = {
  name: 'stock',
  storage: {
    // 2: the SKU's product beside its levels (name, status, lowStockThreshold, low), gathered from both streams.
    version: 2,
    fields: [
      { name: 'available', type: 'integer', value: (v) => v.available },
      { name: 'low', type: 'integer', value: (v) => v.low },
      // The name as a prefix is matched: case folded; null while no product was defined under the SKU.
      { name: 'nameKey', type: 'text', nullable: true, computed: true, value: (v) => (v.name === null ? null : nameKey(v.name)) },
      // Those below their threshold by how few are available; null for the others, so that a sale
      // of a SKU that is not low leaves its entry in the index as it was.
      { name: 'pressing', type: 'integer', nullable: true, computed: true, value: (v) => (v.low === 1 ? v.available : null) },
    ],
    // By sku: those below a level; those below their threshold (with a SKU's prefix too); fewest
    // available first of those (the summary's); by name, those whose name has a prefix.
    indexes: [['available'], ['low'], ['pressing'], ['nameKey']],
    // SKUs, names and levels: nobody's personal data.
    noClearPersonalData: true,
  },
  streamPrefix: STOCK_STREAM_PREFIX,
  gathers: { alsoPrefixes: [PRODUCT_STREAM_PREFIX] },
  decode: (recorded) => (PRODUCT_EVENTS.has(recorded.type) ? decodeProductEvent(recorded) : decodeStockEvent(recorded)),
  handles: new Set(['ProductDefined', 'ProductChanged', 'ProductRetired', 'StockAdjusted', 'StockReserved', 'ReservationReleased', 'ReservationCommitted', 'StockFellLow']),
  keyOf: (event) => event.data.sku,
  evolve(view: StockView | null, event: StockOrProductEvent, context: EventContext<StockView>): StockView {
    const before: StockView = view ?? {
      sku: event.data.sku, name: null, status: null, lowStockThreshold: 0, onHand: 0, reserved: 0, available: 0, stockUpdatedAt: null, stockRevision: null, low: 0,
      position: context.position, revision: -1,
    };
    let next: StockView;
    switch (event.type) {
      case 'ProductDefined':
      case 'ProductChanged': {
        const { name, status, lowStockThreshold = 0 } = event.data.product;
        next = { ...before, name, status, lowStockThreshold };
        break;
      }
      case 'ProductRetired':
        next = { ...before, status: 'retired' };
        break;
      default: {
        const { sku, onHand, reserved, available, stockUpdatedAt, stockRevision } = before;
        const levels = evolveStockLevels(stockRevision === null ? null : { sku, onHand, reserved, available, updatedAt: stockUpdatedAt, revision: stockRevision }, event, context);
        next = { ...before, onHand: levels.onHand, reserved: levels.reserved, available: levels.available, stockUpdatedAt: levels.updatedAt, stockRevision: levels.revision };
      }
    }
    return { ...next, low: isLow(next) ? 1 : 0, position: context.position, revision: before.revision + 1 };
  },
};
