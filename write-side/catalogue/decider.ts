// The product decider: pure functions from (command, state) to events and from (state, event)
// to state. The command brings `now`.
import { PreconditionFailed, ProductNotFound, ValidationFailed } from '../kernel/errors.js';
import { isLive, type LiveProduct, type Product, type ProductCommand, type ProductContent, type ProductEvent, type ProductPatch } from './types.js';

export const initialState = (): Product => ({ status: 'absent' });

export function evolve(state: Product, event: ProductEvent): Product {
  switch (event.type) {
    case 'ProductDefined': {
      const { sku, product, definedAt } = event.data;
      return { ...product, sku, createdAt: definedAt, updatedAt: definedAt };
    }
    case 'ProductChanged': {
      // The whole product: a member it leaves out (a removed threshold) is not the state's any longer.
      const { product, changedAt } = event.data;
      const { sku, createdAt } = live(state);
      return { ...product, sku, createdAt, updatedAt: changedAt };
    }
    case 'ProductRetired':
      return { status: 'retired', sku: event.data.sku, retiredAt: event.data.retiredAt };
    default: {
      const unknown: never = event;
      throw new TypeError(`unhandled event ${(unknown as ProductEvent).type}`);
    }
  }
}

export function decide(command: ProductCommand, state: Product): ProductEvent[] {
  const now = command.metadata.now;
  switch (command.type) {
    case 'PutProduct': {
      const { sku, onlyIfAbsent, keepThreshold } = command.data;
      const sent = command.data.product;
      const kept = keepThreshold && sent.lowStockThreshold === undefined && isLive(state) ? state.lowStockThreshold : undefined;
      const product = canonical(kept === undefined ? sent : { ...sent, lowStockThreshold: kept });
      if (!isLive(state)) return [{ type: 'ProductDefined', schemaVersion: 2, data: { sku, product, definedAt: now } }];
      if (onlyIfAbsent) throw new PreconditionFailed('absent', null);
      return changed(state, product, now);
    }
    case 'PatchProduct': {
      const { sku, patch } = command.data;
      if (!isLive(state)) throw new ProductNotFound(sku);
      return changed(state, merge(state, patch), now);
    }
    case 'RetireProduct': {
      const { sku } = command.data;
      if (state.status === 'absent') throw new ProductNotFound(sku);
      if (state.status === 'retired') return [];
      return [{ type: 'ProductRetired', schemaVersion: 1, data: { sku, retiredAt: now } }];
    }
    default: {
      const unknown: never = command;
      throw new TypeError(`unhandled command ${(unknown as ProductCommand).type}`);
    }
  }
}

export const productDecider = { initialState, evolve, decide };

function live(state: Product): LiveProduct {
  if (!isLive(state)) throw new TypeError(`event applied to a product that is ${state.status}`);
  return state;
}

/** A change that changes nothing records nothing. */
function changed(state: LiveProduct, product: ProductContent, now: string): ProductEvent[] {
  if (sameContent(state, product)) return [];
  return [{ type: 'ProductChanged', schemaVersion: 2, data: { sku: state.sku, product, changedAt: now } }];
}

/** RFC 7396 onto the product: members absent stay, a price set to null goes, a threshold set to null too. */
function merge(current: LiveProduct, patch: ProductPatch): ProductContent {
  const prices: Record<string, number> = { ...current.prices };
  for (const [currency, price] of Object.entries(patch.prices ?? {})) {
    if (price === null) delete prices[currency];
    else prices[currency] = price;
  }
  const threshold = patch.lowStockThreshold === undefined ? current.lowStockThreshold : patch.lowStockThreshold;
  return canonical({
    name: patch.name ?? current.name,
    description: patch.description === undefined ? current.description : patch.description,
    prices,
    status: patch.status ?? current.status,
    ...(threshold === null || threshold === undefined ? {} : { lowStockThreshold: threshold }),
  });
}

/**
 * The content with its members in one order and its prices in currency order, so equal products
 * compare and store alike; a threshold of 0 is no threshold, and is left out.
 */
function canonical(product: ProductContent): ProductContent {
  const prices = Object.fromEntries(Object.entries(product.prices).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const threshold = lowStockThresholdOf(product);
  if (!Number.isSafeInteger(threshold) || threshold < 0) throw new ValidationFailed([{ pointer: '/lowStockThreshold', message: 'must be a non-negative integer' }]);
  return { name: product.name, description: product.description ?? null, prices, status: product.status, ...(threshold > 0 ? { lowStockThreshold: threshold } : {}) };
}

/** The product's low-stock threshold: 0 when it has none. */
export function lowStockThresholdOf(product: Pick<ProductContent, 'lowStockThreshold'>): number {
  return product.lowStockThreshold ?? 0;
}

function sameContent(a: ProductContent, b: ProductContent): boolean {
  return (
    a.name === b.name && a.description === b.description && a.status === b.status && lowStockThresholdOf(a) === lowStockThresholdOf(b) &&
    JSON.stringify(a.prices) === JSON.stringify(b.prices)
  );
}
