// Applies a batch of recorded events to one generation of a projection's views: load the views
// the batch touches, fold the events in, write the changed views and the checkpoint together.
import type { Change, KeyedChange, ViewStore } from '../read-side/read-store.js';
import type { EventStore, Position, RecordedEvent } from '../write-side/kernel/event-store.js';
import { comparePositions } from '../write-side/kernel/position.js';
import type { EventContext, GatheredView, HistoricEvent, Projection } from './projection.js';

/** The events of a stream before a revision, oldest first (Projection.history). */
export type HistoryReader = (stream: string, before: number) => Promise<readonly RecordedEvent[]>;

/** A stream's history as the event store holds it: the projection's own store (sealed or opened alike). */
export const historyFrom =
  (events: Pick<EventStore, 'readStream'>): HistoryReader =>
  (stream, before) =>
    before === 0 ? Promise.resolve([]) : events.readStream(stream, { toRevision: before - 1 });

export async function applyBatch<V extends { readonly revision: number }, E extends { readonly type: string }, C extends Change>(
  projection: Projection<string, V, E, C>,
  views: ViewStore<V, C>,
  batch: readonly RecordedEvent[],
  history: HistoryReader,
): Promise<Position | null> {
  const last = batch.at(-1);
  if (!last) return null;
  const decoded = batch
    .filter((recorded) => projection.handles.has(recorded.type as E['type']))
    .flatMap((recorded) => {
      const event = projection.decode(recorded);
      return (projection.parts ? projection.parts(event) : [event]).map((part) => ({ recorded, event: part, key: '' }));
    });
  // A stream that begins inside this batch is folded here from its first event, so its stored
  // view (if this is a replay) cannot add anything, and commit() keeps it if it is newer. A view
  // that gathers streams may hold any stream's events: it is always read, as are the views its folds read.
  const toLoad = new Set<string>();
  const seen = new Set<string>();
  for (const item of decoded) {
    item.key = projection.keyOf(item.event);
    if (projection.gathers) {
      toLoad.add(item.key);
      for (const key of projection.gathers.reads?.(item.event) ?? []) toLoad.add(key);
    } else if (!seen.has(item.key)) {
      seen.add(item.key);
      if (item.recorded.revision > 0) toLoad.add(item.key);
    }
  }
  const current = toLoad.size > 0 ? await views.load([...toLoad]) : new Map<string, V & { revision: number }>();
  // As stored: commit() is told, so that it rewrites only the fields that changed.
  const stored = new Map(current);
  const changed = new Map<string, V>();
  const changes: KeyedChange<C>[] = [];
  const lookup = (key: string): V | null => current.get(key) ?? null;
  let inBatch: ReadonlyMap<string, readonly RecordedEvent[]> | null = null;
  for (const { recorded, event, key } of decoded) {
    const view = current.get(key) ?? null;
    // Already included: a replay after a crash, or an event delivered twice.
    if (folded(projection, view, recorded)) continue;
    const earlier = projection.history?.(event, view) ? historyOf(projection, await historyIn((inBatch ??= byStream(batch)), recorded, history)) : undefined;
    const next = projection.evolve(view, event, contextOf(projection, recorded, lookup, earlier));
    if (projection.changes) for (const change of projection.changes(view, next, event, recorded)) changes.push({ key, change });
    current.set(key, next);
    // A view not kept is folded again from its stream's history by the next event that finds none.
    if (kept(projection, next)) changed.set(key, next);
    else if (stored.has(key) || changed.has(key)) throw new TypeError(`projection ${projection.name}: view ${key} was kept, and a kept view is never dropped`);
  }
  await views.commit(
    [...changed].map(([key, view]) => {
      const was = stored.get(key);
      return was === undefined ? { key, view } : { key, view, was };
    }),
    last.position,
    changes,
  );
  return last.position;
}

/**
 * Whether the view holds the event already: one of its stream at or before the view's revision,
 * or, in a projection that gathers streams, one at or before the last position folded into it.
 */
export function folded<V extends { readonly revision: number }>(projection: Pick<Projection, 'gathers'>, view: V | null, recorded: RecordedEvent): boolean {
  if (view === null) return false;
  if (projection.gathers) return comparePositions(recorded.position, (view as unknown as GatheredView).position) <= 0;
  return recorded.revision <= view.revision;
}

/**
 * What evolve is told of the event: its place in the log, in a projection that gathers streams its
 * other views, and the earlier events of its stream when the projection folds it with them.
 */
export function contextOf<V, E>(
  projection: Pick<Projection, 'gathers'>,
  recorded: RecordedEvent,
  view: (key: string) => V | null,
  history?: readonly HistoricEvent<E>[],
): EventContext<V, E> {
  if (!projection.gathers?.reads && !history) return recorded;
  return { revision: recorded.revision, position: recorded.position, recordedAt: recorded.recordedAt, ...(projection.gathers?.reads ? { view } : {}), ...(history ? { history } : {}) };
}

/** A stream's earlier events as the projection reads them: those it handles, decoded, oldest first. */
export function historyOf<E extends { readonly type: string }>(projection: Pick<Projection<string, unknown, E>, 'handles' | 'decode'>, recorded: readonly RecordedEvent[]): HistoricEvent<E>[] {
  return recorded.filter((r) => projection.handles.has(r.type as E['type'])).map((r) => ({ event: projection.decode(r), recorded: r }));
}

/** A batch's events by stream, each stream's in order. */
function byStream(batch: readonly RecordedEvent[]): Map<string, RecordedEvent[]> {
  const streams = new Map<string, RecordedEvent[]>();
  for (const recorded of batch) {
    const events = streams.get(recorded.streamName);
    if (events) events.push(recorded);
    else streams.set(recorded.streamName, [recorded]);
  }
  return streams;
}

/**
 * The events of `recorded`'s stream before it. A batch is a stretch of the log (of the projection's
 * streams): when it holds the stream's first event, it holds every one up to `recorded`, and
 * nothing is read back (a payment whose order was placed in the same batch, as in most of a
 * rebuild's). Otherwise they are read from the log.
 */
function historyIn(inBatch: ReadonlyMap<string, readonly RecordedEvent[]>, recorded: RecordedEvent, read: HistoryReader): Promise<readonly RecordedEvent[]> | readonly RecordedEvent[] {
  const stream = inBatch.get(recorded.streamName);
  if (!stream || stream[0]!.revision !== 0) return read(recorded.streamName, recorded.revision);
  return stream.filter((r) => r.revision < recorded.revision);
}

/** Whether the projection writes this view (Projection.keeps). */
export function kept<V>(projection: Pick<Projection<string, V>, 'keeps'>, view: V): boolean {
  return projection.keeps ? projection.keeps(view) : true;
}
