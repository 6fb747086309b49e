// Set validation across streams without a cross-stream transaction: one value (an email) has at
// most one owner (a customer, an account), on both event stores, under races and crashes.
//
// Each (set, value) has a claim stream `unique-<set>-<sha256 of the normalized value>`; its last
// event says who holds the value. A claim is an append at the claim stream's revision as read:
// that check is the one atomic step, so of racing claimants exactly one wins. The owner's own
// event that takes the value up (a registration, an email change) is appended AFTER its claim,
// at the owner stream's revision read BEFORE the claim, and a conflict there starts over with
// reading (command-handler.ts does exactly that with an AppendGuard, see `guardUnique`).
//
// A claimant may die between its claim and its owner's append, or between an owner's change and
// the release of the old value. Its claim must not block the value forever: once it is older
// than the grace period (longer than any request may run) and the holder does not hold the value
// by its own events, a new claimant FENCES the holder before taking the value: it appends a
// marker naming the claim to the holder's stream at the revision it read (no_stream when there
// is none). A slow claimant's later append at that revision then fails its check, and when it
// starts over it finds the marker and knows its claim is dead. The marker is appended before the
// takeover, and a dead claim is free to any claimant at the claim stream's revision, so two
// owners never both hold one value.
import { createHash } from 'node:crypto';
import { ConcurrencyExhausted, type DomainError } from './errors.js';
import { MAX_ATTEMPTS, type AppendGuard } from './command-handler.js';
import { RevisionConflict, type EventStore, type RecordedEvent, type StreamRevision } from './event-store.js';

export const CLAIM_STREAM_PREFIX = 'unique-';
export const VALUE_CLAIMED = 'UniqueValueClaimed';
export const VALUE_RELEASED = 'UniqueValueReleased';
/** Appended to an owner's stream: its claim was revoked. The owner's decider must ignore it. */
export const CLAIM_FENCED = 'UniqueValueClaimFenced';

/** Longer than any request may run (REQUEST_TIMEOUT_MS is 10 s by default). */
export const DEFAULT_GRACE_MS = 30_000;

export interface UniqueValueSet {
  /** Part of the claim streams' names: `[a-z0-9-]+`, one per set (`customer-email`, `account-email`). */
  readonly name: string;
  /** Whether the owner, by its own events, holds the value now; `value` is normalized. */
  holds(ownerEvents: readonly RecordedEvent[], value: string): boolean | Promise<boolean>;
  /** The error a claimant gets when another owner holds the value (email-in-use). */
  taken(): DomainError;
}

/** Who writes the claim events (their metadata), as on any other event. */
export interface ClaimContext {
  readonly principal: string;
  readonly correlationId: string;
  readonly causationId: string | null;
}

export interface UniqueValuesOptions {
  readonly graceMs?: number;
  readonly clock?: () => Date;
  readonly maxAttempts?: number;
}

/** Case-insensitive, and one Unicode spelling of each character. */
export function normalizeValue(value: string): string {
  return value.normalize('NFC').toLowerCase();
}

export function claimStream(set: string, value: string): string {
  return `${CLAIM_STREAM_PREFIX}${set}-${createHash('sha256').update(normalizeValue(value)).digest('hex')}`;
}

export function isClaimFenced(event: RecordedEvent): boolean {
  return event.type === CLAIM_FENCED;
}

/** A claim stream's last word: who holds the value since when, or nobody. */
type Claim =
  | { readonly holder: string; readonly revision: StreamRevision; readonly claimedAt: Date }
  | { readonly holder: null; readonly revision: StreamRevision | null };

export class UniqueValues {
  private readonly graceMs: number;
  private readonly clock: () => Date;
  private readonly maxAttempts: number;

  constructor(
    private readonly store: EventStore,
    private readonly set: UniqueValueSet,
    options: UniqueValuesOptions = {},
  ) {
    if (!/^[a-z0-9-]+$/.test(set.name)) throw new TypeError(`set name ${set.name} is not [a-z0-9-]+`);
    this.graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
    this.clock = options.clock ?? (() => new Date());
    this.maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
  }

