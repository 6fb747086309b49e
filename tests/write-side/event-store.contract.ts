// The contract every EventStore adapter passes. Stream names carry a fresh prefix per test,
// and global-log assertions start from the head position, so the suite also runs against a
// shared EventStoreDB that already holds other data.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppendTicket, AppendTooLarge, MAX_APPEND_BYTES, PrecedingAppendFailed, RevisionConflict, type EventStore, type NewEvent, type RecordedEvent } from '../../write-side/kernel/event-store.js';
import { comparePositions } from '../../write-side/kernel/position.js';
import type { StoreFixture } from '../support/event-stores.js';


const event = (n: number, extra: Partial<NewEvent['metadata']> = {}): NewEvent => ({
  type: 'Tested',
  data: { n },
  metadata: { schemaVersion: 1, correlationId: `corr-${n}`, causationId: null, principal: 'tester', ...extra },
});

/** The first `count` events, as soon as they came; 60 s (was 5) only bounds a subscription that never delivers them, on however loaded a machine. */
async function take(iterable: AsyncIterable<RecordedEvent>, count: number, timeoutMs = 60_000): Promise<RecordedEvent[]> {
  const seen: RecordedEvent[] = [];
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`saw ${seen.length} of ${count} events`)), timeoutMs).unref(),
  );
  const reading = (async () => {
    for await (const e of iterable) {
      seen.push(e);
      if (seen.length === count) break;
    }
    return seen;
  })();
  return Promise.race([reading, timeout]);
}

