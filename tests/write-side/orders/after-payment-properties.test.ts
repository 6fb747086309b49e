// Orders after payment, as properties: random sequences of placements, payments, shipments (by
// line and whole), returns and their receipts (restocked or not), return cancellations, refunds,
// edits (dry runs among them), cancellations, stock adjustments and retries under a used key, run
// through the real order and stock services on an embedded event store. A refused command is
// refused with a documented error and changes nothing; after every step each line keeps
// quantity − cancelled ≥ shipped ≥ returned, each order's balance is the contract's, and each
// SKU's stock holds what its orders say: reserved what remains to ship of the live orders, on
// hand what was adjusted, less what shipped, plus what came back restocked.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, RESERVATION_GRACE_MS } from '../../../projections/audit.js';
import { serviceViewer } from '../../../write-side/kernel/access.js';
import { InsufficientStock, StateConflict, ValidationFailed } from '../../../write-side/kernel/errors.js';
import { ProductService } from '../../../write-side/catalogue/service.js';
import { QuantityUnavailable, RefundExceedsPayment, remainingToShip, returnable } from '../../../write-side/orders/rules.js';
import { OrderService, type OrderResult } from '../../../write-side/orders/service.js';
import type { PlacedOrder } from '../../../write-side/orders/types.js';
import { StockService } from '../../../write-side/stock/service.js';
import { openEmbedded, type StoreFixture } from '../../support/event-stores.js';
import { address } from '../../support/seed.js';

const staff = serviceViewer('staff-properties');
const PRICES = [100, 250, 1000];
/** An index past the SKUs names one the order does not have (and the catalogue does not know). */
const SKU_INDEX = fc.integer({ min: 0, max: PRICES.length });
const ORDERED_SKU = fc.integer({ min: 0, max: PRICES.length - 1 });
const lines = (sku: fc.Arbitrary<number>) => fc.array(fc.record({ sku, quantity: fc.integer({ min: 1, max: 3 }) }), { minLength: 1, maxLength: 3 });
/**
 * Which order a step acts on: mostly one of the latest few that the step fits (a paid one for a
 * shipment, one with a requested return for a receipt), so that histories go deep; now and then
 * (STRAY) the latest of all, whatever its state, so that refusals are tried as well.
 */
const STRAY = 4;
const order = fc.nat({ max: STRAY });
/** What a shipment or a return names: a share of what remains of each SKU (mostly valid), or lines at random (mostly not). */
const part = fc.oneof({ weight: 2, arbitrary: fc.double({ min: 0.01, max: 1, noNaN: true }) }, { weight: 1, arbitrary: lines(SKU_INDEX) });

