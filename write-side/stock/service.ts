// Stock on the write side: adjustments, and the reservations that orders hold. Each SKU is a
// stream of its own, decided by the pure stock decider and appended at the revision it was read
// at. Commands for one SKU queue up in this process and are decided together, in arrival order,
// on the SKU's folded state, then appended in one append: a hot SKU costs one append for many
// buyers, and requests of one process never race each other for its revision.
// The folded state is kept between commands (with the store's change stamp, as orders are), so
// a SKU with a long history costs no more to sell than a fresh one. A process that has not folded
// the SKU yet starts from its last snapshot (see `snapshotIfDue` for when and why inline) and
// reads only the events after it.
import { LRUCache } from 'lru-cache';
import { MAX_ATTEMPTS } from '../kernel/command-handler.js';
import { isStaff, serviceViewer, type Viewer } from '../kernel/access.js';
import { ConcurrencyExhausted, Forbidden, IdempotencyKeyReused, InsufficientStock, type ShortLine } from '../kernel/errors.js';
import { AppendTicket, RevisionConflict, type EventMetadata, type EventStore, type ExpectedRevision, type NewEvent, type Position } from '../kernel/event-store.js';
import { heldKey, keyId, takeKey, type IdempotencyRequest } from '../kernel/idempotency.js';
import { ProductService } from '../catalogue/service.js';
import { decodeStockEvent, encodeStockEvent, stockStream } from './codec.js';
import { available, decideStock, evolveStock, initialStock, reservationOf } from './decider.js';
import { decodeStockSnapshotParts, encodeStockSnapshotParts, snapshotFits, snapshotSpan, stockSnapshotStream, type StockSnapshot } from './snapshot.js';
import type { AdjustmentReason, ReleaseReason, Stock, StockAdjusted, StockCommand, StockEvent } from './types.js';

/** Who puts a received return's units back on hand: the key of each restock is this principal's. */
const RESTOCKING = 'service:returns';

/** The id of the adjustment that a restock under `key` makes (for the auditor, which looks for each once). */
export const restockAdjustmentId = (key: string): string => keyId(RESTOCKING, key);

/** Who acts, and for which request: the metadata of the events a command appends. */
export interface StockContext {
  readonly principal: string;
  readonly correlationId: string;
  readonly causationId: string | null;
}

/**
 * A SKU's low-stock threshold as the catalogue has it now (0: none): what a command that may lower
 * the SKU's available units carries to the decider (stock.low). The catalogue's ProductService,
 * which reads it from its kept folds.
 */
export interface LowStockThresholds {
  lowStockThreshold(sku: string): Promise<number>;
}

/** A line to reserve; `lowStockThreshold`, its SKU's as the caller read it already (a placement's pricing), or it is read here. */
export interface ReservedLine {
  readonly sku: string;
  readonly quantity: number;
  readonly lowStockThreshold?: number;
}

/**
 * Called, when a reservation passes it, as soon as every line's reservation is decided and its
 * append is on its way to the store, with the tickets of those appends: an append made after them
 * (AppendOptions.after, the order's) is written only with them, and need not wait for their answer.
 * Not called when a line is refused or no append was made; `reserve`'s outcome is still the one
 * to await in every case.
 */
export type Following = (after: readonly AppendTicket[]) => void;

/** What placing, cancelling and shipping an order need of the stock. */
export interface Reservations {
  /**
   * Reserves every line's quantity for the order, all or none: on a short line the reservations
   * it took are released and InsufficientStock names every short line. A reservation the order
   * already holds is kept as it is, so a retried placement never reserves twice.
   */
  reserve(orderId: string, lines: readonly ReservedLine[], context: StockContext, following?: Following): Promise<void>;
  /** Releases what the order holds of these SKUs; nothing where it holds nothing. */
  release(orderId: string, skus: readonly string[], reason: ReleaseReason, context: StockContext): Promise<void>;
  /**
   * Brings the order's stock of each SKU to what the order says (`targets`, from the order's
   * stockTargets): what it shipped in all deducted from stock on hand, what remains to ship held.
   * Repeatable: a settle done already changes nothing, so a crash between an order's event and
   * this is repaired by running it again. A SKU that needs more reserved than is available fails
   * with InsufficientStock; with `allOrNone`, the SKUs settled by this call are then settled back
   * to `allOrNone` (their targets before) and nothing is left changed.
   */
  settle(orderId: string, targets: ReadonlyMap<string, StockTarget>, how: SettleHow, context: StockContext, allOrNone?: ReadonlyMap<string, StockTarget>): Promise<void>;
}

