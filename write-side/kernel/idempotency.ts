// One Idempotency-Key, one request (HTTP-CONTRACT "Idempotency"): a key belongs to its principal
// and stands for a single request across every operation. A request takes its key just before
// it acts, by creating the key's own stream, whose one event records the request's fingerprint;
// that `no_stream` append is the one atomic claim, in this process or any other, on either event
// store. A key taken by another request refuses the command before it writes anything.
// Under API version 2026-11-01 a key stood for one request per target stream (`per: 'target'`):
// the same key on another target is another key. Such a request still takes the key when it is
// free, so that a 2026-12-01 request cannot reuse it for another operation, but a key held by a
// request on another target does not refuse it; its own target's history holds its outcome.
import { LRUCache } from 'lru-cache';
import { hash } from 'node:crypto';
import { parse as parseUuid, stringify as formatUuid } from 'uuid';
import { RevisionConflict, type AppendTicket, type EventStore, type JsonObject, type RecordedEvent } from './event-store.js';
import { IdempotencyKeyReused } from './errors.js';

/** The namespace orders were placed in before keys became one request: their ids stay as they were. */
const KEY_NAMESPACE = '1b671a64-40d5-491e-99b0-da01ff1e3171';
/** Its bytes, parsed once. */
const KEY_NAMESPACE_BYTES = Buffer.from(parseUuid(KEY_NAMESPACE));

export const KEY_STREAM_PREFIX = 'idempotency-';
export const KEY_TAKEN = 'IdempotencyKeyTaken';

export interface IdempotencyRequest {
  readonly key: string;
  /** Method, path (with its target) and canonical body, hashed: equal only for the same request. */
  readonly fingerprint: string;
  /** What the key stands for: one request across every operation (the default), or one per target stream (2026-11-01). */
  readonly per?: 'request' | 'target';
}

/** A request asks for its key's id several times (its stream, its key's stream, its target's id): hashed once. */
const recentIds = new LRUCache<string, string>({ max: 4096 });

/**
 * The id that (principal, key) stands for: the key's stream, and the id of what the request
 * creates (an order, a job), so that a retry lands on the same stream.
 */
export function keyId(principal: string, key: string): string {
  const name = JSON.stringify([principal, key]);
  let id = recentIds.get(name);
  if (id === undefined) recentIds.set(name, (id = nameBasedUuid(name)));
  return id;
}

/**
 * The version 5 UUID of the name in the key namespace (RFC 9562 §5.5), as uuid's v5 makes it
 * (tests/write-side/kernel/idempotency.test.ts compares them), with node's one-shot hash: once per
 * placement, where uuid's v5 cost 12 µs and this 7 (timed inside the service under the
 * harnesses' load; docs/benchmarks.md, session 32).
 */
function nameBasedUuid(name: string): string {
  const digest = hash('sha1', Buffer.concat([KEY_NAMESPACE_BYTES, Buffer.from(name, 'utf8')]), 'buffer');
  digest[6] = (digest[6]! & 0x0f) | 0x50;
  digest[8] = (digest[8]! & 0x3f) | 0x80;
  return formatUuid(digest);
}

export const keyStream = (principal: string, key: string): string => KEY_STREAM_PREFIX + keyId(principal, key);

export interface Taking {
  readonly principal: string;
  readonly correlationId: string;
  readonly causationId: string | null;
  readonly idempotency: IdempotencyRequest;
  /** The stream the request acts on. */
  readonly target: string;
  /**
   * The first revision the request can write to its target, when it knows it (it decided on the
   * target's state): a retry looks for the first run's outcome from there, not from the start.
   */
  readonly fromRevision?: number;
  /** Names the claim's append, for the request's own append to follow it (AppendOptions.after) in the same commit. */
  readonly ticket?: AppendTicket;
}

/**
 * Takes the key for this request. `first` when this call took it. `retry` when the same request
 * took it earlier: that run may have acted, or died before it could, so the command looks for
 * its first outcome in its own stream and finishes it when there is none. `elsewhere` when a
 * target-scoped key (2026-11-01) is held by a request on another target: this one goes on. Throws
 * IdempotencyKeyReused when another request holds the key.
 */
export async function takeKey(store: EventStore, taking: Taking): Promise<'first' | 'retry' | 'elsewhere'> {
  const { principal, correlationId, causationId, idempotency, target, fromRevision, ticket } = taking;
  const stream = keyStream(principal, idempotency.key);
  try {
    const data: JsonObject = fromRevision === undefined ? { stream: target } : { stream: target, fromRevision };
    const claim = store.appendToStream(stream, [{ type: KEY_TAKEN, data, metadata: { schemaVersion: 1, principal, correlationId, causationId, idempotency: { key: idempotency.key, fingerprint: idempotency.fingerprint } } }], 'no_stream', ticket && { ticket });
    await (ticket ? ticket.tracked(claim) : claim);
    return 'first';
  } catch (error) {
    if (!(error instanceof RevisionConflict)) throw error;
  }
  const [taken] = await store.readStream(stream, { toRevision: 0 });
  if (!taken) throw new Error(`${stream} exists but holds no event`);
  if (sameRequest(taken, principal, idempotency)) return 'retry';
  if (idempotency.per === 'target' && taken.data['stream'] !== target) return 'elsewhere';
  throw new IdempotencyKeyReused();
}

/**
 * Throws IdempotencyKeyReused when another request holds the key already; takes nothing. For a
 * command that would record something of its own before its key is taken (an export's slot).
 */
export async function refuseKeyOfAnother(store: EventStore, principal: string, idempotency: IdempotencyRequest, target: string): Promise<void> {
  const [taken] = await store.readStream(keyStream(principal, idempotency.key), { toRevision: 0 });
  if (!taken || sameRequest(taken, principal, idempotency)) return;
  if (idempotency.per === 'target' && taken.data['stream'] !== target) return;
  throw new IdempotencyKeyReused();
}

/** Whether the key is free, held by this very request (a retry), or by another request; takes nothing. */
export async function keyHolder(store: EventStore, principal: string, idempotency: IdempotencyRequest): Promise<'free' | 'this' | 'another'> {
  return (await heldKey(store, principal, idempotency)).holder;
}

/**
 * keyHolder, with the revision of its target from which the first run could have written when
 * the key recorded it (null when it did not: keys taken before it was recorded, or by commands
 * that do not know it).
 */
export async function heldKey(
  store: EventStore,
  principal: string,
  idempotency: IdempotencyRequest,
): Promise<{ readonly holder: 'free' | 'this' | 'another'; readonly fromRevision: number | null }> {
  const [taken] = await store.readStream(keyStream(principal, idempotency.key), { toRevision: 0 });
  if (!taken) return { holder: 'free', fromRevision: null };
  const from = taken.data['fromRevision'];
  return { holder: sameRequest(taken, principal, idempotency) ? 'this' : 'another', fromRevision: typeof from === 'number' && Number.isSafeInteger(from) && from >= 0 ? from : null };
}

/** Whether the key's first request is this one: the same principal, key and fingerprint (its scope aside). */
function sameRequest(taken: RecordedEvent, principal: string, { key, fingerprint }: IdempotencyRequest): boolean {
  const recorded = taken.metadata.idempotency;
  return taken.metadata.principal === principal && recorded?.key === key && recorded.fingerprint === fingerprint;
}

/** A keyed command: its key and the request's fingerprint. */
export interface Idempotent {
  readonly idempotency: IdempotencyRequest;
}
