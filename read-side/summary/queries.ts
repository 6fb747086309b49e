// The store at a glance (GET /summary), read from the projections made or kept for it, every read
// an index range: the daily sales, the orders' views (awaiting payment, waiting to ship), the
// fulfilment queue (the oldest payment waiting), the returns, the low-stock views and the webhook
// deliveries. Staff only; each figure only for a viewer with the scope of the list behind it.
// A follower (a long-poll) is answered when a figure changes: see follow().
import { createHash } from 'node:crypto';
import { isStaff, type Viewer } from '../../write-side/kernel/access.js';
import { Forbidden } from '../../write-side/kernel/errors.js';
import type { Position } from '../../write-side/kernel/event-store.js';
import { comparePositions } from '../../write-side/kernel/position.js';
import type { Consistency } from '../kernel/consistency.js';
import { queuePage } from '../orders/queries.js';
import { returnPage } from '../orders/returns.js';
import { salesDaysPage, utcDay, type SalesDay } from '../orders/sales.js';
import type { OrderView, QueueEntry } from '../orders/views.js';
import type { ReturnView } from '../orders/returns.js';
import type { Condition, ReadModelStore } from '../read-store.js';
import { BELOW_THRESHOLD, mostPressingPage } from '../stock/queries.js';
import type { StockView } from '../stock/views.js';
import type { SubscriptionView } from '../webhooks/views.js';
import type { StoreSummary } from './views.js';

/** The projections the figures come from. */
export type SummarySource = 'daily-sales' | 'order-views' | 'fulfilment-queue' | 'returns' | 'stock' | 'webhook-subscriptions' | 'webhook-deliveries';

/** Days in the sales chart, today included. */
export const SALES_DAYS = 30;
/** SKUs below their threshold shown by name, fewest available first. */
export const MOST_PRESSING = 5;
/** How long a follower lets a burst of events land, once the views moved, before it reads the figures again. */
export const FOLLOW_SETTLE_MS = 200;
const DAY_MS = 86_400_000;
const SUBSCRIPTIONS_PAGE = 100;
/** The subscriptions whose deliveries are counted: those not deleted. */
const LISTED_SUBSCRIPTIONS = ['active', 'paused', 'disabled'] as const;

export interface SummaryAnswer {
  readonly summary: StoreSummary;
  /** The log position every figure includes (the least of its sources'): the answer's Consistency-Token. */
  readonly reflects: Position;
  /** The figures' fingerprint, without asOf and the ages, which change with the clock alone: the answer's ETag. */
  readonly fingerprint: string;
}

export interface SummaryRequest {
  /** A write's Consistency-Token: the figures then include that write. */
  readonly consistencyToken?: string;
}

export interface FollowRequest extends SummaryRequest {
  /** The fingerprint of the figures the follower has: the answer waits until they differ. */
  readonly since?: string;
  readonly waitMs: number;
  readonly signal?: AbortSignal;
}

/** The figures read at some positions of their sources, and what they were read for. */
interface Read {
  readonly summary: StoreSummary;
  readonly positions: ReadonlyMap<SummarySource, Position>;
  readonly fingerprint: string;
}

export class SummaryQueries {
  /** The figures last read for each kind of viewer (its visible figures and day), at the positions they were read at. */
  private readonly latest = new Map<string, { readonly key: string; readonly read: Promise<Read> }>();

  constructor(
    private readonly store: ReadModelStore,
    private readonly consistency: Readonly<Record<SummarySource, Consistency>>,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** The figures now, including the write of `consistencyToken` when one is given. */
  async summary(viewer: Viewer, request: SummaryRequest = {}): Promise<SummaryAnswer> {
    return answer(await this.read(viewer, request.consistencyToken));
  }

  /**
   * The figures as soon as their fingerprint is not `since` (at once when it is not, or when none
   * is given), or after `waitMs` as they are then (the same fingerprint: nothing changed). It waits
   * for any source's views to move on, lets the burst settle (FOLLOW_SETTLE_MS), reads the figures
   * again, and goes on waiting while they are the same. A UTC midnight in the wait is a change (today is another day).
   */
  async follow(viewer: Viewer, request: FollowRequest): Promise<SummaryAnswer> {
    const deadline = Date.now() + request.waitMs;
    let read = await this.read(viewer, request.consistencyToken);
    while (request.since !== undefined && read.fingerprint === request.since && !request.signal?.aborted) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      const untilMidnight = DAY_MS - (this.clock().getTime() % DAY_MS);
      const moved = await this.moved(read.positions, Math.min(left, untilMidnight), request.signal);
      if (request.signal?.aborted) break;
      if (!moved && untilMidnight >= left) break;
      if (moved) await pause(Math.min(FOLLOW_SETTLE_MS, Math.max(0, deadline - Date.now())), request.signal);
      read = await this.read(viewer);
    }
    return answer(read);
  }

