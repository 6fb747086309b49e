// The one command handler: read the stream, fold it, decide, append with the revision that
// was read. A revision conflict means someone else wrote in between: read again and decide
// again, a bounded number of times, unless the caller pinned the revision (If-Match). A keyed
// command first takes its key (idempotency.ts), so a key acts for one request only.
import { AppendTicket, PrecedingAppendFailed, RevisionConflict, type EventMetadata, type EventStore, type NewEvent, type Position, type RecordedEvent } from './event-store.js';
import { ConcurrencyExhausted, IdempotencyKeyReused, PreconditionFailed } from './errors.js';
import { refuseKeyOfAnother, takeKey, type IdempotencyRequest } from './idempotency.js';

export interface Decider<State, Command, Event> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
}

export interface EventCodec<Event> {
  encode(event: Event, metadata: Omit<EventMetadata, 'schemaVersion'>): NewEvent;
  decode(recorded: RecordedEvent): Event;
}

/**
 * Work of another stream that an append depends on (unique-values.ts: claiming an email before the
 * event that takes it up). A revision conflict on the append starts over with reading, and calls
 * `beforeAppend` again for the new decision.
 */
export interface AppendGuard<State, Event> {
  /** Before the append at `revision`; a throw refuses the command, nothing of it written. */
  beforeAppend(change: { readonly state: State; readonly next: State; readonly events: readonly Event[]; readonly revision: number | null }): Promise<void>;
  /** After the append succeeded; not for a replay. */
  afterAppend(change: { readonly state: State; readonly next: State; readonly events: readonly Event[] }): Promise<void>;
}

export interface CommandContext {
  readonly principal: string;
  readonly correlationId: string;
  readonly causationId: string | null;
  /** The revision the caller saw (If-Match): a mismatch fails instead of retrying. */
  readonly expectedRevision?: number;
  /** The command takes effect at most once per principal and key, and the key serves this request only. */
  readonly idempotency?: IdempotencyRequest;
  /**
   * Appends the command's own must follow (AppendOptions.after): a placement's stock reservations.
   * When one of them was not written, the command fails with PrecedingAppendFailed, nothing of it
   * written, and the caller decides what then.
   */
  readonly after?: readonly AppendTicket[];
}

export interface CommandResult<State, Event> {
  /** The state right after this command's events (for a replay, right after the first run's). */
  readonly state: State;
  /** The stream's revision at that point; null when the stream does not exist. */
  readonly revision: number | null;
  /** The events this command appended (for a replay, those the first run appended). */
  readonly events: readonly Event[];
  /** Global position of the last event the state includes; null when there is none. */
  readonly position: Position | null;
  readonly replayed: boolean;
}

/** A stream's state as folded, with the revision and global position of its last event. */
export interface Known<State> {
  readonly state: State;
  readonly revision: number | null;
  readonly position: Position | null;
}

/**
 * How many times a command is tried when other writers keep moving its stream (a revision
 * conflict each time) before it fails with ConcurrencyExhausted: the one limit of every writer.
 */
export const MAX_ATTEMPTS = 8;

export class CommandHandler<State, Command, Event> {
  constructor(
    private readonly store: EventStore,
    private readonly decider: Decider<State, Command, Event>,
    private readonly codec: EventCodec<Event>,
    private readonly maxAttempts = MAX_ATTEMPTS,
  ) {}

