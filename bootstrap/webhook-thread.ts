// The workers' thread of the `all` role (WEBHOOK_THREAD, on by default): the webhook deliveries,
// the stock reconciler and the payment timeout, in a worker thread of the same process.
// - Reading the log, building, signing and sending messages then competes with nothing on the
//   thread that serves the requests, which at a steady 200 orders/s left a delivery waiting seconds
//   for its turn (docs/benchmarks.md, bench:webhooks).
// - So does the stock reconciler's pass over the placements of the half minute before, which on
//   the requests' thread cost a read about 1.3 µs more (docs/benchmarks.md, session 31).
// The thread opens the stores itself, as the projections' thread does; the embedded event store
// wakes it at each commit of this process. A thread that dies is started again; its subscriptions'
// leases pass on as any worker's, and the reconciler resumes from its checkpoint.
import type { Logger } from 'pino';
import { Worker } from 'node:worker_threads';
import type { Config } from './config.js';
import { threadEntry } from './projector-thread.js';
import type { StockReconcilerTimings } from '../workers/stock-reconciler.js';

export type ToWebhookThread = { readonly kind: 'erased'; readonly subject: string; readonly at: string } | { readonly kind: 'stop' };

export interface WebhookThread {
  /** Settles once the thread's services are open and its worker started, or after `withinMs`. */
  started(withinMs: number): Promise<void>;
  /** Tells the thread of an erasure made here, at once. */
  erased(subject: string, at: Date): void;
  stop(): Promise<void>;
}

export interface WebhookThreadOptions {
  readonly restartMs?: number;
  /** false: the thread runs no stock reconciler and no payment timeout; else the reconciler's timings (a test's). */
  readonly stockWorkers?: false | StockReconcilerTimings;
}

/** What the thread is started with. */
export interface WebhookThreadData {
  readonly config: Config;
  readonly stockWorkers: false | StockReconcilerTimings;
}

export function startWebhookThread(config: Config, logger: Logger, options: WebhookThreadOptions = {}): WebhookThread {
  let worker: Worker;
  let stopping = false;
  let restart: NodeJS.Timeout | null = null;
  let firstStart!: () => void;
  const first = new Promise<void>((resolve) => (firstStart = resolve));
  const start = () => {
    const entry = threadEntry(new URL(`./webhook-thread-main.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url));
    const workerData: WebhookThreadData = { config, stockWorkers: options.stockWorkers ?? {} };
    worker = 'file' in entry ? new Worker(entry.file, { workerData }) : new Worker(entry.code, { eval: true, workerData });
    worker.on('message', (message: unknown) => {
      if (message === 'started') firstStart();
    });
    worker.on('error', (error) => logger.error({ err: error }, 'the workers\' thread failed'));
    worker.on('exit', (code) => {
      if (stopping) return;
      const restartMs = options.restartMs ?? 1000;
      logger.error({ code, restartInMs: restartMs }, 'the workers\' thread stopped; starting it again');
      restart = setTimeout(() => {
        restart = null;
        start();
      }, restartMs);
    });
  };
  start();
  const post = (message: ToWebhookThread) => {
    if (worker.threadId !== -1) worker.postMessage(message);
  };
  return {
    started: async (withinMs) => {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([first, new Promise((resolve) => (timer = setTimeout(resolve, withinMs)))]);
      clearTimeout(timer);
    },
    erased: (subject, at) => post({ kind: 'erased', subject, at: at.toISOString() }),
    stop: async () => {
      stopping = true;
      if (restart) clearTimeout(restart);
      if (worker.threadId === -1) return;
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      post({ kind: 'stop' });
      // The attempts under way end within their deadline (10 s); past a grace beyond it the thread is stopped where it is.
      const grace = setTimeout(() => void worker.terminate(), 15_000);
      await exited;
      clearTimeout(grace);
    },
  };
}