export function eventStoreContract(name: string, open: () => Promise<StoreFixture>): void {
  describe(`EventStore contract: ${name}`, () => {
    let fixture: StoreFixture;
    let store: EventStore;
    let prefix: string;
    const stream = (s: string) => `${prefix}${s}`;

    beforeEach(async () => {
      fixture = await open();
      store = fixture.store;
      prefix = `t${randomUUID().replaceAll('-', '')}-`;
    });
    afterEach(async () => fixture.dispose());

    describe('an append that follows others (AppendOptions.after)', () => {
      it('is written after them when they are, without its caller waiting for their answers', async () => {
        const [a, b] = [new AppendTicket(), new AppendTicket()];
        const first = store.appendToStream(stream('stock'), [event(1)], 'no_stream', { ticket: a });
        const second = store.appendToStream(stream('key'), [event(2)], 'no_stream', { ticket: b });
        const last = store.appendToStream(stream('order'), [event(3)], 'no_stream', { after: [a, b] });
        const [x, y, z] = await Promise.all([first, second, last]);
        expect(comparePositions(x.position, z.position)).toBeLessThan(0);
        expect(comparePositions(y.position, z.position)).toBeLessThan(0);
        expect(await a.applied).toBe(true);
        expect((await store.readStream(stream('order'))).map((e) => e.data.n)).toEqual([3]);
      });

      it('is not written, and fails with PrecedingAppendFailed, when one of them fails its revision check', async () => {
        await store.appendToStream(stream('key'), [event(1)], 'no_stream');
        const claim = new AppendTicket();
        const taken = store.appendToStream(stream('key'), [event(2)], 'no_stream', { ticket: claim });
        const order = store.appendToStream(stream('order'), [event(3)], 'no_stream', { after: [claim] });
        expect(await taken.catch((e: unknown) => e)).toBeInstanceOf(RevisionConflict);
        expect(await order.catch((e: unknown) => e)).toBeInstanceOf(PrecedingAppendFailed);
        expect(await claim.applied).toBe(false);
        expect(await store.readStream(stream('order'))).toEqual([]);
        // A chain: what follows the refused append is refused too.
        const refused = new AppendTicket();
        const middle = store.appendToStream(stream('key'), [event(4)], 'no_stream', { ticket: refused });
        const next = store.appendToStream(stream('next'), [event(5)], 'no_stream', { after: [refused] });
        await expect(middle).rejects.toBeInstanceOf(RevisionConflict);
        await expect(next).rejects.toBeInstanceOf(PrecedingAppendFailed);
        // Known refused already when it is made: refused at once.
        await expect(store.appendToStream(stream('late'), [event(6)], 'no_stream', { after: [refused] })).rejects.toBeInstanceOf(PrecedingAppendFailed);
        expect(await store.readStream(stream('next'))).toEqual([]);
        expect(await store.readStream(stream('late'))).toEqual([]);
      });

      it('waits for one whose call has not reached the store yet, and is refused when that call fails before it does', async () => {
        const slow = new AppendTicket();
        const order = store.appendToStream(stream('order'), [event(2)], 'no_stream', { after: [slow] });
        // The append it follows is made only after a while (as a sealing store's key lookup delays it).
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(await store.readStream(stream('order'))).toEqual([]);
        const stock = await store.appendToStream(stream('stock'), [event(1)], 'no_stream', { ticket: slow });
        expect(comparePositions(stock.position, (await order).position)).toBeLessThan(0);

        const never = new AppendTicket();
        const orphan = store.appendToStream(stream('orphan'), [event(3)], 'no_stream', { after: [never] });
        await never.tracked(Promise.reject(new Error('failed before it reached the store'))).catch(() => {});
        await expect(orphan).rejects.toBeInstanceOf(PrecedingAppendFailed);
        expect(await store.readStream(stream('orphan'))).toEqual([]);
      });
    });

    it('reads a stream that does not exist as empty', async () => {
      expect(await store.readStream(stream('none'))).toEqual([]);
    });

    it('numbers revisions from 0 and reports the next revision', async () => {
      const first = await store.appendToStream(stream('a'), [event(1), event(2)], 'no_stream');
      expect(first.nextRevision).toBe(1);
      const second = await store.appendToStream(stream('a'), [event(3)], 1);
      expect(second.nextRevision).toBe(2);
      const read = await store.readStream(stream('a'));
      expect(read.map((e) => [e.revision, e.data.n])).toEqual([[0, 1], [1, 2], [2, 3]]);
      expect(read.at(-1)!.position).toBe(second.position);
    });

    it('no_stream succeeds only when the stream does not exist', async () => {
      await store.appendToStream(stream('a'), [event(1)], 'no_stream');
      const conflict = await store.appendToStream(stream('a'), [event(2)], 'no_stream').catch((e: unknown) => e);
      expect(conflict).toBeInstanceOf(RevisionConflict);
      expect((conflict as RevisionConflict).actual).toBe(0);
      expect(await store.readStream(stream('a'))).toHaveLength(1);
    });

    it('stream_exists succeeds only when the stream exists', async () => {
      const conflict = await store.appendToStream(stream('a'), [event(1)], 'stream_exists').catch((e: unknown) => e);
      expect(conflict).toBeInstanceOf(RevisionConflict);
      expect(await store.readStream(stream('a'))).toEqual([]);
      await store.appendToStream(stream('a'), [event(1)], 'no_stream');
      const ok = await store.appendToStream(stream('a'), [event(2)], 'stream_exists');
      expect(ok.nextRevision).toBe(1);
    });

    it('any appends whatever the stream holds', async () => {
      expect((await store.appendToStream(stream('a'), [event(1)], 'any')).nextRevision).toBe(0);
      expect((await store.appendToStream(stream('a'), [event(2)], 'any')).nextRevision).toBe(1);
    });

    it('an exact revision succeeds only when it is the stream revision', async () => {
      await store.appendToStream(stream('a'), [event(1), event(2)], 'no_stream');
      for (const stale of [0, 2, 7]) {
        const conflict = await store.appendToStream(stream('a'), [event(9)], stale).catch((e: unknown) => e);
        expect(conflict).toBeInstanceOf(RevisionConflict);
        expect((conflict as RevisionConflict).actual).toBe(1);
      }
      const missing = await store.appendToStream(stream('b'), [event(1)], 0).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(RevisionConflict);
      expect((await store.appendToStream(stream('a'), [event(3)], 1)).nextRevision).toBe(2);
      expect((await store.readStream(stream('a'))).map((e) => e.data.n)).toEqual([1, 2, 3]);
    });

    it('keeps type, data and metadata, and stamps the recorded time', async () => {
      const before = Date.now();
      const meta = { correlationId: 'c-1', causationId: 'cause-1', principal: 'user-7', idempotency: { key: 'k', fingerprint: 'f' } };
      await store.appendToStream(stream('a'), [{ type: 'Shaped', data: { nested: { list: [1, 'two', null] } }, metadata: { schemaVersion: 3, ...meta } }], 'no_stream');
      const [read] = await store.readStream(stream('a'));
      expect(read).toMatchObject({ streamName: stream('a'), revision: 0, type: 'Shaped', data: { nested: { list: [1, 'two', null] } } });
      expect(read!.metadata).toEqual({ schemaVersion: 3, ...meta });
      expect(read!.recordedAt).toBeInstanceOf(Date);
      expect(read!.recordedAt.getTime()).toBeGreaterThanOrEqual(before - 5_000);
      expect(read!.recordedAt.getTime()).toBeLessThanOrEqual(Date.now() + 5_000);
    });

    it('reads a stream from, up to, and as of a revision or time', async () => {
      await store.appendToStream(stream('a'), [0, 1, 2, 3, 4].map((n) => event(n)), 'no_stream');
      const ns = (events: RecordedEvent[]) => events.map((e) => e.data.n);
      expect(ns(await store.readStream(stream('a'), { fromRevision: 2 }))).toEqual([2, 3, 4]);
      expect(ns(await store.readStream(stream('a'), { toRevision: 1 }))).toEqual([0, 1]);
      expect(ns(await store.readStream(stream('a'), { fromRevision: 1, toRevision: 3 }))).toEqual([1, 2, 3]);
      const all = await store.readStream(stream('a'));
      const first = all[0]!;
      const last = all.at(-1)!;
      expect(ns(await store.readStream(stream('a'), { recordedUntil: new Date(first.recordedAt.getTime() - 1) }))).toEqual([]);
      // The events of one append need not share a millisecond (EventStoreDB stamps each one):
      // as of the first one's time, at least it and never one recorded later.
      const asOfFirst = await store.readStream(stream('a'), { recordedUntil: first.recordedAt });
      expect(ns(asOfFirst)).toEqual([0, 1, 2, 3, 4].slice(0, asOfFirst.length));
      expect(asOfFirst.length).toBeGreaterThanOrEqual(1);
      expect(asOfFirst.every((e) => e.recordedAt.getTime() <= first.recordedAt.getTime())).toBe(true);
      expect(ns(await store.readStream(stream('a'), { recordedUntil: last.recordedAt }))).toEqual([0, 1, 2, 3, 4]);
    });

    it('reads the last event of a stream, and null for a stream that does not exist', async () => {
      expect(await store.readLastEvent(stream('none'))).toBeNull();
      await store.appendToStream(stream('a'), [event(0), event(1)], 'no_stream');
      const appended = await store.appendToStream(stream('a'), [event(2)], 1);
      const last = await store.readLastEvent(stream('a'));
      expect(last).toMatchObject({ streamName: stream('a'), revision: 2, data: { n: 2 }, position: appended.position });
    });

    it("refuses an append over EventStoreDB's default limit whole, and takes one under it", async () => {
      // ~1.2 MB over three events: each would fit alone, together they do not.
      const big = (n: number): NewEvent => ({ ...event(n), data: { n, text: 'x'.repeat(400_000) } });
      await expect(store.appendToStream(stream('big'), [big(1), big(2), big(3)], 'no_stream')).rejects.toBeInstanceOf(AppendTooLarge);
      expect(await store.readStream(stream('big'))).toEqual([]);
      await store.appendToStream(stream('big'), [big(1), big(2)], 'no_stream');
      expect((await store.readStream(stream('big'))).map((e) => e.data.n)).toEqual([1, 2]);
      expect(MAX_APPEND_BYTES).toBe(1_048_576);
    });

    it('keeps only the last maxCount events of a stream once told, numbering revisions on', async () => {
      await store.appendToStream(stream('a'), [0, 1, 2, 3, 4].map((n) => event(n)), 'no_stream');
      await store.setMaxCount(stream('a'), 2);
      const ns = (events: RecordedEvent[]) => events.map((e) => [e.revision, e.data.n]);
      expect(ns(await store.readStream(stream('a')))).toEqual([[3, 3], [4, 4]]);
      // The revision check still counts every event ever appended.
      const stale = await store.appendToStream(stream('a'), [event(9)], 1).catch((e: unknown) => e);
      expect(stale).toBeInstanceOf(RevisionConflict);
      expect((await store.appendToStream(stream('a'), [event(5)], 4)).nextRevision).toBe(5);
      expect(ns(await store.readStream(stream('a')))).toEqual([[4, 4], [5, 5]]);
      expect((await store.readLastEvent(stream('a')))?.revision).toBe(5);
      // Set before the stream exists, it holds for the appends to come.
      await store.setMaxCount(stream('b'), 3);
      for (let n = 0; n < 6; n++) await store.appendToStream(stream('b'), [event(n)], n === 0 ? 'no_stream' : n - 1);
      expect(ns(await store.readStream(stream('b')))).toEqual([[3, 3], [4, 4], [5, 5]]);
      expect(await store.readStream(stream('c'))).toEqual([]);
    });

    it('reads the global log in order, in batches, after a position, filtered by prefix', async () => {
      const head = await store.headPosition();
      for (let i = 0; i < 7; i++) {
        await store.appendToStream(stream(i % 2 ? 'odd' : 'even'), [event(i)], 'any');
        await store.appendToStream(`other${prefix}${i}`, [event(100 + i)], 'any');
      }
      const seen: RecordedEvent[] = [];
      let after = head;
      for (;;) {
        const batch = await store.readAll({ after, maxCount: 3, streamPrefixes: [prefix] });
        expect(batch.length).toBeLessThanOrEqual(3);
        if (batch.length === 0) break;
        seen.push(...batch);
        after = batch.at(-1)!.position;
      }
      expect(seen.map((e) => e.data.n)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      for (let i = 1; i < seen.length; i++) expect(comparePositions(seen[i - 1]!.position, seen[i]!.position)).toBe(-1);
      // Unfiltered, the log also holds whatever other tests wrote meanwhile: page to its end.
      const unfiltered: RecordedEvent[] = [];
      for (let from = head; ; ) {
        const batch = await store.readAll({ after: from, maxCount: 100 });
        if (batch.length === 0) break;
        unfiltered.push(...batch.filter((e) => e.streamName.includes(prefix)));
        from = batch.at(-1)!.position;
      }
      expect(unfiltered.map((e) => e.data.n)).toEqual([0, 100, 1, 101, 2, 102, 3, 103, 4, 104, 5, 105, 6, 106]);
    });

    it('moves the head position with every append', async () => {
      const result = await store.appendToStream(stream('a'), [event(1)], 'any');
      expect(comparePositions((await store.headPosition())!, result.position)).toBeGreaterThanOrEqual(0);
      const next = await store.appendToStream(stream('a'), [event(2)], 'any');
      expect(comparePositions(next.position, result.position)).toBe(1);
    });

    it('a subscription catches up, then delivers live events in log order', async () => {
      const head = await store.headPosition();
      for (let i = 0; i < 5; i++) await store.appendToStream(stream(`s${i % 2}`), [event(i)], 'any');
      const subscription = store.subscribeToAll({ after: head, streamPrefixes: [prefix] });
      const delivered = take(subscription, 10);
      // Most likely lets it catch up before the live appends; if a loaded machine delays it, it reads them in the catch-up, in the same order.
      await new Promise((r) => setTimeout(r, 50));
      for (let i = 5; i < 10; i++) await store.appendToStream(stream(`s${i % 2}`), [event(i)], 'any');
      const events = await delivered;
      await subscription.close();
      expect(events.map((e) => e.data.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    });

    it('a subscription resumes exactly after a given position', async () => {
      const head = await store.headPosition();
      const results = [];
      for (let i = 0; i < 6; i++) results.push(await store.appendToStream(stream('r'), [event(i)], 'any'));
      const first = store.subscribeToAll({ after: head, streamPrefixes: [prefix] });
      const firstThree = await take(first, 3);
      await first.close();
      const resumed = store.subscribeToAll({ after: firstThree.at(-1)!.position, streamPrefixes: [prefix] });
      const rest = await take(resumed, 3);
      await resumed.close();
      expect([...firstThree, ...rest].map((e) => e.data.n)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(rest.at(-1)!.position).toBe(results.at(-1)!.position);
    });

    it('lets exactly one of many concurrent appends at one revision win', async () => {
      await store.appendToStream(stream('race'), [event(0)], 'no_stream');
      const outcomes = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => store.appendToStream(stream('race'), [event(i + 1)], 0)),
      );
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(RevisionConflict);
      expect(await store.readStream(stream('race'))).toHaveLength(2);
    });

    it('lets exactly one of many concurrent creations win', async () => {
      const outcomes = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => store.appendToStream(stream('new'), [event(i)], 'no_stream')),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      expect(await store.readStream(stream('new'))).toHaveLength(1);
    });

    it('gives concurrent appends to many streams distinct, ordered positions', async () => {
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => store.appendToStream(stream(`m${i}`), [event(i)], 'no_stream')),
      );
      expect(new Set(results.map((r) => r.position)).size).toBe(50);
      for (let i = 0; i < 50; i++) {
        const [read] = await store.readStream(stream(`m${i}`));
        expect(read!.position).toBe(results[i]!.position);
      }
    });
  });
}
