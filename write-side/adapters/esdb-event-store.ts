// The event store port on EventStoreDB, through @eventstore/db-client v6 (gRPC).
import { v5 as uuidv5 } from 'uuid';
import {
  ANY, BACKWARDS, END, FORWARDS, NO_STREAM, START, STREAM_EXISTS,
  CancelledError, DeadlineExceededError, MaxAppendSizeExceededError, NotLeaderError, StreamNotFoundError, TimeoutError, UnavailableError, UnknownError, WrongExpectedVersionError,
  EventStoreDBClient, convertToCommandError, jsonEvent, streamNameFilter,
  type AllStreamRecordedEvent, type AllStreamResolvedEvent, type AllStreamSubscription, type AppendExpectedRevision, type Direction,
  type RecordedEvent as EsdbRecordedEvent,
} from '@eventstore/db-client';
import {
  AppendOutcomeUnknown, AppendTooLarge, awaitPreceding, InvalidPosition, RevisionConflict, StoreUnavailable,
  type AppendOptions, type AppendResult, type EventMetadata, type EventStore, type EventSubscription, type ExpectedRevision, type JsonObject,
  type NewEvent, type Position, type ReadAllOptions, type ReadStreamOptions, type RecordedEvent, type SubscribeOptions,
} from '../kernel/event-store.js';
import { decodePosition, encodePosition, isLogPosition } from '../kernel/position.js';

/** Fixed namespace for event ids derived from an append (see eventIdFor). */
const EVENT_ID_NAMESPACE = '6f1c9b52-8d0e-4a57-9f43-2b7e0c1d5a86';

const MIN_BACKOFF_MS = 100;
/** A filtered subscription's checkpoint comes every this many of the server's search windows (of 32 events each by default). */
const CHECKPOINT_INTERVAL = 8;

/** What the adapter notes in a subscription's stream beside the events (see subscribeToAll). */
type Note = { readonly note: 'checkpoint'; readonly position: Position } | { readonly note: 'caught-up' };
const MAX_BACKOFF_MS = 5_000;

/**
 * The deadline of an append. Client 6.2.1 sends a batch append's deadline as a point in time
 * (its clock's now plus this), and the server waits at most that long by its own clock, capped
 * at its write timeout (2 s by default). The client's default of 10 s made every append time out
 * on a server whose clock is 10 s ahead; a minute tolerates a minute of skew and costs nothing,
 * since the server's own cap still applies.
 */
export const APPEND_DEADLINE_MS = 60_000;

/**
 * How long headPosition (the readiness probe's read) waits. A read has no deadline of the
 * client's own, so a server that stopped answering held it for about 20 s of gRPC keepalive,
 * longer than compose's 5 s probe timeout.
 */
export const HEAD_POSITION_TIMEOUT_MS = 2_000;

export interface EsdbEventStoreOptions {
  /** Told when a subscription dropped and is about to resubscribe. */
  readonly onSubscriptionError?: (error: unknown, retryInMs: number) => void;
  /** How long headPosition waits; HEAD_POSITION_TIMEOUT_MS unless a test says otherwise. */
  readonly headPositionTimeoutMs?: number;
}

