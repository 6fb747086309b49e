// The event store port: what the write side and the projector need from an event log.
// Two adapters implement it (adapters/sqlite-event-store.ts, adapters/esdb-event-store.ts)
// and both pass tests/write-side/event-store.contract.ts.

/** A stream's revision: the 0-based index of its last event, as EventStoreDB numbers it. */
export type StreamRevision = number;

export type ExpectedRevision = 'no_stream' | 'stream_exists' | 'any' | StreamRevision;

/**
 * A place in the global log. Opaque to callers, but totally ordered: two positions compare
 * as their strings compare (see position.ts), so they can be stored, sent and compared as text.
 */
export type Position = string & { readonly __brand: 'Position' };

export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };
export type JsonObject = { readonly [key: string]: JsonValue };

export interface EventMetadata {
  readonly schemaVersion: number;
  readonly correlationId: string;
  readonly causationId: string | null;
  readonly principal: string;
  /** Present on events appended by a command that carried an idempotency key. */
  readonly idempotency?: { readonly key: string; readonly fingerprint: string };
}

export interface NewEvent {
  readonly type: string;
  readonly data: JsonObject;
  readonly metadata: EventMetadata;
}

export interface RecordedEvent extends NewEvent {
  readonly streamName: string;
  readonly revision: StreamRevision;
  readonly position: Position;
  /** When the store recorded the event (the store's clock, not the caller's). */
  readonly recordedAt: Date;
}

export interface AppendResult {
  /** The stream's revision after the append: the revision of its last event. */
  readonly nextRevision: StreamRevision;
  /** The global position of the last appended event. */
  readonly position: Position;
}

export interface ReadStreamOptions {
  readonly fromRevision?: StreamRevision;
  /** Inclusive. */
  readonly toRevision?: StreamRevision;
  /** Inclusive: only events recorded at or before this instant. */
  readonly recordedUntil?: Date;
}

export interface ReadAllOptions {
  /** Exclusive: events after this position; null or absent reads from the start. */
  readonly after?: Position | null;
  readonly maxCount: number;
  /** Only streams whose name starts with one of these; absent means every non-system stream. */
  readonly streamPrefixes?: readonly string[];
}

export interface SubscribeOptions {
  /** Exclusive: deliver events after this position; null or absent delivers the whole log. */
  readonly after?: Position | null;
  readonly streamPrefixes?: readonly string[];
  /**
   * A position up to which the subscription has looked at every event, its filter's or not: every
   * event of its streams up to there has been delivered before the call. Lets a subscriber to
   * rare streams move on past the log's other events (its checkpoint then lies near the head,
   * not at its own last event). Called as the subscriber asks for its next event, so never
   * ahead of the events delivered.
   */
  readonly onCheckpoint?: (position: Position) => void;
  /** The subscription has delivered every event the log held when it looked (it is live); called again each time it reaches the end. */
  readonly onCaughtUp?: () => void;
}

/** Catch-up, then live. Iterate it; close() ends the iteration. */
export interface EventSubscription extends AsyncIterable<RecordedEvent> {
  close(): Promise<void>;
}

/**
 * Names one append, so that later appends can be made to follow it (AppendOptions.after) without
 * waiting for its answer: a placement's order follows its stock reservations and its key's claim.
 * The store that takes the append settles it (and `tracked` does when no store took it), once:
 * true when the append was written, false when it was not, or when its outcome is unknown.
 */
export class AppendTicket {
  private settledAs: boolean | undefined;
  private resolveApplied!: (applied: boolean) => void;
  /** True once the append it names was written; false once it failed, or never reached a store. */
  readonly applied = new Promise<boolean>((resolve) => (this.resolveApplied = resolve));

  /** True or false once settled; undefined while the append is under way (or not yet made). */
  get outcome(): boolean | undefined {
    return this.settledAs;
  }

  settle(applied: boolean): void {
    if (this.settledAs !== undefined) return;
    this.settledAs = applied;
    this.resolveApplied(applied);
  }

  /** `append`, the call that carries this ticket: settled by its outcome too, should no store have settled it (a call that failed before it reached one). */
  tracked<T>(append: Promise<T>): Promise<T> {
    append.then(
      () => this.settle(true),
      () => this.settle(false),
    );
    return append;
  }
}

