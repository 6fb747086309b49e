// Watches an event store's writes: once an append fails because the store is unavailable, the
// store counts as unwritable until an append succeeds again. Readiness asks `check()`, which
// probes with a small write of its own while the store is unwritable, so that an instance taken
// out of a load balancer still finds out by itself when the store is back.
import { StoreUnavailable, type AppendOptions, type AppendResult, type EventStore, type ExpectedRevision, type NewEvent } from './event-store.js';

export const HEALTH_STREAM = 'health-probe';
/** A readiness probe answers within this, even while the store makes writes wait. */
const PROBE_TIMEOUT_MS = 1000;

export class StoreHealth {
  private failure: { at: Date; error: unknown } | null = null;

  constructor(private readonly store: EventStore) {}

  /** The store, with every append watched. */
  watched(): EventStore {
    const store = this.store;
    return {
      appendToStream: async (stream: string, events: readonly NewEvent[], expected: ExpectedRevision, options?: AppendOptions): Promise<AppendResult> => {
        try {
          const result = await store.appendToStream(stream, events, expected, options);
          this.failure = null;
          return result;
        } catch (error) {
          if (error instanceof StoreUnavailable) this.failure ??= { at: new Date(), error };
          throw error;
        }
      },
      readStream: (stream, options) => store.readStream(stream, options),
      readLastEvent: (stream) => store.readLastEvent(stream),
      setMaxCount: (stream, maxCount) => store.setMaxCount(stream, maxCount),
      readAll: (options) => store.readAll(options),
      subscribeToAll: (options) => store.subscribeToAll(options),
      headPosition: () => store.headPosition(),
      ...(store.endPosition ? { endPosition: () => store.endPosition!() } : {}),
      close: () => store.close(),
      ...(store.changeStamp ? { changeStamp: () => store.changeStamp!() } : {}),
    };
  }

  /** Resolves when the store can be written; rejects with the reason while it cannot. */
  async check(): Promise<void> {
    await this.store.headPosition();
    if (!this.failure) return;
    const since = this.failure.at.toISOString();
    const probe = this.store.appendToStream(
      HEALTH_STREAM,
      [{ type: 'HealthProbed', data: { at: new Date().toISOString() }, metadata: { schemaVersion: 1, principal: 'health', correlationId: 'health-probe', causationId: null } }],
      'any',
    );
    let timer: NodeJS.Timeout | undefined;
    const slow = new Promise<never>((_, reject) => (timer = setTimeout(reject, PROBE_TIMEOUT_MS, new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`))));
    try {
      await Promise.race([probe, slow]);
      this.failure = null;
    } catch (error) {
      probe.catch(() => {}); // still waiting for a lock, perhaps; its outcome no longer matters
      throw new StoreUnavailable(`the event store cannot be written since ${since}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }
}
