// The `all` role runs the stock reconciler and the payment timeout in its workers' thread (beside
// the webhook deliveries, WEBHOOK_THREAD, on by default), not on the thread that serves the requests.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Services } from '../../bootstrap/services.js';
import { serviceViewer } from '../../write-side/kernel/access.js';
import { keyId } from '../../write-side/kernel/idempotency.js';
import { orderStream } from '../../write-side/orders/codec.js';
import { servicesInTempDirs } from '../support/services.js';
import { until } from '../support/until.js';

// A reservation counts as orphaned half a second after it was made, and the reconciler looks every 100 ms.
const start = servicesInTempDirs('workers-thread-', { exportWorker: false, stockWorkers: { orphanAfterMs: 500, intervalMs: 100 } });

const staff = serviceViewer('staff');

/** A reservation whose order is never placed: what a process that died between the two appends leaves. */
async function orphanedReservation(services: Services): Promise<{ sku: string; orderId: string }> {
  const sku = `W-${randomUUID()}`;
  await services.products.put(staff, sku, { name: 'Lamp', description: null, prices: { EUR: 1999 }, status: 'active' }, { correlationId: 'c' });
  await services.stock.adjust(staff, sku, { delta: 5, reason: 'received', note: null }, { correlationId: 'c', idempotency: { key: randomUUID(), fingerprint: 'f' } });
  const orderId = keyId('user-1', randomUUID());
  await services.stock.reserve(orderId, [{ sku, quantity: 2 }], { principal: 'user-1', correlationId: 'c', causationId: null });
  expect(await services.stock.get(staff, sku)).toMatchObject({ reserved: 2 });
  return { sku, orderId };
}

describe('the workers’ thread of the all role', () => {
  it('runs the stock reconciler: this thread runs none, and an orphaned reservation is released all the same', async () => {
    const services = await start();
    expect(services.reconciler).toBeNull();
    const { sku, orderId } = await orphanedReservation(services);
    // Released by the other thread, which this one learns from the store (polled; the test's timeout bounds it).
    expect(await until(() => services.stock.get(staff, sku), (levels) => levels?.reserved === 0)).toMatchObject({ reserved: 0, available: 5 });
    expect((await services.eventStore.readStream(orderStream(orderId))).map((event) => event.type)).toEqual(['OrderPlacementAbandoned']);
  });

  it('is not there with WEBHOOK_THREAD=false: the stock reconciler runs on the thread that serves the requests', async () => {
    const services = await start({ WEBHOOK_THREAD: 'false' });
    expect(services.reconciler).not.toBeNull();
    const { sku } = await orphanedReservation(services);
    expect(await until(() => services.stock.get(staff, sku), (levels) => levels?.reserved === 0)).toMatchObject({ reserved: 0, available: 5 });
  });
});
