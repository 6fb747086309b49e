// The decider helper must fail a test whose decider does something else than it says.
import { describe, expect, it } from 'vitest';
import { OrderNotFound, StateConflict } from '../../write-side/kernel/errors.js';
import { orderDecider } from '../../write-side/orders/decider.js';
import type { OrderCommand, OrderEvent } from '../../write-side/orders/types.js';
import { givenDecider } from './decider.js';

const given = givenDecider(orderDecider);
const now = '2026-11-22T10:00:00.000Z';
const cancel: OrderCommand = { type: 'CancelOrder', data: { orderId: 'o', reason: 'no' }, metadata: { now, principal: 'p' } };
const place: OrderCommand = {
  type: 'PlaceOrder',
  data: { orderId: 'o', customerId: 'c', currency: 'EUR', lines: [{ sku: 'S', name: 'S', quantity: 1, unitPrice: 5 }], address: { name: 'A', line1: 'L', line2: null, city: 'C', postalCode: 'P', region: null, country: 'DE' } },
  metadata: { now, principal: 'p' },
};
const cancelled: OrderEvent = { type: 'OrderCancelled', schemaVersion: 1, data: { orderId: 'o', reason: 'no', cancelledAt: now } };

describe('givenDecider', () => {
  it('folds the given events before deciding', () => {
    given().when(cancel).thenFails(OrderNotFound, { orderId: 'o' });
    expect(() => given().when(cancel).then(cancelled)).toThrow();
  });

  it('fails `then` on other events, fewer or more of them', () => {
    expect(() => given().when(place).then()).toThrow();
    expect(() => given().when(place).then(cancelled)).toThrow();
    expect(() => given().when(place).thenMatches({ type: 'OrderPlaced' }, { type: 'OrderPlaced' })).toThrow();
    given().when(place).thenMatches({ type: 'OrderPlaced', data: { total: 5 } });
  });

  it('fails `thenFails` when the command succeeds, or fails another way', () => {
    expect(() => given().when(place).thenFails(StateConflict)).toThrow('expected the command to fail');
    expect(() => given().when(cancel).thenFails(StateConflict)).toThrow();
    expect(() => given().when(cancel).thenFails(OrderNotFound, { orderId: 'other' })).toThrow();
  });
});
