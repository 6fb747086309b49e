// The stock's rules that are not the decider's own bookkeeping: pure, and written once.

/**
 * Whether a change of a SKU's available units from `before` to `after` is the one the webhook
 * event stock.low is about: from at least `threshold` to below it. Staying below does not fall
 * again (a second sale while low sends nothing); rising to it or above and falling again does. A
 * threshold of 0 never fires (available is never below 0), and no increase ever does.
 */
export function fellBelow(before: number, after: number, threshold: number): boolean {
  return before >= threshold && after < threshold;
}
