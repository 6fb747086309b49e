// The one rule of how each API version reads an order's status.
import { describe, expect, it } from 'vitest';
import { CURRENT_API_VERSION, DEPRECATED_API_VERSION, PREVIOUS_API_VERSION, knowsPartialShipments as apiKnows } from '../../../api/versions.js';
import { knowsPartialShipments, legacyStatus, orderJsonFor, statusFor, statusKnownTo } from '../../../read-side/orders/status.js';
import { order } from '../read-store.contract.js';

describe('an order status per API version', () => {
  it('reads partially_shipped as paid before 2027-01-01, and every other status as it is', () => {
    expect([CURRENT_API_VERSION, PREVIOUS_API_VERSION, DEPRECATED_API_VERSION].map(knowsPartialShipments)).toEqual([true, false, false]);
    expect(apiKnows).toBe(knowsPartialShipments);
    for (const status of ['pending', 'paid', 'shipped', 'cancelled'] as const) {
      for (const version of [CURRENT_API_VERSION, PREVIOUS_API_VERSION, DEPRECATED_API_VERSION]) expect(statusFor(status, version)).toBe(status);
      expect(legacyStatus(status)).toBe(status);
    }
    expect(statusFor('partially_shipped', CURRENT_API_VERSION)).toBe('partially_shipped');
    expect(statusFor('partially_shipped', PREVIOUS_API_VERSION)).toBe('paid');
    expect(statusFor('partially_shipped', DEPRECATED_API_VERSION)).toBe('paid');
    expect(legacyStatus('partially_shipped')).toBe('paid');
    expect(statusKnownTo('partially_shipped', PREVIOUS_API_VERSION)).toBe(false);
    expect(statusKnownTo('paid', PREVIOUS_API_VERSION)).toBe(true);
  });

  it("rewrites a stored view's JSON text for the versions before, and only its own status member", () => {
    // A line name that spells the member out (escaped, as JSON holds it) is left alone.
    const view = order(1, { status: 'partially_shipped', lines: [{ ...order(1).lines[0]!, name: '"status":"partially_shipped"' }] });
    const row = { id: view.id, createdAt: view.createdAt, total: view.total, json: JSON.stringify(view) };
    expect(JSON.parse(orderJsonFor(row, PREVIOUS_API_VERSION).json)).toEqual({ ...view, status: 'paid' });
    expect(orderJsonFor(row, CURRENT_API_VERSION)).toBe(row);
    const paid = { ...row, json: JSON.stringify(order(1, { status: 'paid' })) };
    expect(orderJsonFor(paid, DEPRECATED_API_VERSION)).toBe(paid);
  });
});
