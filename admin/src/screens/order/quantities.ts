// What the order's forms offer, per SKU: what remains to ship, what may still be returned, and
// what an edit reserves or releases. The service decides by the same rules
// (write-side/orders/rules.ts); these only choose the defaults and bounds a form shows.
import type { Schemas } from '../../api';

type Line = Schemas['OrderLineState'];
type Return = Schemas['Return'];
export type SkuQuantity = Schemas['LineQuantity'];

/** Summed over the order's lines of each SKU (an order may hold a SKU on more than one line). */
function perSku(lines: readonly Line[], of: (line: Line) => number): Map<string, number> {
  const sums = new Map<string, number>();
  for (const line of lines) sums.set(line.sku, (sums.get(line.sku) ?? 0) + of(line));
  return sums;
}

/** What remains to ship of each SKU: also what the order holds reserved of it. */
export const remainingToShip = (lines: readonly Line[]): Map<string, number> => perSku(lines, (line) => line.quantity - line.cancelled - line.shipped);

/** What of each SKU shipped and is in no return that is not cancelled (a received one counts what came back). */
export function returnable(lines: readonly Line[], returns: readonly Return[]): Map<string, number> {
  const left = perSku(lines, (line) => line.shipped);
  for (const ret of returns) {
    if (ret.status === 'cancelled') continue;
    for (const line of ret.received ?? ret.lines) left.set(line.sku, (left.get(line.sku) ?? 0) - line.quantity);
  }
  return left;
}

export interface StockChange {
  readonly sku: string;
  readonly now: number;
  readonly after: number;
  /** Positive: reserved more; negative: released. */
  readonly change: number;
}

/** Per SKU, the reservation the order holds now and would hold with the lines `after`: only the SKUs that change. */
export function stockEffect(now: readonly Line[], after: readonly Line[]): StockChange[] {
  const [was, will] = [remainingToShip(now), remainingToShip(after)];
  return [...new Set([...was.keys(), ...will.keys()])]
    .map((sku) => ({ sku, now: was.get(sku) ?? 0, after: will.get(sku) ?? 0 }))
    .map((row) => ({ ...row, change: row.after - row.now }))
    .filter((row) => row.change !== 0);
}

/** "2 × MUG-BLUE, 1 × CUP" */
export const listed = (lines: readonly SkuQuantity[]): string => lines.map((line) => `${line.quantity} × ${line.sku}`).join(', ');

/** The quantities a form asked for, by SKU: only those above 0. */
export function chosen(form: HTMLFormElement, skus: Iterable<string>, field: (sku: string) => string): SkuQuantity[] {
  const data = new FormData(form);
  return [...skus].map((sku) => ({ sku, quantity: Number(data.get(field(sku)) ?? 0) })).filter((line) => line.quantity > 0);
}
