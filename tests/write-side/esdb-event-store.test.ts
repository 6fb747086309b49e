// The EventStoreDB adapter's own decisions, which need no server: how it names events, and how
// it maps the client's errors. The client is a stand-in here that only answers as client 6.2.1
// would (its own error classes, or a raw gRPC error); the server tests below need EVENTSTORE_URL.
import { randomUUID } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { CancelledError, DeadlineExceededError, EventStoreDBClient, TimeoutError, UnavailableError, UnknownError } from '@eventstore/db-client';
import { describe, expect, it, vi } from 'vitest';
import { toProblem } from '../../api/problem.js';
import { APPEND_DEADLINE_MS, EsdbEventStore, HEAD_POSITION_TIMEOUT_MS, MalformedEvent, eventIdFor, isInvalidPosition } from '../../write-side/adapters/esdb-event-store.js';
import { AppendOutcomeUnknown, InvalidPosition, StoreUnavailable, type NewEvent, type Position } from '../../write-side/kernel/event-store.js';
import { decodePosition, encodePosition, isLogPosition, parsePosition } from '../../write-side/kernel/position.js';
import { esdbUrl, openEsdb } from '../support/event-stores.js';

const event = (n: number): NewEvent => ({ type: 'Tested', data: { n }, metadata: { schemaVersion: 1, correlationId: 'c', causationId: null, principal: 'p', idempotency: { key: 'k', fingerprint: 'f' } } });

/** A gRPC error as @grpc/grpc-js raises it: a numeric status code and the server's details. */
const grpcError = (code: number, details: string) => Object.assign(new Error(`${code} ${details}`), { code, details });

/** Iterating it fails with `error`, as the client's read and subscription streams do. */
function failingStream(error: Error) {
  // An object-mode stream, as the client's streams are, that fails at its first read.
  return Object.assign(new Readable({ objectMode: true, read() { this.destroy(error); } }), { cancel: async () => {}, unsubscribe: async () => {} });
}

/** A read stream that yields `events`, as the client's readAll and readStream do. */
function streamOf(events: unknown[]) {
  return {
    cancel: async () => {},
    async *[Symbol.asyncIterator]() {
      for (const event of events) yield { event };
    },
  };
}

/** A read stream that never answers until it is cancelled, as a read from a server that stopped answering. */
function silentStream() {
  let cancel = () => {};
  const cancelled = new Promise<void>((resolve) => (cancel = resolve));
  return {
    cancel: async () => cancel(),
    async *[Symbol.asyncIterator]() {
      await cancelled;
    },
  };
}

function storeOn(
  client: Partial<Record<'appendToStream' | 'readAll' | 'readStream' | 'subscribeToAll', (...args: unknown[]) => unknown>>,
  onSubscriptionError?: () => void,
  options: { headPositionTimeoutMs?: number } = {},
) {
  return new EsdbEventStore({ ...client, dispose: async () => {} } as unknown as EventStoreDBClient, { ...(onSubscriptionError ? { onSubscriptionError } : {}), ...options });
}