export interface AppendOptions {
  /** Names this append for the appends that follow it. */
  readonly ticket?: AppendTicket;
  /**
   * Written only if every append these name was written, and after them; otherwise it fails with
   * PrecedingAppendFailed and nothing of it is written. A store may write it in one commit with
   * them (the embedded store does); EventStoreDB waits for their answers first.
   */
  readonly after?: readonly AppendTicket[];
}

/** An append that was to follow others (AppendOptions.after) found one of them unwritten: nothing of it was written. */
export class PrecedingAppendFailed extends Error {
  override readonly name = 'PrecedingAppendFailed';
  constructor(readonly stream: string) {
    super(`stream ${stream}: an append it was to follow was not written, so neither was it`);
  }
}

/** For a store that writes one append at a time: waits for the appends `options.after` names, and fails as the port says when one was not written. */
export async function awaitPreceding(stream: string, options: AppendOptions | undefined): Promise<void> {
  if (!options?.after?.length) return;
  const applied = await Promise.all(options.after.map((ticket) => ticket.applied));
  if (!applied.every(Boolean)) throw new PrecedingAppendFailed(stream);
}

export interface EventStore {
  appendToStream(stream: string, events: readonly NewEvent[], expected: ExpectedRevision, options?: AppendOptions): Promise<AppendResult>;
  /** Forwards. A stream that does not exist reads as empty. */
  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** The stream's last event (read backwards, one event); null for a stream with none. */
  readLastEvent(stream: string): Promise<RecordedEvent | null>;
  /**
   * From now on the stream keeps only its last `maxCount` events, as EventStoreDB's `$maxCount`
   * stream metadata does: older ones read as gone, and revisions are numbered on as before. For
   * streams whose old events are worthless (snapshots), never for a stream of record. On
   * EventStoreDB it replaces whatever other metadata the stream had.
   */
  setMaxCount(stream: string, maxCount: number): Promise<void>;
  /** One batch of the global log, forwards. */
  readAll(options: ReadAllOptions): Promise<RecordedEvent[]>;
  subscribeToAll(options?: SubscribeOptions): EventSubscription;
  /** The position of the last event in the log, or null when it is empty. */
  headPosition(): Promise<Position | null>;
  /**
   * Optional, for a store whose log holds records past the last event a subscriber sees
   * (EventStoreDB's system events, where its filtered subscriptions' checkpoints may lie): the
   * position of the log's very last record. Without it, headPosition is the end.
   */
  endPosition?(): Promise<Position | null>;
  /**
   * Optional, for stores that can tell at little cost: a stamp that two calls return alike only
   * when nothing was appended in between, by this process or any other; taken after the call
   * began (calls close together may share one). What a caller read after taking a stamp is still
   * current as long as the stamp has not changed.
   */
  changeStamp?(): Promise<number>;
  close(): Promise<void>;
}

/**
 * The most one append may hold, as EventStoreDB counts it (its MaxAppendSize, 1 MiB by default):
 * per event, its data's and metadata's UTF-8 bytes and twice its type's length (the server's
 * Event.SizeOnDisk), summed over the events of the append. The embedded store refuses the same.
 */
export const MAX_APPEND_BYTES = 1_048_576;

/** An append's size as EventStoreDB counts it against MAX_APPEND_BYTES, from its events as JSON text. */
export function appendBytes(events: readonly { readonly type: string; readonly data: string; readonly metadata: string }[]): number {
  let bytes = 0;
  for (const e of events) bytes += Buffer.byteLength(e.data) + Buffer.byteLength(e.metadata) + e.type.length * 2;
  return bytes;
}

/** The append holds more than the store takes in one append (MAX_APPEND_BYTES); nothing was written. */
export class AppendTooLarge extends Error {
  override readonly name = 'AppendTooLarge';
  constructor(
    readonly stream: string,
    readonly limit: number,
    readonly bytes: number | null,
  ) {
    super(`an append to ${stream} holds ${bytes ?? 'more than'} bytes; the store takes at most ${limit} in one append`);
  }
}

/** The expected revision did not match the stream's actual revision. */
export class RevisionConflict extends Error {
  override readonly name = 'RevisionConflict';
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: StreamRevision | 'no_stream',
  ) {
    super(`stream ${stream}: expected revision ${String(expected)}, actual ${String(actual)}`);
  }
}

/**
 * The store cannot be reached or cannot write; nothing of the failed call was written, unless
 * it is an AppendOutcomeUnknown (written or not). InvalidPosition: a position from outside
 * that is no place in the log.
 */
export { AppendOutcomeUnknown, InvalidPosition, StoreUnavailable } from './errors.js';
