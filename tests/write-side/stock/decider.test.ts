// The stock decider: given past events, when a command, then events or an error.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdempotencyKeyReused, InsufficientStock } from '../../../write-side/kernel/errors.js';
import { evolveStock, initialStock, liveReservations, reservationOf, stockDecider } from '../../../write-side/stock/decider.js';
import type { StockCommand, StockEvent } from '../../../write-side/stock/types.js';
import { givenDecider } from '../../support/decider.js';

const given = givenDecider(stockDecider);
const now = '2026-11-22T10:00:00.000Z';
const meta = { now };
const received = (delta: number): StockEvent => ({
  type: 'StockAdjusted', schemaVersion: 1, data: { sku: 'S', adjustmentId: `a-${delta}`, delta, reason: 'received', note: null, onHand: delta, reserved: 0, adjustedAt: now },
});
const reserved = (orderId: string, quantity: number): StockEvent => ({ type: 'StockReserved', schemaVersion: 1, data: { sku: 'S', orderId, quantity, reservedAt: now } });
const reserve = (orderId: string, quantity: number): StockCommand => ({ type: 'ReserveStock', data: { sku: 'S', orderId, quantity }, metadata: meta });
const release = (orderId: string): StockCommand => ({ type: 'ReleaseReservation', data: { sku: 'S', orderId, reason: 'order-cancelled' }, metadata: meta });
const commit = (orderId: string): StockCommand => ({ type: 'SettleReservation', data: { sku: 'S', orderId, reserved: 0, shipped: Number.MAX_SAFE_INTEGER, reason: 'order-cancelled', orderRevision: 0, raise: false }, metadata: meta });
const adjust = (delta: number): StockCommand => ({ type: 'AdjustStock', data: { sku: 'S', adjustmentId: 'adj', delta, reason: 'damaged', note: null }, metadata: meta });

describe('the stock decider', () => {
  it('reserves what is available', () => given(received(5)).when(reserve('o1', 5)).then(reserved('o1', 5)));
  it('refuses a reservation beyond what is available, saying what is', () =>
    given(received(5), reserved('o1', 4)).when(reserve('o2', 2)).thenFails(InsufficientStock, { errors: [expect.objectContaining({ available: 1 })] }));
  it('reserves once per order: the same reservation again changes nothing', () => given(received(5), reserved('o1', 2)).when(reserve('o1', 2)).then());
  it('refuses another quantity for an order that holds a reservation (another request under its key)', () =>
    given(received(5), reserved('o1', 2)).when(reserve('o1', 3)).thenFails(IdempotencyKeyReused));
  it('releases what the order holds, once', () => {
    given(received(5), reserved('o1', 2)).when(release('o1')).thenMatches({ type: 'ReservationReleased', data: { orderId: 'o1', quantity: 2 } });
    given(received(5), reserved('o1', 2), { type: 'ReservationReleased', schemaVersion: 1, data: { sku: 'S', orderId: 'o1', quantity: 2, reason: 'order-cancelled', releasedAt: now } })
      .when(release('o1'))
      .then();
  });
  it('commits what the order holds; nothing for an order without a reservation', () => {
    given(received(5), reserved('o1', 2)).when(commit('o1')).thenMatches({ type: 'ReservationCommitted', data: { quantity: 2 } });
    given(received(5)).when(commit('o1')).then();
  });
  it('refuses an adjustment that takes on hand below what is reserved', () =>
    given(received(5), reserved('o1', 4)).when(adjust(-2)).thenFails(InsufficientStock, { errors: [expect.objectContaining({ pointer: '/delta', available: 1 })] }));
  it('records the levels after an adjustment', () => given(received(5), reserved('o1', 4)).when(adjust(-1)).thenMatches({ data: { delta: -1, onHand: 4, reserved: 4 } }));

  it('keeps every earlier state valid while folding many reservations', () => {
    let state = evolveStock(initialStock('S'), received(1000));
    const states = [state];
    for (let i = 0; i < 300; i++) states.push((state = evolveStock(state, reserved(`o${i}`, 1))));
    expect(state.reserved).toBe(300);
    expect(state.live.size).toBe(300);
    expect(reservationOf(states[10]!.live, 'o9')).toBe(1);
    expect(reservationOf(states[10]!.live, 'o10')).toBeUndefined();
    expect(reservationOf(state.live, 'o299')).toBe(1);
  });

  it('holds, in every state of any fold, exactly the live reservations a plain map would, and the sum of them reserved', () => {
    const step = fc.record({ kind: fc.constantFrom('reserve', 'release', 'commit'), order: fc.integer({ min: 0, max: 40 }), quantity: fc.integer({ min: 1, max: 3 }) });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 400 }), (steps) => {
        let state = evolveStock(initialStock('S'), received(10_000));
        const model = new Map<string, number>();
        const states: Array<{ state: typeof state; expected: Map<string, number> }> = [];
        for (const { kind, order, quantity } of steps) {
          const orderId = `o${order}`;
          const held = model.get(orderId);
          const event: StockEvent | null =
            kind === 'reserve' ? (held === undefined ? reserved(orderId, quantity) : null)
            : held === undefined ? null
            : kind === 'release' ? { type: 'ReservationReleased', schemaVersion: 1, data: { sku: 'S', orderId, quantity: held, reason: 'order-cancelled', releasedAt: now } }
            : { type: 'ReservationCommitted', schemaVersion: 1, data: { sku: 'S', orderId, quantity: held, committedAt: now } };
          if (!event) continue;
          state = evolveStock(state, event);
          if (kind === 'reserve') model.set(orderId, quantity);
          else model.delete(orderId);
          states.push({ state, expected: new Map(model) });
        }
        // Checked once the fold is over: a later evolve changed no earlier state.
        for (const { state: s, expected } of states) {
          expect(liveReservations(s.live)).toEqual(expected);
          expect(s.live.size).toBe(expected.size);
          expect(s.reserved).toBe([...expected.values()].reduce((a, b) => a + b, 0));
          for (let o = 0; o <= 40; o++) expect(reservationOf(s.live, `o${o}`)).toBe(expected.get(`o${o}`));
        }
      }),
      { numRuns: 200 },
    );
  });
});
