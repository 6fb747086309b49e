// The projections of the `all` role, in a worker thread of the same process: applying events to
// the views costs the thread that serves the requests nothing (about a fifth of a placement's
// CPU when it did). The thread opens the stores itself, over the same files or servers, and
// reports each position it reaches, which answers the Consistency-Token waits here at once, as
// in-process projectors did. A thread that dies is started again; meanwhile the service is not ready.
import type { Logger } from 'pino';
import { Worker } from 'node:worker_threads';
import { statusAt, type ProjectionProgress, type ProjectorStatus } from '../projections/projector.js';
import type { ProjectionName } from '../read-side/read-store.js';
import type { EventStore, Position } from '../write-side/kernel/event-store.js';
import { comparePositions } from '../write-side/kernel/position.js';
import type { Config } from './config.js';

export type ThreadMessage =
  | {
      readonly kind: 'position';
      readonly name: ProjectionName;
      readonly position: Position | null;
      readonly reachedBy: 'checkpoint' | 'batch';
      /** The projector caught up there (see Projector.caughtUp); absent: not known to be. */
      readonly caughtUp?: boolean;
    }
  | { readonly kind: 'failing'; readonly name: ProjectionName; readonly error: unknown; readonly retryInMs: number };

/** What the thread is told: to stop, or that a reader is held up for a position (Projector.hurry). */
export type ToThread = 'stop' | { readonly kind: 'hurry'; readonly name: ProjectionName; readonly position: Position; readonly forMs: number };

interface Failure {
  readonly since: Date;
  readonly error: unknown;
}

/** A projection's progress as its thread last reported it. */
class ReportedProgress implements ProjectionProgress {
  private current: Position | null = null;
  private caughtUp = false;
  /** Nothing reported yet: no wait is answered before the thread has read the checkpoint. */
  private known = false;
  failing: Failure | null = null;
  private readonly waiters = new Set<{ readonly position: Position; resolve(reached: boolean): void }>();

  constructor(
    private readonly events: EventStore,
    private readonly name: ProjectionName,
    private readonly tell: (message: ToThread) => void,
  ) {
    this.reported = new Promise((resolve) => (this.firstReport = resolve));
  }

  get position(): Position | null {
    return this.current;
  }

  /** Settles at the first report. */
  readonly reported: Promise<void>;
  private firstReport!: () => void;

  reached(position: Position | null, reachedBy: 'checkpoint' | 'batch', caughtUp: boolean): void {
    this.current = position;
    this.caughtUp = caughtUp;
    this.known = true;
    this.firstReport();
    // As an in-process projector's: a failure is over once a batch is applied, not when its retry reads the checkpoint.
    if (reachedBy === 'batch') this.failing = null;
    for (const waiter of this.waiters) if (this.includes(waiter.position)) waiter.resolve(true);
  }

  failed(error: unknown): void {
    this.failing ??= { since: new Date(), error };
  }

  waitFor(position: Position, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.includes(position)) return Promise.resolve(true);
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const abandon = () => waiter.resolve(false);
      const waiter = {
        position,
        resolve: (reached: boolean) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', abandon);
          this.waiters.delete(waiter);
          resolve(reached);
        },
      };
      const timer = setTimeout(abandon, timeoutMs);
      signal?.addEventListener('abort', abandon, { once: true });
      this.waiters.add(waiter);
    });
  }

  hurry(position: Position, forMs: number): void {
    if (!this.includes(position)) this.tell({ kind: 'hurry', name: this.name, position, forMs });
  }

  async status(): Promise<ProjectorStatus> {
    if (!this.known) return { name: this.name, position: null, caughtUp: false, lagMs: 0 };
    const status = await statusAt(this.events, this.name, this.current, this.caughtUp);
    // Nothing left to apply means nothing is failing to be applied (a read failure that has passed).
    if (status.caughtUp) this.failing = null;
    return status;
  }

  stop(): void {
    for (const waiter of this.waiters) waiter.resolve(false);
  }

  private includes(position: Position): boolean {
    return this.known && this.current !== null && comparePositions(this.current, position) >= 0;
  }
}

