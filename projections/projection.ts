// A projection is a pure evolve(view, event) plus the key of the view an event touches.
import type { Changes, ProjectionName, Views } from '../read-side/read-store.js';
import type { Position, RecordedEvent } from '../write-side/kernel/event-store.js';
import type { AccountEvent } from '../write-side/accounts/types.js';
import type { ProductEvent } from '../write-side/catalogue/types.js';
import type { CustomerEvent } from '../write-side/customers/types.js';
import type { JobEvent } from '../write-side/jobs/types.js';
import type { StoredOrderEvent } from '../write-side/personal-data/order-fields.js';
import type { StockEvent } from '../write-side/stock/types.js';

export interface EventContext {
  readonly revision: number;
  readonly position: Position;
  readonly recordedAt: Date;
}

/** The events each projection reads. */
export interface ProjectionEvents {
  'order-views': StoredOrderEvent;
  'fulfilment-queue': StoredOrderEvent;
  jobs: JobEvent;
  stock: StockEvent;
  products: ProductEvent;
  customers: CustomerEvent;
  accounts: AccountEvent;
}

export interface Projection<N extends ProjectionName> {
  readonly name: N;
  /** Streams whose events this projection reads; a view's key is its stream's name after the prefix. */
  readonly streamPrefix: string;
  /** The event types evolve() handles; others move the checkpoint and change nothing. */
  readonly handles: ReadonlySet<ProjectionEvents[N]['type']>;
  decode(recorded: RecordedEvent): ProjectionEvents[N];
  keyOf(event: ProjectionEvents[N]): string;
  /** The view after the event; `current` is null before the view's first event. */
  evolve(current: Views[N] | null, event: ProjectionEvents[N], context: EventContext): Views[N];
  /** What the event changed, for a projection that records its changes (compare `before` and `after`). */
  changes?(before: Views[N] | null, after: Views[N], event: ProjectionEvents[N], context: EventContext): Changes[N][];
}
