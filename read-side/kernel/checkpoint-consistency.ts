// Consistency-Token waits answered from the read store's checkpoints, for an API process that
// runs no projector: another process writes the views and the checkpoint, this one polls it.
import type { Position } from '../../write-side/kernel/event-store.js';
import { comparePositions } from '../../write-side/kernel/position.js';
import type { ProjectionName, ReadModelStore } from '../read-store.js';

export interface CheckpointConsistencyOptions {
  /** How often the checkpoint is read while a request waits for a position. */
  readonly pollMs?: number;
  /** How often it is read otherwise, so that answers without a wait carry a recent token. */
  readonly idleMs?: number;
}

interface Waiter {
  readonly position: Position;
  resolve(reached: boolean): void;
}

export class CheckpointConsistency {
  private current: Position | null = null;
  private readonly waiters = new Set<Waiter>();
  private polling: Promise<void> | null = null;
  private idle: NodeJS.Timeout | null = null;
  private readonly pollMs: number;
  private readonly idleMs: number;

  constructor(
    private readonly readModels: ReadModelStore,
    readonly name: ProjectionName,
    options: CheckpointConsistencyOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 10;
    this.idleMs = options.idleMs ?? 250;
  }

  /** The log position the views include, as last read: never ahead of them. */
  get position(): Position | null {
    return this.current;
  }

  /** Reads the checkpoint now in the background every `idleMs`, until stop(). */
  start(): void {
    if (this.idle) return;
    void this.refresh().catch(() => {});
    this.idle = setInterval(() => void this.refresh().catch(() => {}), this.idleMs);
    this.idle.unref();
  }

  stop(): void {
    if (this.idle) clearInterval(this.idle);
    this.idle = null;
    for (const waiter of this.waiters) waiter.resolve(false);
  }

  /** Reads the active generation's checkpoint. */
  async refresh(): Promise<Position | null> {
    const generation = await this.readModels.activeGeneration(this.name);
    // Read before the page the request then reads: the views include at least this much.
    this.current = await this.readModels.views(this.name, generation).checkpoint();
    for (const waiter of this.waiters) if (this.reached(waiter.position)) waiter.resolve(true);
    return this.current;
  }

  /** Resolves true once the views include `position`, false after `timeoutMs` or when `signal` aborts. */
  waitFor(position: Position, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.reached(position)) return Promise.resolve(true);
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const abandon = () => waiter.resolve(false);
      const waiter: Waiter = {
        position,
        resolve: (reached) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', abandon);
          this.waiters.delete(waiter);
          resolve(reached);
        },
      };
      const timer = setTimeout(abandon, timeoutMs);
      signal?.addEventListener('abort', abandon, { once: true });
      this.waiters.add(waiter);
      this.polling ??= this.poll().finally(() => (this.polling = null));
    });
  }

  /** One loop for all the waiting requests: a read every `pollMs` while any waits. */
  private async poll(): Promise<void> {
    while (this.waiters.size > 0) {
      // A read that fails (the store briefly unavailable) is tried again; the waits are bounded by their own timers.
      await this.refresh().catch(() => {});
      if (this.waiters.size > 0) await new Promise((r) => setTimeout(r, this.pollMs));
    }
  }

  private reached(position: Position): boolean {
    return this.current !== null && comparePositions(this.current, position) >= 0;
  }
}
