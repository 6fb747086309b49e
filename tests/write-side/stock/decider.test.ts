// The stock decider: given past events, when a command, then events or an error.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdempotencyKeyReused, InsufficientStock } from '../../../write-side/kernel/errors.js';
import { available, evolveStock, initialStock, liveReservations, reservationOf, stockDecider } from '../../../write-side/stock/decider.js';
import type { StockCommand, StockEvent } from '../../../write-side/stock/types.js';
import { givenDecider } from '../../support/decider.js';

const given = givenDecider(stockDecider);
const now = '2026-11-22T10:00:00.000Z';
const meta = { now };
const received = (delta: number): StockEvent => ({
  type: 'StockAdjusted', schemaVersion: 1, data: { sku: 'S', adjustmentId: `a-${delta}`, delta, reason: 'received', note: null, onHand: delta, reserved: 0, adjustedAt: now },
});
const reserved = (orderId: string, quantity: number): StockEvent => ({ type: 'StockReserved', schemaVersion: 1, data: { sku: 'S', orderId, quantity, reservedAt: now } });
const reserve = (orderId: string, quantity: number, lowStockThreshold = 0): StockCommand => ({ type: 'ReserveStock', data: { sku: 'S', orderId, quantity, lowStockThreshold }, metadata: meta });
const release = (orderId: string): StockCommand => ({ type: 'ReleaseReservation', data: { sku: 'S', orderId, reason: 'order-cancelled' }, metadata: meta });
const commit = (orderId: string, lowStockThreshold = 0): StockCommand => ({
  type: 'SettleReservation', data: { sku: 'S', orderId, reserved: 0, shipped: Number.MAX_SAFE_INTEGER, reason: 'order-cancelled', orderRevision: 0, raise: false, lowStockThreshold }, metadata: meta,
});
const adjust = (delta: number, lowStockThreshold = 0): StockCommand => ({ type: 'AdjustStock', data: { sku: 'S', adjustmentId: 'adj', delta, reason: 'damaged', note: null, lowStockThreshold }, metadata: meta });
/** Available `available` below `threshold`, with `onHand` on hand (the rest reserved). */
const fellLow = (available: number, threshold: number, onHand = 10): StockEvent => ({
  type: 'StockFellLow', schemaVersion: 1, data: { sku: 'S', onHand, reserved: onHand - available, available, threshold, at: now },
});

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

describe('settling an order’s reservation to what the order says', () => {
  type Target = { reserved: number; shipped: number; orderRevision: number; raise?: boolean; force?: boolean; lowStockThreshold?: number };
  const settle = ({ reserved, shipped, orderRevision, raise = false, force, lowStockThreshold = 0 }: Target): StockCommand => ({
    type: 'SettleReservation', data: { sku: 'S', orderId: 'o1', reserved, shipped, reason: 'order-edited', orderRevision, raise, ...(force ? { force } : {}), lowStockThreshold }, metadata: meta,
  });
  const raised = (quantity: number, orderRevision: number): StockEvent => ({ type: 'StockReserved', schemaVersion: 1, data: { sku: 'S', orderId: 'o1', quantity, reservedAt: now, orderRevision } });
  const committed = (quantity: number, orderRevision: number): StockEvent => ({ type: 'ReservationCommitted', schemaVersion: 1, data: { sku: 'S', orderId: 'o1', quantity, committedAt: now, orderRevision } });
  const released = (quantity: number, orderRevision: number): StockEvent => ({ type: 'ReservationReleased', schemaVersion: 1, data: { sku: 'S', orderId: 'o1', quantity, reason: 'order-edited', releasedAt: now, orderRevision } });
  const state = (...events: StockEvent[]) => events.reduce(evolveStock, initialStock('S'));

  it('commits what the order shipped and keeps the rest reserved', () => {
    given(received(5), reserved('o1', 3)).when(settle({ reserved: 2, shipped: 1, orderRevision: 2 })).then(committed(1, 2));
    expect(state(received(5), reserved('o1', 3), committed(1, 2))).toMatchObject({ onHand: 4, reserved: 2 });
  });

  it('commits only what shipped beyond what was committed before', () => {
    given(received(5), reserved('o1', 3), committed(1, 2)).when(settle({ reserved: 0, shipped: 3, orderRevision: 3 })).then(committed(2, 3));
    const done = state(received(5), reserved('o1', 3), committed(1, 2), committed(2, 3));
    expect(done).toMatchObject({ onHand: 2, reserved: 0 });
    // Nothing is left of it: the reservation is forgotten, with what was committed of it and its fence.
    expect([done.live.has('o1'), done.committed.has('o1'), done.fences.has('o1')]).toEqual([false, false, false]);
  });

  it('records stock.low after a raise that takes available below the threshold, never after a commit or a release', () => {
    // 10 on hand, 2 held: 8 available; raising to 5 leaves 5, below 6.
    given(received(10), reserved('o1', 2)).when(settle({ reserved: 5, shipped: 0, orderRevision: 1, raise: true, lowStockThreshold: 6 })).then(raised(3, 1), fellLow(5, 6));
    given(received(10), reserved('o1', 2)).when(settle({ reserved: 5, shipped: 0, orderRevision: 1, raise: true, lowStockThreshold: 5 })).then(raised(3, 1));
    // A commit takes the units off on hand and off reserved alike: available stays.
    given(received(10), reserved('o1', 8)).when(settle({ reserved: 0, shipped: 8, orderRevision: 1, lowStockThreshold: 9 })).then(committed(8, 1));
    given(received(10), reserved('o1', 8)).when(settle({ reserved: 0, shipped: 0, orderRevision: 1, lowStockThreshold: 9 })).then(released(8, 1));
  });

  it('commits and releases in one settle (a partially shipped order cancelled since)', () =>
    given(received(5), reserved('o1', 3)).when(settle({ reserved: 0, shipped: 1, orderRevision: 4 })).then(committed(1, 4), released(2, 4)));

  it('changes nothing when repeated', () => {
    given(received(5), reserved('o1', 3), committed(1, 2)).when(settle({ reserved: 2, shipped: 1, orderRevision: 2 })).then();
    given(received(5), reserved('o1', 3), committed(1, 2), released(2, 3)).when(settle({ reserved: 0, shipped: 1, orderRevision: 3 })).then();
    given(received(5), reserved('o1', 3), committed(3, 2)).when(settle({ reserved: 0, shipped: 3, orderRevision: 2, raise: true })).then();
  });

  it('reserves more, or a SKU the order did not hold, only when it may raise, and never beyond what is available', () => {
    given(received(5), reserved('o1', 2)).when(settle({ reserved: 4, shipped: 0, orderRevision: 1, raise: true })).then(raised(2, 1));
    given(received(5)).when(settle({ reserved: 2, shipped: 0, orderRevision: 1, raise: true })).then(raised(2, 1));
    given(received(5), reserved('o1', 2), reserved('o2', 2)).when(settle({ reserved: 4, shipped: 0, orderRevision: 1, raise: true }))
      .thenFails(InsufficientStock, { errors: [expect.objectContaining({ available: 1 })] });
  });

  it('never reserves when it may not raise (the reconciler’s repairs only lower and commit)', () => {
    given(received(5), reserved('o1', 2)).when(settle({ reserved: 4, shipped: 0, orderRevision: 1 })).then();
    given(received(5)).when(settle({ reserved: 2, shipped: 0, orderRevision: 1 })).then();
    // Part shipped and a larger remainder asked: the commit, and nothing reserved.
    given(received(5), reserved('o1', 2)).when(settle({ reserved: 3, shipped: 1, orderRevision: 1 })).then(committed(1, 1));
  });

  it('ignores a settle of an older order revision than one applied before, unless forced', () => {
    // An edit raised the reservation for the revision its edit will have (5); the order is still at 4.
    const history = [received(10), reserved('o1', 2), raised(3, 5)];
    expect(state(...history).fences.get('o1')).toBe(5);
    given(...history).when(settle({ reserved: 2, shipped: 0, orderRevision: 4 })).then();
    given(...history).when(settle({ reserved: 2, shipped: 0, orderRevision: 4, force: true })).then(released(3, 4));
    given(...history).when(settle({ reserved: 2, shipped: 0, orderRevision: 5 })).then(released(3, 5));
    // A forced settle of an older revision leaves the newer fence standing.
    expect(state(...history, released(1, 4)).fences.get('o1')).toBe(5);
  });
});

