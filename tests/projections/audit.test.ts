import { describe, expect, it } from 'vitest';
import { auditStream, replay } from '../../projections/audit.js';
import type { RecordedEvent } from '../../write-side/kernel/event-store.js';
import { encodePosition } from '../../write-side/kernel/position.js';

const address = { name: 'A', line1: 'B', line2: null, city: 'C', postalCode: '1', region: null, country: 'DE' };
const at = '2026-01-01T00:00:00.000Z';
let revision = 0;
const recorded = (type: string, data: Record<string, unknown>, schemaVersion = 1): RecordedEvent => ({
  streamName: 'order-x', revision: revision, position: encodePosition(BigInt(++revision)), type, recordedAt: new Date(at),
  data: { orderId: 'x', ...data } as never, metadata: { schemaVersion, principal: 'p', correlationId: 'c', causationId: null },
});
const placed = (total = 10, lineTotal = 10) => recorded('OrderPlaced', { customerId: 'c', currency: 'EUR', lines: [{ sku: 'S', quantity: 2, unitPrice: 5, lineTotal }], total, address, placedAt: at });
const paid = (amount = 10) => recorded('PaymentRecorded', { paymentId: 'p', amount, reference: 'r', method: 'card', recordedAt: at }, 2);
const shipped = () => recorded('ShipmentCreated', { shipmentId: 's', carrier: 'DHL', trackingNumber: 'T', createdAt: at });
const moved = () => recorded('OrderAddressChanged', { address: { ...address, city: 'D' }, changedAt: at });
const rules = (events: RecordedEvent[]) => auditStream('order-x', events).map((f) => f.rule);

describe('audit of an order stream', () => {
  it('finds nothing in a history that kept the rules', () => {
    revision = 0;
    expect(auditStream('order-x', [placed(), moved(), paid(), shipped()])).toEqual([]);
  });

  it('finds an address change after the shipment, a shipment of a shipped order and a second payment', () => {
    revision = 0;
    expect(rules([placed(), paid(), shipped(), moved(), shipped()])).toEqual(['nothing after the end', 'nothing after the end']);
    revision = 0;
    expect(rules([placed(), paid(), paid()])).toEqual(['paid once']);
  });

  it('finds totals that do not add up and payments of another amount', () => {
    revision = 0;
    expect(rules([placed(11, 10), paid(11)])).toEqual(['totals']);
    revision = 0;
    expect(rules([placed(10, 9)])).toEqual(['totals', 'totals']);
    revision = 0;
    expect(rules([placed(), paid(9)])).toEqual(['payment equals total']);
  });

  it('finds a shipment before payment and events before the order', () => {
    revision = 0;
    expect(rules([placed(), shipped()])).toEqual(['shipped after payment']);
    revision = 0;
    expect(rules([paid()])).toEqual(['placed first']);
  });

  it('replays the state after each event', () => {
    revision = 0;
    expect(replay([placed(), paid(), shipped()]).map((s) => s.state.status)).toEqual(['pending', 'paid', 'shipped']);
  });
});
