// A projection is a pure evolve(view, event) plus the key of the view an event touches.
import type { Changes, ProjectionName, Views } from '../read-side/read-store.js';
import type { Position } from '../write-side/event-store.js';
import type { OrderEvent, OrderEventType } from '../write-side/orders/types.js';

export interface EventContext {
  readonly revision: number;
  readonly position: Position;
  readonly recordedAt: Date;
}

export interface Projection<N extends ProjectionName> {
  readonly name: N;
  /** Streams whose events this projection reads. */
  readonly streamPrefix: string;
  /** The event types evolve() handles; others move the checkpoint and change nothing. */
  readonly handles: ReadonlySet<OrderEventType>;
  keyOf(event: OrderEvent): string;
  /** The view after the event; `current` is null before the view's first event. */
  evolve(current: Views[N] | null, event: OrderEvent, context: EventContext): Views[N];
  /** What the event changed, for a projection that records its changes (compare `before` and `after`). */
  changes?(before: Views[N] | null, after: Views[N], event: OrderEvent, context: EventContext): Changes[N][];
}