export class EsdbEventStore implements EventStore {
  private readonly subscriptions = new Set<EventSubscription>();

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly options: EsdbEventStoreOptions = {},
  ) {
    // With it false, client 6.2.1 answers a revision conflict with a wrong actual revision
    // (bootstrap/config.ts refuses the connection string that says so). The client keeps the
    // setting behind a protected getter.
    if ((client as unknown as { throwOnAppendFailure?: boolean }).throwOnAppendFailure === false) throw new TypeError('EventStoreDB client with throwOnAppendFailure=false: this store needs revision conflicts thrown');
  }

  static connect(connectionString: string, options?: EsdbEventStoreOptions): EsdbEventStore {
    return new EsdbEventStore(EventStoreDBClient.connectionString(connectionString), options);
  }

  /** EventStoreDB appends to one stream at a time: an append that follows others (options.after) waits for their answers. */
  appendToStream(stream: string, events: readonly NewEvent[], expected: ExpectedRevision, options?: AppendOptions): Promise<AppendResult> {
    const appended = awaitPreceding(stream, options).then(() => this.appendNow(stream, events, expected));
    return options?.ticket ? options.ticket.tracked(appended) : appended;
  }

  private async appendNow(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new RangeError('appendToStream needs at least one event');
    const expectedRevision: AppendExpectedRevision =
      expected === 'no_stream' ? NO_STREAM : expected === 'stream_exists' ? STREAM_EXISTS : expected === 'any' ? ANY : BigInt(expected);
    try {
      const result = await this.client.appendToStream(
        stream,
        events.map((event, index) => {
          const id = eventIdFor(stream, expected, index, event);
          return jsonEvent({ ...(id ? { id } : {}), type: event.type, data: event.data, metadata: event.metadata });
        }),
        { expectedRevision, deadline: APPEND_DEADLINE_MS },
      );
      // Only a client with throwOnAppendFailure=false answers so, which the constructor refuses.
      if (!result.success) throw new Error(`EventStoreDB reported the append to ${stream} as failed without saying why`);
      const nextRevision = Number(result.nextExpectedRevision);
      if (!result.position) {
        // An append the server recognised as already written (same event ids at the same
        // revision) may come back without a position: the last event's own position is it.
        const [last] = await this.readStream(stream, { fromRevision: nextRevision, toRevision: nextRevision });
        if (!last) throw new Error(`EventStoreDB returned no position for the append to ${stream}`);
        return { nextRevision, position: last.position };
      }
      return { nextRevision, position: encodePosition(result.position.commit, result.position.prepare) };
    } catch (thrown) {
      const error = asCommandError(thrown);
      if (error instanceof WrongExpectedVersionError) {
        const actual = error.actualVersion === NO_STREAM ? 'no_stream' : Number(error.actualVersion);
        throw new RevisionConflict(stream, expected, actual);
      }
      throw appendError(error, stream);
    }
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const { fromRevision = 0, toRevision, recordedUntil } = options;
    if (toRevision !== undefined && toRevision < fromRevision) return [];
    const read = this.client.readStream(stream, {
      fromRevision: BigInt(fromRevision),
      ...(toRevision === undefined ? {} : { maxCount: toRevision - fromRevision + 1 }),
    });
    const out: RecordedEvent[] = [];
    try {
      for await (const { event } of read) {
        if (!event) continue;
        // A stream's events are recorded in order, so the first one too late ends the read.
        if (recordedUntil && event.created.getTime() > recordedUntil.getTime()) break;
        out.push(toRecorded(event));
      }
    } catch (thrown) {
      const error = asCommandError(thrown);
      if (error instanceof StreamNotFoundError) return [];
      throw storeError(error);
    } finally {
      await read.cancel().catch(() => undefined);
    }
    return out;
  }

  async readLastEvent(stream: string): Promise<RecordedEvent | null> {
    const read = this.client.readStream(stream, { direction: BACKWARDS, fromRevision: END, maxCount: 1 });
    try {
      for await (const { event } of read) if (event) return toRecorded(event);
      return null;
    } catch (thrown) {
      const error = asCommandError(thrown);
      if (error instanceof StreamNotFoundError) return null;
      throw storeError(error);
    } finally {
      await read.cancel().catch(() => undefined);
    }
  }

  async setMaxCount(stream: string, maxCount: number): Promise<void> {
    if (!Number.isSafeInteger(maxCount) || maxCount < 1) throw new RangeError('maxCount must be a positive integer');
    try {
      // The server hides the older events from reads at once and removes them at the next scavenge.
      await this.client.setStreamMetadata(stream, { maxCount });
    } catch (thrown) {
      throw storeError(thrown);
    }
  }

  async readAll({ after, maxCount, streamPrefixes }: ReadAllOptions): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    if (maxCount <= 0 || streamPrefixes?.length === 0) return out;
    if (streamPrefixes !== undefined) return this.readFiltered(after ?? null, maxCount, streamPrefixes);
    for await (const event of this.scanAll(FORWARDS, after ?? null, Math.max(maxCount + 1, 100))) {
      if (!matches(event.streamId, undefined)) continue;
      out.push(toRecorded(event));
      if (out.length >= maxCount) break;
    }
    return out;
  }

  /**
   * The events of some streams, filtered by the server: readAll in this client takes no filter,
   * and filtering here downloaded every event of $all between two of the streams' (the whole log
   * past a projection's last own event, or all of it when the streams have none). A catch-up
   * subscription takes one; it is read until `maxCount` events or until it has caught up with
   * the log (its caughtUp message, servers 23.10 and later), and then given up. Cost: the server
   * still reads the log from `after` to the last event it returns (or to the head when it finds
   * fewer), so O(events in between) on its disk, but it sends only the matches and nothing else.
   */
  private async readFiltered(after: Position | null, maxCount: number, streamPrefixes: readonly string[]): Promise<RecordedEvent[]> {
    if (after !== null && !isLogPosition(after)) throw new InvalidPosition(after);
    const out: RecordedEvent[] = [];
    const subscription = this.client.subscribeToAll({ fromPosition: after ? decodePosition(after) : START, filter: streamNameFilter({ prefixes: [...streamPrefixes] }) });
    subscription.on('caughtUp', () => subscription.push({ note: 'caught-up' } satisfies Note));
    try {
      for await (const item of subscription as AsyncIterable<AllStreamResolvedEvent | Note>) {
        if ('note' in item) {
          if (item.note === 'caught-up') break;
          continue;
        }
        if (!item.event || !matches(item.event.streamId, streamPrefixes)) continue;
        out.push(toRecorded(item.event));
        if (out.length >= maxCount) break;
      }
    } catch (error) {
      if (after !== null && isInvalidPosition(error)) throw new InvalidPosition(after, { cause: error });
      throw storeError(error);
    } finally {
      await subscription.unsubscribe().catch(() => undefined);
    }
    return out;
  }

  async headPosition(): Promise<Position | null> {
    // The tail of $all is mostly system events ($stats and the like), which no reader of this
    // port ever sees; the head is the last event a subscriber can reach.
    return this.lastPosition((stream) => matches(stream, undefined));
  }

  /** The last record of $all, system events included: a filtered subscription's checkpoints lie at most there. */
  async endPosition(): Promise<Position | null> {
    return this.lastPosition(() => true);
  }

  private async lastPosition(counts: (stream: string) => boolean): Promise<Position | null> {
    const timeoutMs = this.options.headPositionTimeoutMs ?? HEAD_POSITION_TIMEOUT_MS;
    // The read's own deadline ends the call on the server's side; the timer also bounds the
    // wait for a channel (a cluster's discovery), which that deadline does not cover.
    const head = (async () => {
      for await (const event of this.scanAll(BACKWARDS, null, 100, timeoutMs)) {
        if (counts(event.streamId)) return encodePosition(event.position.commit, event.position.prepare);
      }
      return null;
    })();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StoreUnavailable(`EventStoreDB unavailable: no answer to a read within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([head, late]);
    } finally {
      clearTimeout(timer);
      head.catch(() => undefined); // a read given up on ends by its deadline; its error no longer matters
    }
  }

  subscribeToAll({ after = null, streamPrefixes, onCheckpoint, onCaughtUp }: SubscribeOptions = {}): EventSubscription {
    const { client } = this;
    const onError = this.options.onSubscriptionError;
    let closed = false;
    let current: AllStreamSubscription | null = null;
    let wake: (() => void) | null = null;
    let last: Position | null = after;
    // The server filters, and every CHECKPOINT_INTERVAL windows of events it looked at it sends a
    // checkpoint: the client awaits checkpointReached inside the stream's transform, before the
    // next message, so a note pushed into the stream there lies in order with the events (read in
    // the client's streams/utils/Subscription.js, 6.2.1). The caught-up and fell-behind messages
    // are emitted there too, and noted the same way.
    const checkpoints = {
      checkpointInterval: CHECKPOINT_INTERVAL,
      checkpointReached: (subscription: AllStreamSubscription, position: { commit: bigint; prepare: bigint }) => {
        subscription.push({ note: 'checkpoint', position: encodePosition(position.commit, position.prepare) } satisfies Note);
      },
    };
    const filter =
      streamPrefixes === undefined
        ? streamNameFilter({ regex: '^[^$]', ...checkpoints })
        : streamPrefixes.length > 0
          ? streamNameFilter({ prefixes: [...streamPrefixes], ...checkpoints })
          : streamNameFilter({ regex: '^$', ...checkpoints }); // no prefix: no stream, but stay open until closed

    async function* run(): AsyncGenerator<RecordedEvent> {
      if (last !== null && !isLogPosition(last)) throw new InvalidPosition(last);
      let backoff = MIN_BACKOFF_MS;
      while (!closed) {
        // A catch-up subscription's fromPosition is exclusive: it resumes just after `last`.
        const subscription = client.subscribeToAll({ fromPosition: last ? decodePosition(last) : START, filter });
        subscription.on('caughtUp', () => subscription.push({ note: 'caught-up' } satisfies Note));
        current = subscription;
        try {
          for await (const item of subscription as AsyncIterable<AllStreamResolvedEvent | Note>) {
            if ('note' in item) {
              if (item.note === 'caught-up') onCaughtUp?.();
              else if (last === null || item.position > last) {
                // Resuming from here after a drop skips only events the filter refused.
                last = item.position;
                onCheckpoint?.(item.position);
              }
              continue;
            }
            const { event } = item;
            if (!event) continue;
            backoff = MIN_BACKOFF_MS;
            const position = encodePosition(event.position.commit, event.position.prepare);
            // Guards against redelivery should the server ever treat the resume position as inclusive.
            if ((last !== null && position <= last) || !matches(event.streamId, streamPrefixes)) continue;
            const recorded = toRecorded(event);
            last = position;
            yield recorded;
          }
          if (!closed) onError?.(new Error('subscription to $all ended'), backoff);
        } catch (error) {
          // Resubscribing would meet the same malformed event again.
          if (error instanceof MalformedEvent) throw error;
          // Nor would the server take the same position on a second try: tell the subscriber.
          if (last !== null && isInvalidPosition(error)) throw new InvalidPosition(last, { cause: error });
          if (!closed) onError?.(error, backoff);
        } finally {
          current = null;
          await subscription.unsubscribe().catch(() => undefined);
        }
        if (closed) return;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, backoff);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }

    const iterator = run();
    const subscriptions = this.subscriptions;
    const handle: EventSubscription = {
      [Symbol.asyncIterator]: () => iterator,
      async close() {
        closed = true;
        subscriptions.delete(handle);
        wake?.();
        const subscription = current;
        if (subscription) {
          await subscription.unsubscribe().catch(() => undefined);
          // Ends a for-await that is waiting on the stream (it then throws a premature close).
          subscription.destroy();
        }
      },
    };
    subscriptions.add(handle);
    return handle;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    await this.client.dispose();
  }

  /** $all from `from` (exclusive; null: an end of the log) in pages, until the log runs out. */
  private async *scanAll(direction: Direction, from: Position | null, pageSize: number, deadline?: number): AsyncGenerator<AllStreamRecordedEvent> {
    if (from !== null && !isLogPosition(from)) throw new InvalidPosition(from);
    let cursor = from;
    for (;;) {
      const read = this.client.readAll({
        direction,
        fromPosition: cursor ? decodePosition(cursor) : direction === FORWARDS ? START : END,
        maxCount: pageSize,
        ...(deadline === undefined ? {} : { deadline }),
      });
      let received = 0;
      try {
        for await (const { event } of read) {
          received++;
          if (!event) continue;
          const position = encodePosition(event.position.commit, event.position.prepare);
          // Reading from a position includes the event there; it was already seen.
          if (cursor !== null && (direction === FORWARDS ? position <= cursor : position >= cursor)) continue;
          cursor = position;
          yield event;
        }
      } catch (error) {
        throw cursor !== null && isInvalidPosition(error) ? new InvalidPosition(cursor, { cause: error }) : storeError(error);
      } finally {
        await read.cancel().catch(() => undefined);
      }
      if (received < pageSize) return;
    }
  }
}

/** An event this port cannot represent: retrying will not help. */
export class MalformedEvent extends Error {
  override readonly name = 'MalformedEvent';
}

function matches(stream: string, prefixes: readonly string[] | undefined): boolean {
  return prefixes === undefined ? !stream.startsWith('$') : prefixes.some((prefix) => stream.startsWith(prefix));
}

function toRecorded(event: EsdbRecordedEvent): RecordedEvent {
  const where = `event ${event.id} (${event.streamId}@${event.revision})`;
  // Client 6.2.1 always fills `position`: where a server (before 22.6) sends none on a stream
  // read, it reads 0/0. No event of a stream is there: a log starts with the server's own epoch record.
  const { position } = event;
  if (!position || (position.commit === 0n && position.prepare === 0n)) {
    throw new MalformedEvent(`${where} has no $all position; EventStoreDB 22.6 or later is needed`);
  }
  return {
    streamName: event.streamId,
    revision: Number(event.revision),
    position: encodePosition(position.commit, position.prepare),
    type: event.type,
    data: jsonObject(event.data, `${where} data`),
    metadata: jsonObject(event.metadata, `${where} metadata`) as unknown as EventMetadata,
    recordedAt: event.created,
  };
}

function jsonObject(value: unknown, what: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Uint8Array) {
    throw new MalformedEvent(`${what} is not a JSON object`);
  }
  return value as JsonObject;
}

/**
 * The id of the index-th event of an append at an exact expected revision (or no_stream): the
 * same append sent twice carries the same ids, and EventStoreDB's idempotent-write check then
 * acknowledges the second without writing it again. Appends at `any` or `stream_exists` get
 * random ids (null here): the server (24.10) checks ids for those too, and two alike events
 * appended so (a health probe, say) are meant twice, not deduped.
 */
export function eventIdFor(stream: string, expected: ExpectedRevision, index: number, event: NewEvent): string | null {
  if (expected === 'any' || expected === 'stream_exists') return null;
  return uuidv5(JSON.stringify([stream, expected, index, event.type, event.data, event.metadata]), EVENT_ID_NAMESPACE);
}

/**
 * EventStoreDB answers a read or subscription from a position that is no record boundary with
 * InvalidPosition, which client 6.2.1 has no error class for: it arrives as gRPC status
 * INVALID_ARGUMENT with "Trying to read from an invalid position." The status alone says
 * nothing: the server answers a too-large append or a bad argument with it too.
 */
export function isInvalidPosition(thrown: unknown): boolean {
  const error = asCommandError(thrown);
  if (!(error instanceof Error)) return false;
  const { details } = error as { details?: unknown };
  return /invalid[ _-]?position/i.test(`${error.message} ${typeof details === 'string' ? details : ''}`);
}

/**
 * An append that timed out may have been written by the server (TimeoutError is the server's
 * own commit timeout, DeadlineExceeded the client's deadline): its outcome is unknown. So is
 * one the server cancelled (CancelledError: it stopped, or dropped the append stream, with the
 * append under way).
 */
export function appendError(thrown: unknown, stream = ''): unknown {
  const error = asCommandError(thrown);
  // The server refused the append whole, before writing any of it.
  if (error instanceof MaxAppendSizeExceededError) return new AppendTooLarge(stream, error.maxAppendSize, null);
  if (error instanceof TimeoutError || error instanceof DeadlineExceededError) {
    return new AppendOutcomeUnknown(`EventStoreDB did not confirm the append in time; it may have been written: ${error.message}`, { cause: error });
  }
  if (error instanceof CancelledError) {
    return new AppendOutcomeUnknown(`EventStoreDB cancelled the append; it may have been written: ${error.message}`, { cause: error });
  }
  return storeError(error);
}

/**
 * A batch append the server did not take (not ready, too busy, no leader known: its NotHandled
 * answers) comes back with empty details, which client 6.2.1 reports as UnknownError("Could not
 * recognize <message>"). The server wrote nothing.
 */
const NOT_HANDLED = /^Could not recognize (Server Is Not Ready|Server Is (Too )?Busy|No leader info available)/;

/** Some paths of the client (its server-features probe) throw raw gRPC errors. */
function asCommandError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  try {
    return convertToCommandError(error);
  } catch {
    return error; // a numeric `code` without gRPC `details`: not a gRPC error after all
  }
}

function storeError(thrown: unknown): unknown {
  const error = asCommandError(thrown);
  const unavailable =
    error instanceof UnavailableError ||
    error instanceof DeadlineExceededError ||
    error instanceof TimeoutError ||
    error instanceof NotLeaderError ||
    error instanceof CancelledError ||
    (error instanceof UnknownError && NOT_HANDLED.test(error.message)) ||
    (error instanceof Error &&
      (/^Failed to discover/.test(error.message) ||
        /^E(CONNREFUSED|CONNRESET|NOTFOUND|AI_AGAIN|TIMEDOUT|HOSTUNREACH|PIPE)$/.test(String((error as { code?: unknown }).code))));
  if (!unavailable) return error;
  return new StoreUnavailable(`EventStoreDB unavailable: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}
