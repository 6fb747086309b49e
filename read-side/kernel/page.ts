// A page of a collection: its items, the cursor to the next, and the log position it reflects.
import type { Position } from '../../write-side/kernel/event-store.js';

export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 20;

export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | null;
}

/** A page of projected views, and the log position it reflects (its Consistency-Token). */
export interface ViewPage<T> extends Page<T> {
  readonly reflects: Position;
}

export function assertLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new RangeError(`limit must be an integer from 1 to ${MAX_LIMIT}`);
}
