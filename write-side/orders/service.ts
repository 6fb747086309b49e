// The write side's entry point for callers: turns requests into order commands (bringing the
// clock and new ids), runs them through the command handler, and reads an order's current state.
// Every command and read takes the viewer and is confined here: another customer's order reads
// as an unknown one, and a customer's token places orders only for its own customer.
import { v4 as uuidv4 } from 'uuid';
import { isStaff, sees, type Viewer } from '../kernel/access.js';
import { CommandHandler, MAX_ATTEMPTS, type CommandContext, type CommandResult } from '../kernel/command-handler.js';
import { Forbidden, IdempotencyKeyReused, InsufficientStock, OrderNotFound, PreconditionFailed, PriceChanged, ProductUnavailable, StateConflict, UnknownCustomer } from '../kernel/errors.js';
import { PrecedingAppendFailed, type AppendTicket, type EventStore, type Position, type ReadStreamOptions, type RecordedEvent } from '../kernel/event-store.js';
import { keyHolder, keyId, type Idempotent, type IdempotencyRequest } from '../kernel/idempotency.js';
import type { WriteContext } from '../kernel/write-context.js';
import type { Keyring } from '../personal-data/keyring.js';
import { KeptFolds } from '../kernel/kept-folds.js';
import { ProductService } from '../catalogue/service.js';
import { decodeOrderEvent, encodeOrderEvent, orderStream } from './codec.js';
import { orderDecider } from './decider.js';
import { releaseReason, restockKey, restocked, stockTargets, stockTargetsOf } from './rules.js';
import { StockService, type Reservations, type StockContext, type StockTarget } from '../stock/service.js';
import type {
  Address, AddressPatch, CataloguedLine, LineInput, OrderLine, Order, OrderCommand, OrderEvent, PaymentMethod, PlacedOrder, ReceivedLine, RefundReason, SkuQuantity,
} from './types.js';

export type OrderResult = CommandResult<Order, OrderEvent>;

/**
 * The API version an order is placed under (HTTP-CONTRACT "Changes since 2026-11-01"): since
 * 2026-12-01 the customer must have a record; under 2026-11-01 any well-formed id is a guest.
 */
export type PlacementVersion = '2027-01-01' | '2026-12-01' | '2026-11-01';

/** Whether a customer has an active record, none (a guest) or an erased one (customer-service.ts). */
export interface CustomerStandings {
  standing(customerId: string): Promise<'active' | 'absent' | 'erased'>;
}

export interface OrderSnapshot {
  readonly order: PlacedOrder;
  readonly revision: number;
  readonly position: Position;
}

/**
 * Puts units of a SKU back on hand, once per `key` however often it is asked (a stock adjustment
 * with reason `returned`, under that idempotency key): the stock area's StockService.
 */
export interface Restocking {
  restock(sku: string, units: number, key: string, note: string, context: StockContext): Promise<void>;
}

/** Prices order lines from the catalogue as it is at that moment (ProductService). */
export interface Catalogue {
  price(lines: readonly LineInput[], currency: string): Promise<CataloguedLine[]>;
}

export interface OrderServiceOptions {
  /** The catalogue placements take names and prices from; by default the products on the same event store. */
  readonly catalogue?: Catalogue;
  readonly clock?: () => Date;
  readonly newId?: () => string;
  /**
   * How much folded state is kept between reads, in units of one order plus one per line (an
   * order holds 1 to 100 lines, so a count of orders alone would not bound the memory). The
   * least recently read go first. 200,000 units held 100,000 one-line orders in about 80 MB of heap.
   */
  readonly foldedBudget?: number;
  /**
   * The keys of the customers' personal data, when the store seals it (personal-data/): a write
   * of an address gets its customer's key before anything is written, and a kept fold (its
   * address opened) is served only while its customer's key is known not destroyed.
   */
  readonly keys?: Keyring;
  /** The stock that placing reserves, cancelling releases and shipping deducts; the SKU streams of the same store by default. */
  readonly reservations?: Reservations;
  /** Where placement asks whether the customer may order; without it every customer may (tools, benchmarks). */
  readonly customers?: CustomerStandings;
  /** Where a return's restocked units go back on hand; the SKU streams of the same store by default. */
  readonly restocking?: Restocking;
}

