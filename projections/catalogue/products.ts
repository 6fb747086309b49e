// products: one document per SKU, the product's HTTP representation; a retired product keeps its
// document with status `retired`, which the collection leaves out (views are never deleted).
import { decodeProductEvent, PRODUCT_STREAM_PREFIX } from '../../write-side/catalogue/codec.js';
import type { ProductView } from '../../read-side/catalogue/views.js';
import type { ProductContent, ProductEvent } from '../../write-side/catalogue/types.js';
import type { EventContext, Projection } from '../projection.js';

export const productsView: Projection<'products', ProductView, ProductEvent> = {
  name: 'products',
  storage: {
    // 2: the views show lowStockThreshold (2027-01-01); a read store filled before is filled afresh.
    version: 2,
    fields: [
      { name: 'status', type: 'text', value: (v) => v.status },
      { name: 'updatedAt', type: 'text', value: (v) => v.updatedAt },
    ],
    // By sku or latest change first, of one status or of the two that are not retired (an IN,
    // which SQL reads in the order of the change alone, filtering the status).
    indexes: [['status'], { fields: ['updatedAt'], embeddedOnly: true }, ['status', 'updatedAt']],
    noClearPersonalData: true,
  },
  streamPrefix: PRODUCT_STREAM_PREFIX,
  decode: decodeProductEvent,
  handles: new Set(['ProductDefined', 'ProductChanged', 'ProductRetired']),
  keyOf: (event) => event.data.sku,
  evolve(view: ProductView | null, event, { revision }: EventContext): ProductView {
    switch (event.type) {
      case 'ProductDefined': {
        const { sku, product, definedAt } = event.data;
        return { sku, ...content(product), createdAt: definedAt, updatedAt: definedAt, revision };
      }
      case 'ProductChanged':
        if (!view) throw new TypeError(`ProductChanged for ${event.data.sku}, which was never defined`);
        return { ...view, ...content(event.data.product), updatedAt: event.data.changedAt, revision };
      case 'ProductRetired':
        if (!view) throw new TypeError(`ProductRetired for ${event.data.sku}, which was never defined`);
        return { ...view, status: 'retired', updatedAt: event.data.retiredAt, revision };
      default: {
        const unknown: never = event;
        throw new TypeError(`unhandled event ${(unknown as { type: string }).type}`);
      }
    }
  },
};

/** The product's members as its representation shows them: the threshold always, 0 for none. */
function content(product: ProductContent): Omit<ProductView, 'sku' | 'createdAt' | 'updatedAt' | 'revision'> {
  const { name, description, prices, status } = product;
  return { name, description, prices, status, lowStockThreshold: product.lowStockThreshold ?? 0 };
}