/** What cannot move on ("projection order-views", "the projections' thread"), since when, and why. */
export interface Stuck {
  readonly what: string;
  readonly since: Date;
  readonly error: unknown;
}

export interface ProjectorThread<N extends ProjectionName = ProjectionName> {
  readonly progress: { readonly [K in N]: ProjectionProgress };
  /** Settles once every projection has reported where it starts from (its checkpoint), or after `withinMs`, whichever is first. */
  started(withinMs: number): Promise<void>;
  /** What cannot move on (the thread itself while it is down, or the first failing projection); null while all are well. */
  failing(): Stuck | null;
  stop(): Promise<void>;
}

/** The entry the thread runs (projector-thread-main, as TypeScript under tsx, or as built). */
export function threadEntry(file: URL): { readonly code: string } | { readonly file: URL } {
  if (!file.pathname.endsWith('.ts')) return { file };
  // A worker does not inherit tsx's loader: it registers it first.
  const tsx = import.meta.resolve('tsx/esm/api');
  return { code: `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(file.href)}); });` };
}

export function startProjectorThread<N extends ProjectionName>(
  config: Config,
  events: EventStore,
  projections: { readonly [K in N]: unknown },
  logger: Logger,
  options: {
    readonly restartMs?: number;
    /** What the thread runs instead of projector-thread-main (a test's thread that dies). */
    readonly entry?: URL;
  } = {},
): ProjectorThread<N> {
  const names = Object.keys(projections) as N[];
  let worker: Worker;
  // A thread that is down or not yet started misses the hurry: its next start applies from the checkpoint at once.
  const tell = (message: ToThread) => worker.postMessage(message);
  const progress = Object.fromEntries(names.map((name) => [name, new ReportedProgress(events, name, tell)])) as {
    [K in N]: ReportedProgress;
  };
  const reported = progress as Readonly<Record<string, ReportedProgress | undefined>>;
  let down: Failure | null = null;
  let stopping = false;
  let restart: NodeJS.Timeout | null = null;
  const start = () => {
    const entry = threadEntry(options.entry ?? new URL(`./projector-thread-main.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url));
    worker = 'file' in entry ? new Worker(entry.file, { workerData: { config } }) : new Worker(entry.code, { eval: true, workerData: { config } });
    worker.on('message', (message: ThreadMessage) => {
      if (message.kind === 'position') reported[message.name]?.reached(message.position, message.reachedBy, message.caughtUp ?? false);
      else {
        reported[message.name]?.failed(message.error);
        logger.error({ err: message.error, projection: message.name, retryInMs: message.retryInMs }, 'projection failed; restarting from its checkpoint');
      }
    });
    worker.on('error', (error) => logger.error({ err: error }, 'the projections\' thread failed'));
    worker.on('exit', (code) => {
      if (stopping) return;
      down ??= { since: new Date(), error: new Error(`the projections' thread stopped (exit code ${code})`) };
      const restartMs = options.restartMs ?? 1000;
      logger.error({ code, restartInMs: restartMs }, 'the projections\' thread stopped; starting it again');
      restart = setTimeout(() => {
        restart = null;
        down = null;
        start();
      }, restartMs);
    });
  };
  start();
  return {
    progress,
    started: async (withinMs) => {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(names.map((name) => progress[name].reported)), new Promise((resolve) => (timer = setTimeout(resolve, withinMs)))]);
      clearTimeout(timer);
    },
    failing: () => {
      if (down) return { what: "the projections' thread", ...down };
      for (const name of names) {
        const failing = progress[name].failing;
        if (failing) return { what: `projection ${name}`, ...failing };
      }
      return null;
    },
    stop: async () => {
      stopping = true;
      if (restart) clearTimeout(restart);
      names.forEach((name) => progress[name].stop());
      if (worker.threadId === -1) return; // exited already
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      tell('stop');
      // A thread that cannot finish its batch within the grace is stopped where it is: the next start reads on from the checkpoint.
      const grace = setTimeout(() => void worker.terminate(), 10_000);
      await exited;
      clearTimeout(grace);
    },
  };
}
