// The stock reconciler's passes held back while its process's projections catch up (mayRun).
import { describe, expect, it, vi } from 'vitest';
import type { ReadModelStore } from '../../read-side/read-store.js';
import type { EventStore } from '../../write-side/kernel/event-store.js';
import type { OrderService } from '../../write-side/orders/service.js';
import type { Reservations } from '../../write-side/stock/service.js';
import { StockReconciler } from '../../workers/stock-reconciler.js';

/** Stand-ins that only count the reads a pass makes: a pass begins by reading its checkpoint. */
function counting() {
  const reads = { checkpoints: 0 };
  const readModels = { processCheckpoint: async () => (reads.checkpoints++, null), saveProcessCheckpoint: async () => {} } as unknown as ReadModelStore;
  const events = { readAll: async () => [] } as unknown as EventStore;
  return { reads, readModels, events };
}

describe('the stock reconciler, held back', () => {
  it('runs no pass while it may not, and its passes once it may', async () => {
    const { reads, readModels, events } = counting();
    let may = false;
    let asked = 0;
    const reconciler = new StockReconciler(events, readModels, {} as OrderService, {} as Reservations, {
      orphanAfterMs: 0,
      intervalMs: 5,
      mayRun: async () => (asked++, may),
    });
    reconciler.start();
    try {
      // Each wait ends as soon as it holds; 60 s (was 10) only bounds one that never does, on however loaded a machine.
      await vi.waitFor(() => expect(asked).toBeGreaterThanOrEqual(3), { timeout: 60_000, interval: 5 });
      expect(reads.checkpoints).toBe(0);
      may = true;
      await vi.waitFor(() => expect(reads.checkpoints).toBeGreaterThan(0), { timeout: 60_000, interval: 5 });
    } finally {
      await reconciler.stop();
    }
  });
});
