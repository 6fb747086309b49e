// The stock projection and the stock audit read a SKU stream that holds StockFellLow (stock.low):
// it changes no level, and the view's revision is the stream's, as GET /stock/{sku} answers it.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { auditStock } from '../../../projections/audit.js';
import { rebuild, verify } from '../../../projections/rebuild.js';
import { stockView } from '../../../projections/stock/stock.js';
import type { StockView } from '../../../read-side/stock/views.js';
import { serviceViewer } from '../../../write-side/kernel/access.js';
import type { RecordedEvent } from '../../../write-side/kernel/event-store.js';
import { encodeSequence } from '../../../write-side/kernel/position.js';
import { stockStream } from '../../../write-side/stock/codec.js';
import { StockService } from '../../../write-side/stock/service.js';
import { openEmbedded } from '../../support/event-stores.js';
import { openEmbeddedReadStore } from '../../support/read-stores.js';

const staff = serviceViewer('stock-projection-test');
const context = { principal: 'test', correlationId: 'c', causationId: null };

describe('the stock projection', () => {
  it('folds StockFellLow as no change of level, at its revision, and agrees with a fresh fold', async () => {
    const events = await openEmbedded();
    const reads = await openEmbeddedReadStore();
    try {
      const sku = `LOW-${randomUUID().slice(0, 8)}`;
      const stock = new StockService(events.store, { thresholds: { lowStockThreshold: async () => 5 } });
      await stock.adjust(staff, sku, { delta: 10, reason: 'received', note: null }, { correlationId: 'c', idempotency: { key: randomUUID(), fingerprint: 'f' } });
      await stock.reserve(randomUUID(), [{ sku, quantity: 7 }], context);
      expect((await events.store.readStream(stockStream(sku))).map((e) => e.type)).toEqual(['StockAdjusted', 'StockReserved', 'StockFellLow']);

      await rebuild(events.store, reads.store, stockView);
      const view = (await reads.store.views<StockView>('stock', await reads.store.activeGeneration('stock')).load([sku])).get(sku);
      const { revision, updatedAt, ...levels } = (await stock.get(staff, sku))!;
      expect(view).toMatchObject({ ...levels, stockUpdatedAt: updatedAt, stockRevision: revision });
      expect(view).toMatchObject({ onHand: 10, reserved: 7, available: 3, stockRevision: 2 });
      expect(await verify(events.store, reads.store, stockView, () => {})).toMatchObject({ differences: 0 });
    } finally {
      await reads.dispose();
      await events.dispose();
    }
  });
});

describe('the stock audit', () => {
  const at = '2027-01-02T10:00:00.000Z';
  const meta = { schemaVersion: 1, principal: 'p', correlationId: 'c', causationId: null };
  const event = (revision: number, type: string, data: Record<string, unknown>): RecordedEvent => ({
    streamName: 'stock-S', revision, position: encodeSequence(revision + 1), type, recordedAt: new Date(at), data: { sku: 'S', ...data } as never, metadata: meta,
  });
  const history = (fell: Record<string, unknown>) =>
    new Map([['S', [
      event(0, 'StockAdjusted', { adjustmentId: 'a', delta: 10, reason: 'received', note: null, onHand: 10, reserved: 0, adjustedAt: at }),
      event(1, 'StockAdjusted', { adjustmentId: 'b', delta: -7, reason: 'count', note: null, onHand: 3, reserved: 0, adjustedAt: at }),
      event(2, 'StockFellLow', { at, ...fell }),
    ]]]);

  it('finds nothing in a StockFellLow that records the levels it fell to', () => {
    expect(auditStock(history({ onHand: 3, reserved: 0, available: 3, threshold: 5 }), new Map(), new Date(at))).toEqual([]);
  });

  it('reports one whose levels are not the fold\'s, or whose available is not below its threshold', () => {
    for (const wrong of [{ available: 4, threshold: 5 }, { onHand: 4, threshold: 5 }, { reserved: 1, threshold: 5 }, { threshold: 3 }]) {
      const findings = auditStock(history({ onHand: 3, reserved: 0, available: 3, ...wrong }), new Map(), new Date(at));
      expect(findings.map((f) => f.rule), JSON.stringify(wrong)).toEqual(['stock.low records its levels']);
    }
  });
});
