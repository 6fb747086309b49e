// GET /stock: the stock projection's SKUs, each with its product's name and threshold, keyset-paged
// with opaque cursors: by sku, all of them or those whose sku has a prefix, those with fewer than
// `below` units available, or those below their own product's lowStockThreshold; or by name, those
// whose name has a prefix (case folded). Stock belongs to no single customer: staff only.
import { isStaff, type Viewer } from '../../write-side/kernel/access.js';
import { Forbidden, ValidationFailed, type FieldError } from '../../write-side/kernel/errors.js';
import type { KeysetCollection, KeysetPages } from '../kernel/keyset-page.js';
import type { ViewPage } from '../kernel/page.js';
import type { Condition, PageQuery, ReadModelStore } from '../read-store.js';
import { listedStock, nameKey, type ListedStock, type StockView } from './views.js';

/** The SKUs below their product's threshold (StockView.low). */
export const BELOW_THRESHOLD: readonly Condition[] = [{ field: 'low', op: '=', value: 1 }];

/** Above every text that begins with a prefix, once appended to it (the greatest code point). */
const PAST_PREFIX = '\u{10FFFF}';

/** The conditions of a field's values that begin with `prefix`: a range, which an index on the field serves. */
function prefixOf(field: string, prefix: string): Condition[] {
  return [{ field, op: '>=', value: prefix }, { field, op: '<', value: prefix + PAST_PREFIX }];
}

export interface StockFilter {
  readonly below?: number;
  readonly belowThreshold?: boolean;
  readonly skuPrefix?: string;
}

/** SKUs by sku ascending, strictly after `afterSku`, at most `limit`, as the filter selects them. */
export function stockPage(filter: StockFilter, afterSku: string | null, limit: number): PageQuery {
  const where: Condition[] = [];
  if (filter.below !== undefined) where.push({ field: 'available', op: '<', value: filter.below });
  if (filter.belowThreshold) where.push(...BELOW_THRESHOLD);
  if (filter.skuPrefix !== undefined) where.push(...prefixOf('key', filter.skuPrefix));
  return { where, after: afterSku === null ? null : { values: [], key: afterSku }, limit };
}

/** SKUs whose name begins with `prefix` (case folded), by name then sku, after the given row, at most `limit`. */
export function namePrefixPage(prefix: string, after: { name: string; sku: string } | null, limit: number): PageQuery {
  return { where: prefixOf('nameKey', nameKey(prefix)), order: { by: ['nameKey'], direction: 'asc' }, after: after === null ? null : { values: [after.name], key: after.sku }, limit };
}

/** SKUs below their product's threshold, fewest available first (then by sku), at most `limit`: the most pressing. */
export function mostPressingPage(limit: number): PageQuery {
  return { where: BELOW_THRESHOLD, order: { by: ['available'], direction: 'asc' }, limit };
}

export interface StockListRequest extends StockFilter {
  readonly namePrefix?: string;
  readonly limit: number;
  readonly cursor?: string;
  readonly consistencyToken?: string;
}

/** Each list is one index's: `below` alone, `belowThreshold` with a SKU prefix or not, a SKU prefix, a name prefix alone. */
function unservedStockList(request: StockListRequest): FieldError[] {
  const errors: FieldError[] = [];
  if (request.below !== undefined && request.belowThreshold) errors.push({ pointer: '/below', message: 'cannot be combined with belowThreshold: ask for one bound' });
  if (request.below !== undefined && request.skuPrefix !== undefined) errors.push({ pointer: '/skuPrefix', message: 'cannot be combined with below: a SKU prefix goes with belowThreshold at most' });
  if (request.namePrefix !== undefined) {
    for (const other of ['below', 'belowThreshold', 'skuPrefix'] as const) {
      if (request[other] !== undefined && request[other] !== false) errors.push({ pointer: `/${other}`, message: 'cannot be combined with namePrefix: SKUs by name are listed alone' });
    }
  }
  return errors;
}

export class StockQueries {
  constructor(
    private readonly store: ReadModelStore,
    private readonly pages: KeysetPages,
  ) {}

  async list(viewer: Viewer, request: StockListRequest): Promise<ViewPage<ListedStock>> {
    if (!isStaff(viewer)) throw new Forbidden('Stock belongs to no single customer: a customer token cannot read it.');
    const unserved = unservedStockList(request);
    if (unserved.length > 0) throw new ValidationFailed(unserved, 'This combination of filters is not offered: below alone; belowThreshold, with skuPrefix or not; skuPrefix; or namePrefix alone.');
    const { namePrefix } = request;
    if (namePrefix !== undefined) {
      const byName: KeysetCollection<StockView, { name: string; sku: string }> = {
        scope: { collection: 'stock', namePrefix: nameKey(namePrefix) },
        readKey: (decoded) => (typeof decoded.name === 'string' && typeof decoded.sku === 'string' ? { name: decoded.name, sku: decoded.sku } : null),
        keyOf: (row) => ({ name: nameKey(row.name ?? ''), sku: row.sku }),
        fetch: (after, count) => this.store.page<StockView>('stock', namePrefixPage(namePrefix, after, count)),
      };
      return this.pages.page(request, byName, listedStock);
    }
    const filter: StockFilter = {
      ...(request.below === undefined ? {} : { below: request.below }),
      ...(request.belowThreshold ? { belowThreshold: true } : {}),
      ...(request.skuPrefix === undefined ? {} : { skuPrefix: request.skuPrefix }),
    };
    const bySku: KeysetCollection<StockView, { sku: string }> = {
      scope: { collection: 'stock', below: filter.below, belowThreshold: filter.belowThreshold ? 'true' : undefined, skuPrefix: filter.skuPrefix },
      readKey: (decoded) => (typeof decoded.sku === 'string' ? { sku: decoded.sku } : null),
      keyOf: (row) => ({ sku: row.sku }),
      fetch: (after, count) => this.store.page<StockView>('stock', stockPage(filter, after?.sku ?? null, count)),
    };
    return this.pages.page(request, bySku, listedStock);
  }
}
