// A stop while the projections catch up, and the start after it: the service stops cleanly,
// nothing says "database is locked", and the next start reads on from where the stop left off.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteReadStore } from '../../read-side/adapters/sqlite-read-store.js';
import { PROJECTION_NAMES, READ_STORAGE } from '../../projections/registry.js';
import type { Position } from '../../write-side/kernel/event-store.js';
import { SqliteEventStore } from '../../write-side/adapters/sqlite-event-store.js';
import { comparePositions } from '../../write-side/kernel/position.js';
import { encodeOrderEvent, orderStream } from '../../write-side/orders/codec.js';
import { tempDir } from '../support/event-stores.js';
import { address } from '../support/seed.js';
import { startServiceProcess } from '../support/service-process.js';

/** Many orders (every second one paid), written straight into the log in large commits: a store with some history. */
async function writeOrders(events: SqliteEventStore, count: number): Promise<void> {
  const meta = { principal: 'test', correlationId: 'restart', causationId: null };
  const placedAt = new Date().toISOString();
  for (let base = 0; base < count; base += 5000) {
    await Promise.all(
      Array.from({ length: Math.min(5000, count - base) }, (_, k) => {
        const orderId = randomUUID();
        const lines = [{ sku: 'SKU-1', name: 'Blue mug', quantity: 1, unitPrice: 1999, lineTotal: 1999 }];
        const recorded = [encodeOrderEvent({ type: 'OrderPlaced', schemaVersion: 2, data: { orderId, customerId: 'cus_1', currency: 'EUR', lines, total: 1999, address, placedAt } }, meta)];
        if ((base + k) % 2 === 0) {
          recorded.push(encodeOrderEvent({ type: 'PaymentRecorded', schemaVersion: 2, data: { orderId, paymentId: randomUUID(), amount: 1999, reference: 'psp', method: 'card', recordedAt: placedAt } }, meta));
        }
        return events.appendToStream(orderStream(orderId), recorded, 'no_stream');
      }),
    );
  }
}

/** Each projection's checkpoint, in its active generation. */
async function checkpoints(dir: string): Promise<Array<Position | null>> {
  const reads = new SqliteReadStore(join(dir, 'read-models.sqlite3'), READ_STORAGE);
  try {
    return await Promise.all(PROJECTION_NAMES.map(async (name) => reads.views(name, await reads.activeGeneration(name)).checkpoint()));
  } finally {
    await reads.close();
  }
}

const env = (dir: string) => ({ DATA_DIR: dir, AUTH_JWT_SECRET: 'test-secret-that-is-at-least-32-bytes-long!!' });

describe('a restart while the projections catch up', () => {
  it('stops cleanly mid catch-up with no lock error, and the next start catches up from the stored checkpoint', async () => {
    const dir = tempDir('restart-');
    try {
      const events = new SqliteEventStore({ file: join(dir.path, 'events.sqlite3'), synchronous: 'normal' });
      await writeOrders(events, 60_000);
      const head = (await events.headPosition())!;
      await events.close();

      const first = startServiceProcess(env(dir.path));
      const firstPort = await first.port;
      // While the tens of thousands of events are being applied.
      const catchingUp = await fetch(`http://127.0.0.1:${firstPort}/health/ready`);
      expect(catchingUp.status).toBe(503);
      expect(await catchingUp.text()).toMatch(/catching up/);
      expect(await first.stop()).toBe(0);
      expect(first.output()).not.toMatch(/database is locked/);
      // Stopped before the end, some projection at least: what this test is about.
      expect((await checkpoints(dir.path)).some((checkpoint) => checkpoint === null || comparePositions(checkpoint, head) < 0)).toBe(true);

      const second = startServiceProcess(env(dir.path));
      try {
        const port = await second.port;
        // Generous: a few thousand events on a loaded 2-core machine; readiness says when, not the clock.
        let ready = 0;
        for (let i = 0; i < 600 && ready !== 200; i++) {
          ready = (await fetch(`http://127.0.0.1:${port}/health/ready`)).status;
          if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(ready).toBe(200);
      } finally {
        expect(await second.stop()).toBe(0);
      }
      expect(second.output()).not.toMatch(/database is locked/);
      // Every projection's checkpoint at the head: each read its streams, and moved past the others'.
      expect(await checkpoints(dir.path)).toEqual(PROJECTION_NAMES.map(() => head));
    } finally {
      dir.remove();
    }
  }, 120_000);
});
