// The stock reconciler: repairs what a crash can leave between an order's stream and its SKUs'
// streams, which no single append can change together. It follows the log (order and stock
// streams) from its checkpoint in the read store, ORPHAN_AFTER behind the head, and for each
//  - reservation: when its order was never placed, gives the placement up (a no_stream append
//    to the order's stream, which a late OrderPlaced then fails against) and releases it;
//    otherwise settles it to what the order says (orders/rules.ts, stockTargets): what
//    shipped committed, what was cancelled, edited away or never the order's released. An edit's
//    raise whose edit never came (the order is still below the revision the raise was fenced at)
//    is released past its fence;
//  - cancellation, shipment or edit: settles the order's reservations the same way;
//  - return received: puts its restocked units back on hand (once per return and SKU).
// A repair only lowers and commits, never reserves more.
// Every step is idempotent (the deciders append nothing twice), so a restart that runs a part of
// the log again changes nothing, and the checkpoint moves only past what was handled.
// A reservation whose order's OrderPlaced, naming its SKU, comes later in the same batch is its
// placed order's, and whatever happens to the order since (a cancellation, a shipment) is an event
// of its own, handled where it stands: so a placement costs the reconciler no read of its order.
// It runs on the thread that serves requests, so it lets that thread serve them between batches.
import type { ReadModelStore } from '../read-side/read-store.js';
import { serviceViewer } from '../write-side/kernel/access.js';
import type { EventStore, Position, RecordedEvent } from '../write-side/kernel/event-store.js';
import type { OrderService, OrderSnapshot } from '../write-side/orders/service.js';
import type { WriteContext } from '../write-side/kernel/write-context.js';
import { ORDER_STREAM_PREFIX } from '../write-side/orders/codec.js';
import { decodeStoredOrderEvent } from '../write-side/orders/personal-data.js';
import { releaseReason, stockTargetsOf } from '../write-side/orders/rules.js';
import type { Reservations } from '../write-side/stock/service.js';
import { decodeStockEvent, isStockEvent, STOCK_STREAM_PREFIX } from '../write-side/stock/codec.js';

export const RECONCILER_CHECKPOINT = 'stock-reconciler';
/** The order events after which the order's stock is settled (or, for a receipt, restocked). */
const SETTLED_AFTER = new Set(['OrderCancelled', 'ShipmentCreated', 'OrderEdited', 'ReturnReceived']);
/** The longest the reconciler keeps the thread before it lets requests be served (then again after each batch). */
const SLICE_MS = 2;
/**
 * How often, at most, a pass stores how far it got (and once more at its end). The write waits
 * on the thread that serves requests for any commit of the projections under way: stored after
 * every batch, a pass over the placements of a busy half minute held that thread some 90 ms a
 * second. A pass cut off by a crash runs its last second again, which changes nothing.
 */
const CHECKPOINT_EVERY_MS = 1_000;
const PRINCIPAL = 'service:stock-reconciler';

export interface StockReconcilerOptions {
  /**
   * How old a reservation must be before a missing order counts as never placed: a placement
   * still under way appends its order well within it (the request timeout is 10 s).
   */
  readonly orphanAfterMs?: number;
  readonly intervalMs?: number;
  /** Events read at once: a reservation whose order's OrderPlaced falls in the next batch costs a read of the order. */
  readonly batchSize?: number;
  readonly clock?: () => Date;
  /** When this process started (now by default): see runOnce. */
  readonly startedAt?: Date;
  readonly onError?: (error: unknown) => void;
  /**
   * Asked before each pass: false skips it (the next comes after intervalMs). The `all` role
   * holds the passes back while its projections catch up: a first pass over a log with history
   * reads all of it on the thread that serves requests, the probes among them.
   */
  readonly mayRun?: () => Promise<boolean>;
}

/** The options that are plain numbers: what another thread can be started with. */
export type StockReconcilerTimings = Pick<StockReconcilerOptions, 'orphanAfterMs' | 'intervalMs' | 'batchSize'>;

export class StockReconciler {
  private readonly orphanAfterMs: number;
  private readonly intervalMs: number;
  private readonly batchSize: number;
  private readonly clock: () => Date;
  private readonly viewer = serviceViewer(PRINCIPAL);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = false;

  constructor(
    private readonly events: EventStore,
    private readonly readModels: ReadModelStore,
    private readonly orders: OrderService,
    private readonly stock: Reservations,
    options: StockReconcilerOptions = {},
  ) {
    this.orphanAfterMs = options.orphanAfterMs ?? 30_000;
    this.intervalMs = options.intervalMs ?? 5_000;
    this.batchSize = options.batchSize ?? 250;
    this.clock = options.clock ?? (() => new Date());
    this.onError = options.onError ?? (() => undefined);
    this.startedAt = options.startedAt?.getTime() ?? Date.now();
    this.mayRun = options.mayRun ?? null;
  }

  private readonly mayRun: (() => Promise<boolean>) | null;

  private readonly startedAt: number;

  private readonly onError: (error: unknown) => void;