  /**
   * Claims `value` for the owner stream, which will append the event that takes the value up
   * at the revision it read before this call. Returns when the owner holds the claim (already
   * or now); throws the set's `taken()` when another owner holds it.
   */
  async claim(value: string, owner: string, context: ClaimContext): Promise<void> {
    const normalized = normalizeValue(value);
    const stream = claimStream(this.set.name, normalized);
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      const claim = await this.readClaim(stream);
      if (claim.holder === null) {
        if (await this.append(stream, VALUE_CLAIMED, { owner }, claim.revision, context)) return;
        continue;
      }
      const holderEvents = await this.store.readStream(claim.holder);
      if (holderEvents.some((e) => isClaimFenced(e) && e.data.claim === stream && e.data.claimRevision === claim.revision)) {
        // A dead claim: free to anyone, its former holder included.
        if (await this.append(stream, VALUE_CLAIMED, { owner }, claim.revision, context)) return;
        continue;
      }
      if (claim.holder === owner) return;
      if (await this.set.holds(holderEvents, normalized)) throw this.set.taken();
      // The holder may be about to append (within its request's time), or have died.
      if (this.clock().getTime() - claim.claimedAt.getTime() < this.graceMs) throw this.set.taken();
      const fence = { claim: stream, claimRevision: claim.revision };
      await this.append(claim.holder, CLAIM_FENCED, fence, holderEvents.at(-1)?.revision ?? null, context);
      // Fenced or not (the holder moved: read it again), the next attempt decides anew.
    }
    throw new ConcurrencyExhausted(stream, this.maxAttempts);
  }

  /** Frees `value` when the owner holds its claim; the owner's event that let it go comes first. */
  async release(value: string, owner: string, context: ClaimContext): Promise<void> {
    const stream = claimStream(this.set.name, value);
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      const claim = await this.readClaim(stream);
      if (claim.holder !== owner) return;
      if (await this.append(stream, VALUE_RELEASED, { owner }, claim.revision, context)) return;
    }
    throw new ConcurrencyExhausted(stream, this.maxAttempts);
  }

  /** The owner stream that holds the value's claim, or null when it is free. */
  async holder(value: string): Promise<string | null> {
    return (await this.readClaim(claimStream(this.set.name, value))).holder;
  }

  private async readClaim(stream: string): Promise<Claim> {
    const last = (await this.store.readStream(stream)).at(-1);
    if (!last) return { holder: null, revision: null };
    if (last.type === VALUE_CLAIMED && typeof last.data.owner === 'string') return { holder: last.data.owner, revision: last.revision, claimedAt: last.recordedAt };
    return { holder: null, revision: last.revision };
  }

  /** False when the stream moved since `revision` was read. */
  private async append(stream: string, type: string, data: { readonly [key: string]: string | number }, revision: StreamRevision | null, context: ClaimContext): Promise<boolean> {
    try {
      const { principal, correlationId, causationId } = context;
      await this.store.appendToStream(stream, [{ type, data, metadata: { schemaVersion: 1, principal, correlationId, causationId } }], revision ?? 'no_stream');
      return true;
    } catch (error) {
      if (error instanceof RevisionConflict) return false;
      throw error;
    }
  }
}

/** What an owner's append changes in one set: the value before and after, normalized or null. */
export interface ValueChange {
  readonly before: string | null;
  readonly after: string | null;
}

/**
 * Wires a set into the command handler: the value the owner's next state holds is claimed
 * before the append (a conflict there starts over and claims again), the value its former state
 * held is released after it. `valueOf` reads the one value of the set that a state holds.
 */
export function guardUnique<State, Event>(
  unique: UniqueValues,
  owner: string,
  valueOf: (state: State) => string | null,
  context: ClaimContext,
): AppendGuard<State, Event> {
  const change = (before: State, after: State): ValueChange => {
    const [b, a] = [valueOf(before), valueOf(after)].map((v) => (v === null ? null : normalizeValue(v)));
    return { before: b ?? null, after: a ?? null };
  };
  return {
    async beforeAppend({ state, next }) {
      const { before, after } = change(state, next);
      if (after !== null && after !== before) await unique.claim(after, owner, context);
    },
    async afterAppend({ state, next }) {
      const { before, after } = change(state, next);
      // The owner's change is made: a release that fails leaves a claim its holder no longer
      // holds, which the next claimant takes over after the grace period.
      if (before !== null && before !== after) await unique.release(before, owner, context).catch(() => undefined);
    },
  };
}