describe('EventStoreDB adapter, without a server', () => {
  it('answers a timed-out append with "outcome unknown", not "nothing was written"', async () => {
    for (const timeout of [new TimeoutError({ message: '10 ABORTED: commit timeout' } as never), new DeadlineExceededError({ message: '4 DEADLINE_EXCEEDED: deadline' } as never)]) {
      const store = storeOn({ appendToStream: async () => Promise.reject(timeout) });
      const error = await store.appendToStream('order-x', [event(1)], 0).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppendOutcomeUnknown);
      expect((error as Error).message).toMatch(/may have been written/);
    }
  });

  it('answers an append to a server that cannot be reached with "unavailable", nothing written', async () => {
    const store = storeOn({ appendToStream: async () => Promise.reject(new UnavailableError({ message: '14 UNAVAILABLE: no connection' } as never)) });
    const error = await store.appendToStream('order-x', [event(1)], 0).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailable);
    expect(error).not.toBeInstanceOf(AppendOutcomeUnknown);
  });

  it('answers an append the server did not take (not ready, too busy, no leader known) with "unavailable", nothing written', async () => {
    // What client 6.2.1 makes of a batch-append NotHandled answer: its details are an empty Any.
    for (const message of ['Server Is Not Ready', 'Server Is Busy', 'Server Is Too Busy', 'No leader info available in response']) {
      const store = storeOn({ appendToStream: async () => Promise.reject(new UnknownError(undefined, `Could not recognize ${message}`)) });
      const error = await store.appendToStream('order-x', [event(1)], 0).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreUnavailable);
      expect(error).not.toBeInstanceOf(AppendOutcomeUnknown);
      expect(toProblem(error)).toMatchObject({ status: 503, headers: { 'Retry-After': expect.any(String) } });
    }
    // Any other unknown answer stays what it is.
    const other = await storeOn({ appendToStream: async () => Promise.reject(new UnknownError(undefined, 'Could not recognize BadRequest')) })
      .appendToStream('order-x', [event(1)], 0)
      .catch((e: unknown) => e);
    expect(other).not.toBeInstanceOf(StoreUnavailable);
  });

  it('answers an append the server cancelled with "outcome unknown", and a cancelled read with "unavailable"', async () => {
    // As the client raises it itself, and as convertToCommandError makes it of a raw gRPC CANCELLED.
    for (const cancelled of [new CancelledError(undefined, 'Cancelled'), grpcError(1, 'Cancelled on server')]) {
      const store = storeOn({ appendToStream: async () => Promise.reject(cancelled), readAll: () => failingStream(cancelled) });
      const append = await store.appendToStream('order-x', [event(1)], 0).catch((e: unknown) => e);
      expect(append).toBeInstanceOf(AppendOutcomeUnknown);
      expect(toProblem(append)).toMatchObject({ status: 503, headers: { 'Retry-After': expect.any(String) } });
      const read = await store.readAll({ maxCount: 1 }).catch((e: unknown) => e);
      expect(read).toBeInstanceOf(StoreUnavailable);
      expect(toProblem(read)).toMatchObject({ status: 503, headers: { 'Retry-After': expect.any(String) } });
    }
  });

  it('gives an append a deadline longer than the client\'s 10 s, which the client sends as a point in time that a server clock ahead of ours would have passed', async () => {
    const sent: unknown[] = [];
    const store = storeOn({
      appendToStream: async (_stream: unknown, _events: unknown, options: unknown) => {
        sent.push(options);
        return { success: true, nextExpectedRevision: 0n, position: { commit: 10n, prepare: 10n } };
      },
    });
    await store.appendToStream('order-x', [event(1)], 'no_stream');
    expect(sent).toEqual([{ expectedRevision: 'no_stream', deadline: APPEND_DEADLINE_MS }]);
    expect(APPEND_DEADLINE_MS).toBeGreaterThanOrEqual(60_000);
  });

  it('bounds the read behind readiness (headPosition) by a deadline of the read and a timer of its own', async () => {
    const asked: unknown[] = [];
    const head = { id: 'e', streamId: 'order-a', revision: 3n, type: 'T', data: {}, metadata: {}, created: new Date(), position: { commit: 9n, prepare: 9n } };
    const answering = storeOn({ readAll: (options: unknown) => (asked.push(options), streamOf([head])) });
    expect(await answering.headPosition()).toBe(encodePosition(9n, 9n));
    expect(asked).toEqual([expect.objectContaining({ deadline: HEAD_POSITION_TIMEOUT_MS })]);
    // Compose's readiness probe gives up after 5 s.
    expect(HEAD_POSITION_TIMEOUT_MS).toBeLessThan(5_000);
    // A server that stopped answering (or a cluster still being discovered): the timer answers.
    const silent = storeOn({ readAll: () => silentStream() }, undefined, { headPositionTimeoutMs: 20 });
    const error = await silent.headPosition().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailable);
    expect((error as Error).message).toMatch(/no answer to a read within 20 ms/);
  });

  it("tells the log's end (system events included, where filtered checkpoints may lie) from its head (the last event a subscriber sees)", async () => {
    const record = (streamId: string, n: bigint) => ({ id: `e${n}`, streamId, revision: 0n, type: 'T', data: {}, metadata: {}, created: new Date(), position: { commit: n, prepare: n } });
    // Backwards from the end: a system event last, then the last event of a stream of ours.
    const store = storeOn({ readAll: () => streamOf([record('$stats-127.0.0.1:2113', 12n), record('order-a', 9n)]) });
    expect(await store.headPosition()).toBe(encodePosition(9n, 9n));
    expect(await store.endPosition()).toBe(encodePosition(12n, 12n));
  });

  it('refuses an event without a position, as client 6.2.1 reads it (0/0), instead of handing on position 0', async () => {
    const positionless = { id: 'e', streamId: 'order-a', revision: 0n, type: 'T', data: {}, metadata: {}, created: new Date(), position: { commit: 0n, prepare: 0n } };
    const store = storeOn({ readStream: () => streamOf([positionless]) });
    await expect(store.readStream('order-a')).rejects.toThrow(MalformedEvent);
    await expect(store.readStream('order-a')).rejects.toThrow(/22\.6 or later/);
  });

  it('refuses a client set to throwOnAppendFailure=false, whose revision conflicts carry a wrong actual revision', async () => {
    const client = EventStoreDBClient.connectionString('esdb://127.0.0.1:1?tls=false&throwOnAppendFailure=false');
    try {
      expect(() => new EsdbEventStore(client)).toThrow(/throwOnAppendFailure=false/);
    } finally {
      await client.dispose();
    }
  });

  it('sends the same event ids when the same append is sent again, so the server dedupes it', async () => {
    const sent: string[][] = [];
    const store = storeOn({
      appendToStream: async (_stream: unknown, events: unknown) => {
        sent.push((events as { id: string }[]).map((e) => e.id));
        return { success: true, nextExpectedRevision: 1n, position: { commit: 10n, prepare: 10n } };
      },
    });
    await store.appendToStream('order-x', [event(1), event(2)], 'no_stream');
    await store.appendToStream('order-x', [event(1), event(2)], 'no_stream');
    expect(sent[0]).toEqual(sent[1]);
    expect(new Set(sent[0]).size).toBe(2);
    expect(sent[0]![0]).toBe(eventIdFor('order-x', 'no_stream', 0, event(1)));
  });

  it('takes the position of an append the server acknowledged without one (a deduped resend) from the stream', async () => {
    const store = storeOn({
      appendToStream: async () => ({ success: true, nextExpectedRevision: 1n, position: undefined }),
    });
    const read: unknown[] = [];
    Object.assign(store, {
      readStream: async (stream: string, options: unknown) => {
        read.push([stream, options]);
        return [{ position: encodePosition(42n, 42n) }];
      },
    });
    expect(await store.appendToStream('order-x', [event(1), event(2)], 'no_stream')).toEqual({ nextRevision: 1, position: encodePosition(42n, 42n) });
    expect(read).toEqual([['order-x', { fromRevision: 1, toRevision: 1 }]]);
  });

  it('derives event ids from the stream, the expected revision, the place in the append and the event', () => {
    const id = eventIdFor('order-a', 3, 0, event(1));
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(eventIdFor('order-a', 3, 0, event(1))).toBe(id);
    for (const other of [eventIdFor('order-b', 3, 0, event(1)), eventIdFor('order-a', 4, 0, event(1)), eventIdFor('order-a', 3, 1, event(1)), eventIdFor('order-a', 3, 0, event(2)), eventIdFor('order-a', 'no_stream', 0, event(1))]) {
      expect(other).not.toBe(id);
    }
    // The server checks ids for these too (24.10), and two alike events appended so are meant twice.
    expect(eventIdFor('order-a', 'any', 0, event(1))).toBeNull();
    expect(eventIdFor('order-a', 'stream_exists', 0, event(1))).toBeNull();
  });

  it('recognises the server\'s InvalidPosition answer, and nothing else, as one', () => {
    expect(isInvalidPosition(grpcError(3, 'INVALID_ARGUMENT: Invalid position.'))).toBe(true);
    // What 24.10 sends.
    expect(isInvalidPosition(grpcError(3, 'Trying to read from an invalid position.'))).toBe(true);
    expect(isInvalidPosition(grpcError(2, 'UNKNOWN: Invalid position'))).toBe(true);
    expect(isInvalidPosition(grpcError(2, 'UNKNOWN: invalid_position'))).toBe(true);
    // The server's other INVALID_ARGUMENT answers are no position's fault.
    expect(isInvalidPosition(grpcError(3, 'Maximum Append Size of 1048576 Exceeded.'))).toBe(false);
    expect(isInvalidPosition(grpcError(3, "Required Metadata Property 'type' is missing"))).toBe(false);
    // Not a separator between the words (the range from space to underscore took these).
    expect(isInvalidPosition(grpcError(2, 'UNKNOWN: invalid:position'))).toBe(false);
    expect(isInvalidPosition(grpcError(2, 'UNKNOWN: invalidApositions'))).toBe(false);
    expect(isInvalidPosition(grpcError(14, 'UNAVAILABLE: connection refused'))).toBe(false);
    expect(isInvalidPosition(new Error('boom'))).toBe(false);
  });

  it('answers a read from a position that is no record boundary with InvalidPosition, not a store failure', async () => {
    const store = storeOn({ readAll: () => failingStream(grpcError(3, 'INVALID_ARGUMENT: Invalid position.')) });
    const from = encodePosition(1001n, 1001n);
    const error = await store.readAll({ after: from, maxCount: 10 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidPosition);
    expect((error as InvalidPosition).position).toBe(from);
  });

  it("tells a filtered subscription's checkpoints and its catching up in order with the events delivered before them", async () => {
    // The client awaits checkpointReached inside its stream's transform, before the next message,
    // and emits caughtUp there too: a stand-in that does the same, with the events on either side.
    const recorded = (n: bigint) => ({
      event: { id: randomUUID(), streamId: 'order-a', revision: n, type: 'Tested', data: {}, metadata: {}, created: new Date(), position: { commit: n * 100n, prepare: n * 100n } },
    });
    let filter: { checkpointReached: (s: unknown, p: { commit: bigint; prepare: bigint }) => void } | undefined;
    const stream = Object.assign(new PassThrough({ objectMode: true }), { unsubscribe: async () => {} });
    const store = storeOn({
      subscribeToAll: (options: unknown) => {
        filter = (options as { filter: typeof filter }).filter;
        return stream;
      },
    });
    const seen: string[] = [];
    const subscription = store.subscribeToAll({
      streamPrefixes: ['order-'],
      onCheckpoint: (position) => seen.push(`checkpoint ${decodePosition(position).commit}`),
      onCaughtUp: () => seen.push('caught up'),
    });
    const iterator = subscription[Symbol.asyncIterator]();
    const first = iterator.next();
    stream.write(recorded(1n));
    filter!.checkpointReached(stream, { commit: 150n, prepare: 150n });
    stream.emit('caughtUp');
    stream.write(recorded(2n));
    seen.push(`event ${decodePosition((await first).value!.position).commit}`);
    seen.push(`event ${decodePosition((await iterator.next()).value!.position).commit}`);
    await subscription.close();
    expect(seen).toEqual(['event 100', 'checkpoint 150', 'caught up', 'event 200']);
  });

  it("reads some streams' events through a filter the server applies, until enough or caught up, instead of downloading $all", async () => {
    const recorded = (n: bigint, streamId = 'account-a') => ({
      event: { id: randomUUID(), streamId, revision: n, type: 'Tested', data: {}, metadata: {}, created: new Date(), position: { commit: n * 100n, prepare: n * 100n } },
    });
    const asked: { fromPosition: unknown; filter: { filterOn?: string; prefixes?: string[] } }[] = [];
    const streams: (PassThrough & { unsubscribe: () => Promise<void>; unsubscribed: boolean })[] = [];
    const store = storeOn({
      subscribeToAll: (options: unknown) => {
        asked.push(options as (typeof asked)[number]);
        const stream = Object.assign(new PassThrough({ objectMode: true }), { unsubscribed: false, unsubscribe: async () => void (stream.unsubscribed = true) });
        streams.push(stream);
        return stream;
      },
      readAll: () => {
        throw new Error('a filtered read must not page through $all');
      },
    });
    // Enough events: the read ends at maxCount and gives the subscription up.
    const two = store.readAll({ maxCount: 2, streamPrefixes: ['account-'] });
    await vi.waitFor(() => expect(streams).toHaveLength(1), { timeout: 30_000 });
    streams[0]!.write(recorded(1n));
    streams[0]!.write(recorded(2n));
    expect((await two).map((e) => decodePosition(e.position).commit)).toEqual([100n, 200n]);
    expect(asked[0]!.filter).toMatchObject({ filterOn: 'streamName', prefixes: ['account-'] });
    expect(streams[0]!.unsubscribed).toBe(true);
    // No more of them in the log: the read ends when the subscription has caught up.
    const none = store.readAll({ after: encodePosition(200n, 200n), maxCount: 1, streamPrefixes: ['account-'] });
    await vi.waitFor(() => expect(streams).toHaveLength(2), { timeout: 30_000 });
    streams[1]!.emit('caughtUp');
    expect(await none).toEqual([]);
    expect(asked[1]!.fromPosition).toEqual({ commit: 200n, prepare: 200n });
    expect(streams[1]!.unsubscribed).toBe(true);
  });

  it('ends a subscription from an invalid position with InvalidPosition instead of resubscribing forever', async () => {
    let subscribed = 0;
    const retries: unknown[] = [];
    const store = storeOn(
      {
        subscribeToAll: () => {
          subscribed++;
          return failingStream(grpcError(3, 'INVALID_ARGUMENT: Invalid position.'));
        },
      },
      () => retries.push(1),
    );
    const subscription = store.subscribeToAll({ after: encodePosition(7n, 7n) });
    const error = await (async () => {
      for await (const _ of subscription) return null;
      return null;
    })().catch((e: unknown) => e);
    await subscription.close();
    expect(error).toBeInstanceOf(InvalidPosition);
    expect(subscribed).toBe(1);
    expect(retries).toEqual([]);
  });

  it('tells positions that can be in a log (each half at most 2^63 - 1) from those that cannot', () => {
    expect(isLogPosition(encodePosition((1n << 63n) - 1n, (1n << 63n) - 1n))).toBe(true);
    expect(isLogPosition(encodePosition(5n, 4n))).toBe(true);
    expect(isLogPosition(encodePosition(1n << 63n, 0n))).toBe(false);
    expect(isLogPosition(encodePosition(0n, (1n << 64n) - 1n))).toBe(false);
  });

  it('refuses to read or subscribe from a position beyond any log without asking the server', async () => {
    const asked: string[] = [];
    const store = storeOn({ readAll: () => (asked.push('readAll'), failingStream(new Error('unreachable'))), subscribeToAll: () => (asked.push('subscribe'), failingStream(new Error('unreachable'))) });
    const beyond = parsePosition('ffffffffffffff00ffffffffffffff00')!;
    await expect(store.readAll({ after: beyond, maxCount: 1 })).rejects.toBeInstanceOf(InvalidPosition);
    const subscription = store.subscribeToAll({ after: beyond });
    await expect(subscription[Symbol.asyncIterator]().next()).rejects.toBeInstanceOf(InvalidPosition);
    await subscription.close();
    expect(asked).toEqual([]);
  });
});