/**
 * How a settle goes: `orderRevision`, the order revision its targets are of (a settle of an older
 * one than a settle applied before changes nothing); `raise`, whether it may reserve more (an
 * edit's raise, a request's settle after its append) or only lower and commit (the reconciler's
 * repairs); `force`, applied whatever the fence.
 */
export interface SettleHow {
  readonly reason: ReleaseReason;
  readonly orderRevision: number;
  readonly raise: boolean;
  readonly force?: boolean;
}

/** What an order should hold of a SKU: `reserved` still held, `shipped` deducted from stock on hand in all. */
export interface StockTarget {
  readonly reserved: number;
  readonly shipped: number;
}

/** A SKU's levels as the API represents them. */
export interface StockLevels {
  readonly sku: string;
  readonly onHand: number;
  readonly reserved: number;
  readonly available: number;
  readonly updatedAt: string | null;
  /** The SKU stream's revision; null while it has no event. */
  readonly revision: number | null;
}

export interface AdjustmentResult {
  readonly adjustment: StockAdjusted['data'];
  readonly levels: StockLevels;
  readonly position: Position | null;
  readonly replayed: boolean;
}

export interface StockServiceOptions {
  readonly clock?: () => Date;
  /**
   * Whether a SKU has stock at all. Every product has stock (0 on hand until received); until the
   * catalogue exists, every well-formed SKU is one. The one place that decides it.
   */
  readonly hasStock?: (sku: string) => Promise<boolean>;
  /** Where a command that may lower a SKU's available units gets its threshold; the products of the same store by default. */
  readonly thresholds?: LowStockThresholds;
  /** Folded state kept, in units of one SKU plus one per live reservation. */
  readonly foldedBudget?: number;
  /**
   * A snapshot is written once the stream has this many events past the last one known, or as
   * many as the SKU has live reservations if that is more (so a snapshot never costs more to
   * write than the events it saves reading). Infinity writes none; they are still read.
   */
  readonly snapshotEvery?: number;
  /** Told when a snapshot could not be written (nothing else depends on it). */
  readonly onSnapshotError?: (error: unknown) => void;
}

interface Folded {
  readonly stock: Stock;
  readonly revision: number | null;
  readonly position: Position | null;
  /** The store's change stamp taken before the read this came from; undefined after an own append. */
  readonly stamp: number | undefined;
  /** Made by this process's own append: current unless another process has appended since. */
  readonly own?: true;
}

interface Queued {
  readonly command: StockCommand;
  readonly metadata: Omit<EventMetadata, 'schemaVersion'>;
  /**
   * Runs just before the command's events are appended at `fromRevision` (an adjustment takes its
   * key there, noting the revision); alone in its batch.
   */
  readonly before?: (fromRevision: number) => Promise<void>;
  /** Called once the command is decided on the SKU's state, before its append (which may still fail and decide it again). */
  readonly decided?: () => void;
  /** Called with the ticket of the first append that carries the command's events (which may still fail and decide it again). */
  submitted?: ((ticket: AppendTicket) => void) | undefined;
  resolve(outcome: Decided): void;
  reject(error: unknown): void;
}

interface Decided {
  readonly events: readonly StockEvent[];
  readonly stock: Stock;
  readonly revision: number | null;
  readonly position: Position | null;
}

