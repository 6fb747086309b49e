// Old history still replays: PaymentRecorded events stored at schema version 1 (before `method`
// existed) and OrderPlaced at version 1 (before lines had a `name`) are read through the upcaster
// everywhere an event is read.
import { describe, expect, it } from 'vitest';
import { fulfilmentQueue } from '../../projections/orders/fulfilment-queue.js';
import { orderViews } from '../../projections/orders/order-views.js';
import { rebuild, verify, type Difference } from '../../projections/rebuild.js';
import { decodeOrderEvent } from '../../write-side/orders/codec.js';
import { client, startService } from '../support/http.js';
import { receiveStock, TEST_SKUS } from '../support/seed.js';

const address = { name: 'Ada', line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' };
const meta = { schemaVersion: 1, principal: 'old-build', correlationId: 'c-old', causationId: null };

describe('event schema evolution', () => {
  it('reads version-1 placements and payments in history, point-in-time reads, commands, rebuilds and verify', async () => {
    const service = await startService();
    await receiveStock(service.events, TEST_SKUS);
    try {
      const orderId = '11111111-2222-4333-8444-555555555555';
      // As the build before PaymentRecorded v2 wrote them.
      await service.events.appendToStream(`order-${orderId}`, [
        { type: 'OrderPlaced', data: { orderId, customerId: 'cus_old', currency: 'EUR', lines: [{ sku: 'A', quantity: 1, unitPrice: 700, lineTotal: 700 }], total: 700, address, placedAt: '2026-01-01T00:00:00.000Z' }, metadata: meta },
        { type: 'PaymentRecorded', data: { orderId, paymentId: 'pay-old', amount: 700, reference: 'psp-old', recordedAt: '2026-01-01T00:01:00.000Z' }, metadata: meta },
      ], 'no_stream');

      const auditor = client(service, await service.token({ sub: 'auditor', scope: 'orders:read audit:read shipments:write' }));
      const history = await auditor('GET', `/orders/${orderId}/history`);
      expect(history.body.items[1]).toMatchObject({ type: 'PaymentRecorded', schemaVersion: 2, recordedSchemaVersion: 1, data: { method: 'unknown', amount: 700 } });
      expect(history.body.items[0]).toMatchObject({ type: 'OrderPlaced', schemaVersion: 2, recordedSchemaVersion: 1, data: { lines: [{ sku: 'A', name: null, unitPrice: 700 }] } });
      expect((await auditor('GET', `/orders/${orderId}?revision=1`)).body).toMatchObject({ status: 'paid', revision: 1, lines: [{ sku: 'A', name: null, quantity: 1, unitPrice: 700, lineTotal: 700 }] });

      // The write side folds the old event: a paid order can ship.
      const shipped = await auditor('POST', `/orders/${orderId}/shipments`, { body: { carrier: 'DHL', trackingNumber: 'T' }, headers: { 'Idempotency-Key': 'ship-old' } });
      expect(shipped.status).toBe(201);

      for (const projection of [orderViews, fulfilmentQueue as unknown as typeof orderViews]) {
        await rebuild(service.events, service.reads, projection);
        const differences: Difference[] = [];
        expect(await verify(service.events, service.reads, projection, (d) => differences.push(d))).toEqual({ checked: 1, differences: 0 });
      }
      expect((await service.reads.find('order-views', [orderId])).get(orderId)).toMatchObject({ status: 'shipped', revision: 2, lines: [{ sku: 'A', name: null }] });
    } finally {
      await service.stop();
    }
  });

  it('refuses an event from a newer build instead of misreading it', () => {
    expect(() => decodeOrderEvent({ type: 'PaymentRecorded', data: {}, metadata: { ...meta, schemaVersion: 3 } })).toThrow(/schema version 3/);
    expect(() => decodeOrderEvent({ type: 'PaymentRecorded', data: {}, metadata: { ...meta, schemaVersion: 0 } })).toThrow(/schema version 0/);
  });
});