  /**
   * `known` is the stream's state as the caller folded it just before, if it has it. The first
   * attempt decides on it instead of reading the stream again, unless the command carries an
   * idempotency key (a replay is found in the stream's history, which `known` does not hold)
   * and `known` is of a stream that exists: a stream seen empty holds no replay (had one been
   * appended since, the `no_stream` append fails and the next attempt reads it).
   * Known state that is already stale fails the append's revision check like any other, and
   * the next attempt reads the stream.
   *
   * A keyed command that is about to append takes its key first (idempotency.ts): a key held by
   * another request fails it before anything is written. One taken earlier by this same request
   * (a run that died before its append, or one racing this) needs nothing more: a first outcome
   * already appended was replayed above, or moved the stream and fails this append's revision
   * check, and the next attempt replays it. A command that is refused or changes nothing leaves
   * its key untaken.
   */
  async handle(
    stream: string,
    command: Command,
    context: CommandContext,
    known?: Known<State>,
    guard?: AppendGuard<State, Event>,
  ): Promise<CommandResult<State, Event>> {
    const { principal, correlationId, causationId, idempotency } = context;
    let taken = false;
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      let current: Known<State>;
      if (attempt === 1 && known && (!idempotency || known.revision === null)) {
        current = known;
      } else {
        const recorded = await this.store.readStream(stream);
        const last = recorded.at(-1);
        if (idempotency) {
          const replay = this.replay(recorded, principal, idempotency);
          if (replay) return replay;
        }
        current = { state: this.fold(recorded), revision: last ? last.revision : null, position: last?.position ?? null };
      }
      const { state, revision } = current;
      if (context.expectedRevision !== undefined && revision !== null && context.expectedRevision !== revision) {
        throw new PreconditionFailed(context.expectedRevision, revision);
      }

      const events = this.decider.decide(command, state);
      // RFC 9110 §13.2.1: a precondition is evaluated only where the answer would otherwise be
      // a success, so a resource that does not exist answers as unknown (the decider's 404)
      // rather than 412; only a command that would create it fails the precondition.
      if (context.expectedRevision !== undefined && revision === null) {
        throw new PreconditionFailed(context.expectedRevision, null);
      }
      if (events.length === 0) {
        return { state, revision, events, position: current.position, replayed: false };
      }

      const next = events.reduce((s, e) => this.decider.evolve(s, e), state);
      if (guard) {
        // A key another request holds refuses the command before the guard does anything.
        if (idempotency && !taken) await refuseKeyOfAnother(this.store, principal, idempotency, stream);
        await guard.beforeAppend({ state, next, events, revision });
      }
      // The key's claim and the command's append go to the store together, the append after the
      // claim (and after `context.after`): written only if the claim was, in one commit where the
      // store can. A claim that finds the key this same request's (a retry) leaves the append
      // unwritten; it is made again, after the key is known.
      let claim: Promise<unknown> | null = null;
      const after = [...(context.after ?? [])];
      if (idempotency && !taken) {
        const ticket = new AppendTicket();
        claim = takeKey(this.store, { principal, correlationId, causationId, idempotency, target: stream, ticket });
        after.push(ticket);
      }
      const metadata = idempotency
        ? { principal, correlationId, causationId, idempotency: { key: idempotency.key, fingerprint: idempotency.fingerprint } }
        : { principal, correlationId, causationId };
      const appending = this.store.appendToStream(
        stream,
        events.map((event) => this.codec.encode(event, metadata)),
        revision ?? 'no_stream',
        after.length > 0 ? { after } : undefined,
      );
      if (claim) {
        // Both answered first: a key another request holds is the answer, whatever the append's.
        const [claimed] = await Promise.allSettled([claim, appending]);
        if (claimed.status === 'rejected') throw claimed.reason;
        taken = true;
      }
      try {
        const appended = await appending;
        if (guard) await guard.afterAppend({ state, next, events });
        return { state: next, revision: appended.nextRevision, events, position: appended.position, replayed: false };
      } catch (error) {
        // The claim found the key taken by this same request: the next attempt reads the stream (its first outcome may be there).
        if (error instanceof PrecedingAppendFailed && claim && !context.after?.some((ticket) => ticket.outcome === false)) continue;
        if (!(error instanceof RevisionConflict) || error.stream !== stream) throw error;
        if (context.expectedRevision !== undefined) {
          throw new PreconditionFailed(context.expectedRevision, error.actual === 'no_stream' ? null : error.actual);
        }
      }
    }
    throw new ConcurrencyExhausted(stream, this.maxAttempts);
  }

  private fold(recorded: readonly RecordedEvent[]): State {
    let state = this.decider.initialState();
    for (const r of recorded) state = this.decider.evolve(state, this.codec.decode(r));
    return state;
  }

  /** The first run's outcome when this principal already used this key on the stream. */
  private replay(
    recorded: readonly RecordedEvent[],
    principal: string,
    { key, fingerprint }: { key: string; fingerprint: string },
  ): CommandResult<State, Event> | null {
    const first = recorded.filter((r) => r.metadata.principal === principal && r.metadata.idempotency?.key === key);
    const last = first.at(-1);
    if (!last) return null;
    if (last.metadata.idempotency?.fingerprint !== fingerprint) throw new IdempotencyKeyReused();
    return {
      state: this.fold(recorded.filter((r) => r.revision <= last.revision)),
      revision: last.revision,
      events: first.map((r) => this.codec.decode(r)),
      position: last.position,
      replayed: true,
    };
  }
}