const MAX_BATCH = 256;
const FOLD_PAGE = 10_000;
/**
 * The events a cold fold reads past a snapshot, at most (while the live reservations are fewer):
 * about 100 event decodes, a few ms, against one snapshot append per 100 events.
 */
export const STOCK_SNAPSHOT_EVERY = 100;
/** Snapshots kept per SKU: the last one is read; the ones before it only outlive a torn write. */
const SNAPSHOTS_KEPT = 3;
/**
 * The snapshot stream's max count is set with its first snapshot and again every so many, which
 * mends a first setting lost in a crash without a metadata write for every snapshot.
 */
const SNAPSHOT_LIMIT_EVERY = 64;
const SNAPSHOT_METADATA = { principal: 'stock-service', correlationId: 'stock-snapshot', causationId: null };

export class StockService implements Reservations {
  private readonly clock: () => Date;
  private readonly hasStock: (sku: string) => Promise<boolean>;
  private readonly thresholds: LowStockThresholds;
  private readonly folded: LRUCache<string, Folded>;
  private readonly queues = new Map<string, Queued[]>();
  private readonly snapshotEvery: number;
  private readonly onSnapshotError: (error: unknown) => void;
  /** The revision of the SKU's last snapshot that this process wrote or read. */
  private readonly snapshotAt = new LRUCache<string, number>({ max: 100_000 });
  /** The max count this process last set on the SKU's snapshot stream. */
  private readonly snapshotLimit = new LRUCache<string, number>({ max: 100_000 });
  private readonly writing = new Map<string, Promise<void>>();

  constructor(
    private readonly store: EventStore,
    options: StockServiceOptions = {},
  ) {
    this.clock = options.clock ?? (() => new Date());
    this.hasStock = options.hasStock ?? (async () => true);
    // By default the products of the same store, made when first asked (most stock services are given theirs).
    let products: ProductService | null = null;
    this.thresholds = options.thresholds ?? { lowStockThreshold: (sku) => (products ??= new ProductService(store, { clock: this.clock })).lowStockThreshold(sku) };
    // Bounded by size alone (every fold weighs at least 1): a `max` would have the cache allocate a slot
    // for each of a million folds when made (some 35 MB and 80 ms), where a shop folds as many as it has SKUs.
    this.folded = new LRUCache<string, Folded>({ maxSize: options.foldedBudget ?? 1_000_000, sizeCalculation: (f) => 1 + f.stock.live.size });
    this.snapshotEvery = options.snapshotEvery ?? STOCK_SNAPSHOT_EVERY;
    this.onSnapshotError = options.onSnapshotError ?? (() => {});
  }

  /** Resolves once the snapshots being written are written or given up: before the store closes, and in tests. */
  async idle(): Promise<void> {
    while (this.writing.size > 0) await Promise.all(this.writing.values());
  }

  /** The SKU's levels, always current (folded from its stream); null for a SKU that has no stock. Staff only. */
  async get(viewer: Viewer, sku: string): Promise<StockLevels | null> {
    confine(viewer);
    if (!(await this.hasStock(sku))) return null;
    const folded = await this.load(sku);
    return levels(sku, folded.stock, folded.revision);
  }

