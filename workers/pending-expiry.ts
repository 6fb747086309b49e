// Cancels the orders left unpaid past PENDING_ORDER_TTL_SECONDS (reason payment-timeout) and
// releases their stock. Driven by the order views (pending orders, oldest first, placed before
// the cut-off): what it has not done yet is still there after a restart, and what it did is
// not done again, since the order decider expires only a pending order.
import { orderPage, type OrderKey } from '../read-side/orders/queries.js';
import type { OrderView } from '../read-side/orders/views.js';
import type { ReadModelStore } from '../read-side/read-store.js';
import { serviceViewer } from '../write-side/kernel/access.js';
import type { OrderService } from '../write-side/orders/service.js';

/** Who cancels an order left unpaid (the events' principal). */
export const PAYMENT_TIMEOUT_PRINCIPAL = 'service:payment-timeout';
/** The context of the order's expiry: one correlation id per order, caused by no request. */
export const expiryContext = (orderId: string) => ({ correlationId: `payment-timeout:${orderId}`, causationId: null });
const PAGE = 100;

export interface PendingExpiryOptions {
  readonly ttlMs: number;
  readonly intervalMs?: number;
  readonly clock?: () => Date;
  readonly onError?: (error: unknown) => void;
}

export class PendingOrderExpiry {
  private readonly viewer = serviceViewer(PAYMENT_TIMEOUT_PRINCIPAL);
  private readonly clock: () => Date;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = false;

  constructor(
    private readonly readModels: ReadModelStore,
    private readonly orders: OrderService,
    private readonly options: PendingExpiryOptions,
  ) {
    this.clock = options.clock ?? (() => new Date());
  }

  start(): void {
    this.stopped = false;
    const intervalMs = this.options.intervalMs ?? Math.min(10_000, Math.max(250, this.options.ttlMs / 4));
    const tick = () => {
      this.running = this.runOnce()
        .catch((error: unknown) => this.options.onError?.(error))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, intervalMs);
        });
    };
    tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** Expires every pending order placed before now − TTL; how many it cancelled. */
  async runOnce(): Promise<number> {
    const createdTo = new Date(this.clock().getTime() - this.options.ttlMs).toISOString();
    let cancelled = 0;
    let after: OrderKey | null = null;
    for (;;) {
      const page: OrderView[] = await this.readModels.page<OrderView>('order-views', orderPage({ status: 'pending', createdTo }, 'asc', after, PAGE));
      for (const view of page) {
        const result = await this.orders.expire(this.viewer, view.id, expiryContext(view.id));
        if (result.events.length > 0) cancelled++;
      }
      const last = page.at(-1);
      if (!last || page.length < PAGE || this.stopped) return cancelled;
      after = { createdAt: last.createdAt, id: last.id };
    }
  }
}