  /** Whether any source's views move past the positions the figures were read at, within `timeoutMs`. */
  private async moved(positions: ReadonlyMap<SummarySource, Position>, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    const stop = new AbortController();
    const abandon = () => stop.abort();
    signal?.addEventListener('abort', abandon, { once: true });
    try {
      // The first source to move answers; when none does within the time, every wait gives up (false).
      return await new Promise<boolean>((resolve) => {
        let waiting = positions.size;
        for (const [source, position] of positions) {
          void this.consistency[source].waitPast(position, timeoutMs, stop.signal).then((moved) => {
            if (moved) resolve(true);
            else if (--waiting === 0) resolve(false);
          });
        }
      });
    } finally {
      stop.abort();
      signal?.removeEventListener('abort', abandon);
    }
  }

  private async read(viewer: Viewer, consistencyToken?: string): Promise<Read> {
    if (!isStaff(viewer)) throw new Forbidden('The store at a glance belongs to no single customer: a customer token cannot read it.');
    const visible = { stock: viewer.scopes.has('stock:read'), webhooks: viewer.scopes.has('webhooks:admin') };
    const sources: SummarySource[] = ['daily-sales', 'order-views', 'fulfilment-queue', 'returns'];
    if (visible.stock) sources.push('stock');
    if (visible.webhooks) sources.push('webhook-subscriptions', 'webhook-deliveries');
    // Each source's position, once its views include the write of the token: the figures are read after.
    const reached = await Promise.all(sources.map(async (source) => [source, await this.consistency[source].reflect(consistencyToken)] as const));
    const positions = new Map(reached);
    const now = this.clock();
    const today = utcDay(now);
    // Viewers of the same figures share a read while no source has moved since (and the day is the same).
    const kind = `${visible.stock}:${visible.webhooks}`;
    const key = `${today}:${reached.map(([, position]) => position).join(':')}`;
    const last = this.latest.get(kind);
    if (last?.key === key) return retimed(await last.read, now);
    const read = this.figures(visible, today, now).then((summary) => ({ summary, positions, fingerprint: fingerprintOf(summary) }));
    this.latest.set(kind, { key, read });
    read.catch(() => {
      if (this.latest.get(kind)?.read === read) this.latest.delete(kind);
    });
    return read;
  }