  /**
   * Adjusts the stock on hand by `delta`. Keyed: the adjustment's id is its key's, and a retry of
   * the same request answers the first outcome, found in the SKU's stream.
   */
  async adjust(
    viewer: Viewer,
    sku: string,
    input: { delta: number; reason: AdjustmentReason; note: string | null },
    context: { correlationId: string; causationId?: string | null; idempotency: IdempotencyRequest },
  ): Promise<AdjustmentResult | null> {
    confine(viewer);
    if (!(await this.hasStock(sku))) return null;
    const { idempotency } = context;
    const adjustmentId = keyId(viewer.sub, idempotency.key);
    const { holder, fromRevision } = await heldKey(this.store, viewer.sub, idempotency);
    if (holder === 'another') throw new IdempotencyKeyReused();
    if (holder === 'this') {
      const first = await this.findAdjustment(sku, adjustmentId, fromRevision ?? 0);
      if (first) return { ...first, replayed: true };
    }
    const metadata = { principal: viewer.sub, correlationId: context.correlationId, causationId: context.causationId ?? null, idempotency };
    // Only a decrease can take the SKU below its threshold: an increase reads none.
    const lowStockThreshold = input.delta < 0 ? await this.thresholds.lowStockThreshold(sku) : 0;
    const command: StockCommand = { type: 'AdjustStock', data: { sku, adjustmentId, ...input, lowStockThreshold }, metadata: this.meta() };
    const before = async (fromRevision: number) => void (await takeKey(this.store, { ...metadata, target: stockStream(sku), fromRevision }));
    const decided = await this.submit(sku, command, metadata, before);
    const event = decided.events[0];
    if (event?.type !== 'StockAdjusted') throw new Error('an adjustment recorded no StockAdjusted');
    return { adjustment: event.data, levels: levels(sku, decided.stock, decided.revision), position: decided.position, replayed: false };
  }

  /**
   * A received return's units back on hand: an adjustment with reason `returned`, made by the
   * service under `key` (the return's and the SKU's), so that however often it is asked (the
   * receipt, then the reconciler after a crash) it is made once. A SKU without stock (a product
   * retired since) takes nothing back.
   */
  async restock(sku: string, units: number, key: string, note: string, context: StockContext): Promise<void> {
    await this.adjust(serviceViewer(RESTOCKING), sku, { delta: units, reason: 'returned', note }, { correlationId: context.correlationId, causationId: context.causationId, idempotency: { key, fingerprint: key } });
  }

  async reserve(orderId: string, lines: readonly ReservedLine[], context: StockContext, following?: Following): Promise<void> {
    // One reservation per SKU, in SKU order: two orders over the same SKUs reserve them in the
    // same order, so one of them always gets through (no livelock of mutual releases). A SKU is
    // held once its reservation is decided on the SKU's state in this process (the commands after
    // it decide on that state), so the next SKU is tried then, without waiting for the append:
    // the appends of all the lines go to the store together, and are all awaited before the order.
    const wanted = new Map<string, { quantity: number; lines: number[]; lowStockThreshold: number | undefined }>();
    lines.forEach((line, i) => {
      const entry = wanted.get(line.sku) ?? { quantity: 0, lines: [], lowStockThreshold: undefined };
      wanted.set(line.sku, { quantity: entry.quantity + line.quantity, lines: [...entry.lines, i], lowStockThreshold: entry.lowStockThreshold ?? line.lowStockThreshold });
    });
    const skus = [...wanted.keys()].sort();
    // A placement's lines bring the thresholds its pricing read: only the others are read here
    // (and a placement's first line is not held back by even a tick for none).
    const unknown = skus.filter((sku) => wanted.get(sku)!.lowStockThreshold === undefined);
    const thresholds = unknown.length > 0 ? await this.thresholdsOf(unknown) : new Map<string, number>();
    const tried: Array<{ sku: string; appended: Promise<Decided>; ticket: Promise<AppendTicket | null> }> = [];
    for (const sku of skus) {
      const { quantity } = wanted.get(sku)!;
      const lowStockThreshold = wanted.get(sku)!.lowStockThreshold ?? thresholds.get(sku)!;
      let decided!: () => void;
      const held = new Promise<void>((resolve) => (decided = resolve));
      let submitted!: (ticket: AppendTicket) => void;
      const ticketed = new Promise<AppendTicket>((resolve) => (submitted = resolve));
      const appended = this.submit(sku, { type: 'ReserveStock', data: { sku, orderId, quantity, lowStockThreshold }, metadata: this.meta() }, context, undefined, decided, following && submitted);
      // No ticket once the command was answered without one (refused, or nothing to append).
      tried.push({ sku, appended, ticket: Promise.race([ticketed, appended.then(() => null, () => null)]) });
      // Refused, or failed before its decision: the lines after it are not tried.
      if (!(await Promise.race([held, appended]).then(() => true, () => false))) break;
    }
    if (following && tried.length === skus.length) {
      void Promise.all(tried.map(({ ticket }) => ticket)).then((tickets) => {
        if (tickets.every((ticket) => ticket !== null)) following(tickets);
      });
    }
    const outcomes = await Promise.allSettled(tried.map(({ appended }) => appended));
    const failures = outcomes.flatMap((outcome, i) => (outcome.status === 'rejected' ? [{ sku: tried[i]!.sku, error: outcome.reason as unknown }] : []));
    if (failures.length === 0) return;
    // A failure other than a short line (the store) leaves what was reserved to the reconciler.
    const other = failures.find(({ error }) => !(error instanceof InsufficientStock));
    if (other) throw other.error;
    const short: ShortLine[] = [];
    const name = (s: string, availableNow: number) => {
      for (const i of wanted.get(s)!.lines) short.push({ pointer: `/lines/${i}/quantity`, message: `${s}: ${wanted.get(s)!.quantity} asked in all, ${availableNow} available`, available: availableNow });
    };
    for (const { sku, error } of failures) name(sku, (error as InsufficientStock).errors[0]?.available ?? 0);
    // The lines not tried are named too, when they are short as well.
    for (const rest of skus.slice(tried.length)) {
      const { stock } = await this.load(rest);
      if (reservationOf(stock.live, orderId) === undefined && wanted.get(rest)!.quantity > available(stock)) name(rest, available(stock));
    }
    short.sort((a, b) => a.pointer.localeCompare(b.pointer, 'en', { numeric: true }));
    await this.release(orderId, tried.filter((_, i) => outcomes[i]!.status === 'fulfilled').map(({ sku }) => sku), 'placement-failed', context);
    throw new InsufficientStock(short);
  }

