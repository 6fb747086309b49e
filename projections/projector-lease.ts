// The projector role's single runner: the projectors run only while this process holds the
// lease in the read store. A standby keeps asking for it and takes over once the holder has
// released it (a clean stop) or stopped renewing it (a crash). Two projectors running at once
// for a moment change nothing (every view write is revision-guarded, checkpoints only move
// forward); the lease keeps it from lasting.
import type { ReadModelStore } from '../read-side/read-store.js';

export const PROJECTOR_LEASE = 'projector';

export interface Runnable {
  start(): void;
  stop(): Promise<void>;
}

export interface ProjectorLeaseOptions {
  /** This process, as the lease names it. */
  readonly holder: string;
  /** How long the lease lasts without a renewal: how long a standby waits after a crash. */
  readonly ttlMs: number;
  /** Said when this process starts or stops projecting. */
  readonly onChange?: (holding: boolean) => void;
  readonly onError?: (error: unknown) => void;
}

export class ProjectorLease {
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private held = false;
  /** Until when the lease is surely ours: the last successful renewal's start, plus the time to live. */
  private heldUntil = 0;

  constructor(
    private readonly readModels: ReadModelStore,
    private readonly projectors: readonly Runnable[],
    private readonly options: ProjectorLeaseOptions,
  ) {}

  get holding(): boolean {
    return this.held;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops projecting and releases the lease, so that a standby takes over at once. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    // Renewed three times per lease: two renewals may fail (a busy store) before it lapses.
    const everyMs = Math.max(10, Math.floor(this.options.ttlMs / 3));
    while (this.running) {
      const asked = Date.now();
      let granted: boolean;
      try {
        granted = await this.readModels.acquireLease(PROJECTOR_LEASE, this.options.holder, this.options.ttlMs);
        if (granted) this.heldUntil = asked + this.options.ttlMs;
      } catch (error) {
        this.options.onError?.(error);
        // Unknown: still ours until the last renewal runs out.
        granted = this.held && Date.now() < this.heldUntil - everyMs;
      }
      if (!this.running) break;
      if (granted !== this.held) await this.switchTo(granted);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, everyMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
    if (this.held) {
      await this.switchTo(false);
      await this.readModels.releaseLease(PROJECTOR_LEASE, this.options.holder).catch((error: unknown) => this.options.onError?.(error));
    }
  }

  private async switchTo(holding: boolean): Promise<void> {
    this.held = holding;
    if (holding) this.projectors.forEach((p) => p.start());
    else await Promise.all(this.projectors.map((p) => p.stop()));
    this.options.onChange?.(holding);
  }
}