describe('what the API answers for these', () => {
  it('tells the client that a retry with the same Idempotency-Key is safe when the outcome is unknown', () => {
    const problem = toProblem(new AppendOutcomeUnknown('no answer in time'))!;
    expect(problem.status).toBe(503);
    expect(problem.extra).toEqual({ outcome: 'unknown' });
    expect(problem.detail).toMatch(/may or may not have taken effect/);
    expect(problem.detail).toMatch(/same Idempotency-Key is safe/);
    expect(problem.headers).toHaveProperty('Retry-After');
  });

  it('answers a position that is not a place in the log with 400', () => {
    const problem = toProblem(new InvalidPosition(encodePosition(3n, 3n) as Position))!;
    expect(problem.status).toBe(400);
    expect(problem.code).toBe('invalid-cursor');
  });
});

describe.skipIf(!esdbUrl)('EventStoreDB adapter on a live server (EVENTSTORE_URL)', () => {
  it('acknowledges an append sent twice at the same expected revision once, writing it once', async () => {
    const { store, dispose } = await openEsdb();
    try {
      const stream = `idem${randomUUID().replaceAll('-', '')}-a`;
      const first = await store.appendToStream(stream, [event(1), event(2)], 'no_stream');
      const again = await store.appendToStream(stream, [event(1), event(2)], 'no_stream');
      expect(again.nextRevision).toBe(first.nextRevision);
      expect(await store.readStream(stream)).toHaveLength(2);
    } finally {
      await dispose();
    }
  });

  it('answers a read after a position inside a record with InvalidPosition', async () => {
    const { store, dispose } = await openEsdb();
    try {
      const stream = `pos${randomUUID().replaceAll('-', '')}-a`;
      const { position } = await store.appendToStream(stream, [event(1)], 'no_stream');
      const { commit, prepare } = decodePosition(position);
      const inside = encodePosition(commit + 1n, prepare + 1n);
      await expect(store.readAll({ after: inside, maxCount: 1 })).rejects.toBeInstanceOf(InvalidPosition);
    } finally {
      await dispose();
    }
  });
});

if (!esdbUrl) describe.skip('EventStoreDB adapter on a live server — skipped, EVENTSTORE_URL is not set', () => it('runs against a live EventStoreDB', () => {}));
