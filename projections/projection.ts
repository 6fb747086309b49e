// A projection is a pure evolve(view, event) plus the key of the view an event touches, and the
// storage its views need (the fields and indexes its queries use). projections/registry.ts lists them.
import type { Change, StorageDeclaration } from '../read-side/read-store.js';
import type { Position, RecordedEvent } from '../write-side/kernel/event-store.js';

export interface EventContext<V = unknown, E = unknown> {
  /** The event's revision in its own stream. */
  readonly revision: number;
  readonly position: Position;
  readonly recordedAt: Date;
  /**
   * In a projection that gathers streams (Projection.gathers): another of its views, as the events
   * before this one left it, of a key its `reads` named for this event; null when it has none.
   */
  readonly view?: (key: string) => V | null;
  /** For an event its projection folds with its history (Projection.history): the earlier events of its stream. */
  readonly history?: readonly HistoricEvent<E>[];
}

/** An event of a stream's history, decoded, with its place in the log (Projection.history). */
export interface HistoricEvent<E> {
  readonly event: E;
  readonly recorded: RecordedEvent;
}

/** `N` its name, `V` its view, `E` the events it reads, `C` the changes it records (never for most). */
export interface Projection<N extends string = string, V = any, E extends { readonly type: string } = any, C extends Change = never> {
  readonly name: N;
  /** Streams whose events this projection reads; a view's key is its stream's name after the prefix (but see `gathers`). */
  readonly streamPrefix: string;
  /**
   * Set on a projection whose views gather the events of many streams (a day's sales, from every
   * order of the day; a SKU's stock against its product's threshold, from two streams), where a
   * stream revision tells nothing of what a view has seen. Each view then keeps `position`, the
   * log position of the last event folded into it, and `revision`, how many were: an event at or
   * before the view's position was folded already and is skipped, so a batch applied twice
   * changes nothing, as for the others. `verify` folds the log in order instead of stream by stream.
   */
  readonly gathers?: Gathering<E>;
  /** The event types evolve() handles; others move the checkpoint and change nothing. */
  readonly handles: ReadonlySet<E['type']>;
  decode(recorded: RecordedEvent): E;
  keyOf(event: E): string;
  /**
   * For a projection whose views are not one per stream (a webhook delivery log's stream holds
   * many deliveries, and one event may touch several): the event split into one part per view it
   * touches, each folded into the view keyOf(part) names, and none touching a view twice. Without
   * it an event touches the one view keyOf names, its stream's.
   */
  parts?(event: E): readonly E[];
  /** The view after the event; `current` is null before the view's first event, and while none is kept (`keeps`). */
  evolve(current: V | null, event: E, context: EventContext<V, E>): V;
  /**
   * Whether the event is folded with its stream's history: the earlier events of its stream that
   * this projection handles, read back from the log (context.history), so that what they held
   * need not be kept in a view of its own (an order's currency, for its payment's day). `current`
   * as the batch left it. The history is read before evolve, one indexed read of the stream.
   */
  history?(event: E, current: V | null): boolean;
  /**
   * Whether a view is written: one that is not (an order's queue entry before its payment) is
   * never stored, and a later event of its stream finds none and folds its history instead
   * (`history`). A view once kept must stay kept. Without it, every view is written.
   */
  keeps?(view: V): boolean;
  /** What the event changed, for a projection that records its changes (compare `before` and `after`). */
  changes?(before: V | null, after: V, event: E, context: EventContext): C[];
  /**
   * Its views hold personal data opened (the customers': an email is looked up exactly, and
   * forgotten on erasure), so it reads the log through the seal; the others read it as stored.
   */
  readonly opensPersonalData?: boolean;
  /** What the read store keeps beside each view for the queries (read-side/read-store.ts). */
  readonly storage: StorageDeclaration<V>;
}

export interface Gathering<E> {
  /** The prefixes of the other streams it reads, beside streamPrefix's. */
  readonly alsoPrefixes?: readonly string[];
  /** The keys of its other views that the fold of `event` reads (context.view): an order's currency, for its payment's day. */
  readonly reads?: (event: E) => readonly string[];
}

/** What a view of a projection that gathers streams keeps beside its members (Projection.gathers). */
export interface GatheredView {
  readonly position: Position;
  /** How many events were folded into it: a commit keeps the view with the most. */
  readonly revision: number;
}

/** Every prefix of the streams a projection reads. */
export function streamPrefixesOf(projection: { readonly streamPrefix: string; readonly gathers?: { readonly alsoPrefixes?: readonly string[] } }): readonly string[] {
  return [projection.streamPrefix, ...(projection.gathers?.alsoPrefixes ?? [])];
}

/** A projection of any view, events and changes (what the projector and the wiring hold). */
export type AnyProjection<N extends string = string> = Projection<N, any, any, any>;

/** The view, events and changes of a projection. */
export type ViewOf<P> = P extends Projection<string, infer V, infer _E, infer _C> ? V : never;
export type EventOf<P> = P extends Projection<string, infer _V, infer E, infer _C> ? E : never;
export type ChangeOf<P> = P extends Projection<string, infer _V, infer _E, infer C> ? C : never;