  private async figures(visible: { readonly stock: boolean; readonly webhooks: boolean }, today: string, now: Date): Promise<StoreSummary> {
    const from = utcDay(new Date(Date.parse(today) - (SALES_DAYS - 1) * DAY_MS));
    const status = (value: OrderView['status']): Condition[] => [{ field: 'status', op: '=', value }];
    const [days, pending, [oldestPending], paid, partiallyShipped, [oldestQueued], requested, [oldestReturn], lowStock, failedDeliveries] = await Promise.all([
      this.store.page<SalesDay>('daily-sales', salesDaysPage(from, today)),
      this.store.count('order-views', status('pending')),
      this.store.page<OrderView>('order-views', { where: status('pending'), order: { by: ['createdAt'], direction: 'asc' }, limit: 1 }),
      this.store.count('order-views', status('paid')),
      this.store.count('order-views', status('partially_shipped')),
      this.store.page<QueueEntry>('fulfilment-queue', queuePage(null, 1)),
      this.store.count('returns', [{ field: 'status', op: '=', value: 'requested' }]),
      this.store.page<ReturnView>('returns', returnPage('requested', null, 1)),
      visible.stock ? this.lowStock() : null,
      visible.webhooks ? this.failedDeliveries() : null,
    ]);
    const byDay = new Map(days.map((day) => [day.day, day]));
    const salesDays = Array.from({ length: SALES_DAYS }, (_, i) => {
      const date = utcDay(new Date(Date.parse(from) + i * DAY_MS));
      const day = byDay.get(date);
      const sales = Object.entries(day?.currencies ?? {})
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([currency, { payments, refunds }]) => ({ currency, payments, refunds, net: payments - refunds }));
      return { date, ordersPlaced: day?.ordersPlaced ?? 0, sales };
    });
    const age = (since: string) => ({ ageSeconds: ageSeconds(since, now) });
    return {
      asOf: now.toISOString(),
      timeZone: 'UTC',
      sales: { from, to: today, currencies: [...new Set(salesDays.flatMap((day) => day.sales.map((s) => s.currency)))].sort(), days: salesDays, href: '/orders?sort=-createdAt' },
      ordersPlacedToday: { count: byDay.get(today)?.ordersPlaced ?? 0, href: '/orders?sort=-createdAt' },
      awaitingPayment: {
        count: pending,
        oldest: oldestPending ? { orderId: oldestPending.id, placedAt: oldestPending.createdAt, ...age(oldestPending.createdAt) } : null,
        href: '/orders?status=pending&sort=createdAt',
      },
      awaitingShipment: {
        count: paid + partiallyShipped,
        paid: { count: paid, href: '/orders?status=paid&sort=createdAt' },
        partiallyShipped: { count: partiallyShipped, href: '/orders?status=partially_shipped&sort=createdAt' },
        oldest: oldestQueued?.paidAt ? { orderId: oldestQueued.orderId, paidAt: oldestQueued.paidAt, ...age(oldestQueued.paidAt) } : null,
        href: '/fulfilment-queue',
      },
      returnsAwaitingReceipt: {
        count: requested,
        oldest: oldestReturn ? { returnId: oldestReturn.id, orderId: oldestReturn.orderId, requestedAt: oldestReturn.createdAt, ...age(oldestReturn.createdAt) } : null,
        href: '/returns?status=requested',
      },
      lowStock,
      failedDeliveries,
    };
  }

  private async lowStock(): Promise<NonNullable<StoreSummary['lowStock']>> {
    const [count, pressing] = await Promise.all([this.store.count('stock', BELOW_THRESHOLD), this.store.page<StockView>('stock', mostPressingPage(MOST_PRESSING))]);
    const mostPressing = pressing.map(({ sku, name, available, lowStockThreshold }) => ({ sku, name, available, lowStockThreshold, href: `/stock/${encodeURIComponent(sku)}` }));
    return { count, mostPressing, href: '/stock?belowThreshold=true' };
  }

  /** Per subscription not deleted, its deliveries that failed for good (one index range each); those with none left out. */
  private async failedDeliveries(): Promise<NonNullable<StoreSummary['failedDeliveries']>> {
    // A status at a time, each an index range in order (an IN of the three would be sorted in memory), newest first then.
    const subscriptions: SubscriptionView[] = [];
    for (const status of LISTED_SUBSCRIPTIONS) {
      for (let page: SubscriptionView[] = []; ; ) {
        const last = page.at(-1);
        page = await this.store.page<SubscriptionView>('webhook-subscriptions', {
          where: [{ field: 'status', op: '=', value: status }],
          order: { by: ['createdAt'], direction: 'desc' },
          after: last ? { values: [last.createdAt], key: last.id } : null,
          limit: SUBSCRIPTIONS_PAGE,
        });
        subscriptions.push(...page);
        if (page.length < SUBSCRIPTIONS_PAGE) break;
      }
    }
    subscriptions.sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1));
    const counted = await Promise.all(
      subscriptions.map(async ({ id, url, status }) => ({
        subscriptionId: id,
        url,
        status,
        count: await this.store.count('webhook-deliveries', [
          { field: 'subscriptionId', op: '=', value: id },
          { field: 'status', op: '=', value: 'failed' },
        ]),
        href: `/webhook-subscriptions/${id}/deliveries?status=failed`,
      })),
    );
    const failing = counted.filter((subscription) => subscription.count > 0);
    return { count: failing.reduce((sum, s) => sum + s.count, 0), subscriptions: failing, href: '/webhook-subscriptions' };
  }
}

function answer(read: Read): SummaryAnswer {
  let reflects: Position | null = null;
  for (const position of read.positions.values()) if (reflects === null || comparePositions(position, reflects) < 0) reflects = position;
  return { summary: read.summary, reflects: reflects!, fingerprint: read.fingerprint };
}

function ageSeconds(since: string, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - Date.parse(since)) / 1000));
}

/** The figures with asOf and the ages of the oldest items as of `now`. */
function retimed(read: Read, now: Date): Read {
  const { summary } = read;
  const aged = <T extends { readonly ageSeconds: number } | null>(oldest: T, since: (o: NonNullable<T>) => string): T =>
    (oldest === null ? null : { ...oldest, ageSeconds: ageSeconds(since(oldest as NonNullable<T>), now) }) as T;
  return {
    ...read,
    summary: {
      ...summary,
      asOf: now.toISOString(),
      awaitingPayment: { ...summary.awaitingPayment, oldest: aged(summary.awaitingPayment.oldest, (o) => o.placedAt) },
      awaitingShipment: { ...summary.awaitingShipment, oldest: aged(summary.awaitingShipment.oldest, (o) => o.paidAt) },
      returnsAwaitingReceipt: { ...summary.returnsAwaitingReceipt, oldest: aged(summary.returnsAwaitingReceipt.oldest, (o) => o.requestedAt) },
    },
  };
}

/** What identifies the figures: everything but the time they were read at, and the ages, which move with it. */
function fingerprintOf(summary: StoreSummary): string {
  const text = JSON.stringify(summary, (key, value: unknown) => (key === 'asOf' || key === 'ageSeconds' ? undefined : value));
  return createHash('sha256').update(text).digest('base64url').slice(0, 27);
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