  async release(orderId: string, skus: readonly string[], reason: ReleaseReason, context: StockContext): Promise<void> {
    await Promise.all([...new Set(skus)].map((sku) => this.submit(sku, { type: 'ReleaseReservation', data: { sku, orderId, reason }, metadata: this.meta() }, context)));
  }

  async settle(orderId: string, targets: ReadonlyMap<string, StockTarget>, how: SettleHow, context: StockContext, allOrNone?: ReadonlyMap<string, StockTarget>): Promise<void> {
    const skus = [...targets.keys()].sort();
    // Only a settle that may reserve more can lower what is available (a commit leaves it, a release raises it).
    const thresholds = how.raise ? await this.thresholdsOf(skus) : new Map<string, number>();
    const settle = (sku: string, { reserved, shipped }: StockTarget) =>
      this.submit(sku, { type: 'SettleReservation', data: { sku, orderId, reserved, shipped, ...how, lowStockThreshold: thresholds.get(sku) ?? 0 }, metadata: this.meta() }, context);
    const outcomes = await Promise.allSettled(skus.map((sku) => settle(sku, targets.get(sku)!)));
    const failures = outcomes.flatMap((outcome, i) => (outcome.status === 'rejected' ? [{ sku: skus[i]!, error: outcome.reason as unknown }] : []));
    if (failures.length === 0) return;
    const other = failures.find(({ error }) => !(error instanceof InsufficientStock));
    if (other || !allOrNone) throw (other ?? failures[0]!).error;
    // Back to where they were: what this call raised is released again (nothing it did stays).
    await Promise.all(skus.filter((_, i) => outcomes[i]!.status === 'fulfilled').map((sku) => settle(sku, allOrNone.get(sku) ?? { reserved: 0, shipped: 0 })));
    throw new InsufficientStock(failures.flatMap(({ sku, error }) => (error as InsufficientStock).errors.map((e) => ({ ...e, pointer: sku }))));
  }

