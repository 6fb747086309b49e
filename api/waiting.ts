// Requests that wait on purpose (long-polls, SSE streams, reads waiting on a Consistency-Token)
// are capped per principal, so that one principal can never hold every MAX_IN_FLIGHT slot: past
// its cap the next answers 429 rate-limited at once. Each waiting entry point takes a slot
// with `enter` before it waits and gives it back with the release it got.
import type { Principal } from './auth.js';
import { HttpProblem } from './problem.js';

export const WAITING_PER_PRINCIPAL = 16;

export class WaitingRequests {
  private readonly held = new Map<string, number>();

  constructor(readonly perPrincipal: number = WAITING_PER_PRINCIPAL) {}

  /** A slot for the principal, or a 429 problem when it holds its cap; the release may be called more than once. */
  enter(principal: Principal): () => void {
    const key = principal.sub;
    const held = this.held.get(key) ?? 0;
    if (held >= this.perPrincipal) {
      throw new HttpProblem(429, 'rate-limited', `At most ${this.perPrincipal} requests of one principal may wait at once; let one finish first.`, {}, { 'Retry-After': '1' });
    }
    this.held.set(key, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(key) ?? 1) - 1;
      if (left === 0) this.held.delete(key);
      else this.held.set(key, left);
    };
  }

  /** The slots a principal holds (for tests and diagnostics). */
  holding(sub: string): number {
    return this.held.get(sub) ?? 0;
  }
}

/** Runs `work` holding one of the principal's waiting slots when the request may wait (`waits`). */
export async function holdingSlotIf<T>(waiting: WaitingRequests, principal: Principal, waits: boolean, work: () => Promise<T>): Promise<T> {
  const release = waits ? waiting.enter(principal) : null;
  try {
    return await work();
  } finally {
    release?.();
  }
}
