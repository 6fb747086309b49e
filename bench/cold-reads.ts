// npm run bench:cold-reads: what one point read of the embedded event store costs (the placement's
// reads of its order's, key's and customer's streams), warm, and right after another connection
// committed, as the writer thread does hundreds of times a second under load. SQLite in WAL mode
// drops a connection's page cache when it finds that another connection wrote since its last
// read, so the first read after each commit fetches its pages again. Also with a memory map
// (PRAGMA mmap_size), which does not help. 60,000 one-event streams; 20,000 warm reads, 500 after a commit.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteEventStore } from '../write-side/adapters/sqlite-event-store.js';

const STREAMS = 60_000;
const dir = mkdtempSync(join(process.cwd(), '.bench-cold-reads-'));
const file = join(dir, 'events.sqlite3');
const store = new SqliteEventStore({ file });
const metadata = { schemaVersion: 1, principal: 'bench', correlationId: 'bench', causationId: null };
try {
  const ids: string[] = [];
  for (let batch = 0; batch < STREAMS / 1000; batch++) {
    await Promise.all(
      Array.from({ length: 1000 }, () => {
        const id = randomUUID();
        ids.push(id);
        return store.appendToStream(`order-${id}`, [{ type: 'OrderPlaced', data: { id, address: { line1: 'x'.repeat(200) } }, metadata }], 'no_stream');
      }),
    );
  }
  // A reading connection as the store's own: the same page cache size, the same statement.
  const db = new Database(file);
  db.pragma('cache_size = -65536');
  const read = db.prepare('SELECT * FROM events WHERE stream = ? AND revision >= ? AND revision <= ? AND recorded_at <= ? ORDER BY revision');
  const readOne = () => read.all(`order-${ids[Math.floor(Math.random() * ids.length)]}`, 0, 0, Number.MAX_SAFE_INTEGER);
  const µs = (ms: number, n: number) => `${((ms / n) * 1000).toFixed(1)} µs`;

  for (let i = 0; i < 5000; i++) readOne();
  let started = performance.now();
  for (let i = 0; i < 20_000; i++) readOne();
  console.log(`warm (nothing committed between reads):        ${µs(performance.now() - started, 20_000)} per read`);

  for (const mmap of [false, true, false, true]) {
    db.pragma(`mmap_size = ${mmap ? 1 << 30 : 0}`);
    let spent = 0;
    for (let i = 0; i < 500; i++) {
      for (let k = 0; k < 20; k++) readOne(); // the reads a service makes between two commits
      await store.appendToStream(`order-${randomUUID()}`, [{ type: 'Committed', data: {}, metadata }], 'no_stream');
      started = performance.now();
      readOne();
      spent += performance.now() - started;
    }
    console.log(`the first read after another connection's commit${mmap ? ', memory-mapped' : ''}: ${µs(spent, 500)} per read`);
  }
  db.close();
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
