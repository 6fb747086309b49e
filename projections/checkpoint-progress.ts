// A projection's progress in a process that runs no projector (the `api` role): read from the
// read store's checkpoint, which the projector process writes.
import { CheckpointConsistency } from '../read-side/kernel/checkpoint-consistency.js';
import type { ReadModelStore } from '../read-side/read-store.js';
import type { EventStore } from '../write-side/kernel/event-store.js';
import type { AnyProjection } from './projection.js';
import { CHECKPOINT_EVERY_MS, statusAt, type ProjectionProgress } from './projector.js';

export function checkpointProgress(events: EventStore, readModels: ReadModelStore, projection: AnyProjection): ProjectionProgress & { stop(): void } {
  const consistency = new CheckpointConsistency(readModels, projection.name);
  consistency.start();
  return {
    get position() {
      return consistency.position;
    },
    waitFor: (position, timeoutMs, signal) => consistency.waitFor(position, timeoutMs, signal),
    status: async () => {
      const position = await consistency.refresh();
      // The projector process stores its checkpoint at each batch, and at least every
      // CHECKPOINT_EVERY_MS while its subscription moves past other streams' events: an event
      // younger than twice that past the stored checkpoint may be applied or passed already.
      const status = await statusAt(events, projection.name, position, false);
      return status.lagMs < 2 * CHECKPOINT_EVERY_MS ? { ...status, caughtUp: true } : status;
    },
    stop: () => consistency.stop(),
  };
}