describe('stock.low: StockFellLow in the same decision as what took available below the threshold', () => {
  it('follows a reservation that takes available from the threshold or above to below it', () => {
    given(received(10)).when(reserve('o1', 6, 5)).then(reserved('o1', 6), fellLow(4, 5));
    given(received(10)).when(reserve('o1', 10, 1)).then(reserved('o1', 10), fellLow(0, 1));
  });

  it('follows a negative adjustment that does so, with the levels right after it', () =>
    given(received(10), reserved('o1', 2)).when(adjust(-3, 6)).thenMatches({ type: 'StockAdjusted', data: { delta: -3, onHand: 7, reserved: 2 } }, fellLow(5, 6, 7)));

  it('is not recorded down to the threshold itself, nor again while available stays below it', () => {
    given(received(10)).when(reserve('o1', 5, 5)).then(reserved('o1', 5));
    given(received(10), reserved('o1', 6), fellLow(4, 5)).when(reserve('o2', 1, 5)).then(reserved('o2', 1));
    given(received(10), reserved('o1', 6), fellLow(4, 5)).when(adjust(-2, 5)).thenMatches({ type: 'StockAdjusted' });
  });

  it('is recorded again once available rose to the threshold or above and falls below it again', () =>
    given(received(10), reserved('o1', 6), fellLow(4, 5), { type: 'ReservationReleased', schemaVersion: 1, data: { sku: 'S', orderId: 'o1', quantity: 6, reason: 'order-cancelled', releasedAt: now } })
      .when(reserve('o2', 7, 5))
      .then(reserved('o2', 7), fellLow(3, 5)));

  it('is never recorded with a threshold of 0, after an increase, a release, or a refusal', () => {
    given(received(10)).when(reserve('o1', 10, 0)).then(reserved('o1', 10));
    given(received(10)).when(adjust(-10, 0)).thenMatches({ type: 'StockAdjusted', data: { onHand: 0 } });
    given(received(2)).when(adjust(5, 100)).thenMatches({ type: 'StockAdjusted', data: { onHand: 7 } });
    given(received(10), reserved('o1', 8)).when(release('o1')).thenMatches({ type: 'ReservationReleased' });
    given(received(10)).when(reserve('o1', 11, 5)).thenFails(InsufficientStock);
  });

  it('changes no level when folded: only the time, which is its command\'s', () => {
    const before = [received(10), reserved('o1', 6)].reduce(evolveStock, initialStock('S'));
    const after = evolveStock(before, fellLow(4, 5));
    expect(after).toEqual({ ...before, updatedAt: now });
    expect(available(after)).toBe(4);
  });
});