export class OrderService {
  private readonly handler: CommandHandler<Order, OrderCommand, OrderEvent>;
  private readonly clock: () => Date;
  private readonly newId: () => string;
  private readonly catalogue: Catalogue;
  private readonly folded: KeptFolds<OrderSnapshot>;
  private readonly keys: Keyring | null;
  private readonly reservations: Reservations;
  private readonly customers: CustomerStandings | null;
  private readonly restocking: Restocking;

  constructor(
    private readonly store: EventStore,
    options: OrderServiceOptions = {},
  ) {
    this.handler = new CommandHandler(store, orderDecider, { encode: encodeOrderEvent, decode: decodeOrderEvent });
    this.clock = options.clock ?? (() => new Date());
    this.newId = options.newId ?? uuidv4;
    this.keys = options.keys ?? null;
    this.catalogue = options.catalogue ?? new ProductService(store, { clock: this.clock });
    // Reservations read stock.low's thresholds from the catalogue the placements price from, when it is the products'.
    // Made only for what is not given, once: a second StockService in a process would keep a second fold of every SKU.
    let own: StockService | undefined;
    const stock = () => (own ??= new StockService(store, { clock: this.clock, ...(this.catalogue instanceof ProductService ? { thresholds: this.catalogue } : {}) }));
    this.reservations = options.reservations ?? stock();
    this.restocking = options.restocking ?? stock();
    this.customers = options.customers ?? null;
    this.folded = new KeptFolds(store, {
      fold: (from, recorded) => this.fold(from, recorded),
      revisionOf: (snapshot) => snapshot.revision,
      weigh: (snapshot) => 1 + snapshot.order.lines.length,
      // An order holds at least one line.
      minWeight: 2,
      budget: options.foldedBudget ?? 200_000,
      // Its address was opened with its customer's key: once that key is destroyed (here, or in
      // another process, which the keyring learns within its cache lifetime) it is folded afresh.
      ...(this.keys ? { valid: (snapshot: OrderSnapshot) => this.stillOpen(snapshot.order.customerId) } : {}),
    });
  }

  private stillOpen(customerId: string): boolean | Promise<boolean> {
    const keys = this.keys!;
    return keys.current(customerId) || keys.erased(customerId).then((erased) => !erased);
  }

