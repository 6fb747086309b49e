// Opening what a process needs while a store cannot be reached yet (a MongoDB replica set still
// electing, an EventStoreDB cluster starting beside the service): the step is retried with
// backoff, and the process stays up and says why it waits, instead of exiting and leaving the
// orchestrator to restart it in a loop. Any other failure (a wrong password, a bad database
// name) is not retried: it ends the start, as before.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { StoreUnavailable } from '../write-side/kernel/errors.js';

/** The waits between attempts: doubling from 1 s, at most 10 s (an attempt itself takes up to the driver's 2 s server selection). */
export function retryDelayMs(attempt: number): number {
  return Math.min(10_000, 1_000 * 2 ** Math.min(attempt, 10));
}

export interface UntilReachableOptions {
  readonly logger: Logger;
  /** Told each failure's message: what /health/ready says while the process waits. */
  readonly onWaiting?: (reason: string) => void;
  /** The wait before attempt `attempt + 1` (a test's shorter one). */
  readonly delayMs?: (attempt: number) => number;
}

export async function untilReachable<T>(what: string, step: () => Promise<T>, options: UntilReachableOptions): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (!(error instanceof StoreUnavailable)) throw error;
      const retryInMs = (options.delayMs ?? retryDelayMs)(attempt);
      options.onWaiting?.(error.message);
      options.logger.warn({ err: error, retryInMs }, `${what}: a store cannot be reached; retrying`);
      await sleep(retryInMs);
    }
  }
}
