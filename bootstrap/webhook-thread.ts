// The webhook deliveries of the `all` role, in a worker thread of the same process (WEBHOOK_THREAD,
// on by default): reading the log, building, signing and sending messages then competes with
// nothing on the thread that serves the requests, which at a steady 200 orders/s left a delivery
// waiting seconds for its turn (docs/benchmarks.md, bench:webhooks). The thread opens the stores
// itself, as the projections' thread does; the embedded event store wakes it at each commit of this
// process. A thread that dies is started again; its subscriptions' leases pass on as any worker's.
import type { Logger } from 'pino';
import { Worker } from 'node:worker_threads';
import type { Config } from './config.js';
import { threadEntry } from './projector-thread.js';

export type ToWebhookThread = { readonly kind: 'erased'; readonly subject: string; readonly at: string } | { readonly kind: 'stop' };

export interface WebhookThread {
  /** Settles once the thread's services are open and its worker started, or after `withinMs`. */
  started(withinMs: number): Promise<void>;
  /** Tells the thread of an erasure made here, at once. */
  erased(subject: string, at: Date): void;
  stop(): Promise<void>;
}

export function startWebhookThread(config: Config, logger: Logger, options: { readonly restartMs?: number } = {}): WebhookThread {
  let worker: Worker;
  let stopping = false;
  let restart: NodeJS.Timeout | null = null;
  let firstStart!: () => void;
  const first = new Promise<void>((resolve) => (firstStart = resolve));
  const start = () => {
    const entry = threadEntry(new URL(`./webhook-thread-main.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url));
    worker = 'file' in entry ? new Worker(entry.file, { workerData: { config } }) : new Worker(entry.code, { eval: true, workerData: { config } });
    worker.on('message', (message: unknown) => {
      if (message === 'started') firstStart();
    });
    worker.on('error', (error) => logger.error({ err: error }, 'the webhook deliveries\' thread failed'));
    worker.on('exit', (code) => {
      if (stopping) return;
      const restartMs = options.restartMs ?? 1000;
      logger.error({ code, restartInMs: restartMs }, 'the webhook deliveries\' thread stopped; starting it again');
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