  start(): void {
    this.stopped = false;
    const tick = () => {
      this.running = (this.mayRun ? this.mayRun() : Promise.resolve(true))
        .then((may) => (may ? this.runOnce() : 0))
        .catch((error: unknown) => this.onError(error))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, this.intervalMs);
        });
    };
    tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /**
   * Handles every event recorded at least orphanAfterMs ago and not handled yet; how many it
   * handled. Nothing is due in the first orphanAfterMs after the start: a placement cut off by the
   * last stop gets that long to be retried before it counts as never placed.
   */
  async runOnce(): Promise<number> {
    const now = this.clock().getTime();
    if (now - this.startedAt < this.orphanAfterMs) return 0;
    const cutoff = now - this.orphanAfterMs;
    let after = await this.readModels.processCheckpoint(RECONCILER_CHECKPOINT);
    let handled = 0;
    let unsaved: Position | null = null;
    let savedAt = now;
    for (;;) {
      const batch = await this.events.readAll({ after, maxCount: this.batchSize, streamPrefixes: [STOCK_STREAM_PREFIX, ORDER_STREAM_PREFIX] });
      const due = batch.findIndex((event) => event.recordedAt.getTime() > cutoff);
      const ready = due === -1 ? batch : batch.slice(0, due);
      const placed = reservationsOfPlacedOrders(ready);
      let slice = performance.now();
      for (const event of ready) {
        if (placed.has(event)) continue;
        await this.handle(event);
        if (performance.now() - slice > SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          slice = performance.now();
        }
      }
      handled += ready.length;
      const last = ready.at(-1);
      if (last) after = unsaved = last.position;
      const done = due !== -1 || batch.length < this.batchSize || this.stopped;
      if (unsaved && (done || this.clock().getTime() - savedAt >= CHECKPOINT_EVERY_MS)) {
        await this.readModels.saveProcessCheckpoint(RECONCILER_CHECKPOINT, unsaved);
        unsaved = null;
        savedAt = this.clock().getTime();
      }
      if (done) return handled;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private async handle(recorded: RecordedEvent): Promise<void> {
    const context: WriteContext = { correlationId: `stock-reconciler:${recorded.position}`, causationId: null };
    if (recorded.streamName.startsWith(STOCK_STREAM_PREFIX)) {
      if (!isStockEvent(recorded)) return;
      const event = decodeStockEvent(recorded);
      if (event.type !== 'StockReserved') return;
      const { orderId, sku } = event.data;
      const snapshot = await this.orders.get(this.viewer, orderId);
      if (!snapshot && (await this.orders.abandon(this.viewer, orderId, context))) {
        await this.stock.release(orderId, [sku], 'order-abandoned', this.stockContext(context));
        return;
      }
      // Not abandoned: placed meanwhile, and read again. An edit's raise names the revision its edit would have.
      const order = snapshot ?? (await this.orders.get(this.viewer, orderId));
      if (!order) return;
      const orphaned = event.data.orderRevision !== undefined && order.revision < event.data.orderRevision;
      // A placement's reservation of a SKU its order holds is the order's own: whatever became of it
      // since (a shipment, a cancellation, an edit) is an event of its own, settled where it stands.
      // Settling it here too would only decide nothing, on the SKU's stream read again. An edit's
      // raise is settled (the edit may have failed after it).
      if (event.data.orderRevision === undefined && order.order.lines.some((line) => line.sku === sku)) return;
      await this.settle([sku], context, order, orphaned);
      return;
    }
    if (!recorded.streamName.startsWith(ORDER_STREAM_PREFIX) || !SETTLED_AFTER.has(recorded.type)) return;
    const orderId = recorded.streamName.slice(ORDER_STREAM_PREFIX.length);
    const snapshot = await this.orders.get(this.viewer, orderId);
    if (!snapshot) return;
    const event = decodeStoredOrderEvent(recorded);
    if (event.type === 'ReturnReceived') {
      await this.orders.restock(this.viewer, snapshot.order, event.data.returnId, context);
      return;
    }
    // An edit's SKUs before it too: those it removed are released.
    const before = event.type === 'OrderEdited' ? event.data.before.map((line) => line.sku) : [];
    await this.settle([...before, ...snapshot.order.lines.map((line) => line.sku)], context, snapshot, false);
  }

  /** Brings the order's reservations of `skus` in line with the order (none where it does not hold the SKU). */
  private async settle(skus: readonly string[], context: WriteContext, snapshot: OrderSnapshot | null, force: boolean): Promise<void> {
    if (!snapshot) return;
    const { order, revision } = snapshot;
    const held = new Set(order.lines.map((line) => line.sku));
    const why = releaseReason(order);
    const reason = why === 'order-edited' && !skus.every((sku) => held.has(sku)) ? 'not-in-order' : why;
    const targets = stockTargetsOf(order, skus);
    await this.stock.settle(order.id, targets, { reason, orderRevision: revision, raise: false, force }, this.stockContext(context));
  }

  private stockContext(context: WriteContext) {
    return { principal: PRINCIPAL, correlationId: context.correlationId, causationId: null };
  }
}

/** The reservations in `batch` whose order's OrderPlaced, naming the reservation's SKU, comes after them in it. */
function reservationsOfPlacedOrders(batch: readonly RecordedEvent[]): Set<RecordedEvent> {
  const placedSkus = new Map<string, ReadonlySet<string>>();
  const reservations = new Set<RecordedEvent>();
  for (let i = batch.length - 1; i >= 0; i--) {
    const recorded = batch[i]!;
    if (recorded.type === 'OrderPlaced' && recorded.streamName.startsWith(ORDER_STREAM_PREFIX)) {
      const event = decodeStoredOrderEvent(recorded);
      if (event.type === 'OrderPlaced') placedSkus.set(event.data.orderId, new Set(event.data.lines.map((line) => line.sku)));
    } else if (recorded.type === 'StockReserved' && recorded.streamName.startsWith(STOCK_STREAM_PREFIX) && isStockEvent(recorded)) {
      const event = decodeStockEvent(recorded);
      if (event.type === 'StockReserved' && placedSkus.get(event.data.orderId)?.has(event.data.sku)) reservations.add(recorded);
    }
  }
  return reservations;
}