  /**
   * The order's id is the key's id, so a retried placement lands on the same stream and its
   * `no_stream` append cannot create a twin, in this process or any other, before or after a
   * restart.
   *
   * Each line's name and unit price come from the catalogue as it is now, so a later price
   * change never changes a placed order. A retry of a placement that was made is answered from
   * the order's history: the first outcome, at the first prices.
   */
  async place(
    viewer: Viewer,
    { apiVersion = '2026-11-01', ...input }: { customerId: string; currency: string; lines: readonly LineInput[]; address: Address; apiVersion?: PlacementVersion },
    context: WriteContext & Idempotent,
  ): Promise<OrderResult> {
    if (!sees(viewer, input.customerId)) throw new Forbidden('A customer token can only place orders for its own customer.');
    const orderId = keyId(viewer.sub, context.idempotency.key);
    await this.customerMayOrder(input.customerId, apiVersion, orderId);
    const lines = await this.catalogue.price(input.lines, input.currency).catch(async (error: unknown) => {
      // A retry of a placement that was made is answered from its history, at the first prices,
      // even when the catalogue no longer offers them.
      const placedBefore = error instanceof ProductUnavailable || error instanceof PriceChanged ? await this.load(orderId) : null;
      if (!placedBefore) throw error;
      return placedBefore.order.lines.map(catalogued);
    });
    const command: OrderCommand = { type: 'PlaceOrder', data: { orderId, ...input, lines }, metadata: this.meta(viewer) };
    // The address's key before the stock: a key store that cannot be reached fails the placement with nothing written.
    await this.sealingKey(command);
    const { unplaced, after, reserved } = await this.reserveFor(viewer, command, context);
    try {
      await this.refuseIfErasedMeanwhile(viewer, command, context, reserved);
      // The order follows its reservations' appends without waiting for their answer: it is
      // written only with them. Should one not be written (a revision conflict decides it again),
      // the order waits for the reservation's own outcome, then is appended on its own.
      const placed = await this.run(viewer, orderId, command, { ...context, after }, unplaced).catch(async (error: unknown) => {
        if (!(error instanceof PrecedingAppendFailed)) throw error;
        await reserved;
        return this.run(viewer, orderId, command, context, unplaced);
      });
      await reserved;
      return placed;
    } catch (error) {
      // Only an abandoned placement is refused after its reservations (the service gave it up):
      // they are released here. Any other failure leaves them to the reconciler, which releases
      // them once it is certain the order was never placed.
      await reserved.catch(() => {});
      if (error instanceof StateConflict) await this.reservations.release(orderId, skusOf(lines), 'order-abandoned', this.stockContext(viewer, context));
      throw error;
    }
  }

  /**
   * Stock first, then the order: the order is appended only with every line's stock held. A
   * request refused on its merits reserves nothing: the order is decided (purely) before, and a
   * key another request holds is refused before. A retry of a placement whose order exists
   * reserves nothing either; it is replayed from the order's stream.
   * `unplaced` when the order's stream was seen empty: the placement's append need not read it
   * again. Answered once the reservations are decided and on their way to the store: `after`
   * names their appends, which the order's follows; `reserved` is their outcome.
   */
  private async reserveFor(
    viewer: Viewer,
    command: Extract<OrderCommand, { type: 'PlaceOrder' }>,
    context: WriteContext & Idempotent,
  ): Promise<{ unplaced: boolean; after: readonly AppendTicket[]; reserved: Promise<void> }> {
    orderDecider.decide(command, orderDecider.initialState());
    const { orderId, lines } = command.data;
    const none = { after: [], reserved: Promise.resolve() };
    if ((await this.store.readStream(orderStream(orderId), { toRevision: 0 })).length > 0) return { unplaced: false, ...none };
    if ((await keyHolder(this.store, viewer.sub, context.idempotency)) === 'another') return { unplaced: true, ...none };
    return new Promise((resolve, reject) => {
      const reserved: Promise<void> = this.reservations.reserve(orderId, lines, this.stockContext(viewer, context), (after) => resolve({ unplaced: true, after, reserved }));
      reserved.then(() => resolve({ unplaced: true, after: [], reserved }), reject);
    });
  }

  /** An erased customer never orders again; under 2026-12-01 a customer without a record cannot order either. */
  private async customerMayOrder(customerId: string, apiVersion: PlacementVersion, orderId: string): Promise<void> {
    if (!this.customers) return;
    const standing = await this.customers.standing(customerId);
    if (standing === 'active' || (standing === 'absent' && apiVersion === '2026-11-01')) return;
    // A retry of a placement made before the customer was erased is answered as the first run was.
    if (await this.load(orderId)) return;
    throw new UnknownCustomer(customerId, standing);
  }

