// Applies a batch of recorded events to one generation of a projection's views: load the views
// the batch touches, fold the events in, write the changed views and the checkpoint together.
import type { Change, KeyedChange, ViewStore } from '../read-side/read-store.js';
import type { Position, RecordedEvent } from '../write-side/kernel/event-store.js';
import type { Projection } from './projection.js';

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
  // view (if this is a replay) cannot add anything, and commit() keeps it if it is newer.
  const toLoad = new Set<string>();
  const seen = new Set<string>();
  for (const item of decoded) {
    item.key = projection.keyOf(item.event);
    if (!seen.has(item.key)) {
      seen.add(item.key);
      if (item.recorded.revision > 0) toLoad.add(item.key);
    }
  }
  const current = toLoad.size > 0 ? await views.load([...toLoad]) : new Map<string, V & { revision: number }>();
  const changed = new Map<string, V>();
  const changes: KeyedChange<C>[] = [];
  for (const { recorded, event, key } of decoded) {
    const view = current.get(key) ?? null;
    // Already included: a replay after a crash, or an event delivered twice.
    if (view && recorded.revision <= view.revision) continue;
    const next = projection.evolve(view, event, recorded);
    if (projection.changes) for (const change of projection.changes(view, next, event, recorded)) changes.push({ key, change });
    current.set(key, next);
    changed.set(key, next);
  }
  await views.commit([...changed].map(([key, view]) => ({ key, view })), last.position, changes);
  return last.position;
}