const step = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('place' as const), lines: lines(ORDERED_SKU) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('adjust' as const), sku: ORDERED_SKU, delta: fc.integer({ min: -3, max: 6 }).filter((d) => d !== 0) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('pay' as const), order }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('ship' as const), order, part }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('shipAll' as const), order }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('requestReturn' as const), order, part }) },
  // Each requested line received as asked, one fewer, or one more, restocked or not.
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('receive' as const), order, ret: fc.nat(), how: fc.array(fc.record({ off: fc.constantFrom(0, -1, 1), restock: fc.boolean() }), { minLength: 3, maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancelReturn' as const), order, ret: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('refund' as const), order, share: fc.double({ min: 0, max: 1.3, noNaN: true }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('edit' as const), order, lines: lines(ORDERED_SKU), dryRun: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), order }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('retry' as const), which: fc.nat() }) },
);
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

/** A requested return of the order mostly; any of its returns when `n` is odd (a received or cancelled one is refused). */
function pickReturn(o: PlacedOrder, n: number) {
  const requested = o.returns.filter((r) => r.status === 'requested');
  const among = n % 2 === 0 && requested.length > 0 ? requested : o.returns;
  return among[Math.floor(n / 2) % Math.max(1, among.length)];
}

/** The errors the contract documents for each step that may be refused. */
const REFUSALS: Record<Exclude<Step['kind'], 'retry'>, readonly (abstract new (...args: never[]) => Error)[]> = {
  place: [InsufficientStock],
  adjust: [InsufficientStock],
  pay: [StateConflict],
  // ValidationFailed: a share of nothing left names no line.
  ship: [StateConflict, QuantityUnavailable, ValidationFailed],
  shipAll: [StateConflict],
  requestReturn: [StateConflict, QuantityUnavailable, ValidationFailed],
  receive: [StateConflict, QuantityUnavailable],
  cancelReturn: [StateConflict],
  refund: [StateConflict, RefundExceedsPayment],
  edit: [StateConflict, InsufficientStock],
  cancel: [StateConflict],
};

const requestedReturn = (o: PlacedOrder) => o.returns.some((r) => r.status === 'requested');
/** The orders each step may act on without being refused for the order's state. */
const FITS: Record<Exclude<Step['kind'], 'place' | 'adjust' | 'retry'>, (order: PlacedOrder) => boolean> = {
  pay: (o) => o.status === 'pending',
  ship: (o) => o.status === 'paid' || o.status === 'partially_shipped',
  shipAll: (o) => o.status === 'paid' || o.status === 'partially_shipped',
  requestReturn: (o) => [...returnable(o).values()].some((n) => n > 0),
  receive: requestedReturn,
  cancelReturn: requestedReturn,
  refund: (o) => o.payment !== null,
  edit: (o) => o.status === 'pending' || o.status === 'paid',
  cancel: (o) => o.status !== 'cancelled' && o.status !== 'shipped',
};

let fixture: StoreFixture;
let stock: StockService;
let orders: OrderService;
let products: ProductService;
beforeAll(async () => {
  fixture = await openEmbedded();
  stock = new StockService(fixture.store);
  orders = new OrderService(fixture.store, { reservations: stock, restocking: stock });
  products = new ProductService(fixture.store);
});
afterAll(() => fixture.dispose());

/** One run: its own SKUs, orders and model of what was adjusted. */
class Run {
  readonly skus = PRICES.map((_, i) => `PROP-${randomUUID().slice(0, 8)}-${i}`);
  readonly orderIds: string[] = [];
  readonly adjusted = new Map(this.skus.map((sku) => [sku, 0]));
  /** Every keyed request that recorded its outcome, to be retried under its key. */
  readonly keyed: Array<{ kind: string; again: () => Promise<OrderResult> }> = [];
  readonly trail: string[] = [];

  async start(): Promise<void> {
    for (const [i, sku] of this.skus.entries()) {
      await products.put(staff, sku, { name: `Product ${i}`, description: null, prices: { EUR: PRICES[i]! }, status: 'active' }, { correlationId: 'prop' });
      await this.adjust(sku, 6);
    }
  }

  async adjust(sku: string, delta: number): Promise<void> {
    const key = randomUUID();
    await stock.adjust(staff, sku, { delta, reason: delta > 0 ? 'received' : 'damaged', note: null }, { correlationId: 'prop', idempotency: { key, fingerprint: key } });
    this.adjusted.set(sku, this.adjusted.get(sku)! + delta);
  }

  sku(i: number): string {
    return this.skus[i] ?? 'NOT-ON-ANY-ORDER';
  }

  async order(back: number, fits: (order: PlacedOrder) => boolean): Promise<PlacedOrder | null> {
    const all = await Promise.all(this.orderIds.map(async (id) => (await orders.get(staff, id))!.order));
    const fitting = all.filter(fits);
    const among = back === STRAY || fitting.length === 0 ? all : fitting;
    return among[among.length - 1 - (back % Math.max(1, among.length))] ?? null;
  }

  /** What a refused command must leave as it was: every order's revision, every SKU's levels. */
  async observed() {
    const revisions = await Promise.all(this.orderIds.map(async (id) => (await orders.get(staff, id))!.revision));
    const levels = await Promise.all(this.skus.map(async (sku) => {
      const { onHand, reserved } = (await stock.get(staff, sku))!;
      return { onHand, reserved };
    }));
    return { revisions, levels };
  }

  /** Runs the step; null when it did not apply (no order yet, no return to receive). */
  async apply(s: Step): Promise<OrderResult | 'done' | null> {
    const keyed = (key = randomUUID()) => ({ correlationId: 'prop', idempotency: { key, fingerprint: key } });
    const remember = (kind: string, run: (context: ReturnType<typeof keyed>) => Promise<OrderResult>) => {
      const context = keyed();
      // Only a request that recorded something has a first outcome to replay; one that changed
      // nothing (an edit to the lines the order has) is decided again, and changes nothing again.
      return run(context).then((result) => (result.events.length > 0 && this.keyed.push({ kind, again: () => run(context) }), result));
    };
    const mapped = (ls: readonly { sku: number; quantity: number }[]) => ls.map(({ sku, quantity }) => ({ sku: this.sku(sku), quantity }));
    /** A share of what is left of each SKU (at least one of a SKU with any), or the lines as generated. */
    const named = (what: number | readonly { sku: number; quantity: number }[], left: ReadonlyMap<string, number>) =>
      typeof what !== 'number' ? mapped(what) : [...left].filter(([, n]) => n > 0).map(([sku, n]) => ({ sku, quantity: Math.max(1, Math.round(what * n)) }));
    switch (s.kind) {
      case 'place': {
        const result = await orders.place(staff, { customerId: 'cus_1', currency: 'EUR', lines: mapped(s.lines), address }, keyed());
        this.orderIds.push((result.state as PlacedOrder).id);
        return result;
      }
      case 'adjust':
        await this.adjust(this.sku(s.sku), s.delta);
        return 'done';
      case 'retry': {
        const first = this.keyed[s.which % Math.max(1, this.keyed.length)];
        if (!first) return null;
        this.trail.push(`retry of ${first.kind}:`);
        return first.again();
      }
    }
    const o = await this.order(s.order, FITS[s.kind]);
    if (!o) return null;
    switch (s.kind) {
      case 'pay':
        return remember('pay', (c) => orders.recordPayment(staff, o.id, { amount: o.total, reference: 'psp' }, c));
      case 'ship':
        return remember('ship', (c) => orders.createShipment(staff, o.id, { carrier: 'DHL', trackingNumber: 'T', lines: named(s.part, remainingToShip(o)) }, c));
      case 'shipAll':
        return remember('shipAll', (c) => orders.createShipment(staff, o.id, { carrier: 'DHL', trackingNumber: 'T' }, c));
      case 'requestReturn':
        return remember('requestReturn', (c) => orders.requestReturn(staff, o.id, { lines: named(s.part, returnable(o)), reason: 'test' }, c));
      case 'receive': {
        const ret = pickReturn(o, s.ret);
        if (!ret) return null;
        const received = ret.lines.map((line, i) => ({ sku: line.sku, quantity: Math.max(1, line.quantity + s.how[i % 3]!.off), restock: s.how[i % 3]!.restock }));
        return orders.receiveReturn(staff, o.id, ret.id, received, { correlationId: 'prop' });
      }
      case 'cancelReturn': {
        const ret = pickReturn(o, s.ret);
        return ret ? orders.cancelReturn(staff, o.id, ret.id, { correlationId: 'prop' }) : null;
      }
      case 'refund': {
        const amount = Math.max(1, Math.round(s.share * (o.balance.paid - o.balance.refunded)));
        return remember('refund', (c) => orders.recordRefund(staff, o.id, { amount, reason: 'other', note: null }, c));
      }
      case 'edit':
        if (s.dryRun) return orders.edit(staff, o.id, { lines: mapped(s.lines), dryRun: true }, { correlationId: 'prop' });
        return remember('edit', (c) => orders.edit(staff, o.id, { lines: mapped(s.lines), dryRun: false }, c));
      case 'cancel':
        return orders.cancel(staff, o.id, null, { correlationId: 'prop' });
    }
  }

  /** The invariants, over every order of the run and every SKU. */
  async check(): Promise<void> {
    const reserved = new Map(this.skus.map((sku) => [sku, 0]));
    const onHand = new Map(this.adjusted);
    for (const id of this.orderIds) {
      const o = (await orders.get(staff, id))!.order;
      let charged = 0;
      for (const line of o.lines) {
        const where = `${this.trail.join(' → ')}: order ${id} line ${line.sku}`;
        expect(line.cancelled, where).toBeGreaterThanOrEqual(0);
        expect(line.returned, where).toBeGreaterThanOrEqual(0);
        expect(line.quantity - line.cancelled, where).toBeGreaterThanOrEqual(line.shipped);
        expect(line.shipped, where).toBeGreaterThanOrEqual(line.returned);
        charged += line.unitPrice * (line.quantity - line.cancelled - line.returned);
        if (o.status !== 'cancelled') reserved.set(line.sku, (reserved.get(line.sku) ?? 0) + line.quantity - line.cancelled - line.shipped);
        onHand.set(line.sku, (onHand.get(line.sku) ?? 0) - line.shipped);
      }
      for (const ret of o.returns) for (const line of ret.received ?? []) if (line.restock) onHand.set(line.sku, onHand.get(line.sku)! + line.quantity);
      const paid = o.payment?.amount ?? 0;
      const refunded = o.refunds.reduce((sum, r) => sum + r.amount, 0);
      expect(o.balance, `${this.trail.join(' → ')}: order ${id}`).toEqual({ charged, paid, refunded, due: charged - paid + refunded });
      expect(refunded).toBeLessThanOrEqual(paid);
    }
    for (const sku of this.skus) {
      const levels = (await stock.get(staff, sku))!;
      expect({ onHand: levels.onHand, reserved: levels.reserved }, `${this.trail.join(' → ')}: ${sku}`).toEqual({ onHand: onHand.get(sku), reserved: reserved.get(sku) });
    }
  }
}

describe('orders after payment, over random histories on the real services', () => {
  it('keeps every line, balance and stock level as the contract says after every step, and a refused command changes nothing', async () => {
    await fc.assert(
      // Every history begins with a placement, so that its first steps have an order to act on.
      fc.asyncProperty(fc.record({ kind: fc.constant('place' as const), lines: lines(ORDERED_SKU) }), fc.array(step, { minLength: 20, maxLength: 50 }), async (first, rest) => {
        const steps: Step[] = [first, ...rest];
        const run = new Run();
        await run.start();
        for (const s of steps) {
          const before = await run.observed();
          const outcome = await run.apply(s).then(
            (result) => ({ result }),
            (error: unknown) => ({ error }),
          );
          if ('error' in outcome) {
            run.trail.push(`${s.kind} refused (${(outcome.error as Error).constructor.name})`);
            const documented = s.kind === 'retry' ? [] : REFUSALS[s.kind];
            if (!documented.some((type) => outcome.error instanceof type)) throw outcome.error;
            expect(await run.observed(), run.trail.join(' → ')).toEqual(before);
          } else if (outcome.result !== null) {
            run.trail.push(s.kind);
            const { result } = outcome;
            // A dry run and a retry under a used key change nothing at all.
            if (result !== 'done' && ('dryRun' in result || s.kind === 'retry')) {
              if (s.kind === 'retry') expect(result.replayed, run.trail.join(' → ')).toBe(true);
              expect(await run.observed(), run.trail.join(' → ')).toEqual(before);
            }
          }
          await run.check();
        }
      }),
      { numRuns: 50 },
    );
    // The auditor, folding the whole log afresh (every run's histories), finds nothing either.
    const audit = await auditLog(fixture.store, new Date(Date.now() + RESERVATION_GRACE_MS + 1_000));
    expect([...audit.domain, ...audit.stock]).toEqual([]);
    expect(audit.orders).toBeGreaterThan(50);
  });
});