  /**
   * The customer's erasure, recorded while the stock was being reserved, gives the placement up
   * before its order is appended: otherwise the order would land after the erasure, its address
   * sealed with a key destroyed a moment later. Given up as the reconciler does (a fence that no
   * late append of it passes), then its stock released. This narrows the race to the moment between
   * this read and the append; it does not close it (no append spans the customer's and the order's streams).
   */
  private async refuseIfErasedMeanwhile(viewer: Viewer, command: Extract<OrderCommand, { type: 'PlaceOrder' }>, context: WriteContext, reserved: Promise<void>): Promise<void> {
    const { orderId, customerId, lines } = command.data;
    if (!this.customers || (await this.customers.standing(customerId)) !== 'erased') return;
    await reserved;
    // Placed already (a retry of a placement made before the erasure): answered from its history.
    if (!(await this.abandon(viewer, orderId, context))) return;
    await this.reservations.release(orderId, skusOf(lines), 'order-abandoned', this.stockContext(viewer, context));
    throw new UnknownCustomer(customerId, 'erased');
  }

  /** Applies the merge patch to the address as it is; a revision conflict decides again, unless the caller pinned one. */
  changeAddress(viewer: Viewer, orderId: string, patch: AddressPatch, context: WriteContext & { expectedRevision?: number }): Promise<OrderResult> {
    return this.run(viewer, orderId, { type: 'ChangeAddress', data: { orderId, patch }, metadata: this.meta(viewer) }, context);
  }

  recordPayment(viewer: Viewer, orderId: string, input: { amount: number; reference: string; method?: PaymentMethod }, context: WriteContext & Idempotent): Promise<OrderResult> {
    const data = { orderId, paymentId: this.newId(), amount: input.amount, reference: input.reference, method: input.method ?? 'unknown' };
    return this.run(viewer, orderId, { type: 'RecordPayment', data, metadata: this.meta(viewer) }, context);
  }

  /** Ships what `lines` names of the order, or without them everything that remains. Staff only. */
  async createShipment(viewer: Viewer, orderId: string, input: { carrier: string; trackingNumber: string; lines?: readonly SkuQuantity[] }, context: WriteContext & Idempotent): Promise<OrderResult> {
    staffOnly(viewer, 'create a shipment');
    const data = { orderId, shipmentId: this.newId(), carrier: input.carrier, trackingNumber: input.trackingNumber, ...(input.lines ? { lines: input.lines } : {}) };
    const result = await this.run(viewer, orderId, { type: 'CreateShipment', data, metadata: this.meta(viewer) }, context);
    await this.settleStock(viewer, result, context);
    return result;
  }

  async cancel(viewer: Viewer, orderId: string, reason: string | null, context: WriteContext): Promise<OrderResult> {
    const result = await this.run(viewer, orderId, { type: 'CancelOrder', data: { orderId, reason }, metadata: this.meta(viewer) }, context);
    await this.settleStock(viewer, result, context);
    return result;
  }

  requestReturn(viewer: Viewer, orderId: string, input: { lines: readonly SkuQuantity[]; reason: string }, context: WriteContext & Idempotent): Promise<OrderResult> {
    return this.run(viewer, orderId, { type: 'RequestReturn', data: { orderId, returnId: this.newId(), ...input }, metadata: this.meta(viewer) }, context);
  }

  /** Records what came back; the units with `restock` go back on hand (repeatable: see restock). Staff only. */
  async receiveReturn(viewer: Viewer, orderId: string, returnId: string, lines: readonly ReceivedLine[], context: WriteContext): Promise<OrderResult> {
    staffOnly(viewer, 'record the receipt of a return');
    const result = await this.run(viewer, orderId, { type: 'ReceiveReturn', data: { orderId, returnId, lines }, metadata: this.meta(viewer) }, context);
    await this.restock(viewer, result.state, returnId, context);
    return result;
  }

  cancelReturn(viewer: Viewer, orderId: string, returnId: string, context: WriteContext): Promise<OrderResult> {
    return this.run(viewer, orderId, { type: 'CancelReturn', data: { orderId, returnId }, metadata: this.meta(viewer) }, context);
  }

