// low-stock: each SKU's available units held against its product's lowStockThreshold, gathered
// from the SKU's two streams, its product's and its stock's (Projection.gathers): the threshold
// changes with the catalogue, the units with the stock, and either may take a SKU below its
// threshold or back above it. The levels are folded by the stock projection's own evolve. What
// GET /stock?belowThreshold=true lists and the home summary counts.
import { decodeProductEvent, PRODUCT_STREAM_PREFIX } from '../../write-side/catalogue/codec.js';
import type { ProductEvent } from '../../write-side/catalogue/types.js';
import { decodeStockEvent, STOCK_STREAM_PREFIX } from '../../write-side/stock/codec.js';
import type { StockEvent } from '../../write-side/stock/types.js';
import { isLow, type LowStockView } from '../../read-side/stock/views.js';
import type { EventContext, Projection } from '../projection.js';
import { stockView } from './stock.js';

type LowStockEvent = ProductEvent | StockEvent;
const PRODUCT_EVENTS: ReadonlySet<string> = new Set(['ProductDefined', 'ProductChanged', 'ProductRetired']);

export const lowStock: Projection<'low-stock', LowStockView, LowStockEvent> = {
  name: 'low-stock',
  storage: {
    fields: [
      { name: 'low', type: 'integer', value: (v) => v.low },
      { name: 'available', type: 'integer', value: (v) => v.available },
    ],
    // Those below their threshold, by SKU (the list) or fewest available first (the summary's).
    indexes: [['low'], ['low', 'available']],
  },
  streamPrefix: STOCK_STREAM_PREFIX,
  gathers: { alsoPrefixes: [PRODUCT_STREAM_PREFIX] },
  decode: (recorded) => (PRODUCT_EVENTS.has(recorded.type) ? decodeProductEvent(recorded) : decodeStockEvent(recorded)),
  handles: new Set(['ProductDefined', 'ProductChanged', 'ProductRetired', 'StockAdjusted', 'StockReserved', 'ReservationReleased', 'ReservationCommitted', 'StockFellLow']),
  keyOf: (event) => event.data.sku,
  evolve(view: LowStockView | null, event: LowStockEvent, context: EventContext<LowStockView>): LowStockView {
    const before: LowStockView = view ?? {
      sku: event.data.sku, name: null, status: null, lowStockThreshold: 0, onHand: 0, reserved: 0, available: 0, stockUpdatedAt: null, stockRevision: null, low: 0,
      position: context.position, revision: -1,
    };
    let next: LowStockView;
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
        const { sku, onHand, reserved, stockUpdatedAt, stockRevision } = before;
        const levels = stockView.evolve(stockRevision === null ? null : { sku, onHand, reserved, available: before.available, updatedAt: stockUpdatedAt, revision: stockRevision }, event, { revision: context.revision, position: context.position, recordedAt: context.recordedAt });
        next = { ...before, onHand: levels.onHand, reserved: levels.reserved, available: levels.available, stockUpdatedAt: levels.updatedAt, stockRevision: levels.revision };
      }
    }
    return { ...next, low: isLow(next) ? 1 : 0, position: context.position, revision: before.revision + 1 };
  },
};