  /** Each SKU's low-stock threshold, read from the catalogue at once. */
  private async thresholdsOf(skus: readonly string[]): Promise<Map<string, number>> {
    return new Map(await Promise.all(skus.map(async (sku) => [sku, await this.thresholds.lowStockThreshold(sku)] as const)));
  }

  /** What the order holds of the SKU (for the reconciler and the auditor's tools). */
  async held(orderId: string, sku: string): Promise<number | undefined> {
    return reservationOf((await this.load(sku)).stock.live, orderId);
  }

  /**
   * The first run's adjustment, looked for only when the same request took its key before (a
   * retry), from the revision its key noted: it was appended there, or later after a conflict.
   */
  private async findAdjustment(sku: string, adjustmentId: string, fromRevision: number): Promise<Omit<AdjustmentResult, 'replayed'> | null> {
    for (const recorded of await this.store.readStream(stockStream(sku), { fromRevision })) {
      const event = decodeStockEvent(recorded);
      if (event.type === 'StockAdjusted' && event.data.adjustmentId === adjustmentId) {
        const { onHand, reserved } = event.data;
        return { adjustment: event.data, levels: { sku, onHand, reserved, available: available({ onHand, reserved }), updatedAt: event.data.adjustedAt, revision: recorded.revision }, position: recorded.position };
      }
    }
    return null;
  }

  /** Queues the command behind the SKU's others and resolves with what it decided, once appended. */
  private submit(
    sku: string,
    command: StockCommand,
    metadata: Omit<EventMetadata, 'schemaVersion'>,
    before?: (fromRevision: number) => Promise<void>,
    decided?: () => void,
    submitted?: (ticket: AppendTicket) => void,
  ): Promise<Decided> {
    return new Promise<Decided>((resolve, reject) => {
      const queue = this.queues.get(sku);
      const item: Queued = { command, metadata, ...(before ? { before } : {}), ...(decided ? { decided } : {}), submitted, resolve, reject };
      if (queue) {
        queue.push(item);
        return;
      }
      this.queues.set(sku, [item]);
      void this.drain(sku);
    });
  }

  private async drain(sku: string): Promise<void> {
    const queue = this.queues.get(sku)!;
    while (queue.length > 0) {
      // A command with work before its append runs alone; the others go together.
      const alone = queue[0]!.before !== undefined;
      const end = alone ? 1 : queue.findIndex((item, i) => i >= MAX_BATCH || item.before !== undefined);
      const batch = queue.splice(0, end === -1 ? queue.length : end);
      await this.decideAndAppend(sku, batch);
    }
    this.queues.delete(sku);
  }

