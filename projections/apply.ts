// Applies a batch of recorded events to one generation of a projection's views: load the views
// the batch touches, fold the events in, write the changed views and the checkpoint together.
import type { Change, KeyedChange, ViewStore } from '../read-side/read-store.js';
import type { Position, RecordedEvent } from '../write-side/kernel/event-store.js';
import { comparePositions } from '../write-side/kernel/position.js';
import type { EventContext, GatheredView, Projection } from './projection.js';

export async function applyBatch<V extends { readonly revision: number }, E extends { readonly type: string }, C extends Change>(
  projection: Projection<string, V, E, C>,
  views: ViewStore<V, C>,
  batch: readonly RecordedEvent[],
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
  for (const { recorded, event, key } of decoded) {
    const view = current.get(key) ?? null;
    // Already included: a replay after a crash, or an event delivered twice.
    if (folded(projection, view, recorded)) continue;
    const next = projection.evolve(view, event, contextOf(projection, recorded, lookup));
    if (projection.changes) for (const change of projection.changes(view, next, event, recorded)) changes.push({ key, change });
    current.set(key, next);
    changed.set(key, next);
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

/** What evolve is told of the event: its place in the log, and in a projection that gathers streams, its other views. */
export function contextOf<V>(projection: Pick<Projection, 'gathers'>, recorded: RecordedEvent, view: (key: string) => V | null): EventContext<V> {
  return projection.gathers?.reads ? { revision: recorded.revision, position: recorded.position, recordedAt: recorded.recordedAt, view } : recorded;
}
