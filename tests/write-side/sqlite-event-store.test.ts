// What only the embedded store promises: durability settings, group commit, crash safety.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SqliteEventStore } from '../../write-side/adapters/sqlite-event-store.js';
import type { NewEvent } from '../../write-side/kernel/event-store.js';
import { tempDir } from '../support/event-stores.js';
import { until } from '../support/until.js';

const event = (n: number): NewEvent => ({
  type: 'Tested',
  data: { n },
  metadata: { schemaVersion: 1, correlationId: 'c', causationId: null, principal: 'p' },
});

function withStore(options: { synchronous?: 'full' | 'normal' } = {}) {
  const dir = tempDir('sqlite-store-');
  const file = join(dir.path, 'events.sqlite3');
  const store = new SqliteEventStore({ file, ...options });
  return { store, file, dispose: async () => { await store.close(); dir.remove(); } };
}

describe('embedded event store', () => {
  it('commits in WAL mode with a full sync by default, and normal only when asked', async () => {
    const durable = withStore();
    expect(await durable.store.durability()).toEqual({ journalMode: 'wal', synchronous: 'full' });
    await durable.dispose();
    const relaxed = withStore({ synchronous: 'normal' });
    expect((await relaxed.store.durability()).synchronous).toBe('normal');
    await relaxed.dispose();
  });

  it("keeps a stream's max count in the file, so that another process's appends drop the older rows too", async () => {
    const { store, file, dispose } = withStore();
    const other = new SqliteEventStore({ file });
    await store.setMaxCount('snapshot-stock-x', 2);
    for (let n = 0; n < 5; n++) await other.appendToStream('snapshot-stock-x', [event(n)], n === 0 ? 'no_stream' : n - 1);
    expect((await store.readStream('snapshot-stock-x')).map((e) => e.revision)).toEqual([3, 4]);
    expect((await other.readStream('snapshot-stock-x')).map((e) => e.revision)).toEqual([3, 4]);
    await other.close();
    await dispose();
  });

  it("checks an append against what another process wrote since this one's last append: its revision and its max count", async () => {
    const { store, file, dispose } = withStore();
    const other = new SqliteEventStore({ file });
    await store.appendToStream('stock-x', [event(0)], 'no_stream');
    await store.appendToStream('stock-x', [event(1)], 0);
    await other.appendToStream('stock-x', [event(2)], 1);
    await other.setMaxCount('stock-x', 2);
    // Had this store kept revision 1 as the stream's last, the append would land on revision 2 again (a store error), or pass.
    await expect(store.appendToStream('stock-x', [event(3)], 1)).rejects.toMatchObject({ name: 'RevisionConflict', actual: 2 });
    expect(await store.appendToStream('stock-x', [event(3)], 'any')).toMatchObject({ nextRevision: 3 });
    expect((await store.readStream('stock-x')).map((e) => e.revision)).toEqual([2, 3]);
    await other.close();
    await dispose();
  });

  it('commits concurrent appends together, each with its own verdict', async () => {
    const { store, dispose } = withStore();
    await store.appendToStream('order-taken', [event(0)], 'no_stream');
    const before = { ...store.stats };
    const outcomes = await Promise.allSettled([
      ...Array.from({ length: 64 }, (_, i) => store.appendToStream(`order-${i}`, [event(i)], 'no_stream')),
      store.appendToStream('order-taken', [event(1)], 'no_stream'),
    ]);
    expect(outcomes.slice(0, 64).every((o) => o.status === 'fulfilled')).toBe(true);
    expect(outcomes[64]!.status).toBe('rejected');
    expect(store.stats.appends - before.appends).toBe(65);
    expect(store.stats.commits - before.commits).toBeLessThanOrEqual(2);
    await dispose();
  });

  it('commits together the appends an idle store is given one after another without a wait for I/O between them', async () => {
    const { store, dispose } = withStore();
    await store.appendToStream('order-first', [event(0)], 'no_stream');
    const before = { ...store.stats };
    const appended: Promise<unknown>[] = [];
    // As a placement reserves its lines: each append a promise job after the one before.
    for (let i = 0; i < 3; i++) {
      appended.push(store.appendToStream(`stock-${i}`, [event(i)], 'no_stream'));
      await Promise.resolve();
    }
    await Promise.all(appended);
    expect(store.stats.appends - before.appends).toBe(3);
    expect(store.stats.commits - before.commits).toBe(1);
    await dispose();
  });

  it('acknowledges, before it closes, the appends it was given just before', async () => {
    const { store, file, dispose } = withStore();
    const appended = store.appendToStream('order-last', [event(0)], 'no_stream');
    await store.close();
    await expect(appended).resolves.toMatchObject({ nextRevision: 0 });
    const reopened = new SqliteEventStore({ file });
    expect(await reopened.readStream('order-last')).toHaveLength(1);
    await reopened.close();
    await dispose();
  });

  it('gives subscribers at the same place the same events, and still those another process appends', async () => {
    const { store, file, dispose } = withStore();
    const other = new SqliteEventStore({ file });
    const subscribers = [store.subscribeToAll({ streamPrefixes: ['order-'] }), store.subscribeToAll({ streamPrefixes: ['order-'] })];
    const iterators = subscribers.map((s) => s[Symbol.asyncIterator]());
    try {
      await store.appendToStream('order-a', [event(0), event(1)], 'no_stream');
      await other.appendToStream('job-x', [event(2)], 'no_stream');
      await other.appendToStream('order-b', [event(3)], 'no_stream');
      for (const iterator of iterators) {
        const seen: unknown[] = [];
        for (let i = 0; i < 3; i++) seen.push(((await iterator.next()).value as { data: unknown }).data);
        expect(seen).toEqual([{ n: 0 }, { n: 1 }, { n: 3 }]);
      }
      // Both caught up and found nothing more; then a commit by the other process alone still
      // reaches them (by polling), although they scan from where they scanned before.
      const pending = iterators.map((iterator) => iterator.next());
      // Most likely past one poll: they scanned the head, empty. If a loaded machine delays them, their first scan finds the commit instead: the same answer.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await other.appendToStream('order-c', [event(4)], 'no_stream');
      for (const next of pending) expect(((await next).value as { data: unknown }).data).toEqual({ n: 4 });
    } finally {
      await Promise.all(subscribers.map((s) => s.close()));
      await other.close();
      await dispose();
    }
  });

  it('hands a subscriber further on the tail of the last scan that reached the head, instead of reading the log again', async () => {
    const { store, dispose } = withStore();
    const subscriptions = [];
    try {
      await store.appendToStream('order-a', [event(0), event(1), event(2), event(3)], 'no_stream');
      const [, second] = await store.readStream('order-a');
      const behind = store.subscribeToAll();
      const ahead = store.subscribeToAll({ after: second!.position });
      subscriptions.push(behind, ahead);
      const first = await behind[Symbol.asyncIterator]().next();
      expect((first.value as { data: unknown }).data).toEqual({ n: 0 });
      const scans = store.stats.scans;
      // Nothing committed since: the subscriber two events further on is served from that scan.
      const iterator = ahead[Symbol.asyncIterator]();
      expect(((await iterator.next()).value as { data: unknown }).data).toEqual({ n: 2 });
      expect(store.stats.scans).toBe(scans);
      // After a commit the log is read again.
      await store.appendToStream('order-b', [event(4)], 'no_stream');
      expect(((await iterator.next()).value as { data: unknown }).data).toEqual({ n: 3 });
      expect(((await iterator.next()).value as { data: unknown }).data).toEqual({ n: 4 });
      expect(store.stats.scans).toBeGreaterThan(scans);
    } finally {
      await Promise.all(subscriptions.map((s) => s.close()));
      await dispose();
    }
  });

  it('hands a subscriber to some streams, alone in its store, only their rows, in batches, and moves its checkpoint past the others', async () => {
    const { store, dispose } = withStore();
    const subscriptions = [];
    try {
      // 1,200 jobs' events among 2,400 orders', more than two of a subscriber's batches; then orders' alone.
      for (let i = 0; i < 1200; i++) await store.appendToStream(`order-${i}`, [event(2 * i), event(2 * i + 1)], 'no_stream');
      await Promise.all(Array.from({ length: 1200 }, (_, i) => store.appendToStream(`job-${i}`, [event(i)], 'no_stream')));
      for (let i = 1200; i < 1300; i++) await store.appendToStream(`order-${i}`, [event(2 * i)], 'no_stream');
      const head = (await store.headPosition())!;
      const checkpoints: string[] = [];
      const rowsBefore = store.stats.scannedRows;
      const alone = store.subscribeToAll({ streamPrefixes: ['job-'], onCheckpoint: (position) => checkpoints.push(position) });
      subscriptions.push(alone);
      const iterator = alone[Symbol.asyncIterator]();
      const seen: string[] = [];
      for (let i = 0; i < 1200; i++) seen.push(((await iterator.next()).value as { streamName: string }).streamName);
      expect(seen).toEqual(Array.from({ length: 1200 }, (_, i) => `job-${i}`));
      // Asking for the next event finishes the read: the checkpoint is the head, past the last orders.
      const next = iterator.next();
      await until(() => checkpoints.at(-1) === head);
      expect(store.stats.scannedRows - rowsBefore).toBe(1200);

      // Another subscriber in the store: they share the scans of the whole log again.
      const sharing = store.subscribeToAll({ after: head });
      subscriptions.push(sharing);
      await store.appendToStream('order-x', [event(0)], 'no_stream');
      await store.appendToStream('job-x', [event(1)], 'no_stream');
      expect(((await next).value as { streamName: string }).streamName).toBe('job-x');
      const shared = sharing[Symbol.asyncIterator]();
      expect(((await shared.next()).value as { streamName: string }).streamName).toBe('order-x');
      expect(((await shared.next()).value as { streamName: string }).streamName).toBe('job-x');
    } finally {
      await Promise.all(subscriptions.map((s) => s.close()));
      await dispose();
    }
  });

  it("wakes the subscribers of another store of this process on the same file at each commit, not at their next poll", async () => {
    const { store, file, dispose } = withStore();
    // Polls once an hour: only the commit's announcement can wake it within the test.
    const other = new SqliteEventStore({ file, pollIntervalMs: 3_600_000 });
    const subscription = other.subscribeToAll({ streamPrefixes: ['order-'] });
    const iterator = subscription[Symbol.asyncIterator]();
    try {
      await store.appendToStream('order-a', [event(0)], 'no_stream');
      expect(((await iterator.next()).value as { data: unknown }).data).toEqual({ n: 0 });
      // Caught up, it waits; the next commit of the first store wakes it.
      const pending = iterator.next();
      await store.appendToStream('order-b', [event(1)], 'no_stream');
      expect(((await pending).value as { data: unknown }).data).toEqual({ n: 1 });
    } finally {
      await subscription.close();
      await other.close();
      await dispose();
    }
  });


  it('reads one change stamp for the calls of a turn of the event loop, taken after each call, and a new one after any commit', async () => {
    const { store, file, dispose } = withStore();
    // Another connection to the file, as another process would have: its commit is seen only through the stamp.
    const other = new Database(file);
    try {
      await store.appendToStream('order-a', [event(0)], 'no_stream');
      const before = await store.changeStamp();
      const reads = store.stats.stamps;
      const first = store.changeStamp();
      // Committed after the first call but before its read: a stamp taken at the call would miss it.
      other.prepare("INSERT INTO stream_limits (stream, max_count) VALUES ('order-z', 1)").run();
      const calls = [first, ...Array.from({ length: 9 }, () => store.changeStamp())];
      const stamps = await Promise.all(calls);
      expect(store.stats.stamps - reads).toBe(1);
      expect(new Set(stamps).size).toBe(1);
      expect(stamps[0]).not.toBe(before);
      // Nothing committed since: the next turn's stamp is the same.
      expect(await store.changeStamp()).toBe(stamps[0]);
      expect(store.stats.stamps - reads).toBe(2);
      await store.appendToStream('order-a', [event(1)], 0);
      expect(await store.changeStamp()).not.toBe(stamps[0]);
    } finally {
      other.close();
      await dispose();
    }
  });
  it('fails an append whose event cannot be stored without failing its neighbours', async () => {
    const { store, dispose } = withStore();
    const bad = { ...event(1), data: { n: 10n } } as unknown as NewEvent;
    const outcomes = await Promise.allSettled([
      store.appendToStream('order-a', [event(1)], 'no_stream'),
      store.appendToStream('order-b', [bad], 'no_stream'),
      store.appendToStream('order-c', [event(1)], 'no_stream'),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await store.readStream('order-b')).toEqual([]);
    await dispose();
  });

  it('keeps every acknowledged append when the process is killed with SIGKILL', async () => {
    const dir = tempDir('kill-');
    const file = join(dir.path, 'events.sqlite3');
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fixtures/append-until-killed.ts'), file], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const acknowledged: string[] = [];
    let buffered = '';
    await new Promise<void>((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`child exited with ${code}`))));
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        buffered += chunk;
        const lines = buffered.split('\n');
        buffered = lines.pop()!;
        acknowledged.push(...lines);
        if (acknowledged.length >= 2000 && !child.killed) child.kill('SIGKILL');
      });
    });
    expect(acknowledged.length).toBeGreaterThanOrEqual(2000);

    const reopened = new SqliteEventStore({ file });
    for (const line of acknowledged) {
      const [stream, revision, position] = line.split(' ');
      const events = await reopened.readStream(stream!);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ revision: Number(revision), position });
    }
    // The log has no gaps: positions run 1..n.
    const all = await reopened.readAll({ maxCount: 1_000_000 });
    expect(all.map((e) => Number(BigInt('0x' + e.position.slice(16))))).toEqual(all.map((_, i) => i + 1));
    await reopened.close();
    dir.remove();
  });
});