  /** Staff only. */
  async recordRefund(viewer: Viewer, orderId: string, input: { amount: number; reason: RefundReason; note: string | null }, context: WriteContext & Idempotent): Promise<OrderResult> {
    staffOnly(viewer, 'record a refund');
    return this.run(viewer, orderId, { type: 'RecordRefund', data: { orderId, refundId: this.newId(), ...input }, metadata: this.meta(viewer) }, context);
  }

  /**
   * The order's lines replaced by `lines`. A dry run answers the order as it would become and
   * writes nothing. Otherwise stock first, then the order, as placement does: every increase is
   * reserved (all or none) before the order's event is appended, and every decrease released
   * after it. A failure between the two leaves an increase the order does not hold, which the
   * stock reconciler releases (as a placement's), and a decrease the order no longer holds,
   * which the retry, or the reconciler, releases. Staff only, a dry run included.
   */
  async edit(viewer: Viewer, orderId: string, input: { lines: readonly SkuQuantity[]; dryRun: boolean }, context: WriteContext & Partial<Idempotent> & { expectedRevision?: number }): Promise<OrderResult & { dryRun?: true }> {
    staffOnly(viewer, 'edit an order');
    // The edit is appended at the revision its stock was raised for; when the order moved on
    // meanwhile (and the caller pinned none), the raise is settled back and the edit made again.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.editOnce(viewer, orderId, input, context);
      } catch (error) {
        if (!(error instanceof PreconditionFailed) || context.expectedRevision !== undefined || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }

  private async editOnce(viewer: Viewer, orderId: string, input: { lines: readonly SkuQuantity[]; dryRun: boolean }, context: WriteContext & Partial<Idempotent> & { expectedRevision?: number }): Promise<OrderResult & { dryRun?: true }> {
    const current = await this.get(viewer, orderId);
    if (!current) throw new OrderNotFound(orderId);
    // A retry of an edit that was made is answered from the order's history, never decided again
    // on the order as it is now: that would raise the stock for it a second time (and keep it
    // raised until the reconciler: the replay's settle is older than that raise's fence), refuse
    // it as short of stock, or refuse it once the order moved on.
    if (!input.dryRun && context.idempotency && (await this.editedBefore(viewer, orderId, context.idempotency))) {
      const result = await this.run(viewer, orderId, { type: 'EditOrder', data: { orderId, editId: this.newId(), lines: input.lines, prices: [] }, metadata: this.meta(viewer) }, context);
      // And finishes the stock step a crash may have cut off its first run before: what the edit released.
      const edited = result.events.find((event) => event.type === 'OrderEdited');
      const was = edited?.type === 'OrderEdited' ? edited.data.before : [];
      await this.settleTargets(viewer, orderId, new Map(was.map((line) => [line.sku, { reserved: 0, shipped: 0 }])), context);
      return result;
    }
    const held = new Set(current.order.lines.map((line) => line.sku));
    const added = input.lines.filter((line) => !held.has(line.sku));
    const prices = added.length > 0 ? await this.catalogue.price(added, current.order.currency).catch((error: unknown) => {
      // The catalogue names the added lines by their place among them: named by their place in the request.
      if (error instanceof ProductUnavailable) throw new ProductUnavailable(error.errors.map((e) => ({ ...e, pointer: repoint(e.pointer, added, input.lines) })));
      throw error;
    }) : [];
    const command: OrderCommand = { type: 'EditOrder', data: { orderId, editId: this.newId(), lines: input.lines, prices }, metadata: this.meta(viewer) };
    // If-Match is checked here, before any stock moves, so that a refused edit reserves nothing and
    // a dry run never reaches the command handler.
    // (A retry of an edit that was made was answered above, whatever revision it names.)
    if (context.expectedRevision !== undefined && context.expectedRevision !== current.revision) throw new PreconditionFailed(context.expectedRevision, current.revision);
    if (input.dryRun) {
      const events = orderDecider.decide(command, current.order);
      const state = events.reduce(orderDecider.evolve, current.order as Order);
      return { state, events, revision: current.revision, position: current.position, replayed: false, dryRun: true } as OrderResult & { dryRun: true };
    }
    const before = stockTargets(current.order);
    const planned = orderDecider.decide(command, current.order).reduce(orderDecider.evolve, current.order as Order);
    if (planned.status === 'absent') throw new OrderNotFound(orderId);
    // Raised now (every SKU at the larger of its two targets), all or none.
    const raised = new Map([...union(before, stockTargets(planned))].map(([sku, [was, will]]) => [sku, { reserved: Math.max(was.reserved, will.reserved), shipped: was.shipped }]));
    // Fenced at the revision the edit will have: the reconciler's settles of the order as it is now are stale meanwhile.
    const raising = { reason: 'order-edited' as const, orderRevision: current.revision + 1, raise: true };
    await this.reservations.settle(orderId, raised, raising, this.stockContext(viewer, context), before).catch((error: unknown) => {
      if (error instanceof InsufficientStock) throw new InsufficientStock(error.errors.map((e) => ({ ...e, pointer: `/lines/${Math.max(0, input.lines.findIndex((l) => l.sku === e.pointer))}/quantity` })));
      throw error;
    });
    let result: OrderResult;
    try {
      result = await this.run(viewer, orderId, command, { ...context, expectedRevision: current.revision });
    } catch (error) {
      // Refused after all, with nothing appended (the order moved on, If-Match names a revision it
      // left meanwhile, the key stands for another request): back to what the order holds now,
      // past this edit's own fence. Any other failure may have appended: left to the reconciler.
      if (error instanceof StateConflict || error instanceof PreconditionFailed || error instanceof IdempotencyKeyReused) await this.settleTargets(viewer, orderId, raised, context, true);
      throw error;
    }
    await this.settleTargets(viewer, orderId, raised, context);
    return result;
  }

  /** Whether this request (the viewer's key, taken by the same request) recorded its outcome on the order's stream already. */
  private async editedBefore(viewer: Viewer, orderId: string, idempotency: IdempotencyRequest): Promise<boolean> {
    if ((await keyHolder(this.store, viewer.sub, idempotency)) !== 'this') return false;
    const recorded = await this.store.readStream(orderStream(orderId));
    return recorded.some((r) => r.metadata.principal === viewer.sub && r.metadata.idempotency?.key === idempotency.key);
  }

  /** The service cancels an order still pending (reason payment-timeout) and releases its stock; any other order is left as it is. */
  async expire(viewer: Viewer, orderId: string, context: WriteContext): Promise<OrderResult> {
    const result = await this.run(viewer, orderId, { type: 'ExpirePendingOrder', data: { orderId }, metadata: this.meta(viewer) }, context);
    await this.settleStock(viewer, result, context);
    return result;
  }

  /**
   * Gives up a placement whose order was never appended, so that its reservations can be released:
   * true when the order can now never be placed (given up, by this call or before), false when it was placed.
   */
  async abandon(viewer: Viewer, orderId: string, context: WriteContext): Promise<boolean> {
    const result = await this.handler.handle(orderStream(orderId), { type: 'AbandonPlacement', data: { orderId }, metadata: this.meta(viewer) }, {
      principal: viewer.sub,
      correlationId: context.correlationId,
      causationId: context.causationId ?? null,
    });
    return result.state.status === 'absent';
  }

  /**
   * The order's stock brought to what the order says: a shipment's part of each reservation
   * deducted from stock on hand, a cancellation's remainder released. Also on a repeat (the
   * order was cancelled or shipped already): settling is a no-op once done, and a repeat
   * finishes what a crash between the order's event and this left undone.
   */
  private async settleStock(viewer: Viewer, result: OrderResult, context: WriteContext): Promise<void> {
    const order = result.state;
    if (order.status === 'absent') return;
    await this.reservations.settle(order.id, stockTargets(order), { reason: releaseReason(order), orderRevision: result.revision ?? -1, raise: false }, this.stockContext(viewer, context));
  }

  /** Settles the SKUs of `also` (an edit's, some of which the order may no longer hold) and the order's own to what the order says now. */
  private async settleTargets(viewer: Viewer, orderId: string, also: ReadonlyMap<string, StockTarget>, context: WriteContext, force = false): Promise<void> {
    const now = await this.load(orderId);
    if (!now) return;
    const targets = stockTargetsOf(now.order, [...also.keys(), ...now.order.lines.map((line) => line.sku)]);
    const how = { reason: releaseReason(now.order), orderRevision: now.revision, raise: true, force };
    await this.reservations.settle(orderId, targets, how, this.stockContext(viewer, context));
  }

  /**
   * The received return's restocked units back on hand, each SKU once per return whoever asks
   * (the receipt, or the stock reconciler after a crash): the adjustment's key is the return's.
   */
  async restock(viewer: Viewer, order: Order, returnId: string, context: WriteContext): Promise<void> {
    if (order.status === 'absent') return;
    const ret = order.returns.find((r) => r.id === returnId);
    if (!ret || ret.status !== 'received') return;
    const stockContext = this.stockContext(viewer, context);
    await Promise.all([...restocked(ret)].map(([sku, units]) => this.restocking.restock(sku, units, restockKey(returnId, sku), `return ${returnId} of order ${order.id}`, stockContext)));
  }

  private stockContext(viewer: Viewer, context: WriteContext): StockContext {
    return { principal: viewer.sub, correlationId: context.correlationId, causationId: context.causationId ?? null };
  }

  /**
   * The order as the viewer may see it: current, or as of a revision the order has reached or
   * an instant after it was placed. Null when it is unknown, not the viewer's, or did not exist then.
   */
  async get(viewer: Viewer, orderId: string, options: Pick<ReadStreamOptions, 'toRevision' | 'recordedUntil'> = {}): Promise<OrderSnapshot | null> {
    const snapshot = await this.load(orderId, options);
    if (!snapshot || !sees(viewer, snapshot.order.customerId)) return null;
    if (options.toRevision !== undefined && snapshot.revision < options.toRevision) return null;
    return snapshot;
  }

  /**
   * The order folded from its stream: always current, or as of a revision or time.
   *
   * The current state is kept once folded. A later read folds only the events appended since,
   * after asking the store for them; and when the store's change stamp shows that nothing at
   * all was appended since the state was read, it does not even ask.
   */
  private async load(orderId: string, options: Pick<ReadStreamOptions, 'toRevision' | 'recordedUntil'> = {}): Promise<OrderSnapshot | null> {
    if (options.toRevision !== undefined || options.recordedUntil !== undefined) {
      return this.fold(null, await this.store.readStream(orderStream(orderId), options));
    }
    return this.folded.current(orderStream(orderId));
  }

  /** What the kept folded state weighs now, in the units of `foldedBudget`. */
  get foldedKept(): { readonly orders: number; readonly weight: number } {
    const { count, weight } = this.folded.size;
    return { orders: count, weight };
  }

  /** `recorded` folded onto `from` (or onto nothing); null while no order was placed. */
  private fold(from: OrderSnapshot | null, recorded: readonly RecordedEvent[]): OrderSnapshot | null {
    const last = recorded.at(-1);
    if (!last) return from;
    let order: Order = from ? from.order : orderDecider.initialState();
    for (const r of recorded) order = orderDecider.evolve(order, decodeOrderEvent(r));
    if (order.status === 'absent') return null;
    return { order, revision: last.revision, position: last.position };
  }

  /** `unplaced`: the order's stream was seen empty just before (a placement's look), so it is not read again. */
  private async run(
    viewer: Viewer,
    orderId: string,
    command: OrderCommand,
    context: WriteContext & Partial<Idempotent> & { expectedRevision?: number; after?: readonly AppendTicket[] },
    unplaced = false,
  ) {
    const handlerContext: CommandContext = {
      principal: viewer.sub,
      correlationId: context.correlationId,
      causationId: context.causationId ?? null,
      ...(context.expectedRevision === undefined ? {} : { expectedRevision: context.expectedRevision }),
      ...(context.idempotency ? { idempotency: context.idempotency } : {}),
      ...(context.after?.length ? { after: context.after } : {}),
    };
    // A command without a key decides on the folded order, which the request's own read just
    // before (an address change reads the order to merge into it) has usually left here: the
    // stream is then not read and folded a second time. A keyed command reads its history: its
    // replay is found there without writing anything, even while the store cannot be written.
    // A customer's token sees only its customer's orders: another's reads as unknown. The customer
    // of an order never changes, so the check holds for every attempt of the handler.
    const confined = command.type !== 'PlaceOrder' && !isStaff(viewer);
    const current = context.idempotency && !confined ? null : await this.load(orderId);
    if (confined && (!current || !sees(viewer, current.order.customerId))) throw new OrderNotFound(orderId);
    // An address is sealed with its customer's key: had first, so that a key store that cannot be
    // reached (503) or an erased customer (422) fails the command before anything is written.
    // (A placement retried after its customer's erasure is replayed from the history: it seals nothing.)
    await this.sealingKey(command, current?.order.customerId);
    const known = current && !context.idempotency ? { state: current.order, revision: current.revision, position: current.position } : unplaced ? { state: orderDecider.initialState(), revision: null, position: null } : undefined;
    return this.handler.handle(orderStream(orderId), command, handlerContext, known);
  }

  /** Has the key of the customer whose address the command writes, if it writes one. */
  private async sealingKey(command: OrderCommand, customerOfOrder?: string): Promise<void> {
    const sealsFor = command.type === 'PlaceOrder' ? command.data.customerId : command.type === 'ChangeAddress' ? customerOfOrder : undefined;
    if (this.keys && sealsFor !== undefined) await this.keys.sealingKey(sealsFor).catch((error: unknown) => {
      if (!(error instanceof UnknownCustomer && command.type === 'PlaceOrder')) throw error;
    });
  }

  private meta(viewer: Viewer) {
    return { now: this.clock().toISOString(), principal: viewer.sub };
  }
}

/**
 * A customer's token may never record a shipment, a receipt, a refund or an edit, whatever scopes
 * it carries (HTTP-CONTRACT "Orders after payment"): refused before the order is read, so that
 * the answer is the same for its own order, another's and an unknown one.
 */
function staffOnly(viewer: Viewer, what: string): void {
  if (!isStaff(viewer)) throw new Forbidden(`A customer token cannot ${what}.`);
}

/** Each SKU of either map with its two targets (none: nothing held, nothing shipped). */
function union(a: ReadonlyMap<string, StockTarget>, b: ReadonlyMap<string, StockTarget>): Map<string, [StockTarget, StockTarget]> {
  const none = { reserved: 0, shipped: 0 };
  return new Map([...new Set([...a.keys(), ...b.keys()])].map((sku) => [sku, [a.get(sku) ?? none, b.get(sku) ?? none]]));
}

/** `/lines/<i>/…` of the added lines, as the place of that line in the whole request. */
function repoint(pointer: string, added: readonly SkuQuantity[], all: readonly SkuQuantity[]): string {
  return pointer.replace(/^\/lines\/(\d+)/, (_, i: string) => `/lines/${all.indexOf(added[Number(i)]!)}`);
}

function skusOf(lines: readonly { readonly sku: string }[]): string[] {
  return [...new Set(lines.map((line) => line.sku))];
}

/** A placed line as the command that placed it carried it (its name is null only on orders from before the catalogue). */
function catalogued({ sku, name, quantity, unitPrice }: OrderLine): CataloguedLine {
  return { sku, name: name ?? '', quantity, unitPrice };
}
