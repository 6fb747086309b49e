// Whether the service is ready (/health/ready): its stores answer, no projection is stuck, and
// every projection of this process has caught up once (from then on it stays ready while behind).
import type { ProjectionProgress } from './projector.js';

/** What cannot move on ("projection order-views", "the projections' thread"), since when, and why. */
export interface Stuck {
  readonly what: string;
  readonly since: Date;
  readonly error: unknown;
}

export class Readiness {
  private caughtUp = false;

  constructor(
    private readonly options: {
      /** The projections of this process, however they run (here, in its thread, in another process). */
      readonly progress: Readonly<Record<string, ProjectionProgress>>;
      /** The first projection that cannot move on; null while all are well (or where another process reports its own). */
      readonly failing: () => Stuck | null;
      /** Reads that fail when a store does not answer. */
      readonly stores: ReadonlyArray<() => Promise<unknown>>;
    },
  ) {}

  /** Every projection of this process caught up, once: from then on the service is ready. */
  async caughtUpOnce(): Promise<boolean> {
    if (!this.caughtUp) await this.behind();
    return this.caughtUp;
  }

  async check(): Promise<void> {
    for (const store of this.options.stores) await store();
    const failing = this.options.failing();
    if (failing) {
      const reason = failing.error instanceof Error ? failing.error.message : String(failing.error);
      throw new Error(`${failing.what} cannot move on since ${failing.since.toISOString()}: ${reason}`);
    }
    if (this.caughtUp) return;
    const behind = await this.behind();
    if (behind.length > 0) throw new Error(`projections catching up: ${behind.join(', ')}`);
  }

  /** The projections not caught up now. */
  private async behind(): Promise<string[]> {
    const statuses = await Promise.all(Object.values(this.options.progress).map((p) => p.status()));
    if (statuses.every((s) => s.caughtUp)) this.caughtUp = true;
    return statuses.filter((s) => !s.caughtUp).map((s) => s.name);
  }
}

/** The first of these projectors that cannot move on. */
export function firstFailing(projectors: ReadonlyArray<{ readonly projection: { readonly name: string }; readonly failing: { readonly since: Date; readonly error: unknown } | null }>): Stuck | null {
  for (const p of projectors) if (p.failing) return { what: `projection ${p.projection.name}`, ...p.failing };
  return null;
}