  /**
   * Decides the batch on the SKU's state and appends at the revision decided on. The state this
   * process's own last append left is decided on without reading the stream: had another process
   * appended since, the append's revision check fails and the next attempt reads. A decision that
   * appends nothing (a refusal, a no-op) has no such check, so one made on that unread state is
   * made again on the stream as read.
   */
  private async decideAndAppend(sku: string, batch: readonly Queued[]): Promise<void> {
    let trustOwn = true;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      let current: Folded;
      const kept = trustOwn ? this.folded.get(sku) : undefined;
      const unread = kept?.own === true;
      trustOwn = false;
      try {
        current = unread ? kept! : await this.load(sku);
      } catch (error) {
        for (const item of batch) item.reject(error);
        return;
      }
      let stock = current.stock;
      const outcomes: Array<{ item: Queued; events: StockEvent[]; stock: Stock } | { item: Queued; error: unknown }> = [];
      const events: NewEvent[] = [];
      for (const item of batch) {
        try {
          const decided = decideStock(item.command, stock);
          for (const event of decided) stock = evolveStock(stock, event);
          outcomes.push({ item, events: decided, stock });
          events.push(...decided.map((event) => encodeStockEvent(event, item.metadata)));
          item.decided?.();
        } catch (error) {
          outcomes.push({ item, error });
        }
      }
      if (unread && outcomes.some((outcome) => 'error' in outcome || outcome.events.length === 0)) {
        attempt--; // not a conflict: the same attempt, on the stream as read
        continue;
      }
      let revision = current.revision;
      let position = current.position;
      if (events.length > 0) {
        try {
          for (const item of batch) await item.before?.((current.revision ?? -1) + 1);
          // The ticket only for the commands whose events this append carries: a refused one gets none.
          const carried = outcomes.flatMap((outcome) => ('events' in outcome && outcome.events.length > 0 && outcome.item.submitted ? [outcome.item] : []));
          const ticket = carried.length > 0 ? new AppendTicket() : undefined;
          const append = this.store.appendToStream(stockStream(sku), events, current.revision ?? 'no_stream', ticket && { ticket });
          const appending = ticket ? ticket.tracked(append) : append;
          for (const item of carried) item.submitted!(ticket!), (item.submitted = undefined);
          const appended = await appending;
          revision = appended.nextRevision;
          position = appended.position;
          const folded: Folded = { stock, revision, position, stamp: undefined, own: true };
          this.folded.set(sku, folded);
          this.snapshotIfDue(sku, folded);
        } catch (error) {
          if (error instanceof RevisionConflict) continue;
          for (const item of batch) item.reject(error);
          return;
        }
      }
      for (const outcome of outcomes) {
        if ('error' in outcome) outcome.item.reject(outcome.error);
        else outcome.item.resolve({ events: outcome.events, stock: outcome.stock, revision, position });
      }
      return;
    }
    for (const item of batch) item.reject(new ConcurrencyExhausted(stockStream(sku), MAX_ATTEMPTS));
  }

  /**
   * The SKU folded from its stream. Kept once folded: a later load folds only the events appended
   * since, and none at all while the store's change stamp shows that nothing was appended. A SKU
   * not kept starts from its last snapshot when one fits the stream, else from the start.
   */
  private async load(sku: string): Promise<Folded> {
    const stamp = await this.store.changeStamp?.();
    const cached = this.folded.get(sku);
    if (cached && stamp !== undefined && cached.stamp === stamp) return cached;
    const folded =
      (cached && (await this.foldOn(sku, cached, stamp, null))) ??
      (await this.fromSnapshot(sku, stamp)) ??
      (await this.foldOn(sku, { stock: initialStock(sku), revision: null, position: null }, stamp, null))!;
    this.folded.set(sku, folded);
    this.snapshotIfDue(sku, folded);
    return folded;
  }

  /** The SKU folded on from its last snapshot; null when there is none this build can trust. */
  private async fromSnapshot(sku: string, stamp: number | undefined): Promise<Folded | null> {
    let snapshot;
    try {
      const stream = stockSnapshotStream(sku);
      const last = await this.store.readLastEvent(stream);
      const span = last && snapshotSpan(last);
      // A snapshot in parts is read back from its last part: the parts before it, in one read.
      const recorded = !last || !span ? [] : span === 1 ? [last] : await this.store.readStream(stream, { fromRevision: last.revision - span + 1, toRevision: last.revision });
      snapshot = recorded.length === span ? decodeStockSnapshotParts(recorded, sku) : null;
    } catch {
      return null; // a snapshot that cannot be read is no snapshot; the fold from the start says whether the store can be
    }
    if (!snapshot) return null;
    const folded = await this.foldOn(sku, { ...snapshot, position: null }, stamp, snapshot);
    if (folded) this.snapshotAt.set(sku, snapshot.revision);
    return folded;
  }

  /**
   * `from` folded on with the events after its revision, in pages: a first fold of a long stream
   * never holds more than one page of its events. From a snapshot, the read starts at the
   * snapshot's own revision (which gives that event's position), and unless the event there is the
   * one the snapshot ends on, the answer is null: the stream is not the one it was taken of.
   */
  private async foldOn(sku: string, from: Omit<Folded, 'stamp'>, stamp: number | undefined, snapshot: StockSnapshot | null): Promise<Folded | null> {
    let { stock, revision, position } = from;
    let check = snapshot;
    for (;;) {
      const start = check ? check.revision : revision === null ? 0 : revision + 1;
      const recorded = await this.store.readStream(stockStream(sku), { fromRevision: start, toRevision: start + FOLD_PAGE - 1 });
      let fresh = recorded;
      if (check) {
        const own = recorded[0];
        if (own?.revision !== check.revision || !snapshotFits(check, decodeStockEvent(own))) return null;
        position = own.position;
        fresh = recorded.slice(1);
        check = null;
      }
      for (const r of fresh) stock = evolveStock(stock, decodeStockEvent(r));
      const last = fresh.at(-1);
      if (last) {
        revision = last.revision;
        position = last.position;
      }
      if (recorded.length < FOLD_PAGE) break;
    }
    return { stock, revision, position, stamp };
  }

  /**
   * Writes the folded state as the SKU's snapshot once enough events have gathered since the last.
   * Inline, by the process that holds the state just proved current (its own append passed the
   * revision check, or it has just read the stream), rather than by a worker: that costs one
   * append and no read, whereas a worker would fold every SKU stream a second time, lag the log,
   * and write nothing while it is not running. It is not awaited by the command that caused it (a
   * buyer never waits for it), and its loss in a crash only makes the next cold fold longer.
   */
  private snapshotIfDue(sku: string, folded: Folded): void {
    const { revision, stock } = folded;
    if (revision === null || this.writing.has(sku)) return;
    if (revision - (this.snapshotAt.get(sku) ?? -1) < Math.max(this.snapshotEvery, stock.live.size)) return;
    // Counted as written from now on: a store that refuses it is not asked again at every command.
    this.snapshotAt.set(sku, revision);
    const stream = stockSnapshotStream(sku);
    // Started once the command's caller has gone on (an order placement to its order's append), so
    // that its next append is queued first and never waits behind this one's commit.
    const write = new Promise((resolve) => setImmediate(resolve)).then(async () => {
      try {
        const parts = encodeStockSnapshotParts({ stock, revision }, SNAPSHOT_METADATA);
        // Every part of the last few snapshots is kept; a limit below a snapshot's parts would drop its first ones.
        const keep = SNAPSHOTS_KEPT * parts.length;
        let limitDue = keep > (this.snapshotLimit.get(sku) ?? SNAPSHOTS_KEPT);
        if (limitDue) await this.setSnapshotLimit(sku, stream, keep), (limitDue = false);
        // Each part alone, under the store's append limit; each after the one before, or (another
        // process's snapshot in between) the snapshot is given up, and that process's stands.
        let expected: ExpectedRevision = 'any';
        for (const part of parts) {
          const appended = await this.store.appendToStream(stream, [part], expected);
          expected = appended.nextRevision;
          limitDue ||= appended.nextRevision % SNAPSHOT_LIMIT_EVERY === 0;
        }
        if (limitDue) await this.setSnapshotLimit(sku, stream, keep);
      } catch (error) {
        if (!(error instanceof RevisionConflict)) this.onSnapshotError(error);
      } finally {
        this.writing.delete(sku);
      }
    });
    this.writing.set(sku, write);
  }

  private async setSnapshotLimit(sku: string, stream: string, keep: number): Promise<void> {
    await this.store.setMaxCount(stream, keep);
    this.snapshotLimit.set(sku, keep);
  }

  private meta() {
    return { now: this.clock().toISOString() };
  }
}

/** Stock belongs to no single customer: a customer's token is refused, whatever its scopes. */
function confine(viewer: Viewer): void {
  if (!isStaff(viewer)) throw new Forbidden('Stock belongs to no single customer: a customer token cannot read or change it.');
}

function levels(sku: string, stock: Stock, revision: number | null): StockLevels {
  return { sku, onHand: stock.onHand, reserved: stock.reserved, available: available(stock), updatedAt: stock.updatedAt, revision };
}

