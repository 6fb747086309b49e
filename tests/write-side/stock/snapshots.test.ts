// Stock snapshots: a process that has not folded a SKU yet starts from its last snapshot and reads
// only the events after it; a snapshot it cannot trust is passed over for a fold from the start,
// and what it decides after a snapshot is what it would decide after a full fold. A retried
// adjustment, too, reads its SKU's stream only from where its first run could have written.
import fc from 'fast-check';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteEventStore } from '../../../write-side/adapters/sqlite-event-store.js';
import { serviceViewer } from '../../../write-side/kernel/access.js';
import { InsufficientStock } from '../../../write-side/kernel/errors.js';
import { AppendTooLarge, type EventStore, type NewEvent } from '../../../write-side/kernel/event-store.js';
import { keyStream } from '../../../write-side/kernel/idempotency.js';
import { StockService } from '../../../write-side/stock/service.js';
import { decodeStockEvent, encodeStockEvent, STOCK_STREAM_PREFIX, stockStream } from '../../../write-side/stock/codec.js';
import { decideStock, evolveStock, initialStock, liveReservations } from '../../../write-side/stock/decider.js';
import { decodeStockSnapshot, encodeStockSnapshot, encodeStockSnapshotParts, STOCK_SNAPSHOT_VERSION, stockSnapshotStream } from '../../../write-side/stock/snapshot.js';
import type { Stock, StockCommand, StockEvent } from '../../../write-side/stock/types.js';
import { delegating, tempDir } from '../../support/event-stores.js';

const staff = serviceViewer('stock-clerk');
const context = { principal: 'tester', correlationId: 'c', causationId: null };
const meta = { correlationId: 'c', causationId: null, principal: 'tester' };
const SKU = 'SNAP-1';

/** The store, counting the events read from stock streams, and able to refuse snapshot writes. */
function counting(store: EventStore) {
  const count = { stockEvents: 0, refuseSnapshots: false };
  const refuse = (stream: string) => {
    if (count.refuseSnapshots && !stream.startsWith(STOCK_STREAM_PREFIX)) throw new Error('snapshot stream refused');
  };
  const counted = delegating(store, {
    appendToStream: async (stream, events, expected, options) => (refuse(stream), store.appendToStream(stream, events, expected, options)),
    readStream: async (stream, options) => {
      const read = await store.readStream(stream, options);
      if (stream.startsWith(STOCK_STREAM_PREFIX)) count.stockEvents += read.length;
      return read;
    },
    setMaxCount: async (stream, maxCount) => (refuse(stream), store.setMaxCount(stream, maxCount)),
  });
  return { counted, count };
}

let store: SqliteEventStore;
let dispose: () => Promise<void>;
const services: StockService[] = [];
/** A process of its own: nothing folded yet. */
const fresh = (options: ConstructorParameters<typeof StockService>[1] = {}, on: EventStore = store) => {
  const service = new StockService(on, options);
  services.push(service);
  return service;
};

beforeEach(() => {
  const dir = tempDir('stock-snapshots-');
  store = new SqliteEventStore({ file: join(dir.path, 'events.sqlite3') });
  dispose = async () => {
    await Promise.all(services.splice(0).map((s) => s.idle()));
    await store.close();
    dir.remove();
  };
});
afterEach(() => dispose());

const received = (n: number): StockEvent => ({
  type: 'StockAdjusted',
  schemaVersion: 1,
  data: { sku: SKU, adjustmentId: `recv-${n}`, delta: 1, reason: 'received', note: null, onHand: n + 1, reserved: 0, adjustedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, n)).toISOString() },
});

/** `count` units received one by one, written straight to the SKU's stream from revision `from`. */
async function receive(count: number, from = 0): Promise<void> {
  const events = Array.from({ length: count }, (_, i) => encodeStockEvent(received(from + i), meta));
  await store.appendToStream(stockStream(SKU), events, from === 0 ? 'no_stream' : from - 1);
}

/** The SKU folded from the first event of its stream, without the service. */
async function fullFold(sku = SKU): Promise<{ stock: Stock; revision: number }> {
  const recorded = await store.readStream(stockStream(sku));
  return { stock: recorded.reduce((s, r) => evolveStock(s, decodeStockEvent(r)), initialStock(sku)), revision: recorded.length - 1 };
}

async function snapshotRevisions(sku = SKU): Promise<number[]> {
  return (await store.readStream(stockSnapshotStream(sku))).map((r) => Number(r.data.revision));
}

/** Reads the SKU in a process of its own; how many of its stock events that read. */
async function coldRead(sku = SKU) {
  const { counted, count } = counting(store);
  const service = fresh({ snapshotEvery: Infinity }, counted);
  const levels = await service.get(staff, sku);
  return { levels, eventsRead: count.stockEvents, service };
}

describe('stock snapshots', () => {
  it('writes a snapshot once the stream has gathered enough events, and a cold fold reads only the events after it', async () => {
    await receive(9);
    await fresh({ snapshotEvery: 10 }).get(staff, SKU);
    await Promise.all(services.map((s) => s.idle()));
    expect(await snapshotRevisions()).toEqual([]);

    await receive(3, 9);
    const writer = fresh({ snapshotEvery: 10 });
    await writer.get(staff, SKU);
    await writer.idle();
    expect(await snapshotRevisions()).toEqual([11]);

    await receive(4, 12);
    const { levels, eventsRead } = await coldRead();
    // The snapshot's own event (to check it is the one it was taken at), then 12 … 15.
    expect(eventsRead).toBe(5);
    expect(levels).toMatchObject({ onHand: 16, reserved: 0, revision: 15 });
    // What the projection, the reconciler and the auditor read holds no snapshot.
    const stockLog = await store.readAll({ maxCount: 1000, streamPrefixes: [STOCK_STREAM_PREFIX] });
    expect(stockLog.map((e) => e.streamName)).toEqual(Array(16).fill(stockStream(SKU)));
  });

  it('reads a single event when the snapshot is at the head of the stream', async () => {
    await receive(2000);
    const writer = fresh();
    await writer.get(staff, SKU);
    await writer.idle();
    expect(await snapshotRevisions()).toEqual([1999]);
    const { levels, eventsRead } = await coldRead();
    expect(eventsRead).toBe(1);
    expect(levels).toMatchObject({ onHand: 2000, revision: 1999 });
  });

  it('decides after a snapshot as after a full fold: reservations, releases and commits carried over', async () => {
    const writer = fresh({ snapshotEvery: 7 });
    await writer.adjust(staff, SKU, { delta: 200, reason: 'received', note: null }, { correlationId: 'c', idempotency: { key: 'recv', fingerprint: 'f' } });
    for (let i = 0; i < 40; i++) {
      await writer.reserve(`ord-${i}`, [{ sku: SKU, quantity: 1 + (i % 4) }], context);
      if (i % 4 === 1) await writer.release(`ord-${i - 1}`, [SKU], 'order-cancelled', context);
      if (i % 5 === 2) await writer.settle(`ord-${i - 2}`, new Map([[SKU, { reserved: 0, shipped: Number.MAX_SAFE_INTEGER }]]), { reason: 'order-cancelled', orderRevision: 0, raise: false }, context);
    }
    await writer.idle();
    const snapshots = await snapshotRevisions();
    expect(snapshots.length).toBeGreaterThan(0);
    expect(snapshots.length).toBeLessThanOrEqual(3); // only the last few are kept

    const { stock, revision } = await fullFold();
    const { levels, eventsRead, service } = await coldRead();
    expect(eventsRead).toBeLessThan(revision + 1);
    expect(levels).toEqual({ sku: SKU, onHand: stock.onHand, reserved: stock.reserved, available: stock.onHand - stock.reserved, updatedAt: stock.updatedAt, revision });
    for (let i = 0; i < 40; i++) expect(await service.held(`ord-${i}`, SKU)).toBe(liveReservations(stock.live).get(`ord-${i}`));
    // Exactly what is available can be reserved, and not one more.
    const available = stock.onHand - stock.reserved;
    await expect(service.reserve('ord-more', [{ sku: SKU, quantity: available + 1 }], context)).rejects.toBeInstanceOf(InsufficientStock);
    await service.reserve('ord-all', [{ sku: SKU, quantity: available }], context);
    expect((await fullFold()).stock.reserved).toBe(stock.onHand);
  });

  it('carries what was committed of each reservation and its fence over a snapshot: a cold process commits only the rest and ignores a stale settle', async () => {
    const writer = fresh({ snapshotEvery: 5 });
    await writer.adjust(staff, SKU, { delta: 20, reason: 'received', note: null }, { correlationId: 'c', idempotency: { key: 'recv', fingerprint: 'f' } });
    const how = (orderRevision: number, raise = false) => ({ reason: 'order-edited' as const, orderRevision, raise });
    await writer.reserve('shipping', [{ sku: SKU, quantity: 4 }], context);
    await writer.settle('shipping', new Map([[SKU, { reserved: 3, shipped: 1 }]]), how(2), context);
    await writer.reserve('editing', [{ sku: SKU, quantity: 2 }], context);
    // An edit's raise, fenced at the revision its edit will have.
    await writer.settle('editing', new Map([[SKU, { reserved: 5, shipped: 0 }]]), how(6, true), context);
    await writer.idle();
    expect(await snapshotRevisions()).toEqual([4]);
    const snapshot = decodeStockSnapshot((await store.readLastEvent(stockSnapshotStream(SKU)))!, SKU)!;
    expect([new Map(snapshot.stock.committed), new Map(snapshot.stock.fences)]).toEqual([new Map([['shipping', 1]]), new Map([['shipping', 2], ['editing', 6]])]);

    const { service, eventsRead } = await coldRead();
    expect(eventsRead).toBe(1);
    // The order at revision 5 (before the edit) is stale for `editing`; `shipping` shipped 3 in all, 2 of them new.
    await service.settle('editing', new Map([[SKU, { reserved: 2, shipped: 0 }]]), how(5), context);
    await service.settle('shipping', new Map([[SKU, { reserved: 1, shipped: 3 }]]), how(3), context);
    expect([await service.held('editing', SKU), await service.held('shipping', SKU)]).toEqual([5, 1]);
    expect((await service.get(staff, SKU))!).toMatchObject({ onHand: 17, reserved: 6 });
    const { stock } = await fullFold();
    expect([stock.onHand, stock.reserved, liveReservations(stock.live)]).toEqual([17, 6, new Map([['shipping', 1], ['editing', 5]])]);
  });

  describe('a SKU with more live reservations than one append takes (the store refuses over 1 MiB, as EventStoreDB does)', () => {
    const HELD = 50_000;
    /** One unit each for HELD orders, written straight to the stream in appends under the limit. */
    async function holdMany(): Promise<void> {
      const at = new Date(Date.UTC(2026, 0, 2)).toISOString();
      const stocked: StockEvent = {
        type: 'StockAdjusted',
        schemaVersion: 1,
        data: { sku: SKU, adjustmentId: 'recv-all', delta: HELD, reason: 'received', note: null, onHand: HELD, reserved: 0, adjustedAt: at },
      };
      await store.appendToStream(stockStream(SKU), [encodeStockEvent(stocked, meta)], 'no_stream');
      for (let from = 0; from < HELD; from += 2_000) {
        const events = Array.from({ length: 2_000 }, (_, i): StockEvent => ({
          type: 'StockReserved',
          schemaVersion: 1,
          data: { sku: SKU, orderId: `00000000-0000-4000-8000-${String(from + i).padStart(12, '0')}`, quantity: 1, reservedAt: at },
        }));
        await store.appendToStream(stockStream(SKU), events.map((e) => encodeStockEvent(e, meta)), from);
      }
    }

    it('is snapshotted in parts, each appended alone, and a cold fold reads it back whole', async () => {
      await holdMany();
      const { stock, revision } = await fullFold();
      expect(stock.reserved).toBe(HELD);
      // As one event the snapshot is more than the store takes: the limit bites here.
      await expect(store.appendToStream('snapshot-probe', [encodeStockSnapshot({ stock, revision }, meta)], 'any')).rejects.toBeInstanceOf(AppendTooLarge);

      const errors: unknown[] = [];
      const writer = fresh({ onSnapshotError: (error) => errors.push(error) });
      await writer.get(staff, SKU);
      await writer.idle();
      expect(errors).toEqual([]);
      const parts = await store.readStream(stockSnapshotStream(SKU));
      expect(parts.length).toBeGreaterThan(1);
      expect(parts.map((p) => [p.data.part, p.data.parts, p.data.revision])).toEqual(parts.map((_, i) => [i, parts.length, revision]));

      const { levels, eventsRead, service } = await coldRead();
      expect(eventsRead).toBe(1); // the event the snapshot ends on, to check it fits
      expect(levels).toEqual({ sku: SKU, onHand: HELD, reserved: HELD, available: 0, updatedAt: stock.updatedAt, revision });
      expect(await service.held(`00000000-0000-4000-8000-${String(HELD - 1).padStart(12, '0')}`, SKU)).toBe(1);
    });

    it('keeps every part of the last snapshots, and a snapshot missing a part is no snapshot', async () => {
      await holdMany();
      const { stock, revision } = await fullFold();
      const events = encodeStockSnapshotParts({ stock, revision }, meta);
      expect(events.length).toBeGreaterThan(1);
      // A write cut short before its last part: the cold fold reads from the start.
      for (const part of events.slice(0, -1)) await store.appendToStream(stockSnapshotStream(SKU), [part], 'any');
      expect((await coldRead()).eventsRead).toBe(revision + 1);
      // The last part alone after another snapshot's first ones: its parts do not line up.
      await store.appendToStream(stockSnapshotStream(SKU), [events[0]!, events.at(-1)!], 'any');
      expect((await coldRead()).eventsRead).toBe(revision + 1);
    });
  });

  describe('passes over a snapshot it cannot trust and folds from the start', () => {
    const planted = async (change: (snapshot: NewEvent) => NewEvent) => {
      await receive(30);
      const { stock, revision } = await fullFold();
      await store.appendToStream(stockSnapshotStream(SKU), [change(encodeStockSnapshot({ stock, revision }, meta))], 'any');
    };

    it('uses a sound one (the case the others differ from)', async () => {
      await planted((s) => s);
      expect((await coldRead()).eventsRead).toBe(1);
    });

    it('of another schema version', async () => {
      await planted((s) => ({ ...s, metadata: { ...s.metadata, schemaVersion: STOCK_SNAPSHOT_VERSION + 1 } }));
      const { levels, eventsRead } = await coldRead();
      expect(eventsRead).toBe(30);
      expect(levels).toMatchObject({ onHand: 30, revision: 29 });
    });

    it('that cannot be decoded', async () => {
      await planted((s) => ({ ...s, data: { sku: SKU, revision: 'twenty-nine' } }));
      expect((await coldRead()).eventsRead).toBe(30);
    });

    it('whose counters disagree with its reservations', async () => {
      await planted((s) => ({ ...s, data: { ...s.data, reserved: 3 } }));
      expect((await coldRead()).eventsRead).toBe(30);
    });

    it('of a revision the stream has not reached', async () => {
      await planted((s) => ({ ...s, data: { ...s.data, revision: 40 } }));
      const { levels, eventsRead } = await coldRead();
      expect(eventsRead).toBe(30);
      expect(levels).toMatchObject({ onHand: 30, revision: 29 });
    });

    it('taken of another stream (its last event is not the one at its revision), and never sells what it claims', async () => {
      await planted((s) => ({ ...s, data: { ...s.data, onHand: 1_000_000, updatedAt: '2025-01-01T00:00:00.000Z' } }));
      const { levels, eventsRead, service } = await coldRead();
      expect(eventsRead).toBe(1 + 30); // the event at its revision, found another, then the whole stream
      expect(levels).toMatchObject({ onHand: 30 });
      await expect(service.reserve('ord-1', [{ sku: SKU, quantity: 31 }], context)).rejects.toBeInstanceOf(InsufficientStock);
    });

    it('missing, for a SKU with no events at all', async () => {
      expect((await coldRead('NOTHING')).levels).toMatchObject({ onHand: 0, reserved: 0, revision: null });
      expect(await snapshotRevisions('NOTHING')).toEqual([]);
    });
  });

  it('serves every command when snapshots cannot be written, and says so', async () => {
    await receive(20);
    const { counted, count } = counting(store);
    count.refuseSnapshots = true;
    const failures: unknown[] = [];
    const service = fresh({ snapshotEvery: 5, onSnapshotError: (error) => failures.push(error) }, counted);
    await service.reserve('ord-1', [{ sku: SKU, quantity: 2 }], context);
    await service.idle();
    expect(failures).toHaveLength(1);
    expect(await snapshotRevisions()).toEqual([]);
    expect(await service.held('ord-1', SKU)).toBe(2);
  });
});

describe('a retried stock adjustment', () => {
  const adjustment = { delta: 5, reason: 'received' as const, note: null };
  const keyed = (key: string) => ({ correlationId: 'c', idempotency: { key, fingerprint: 'fp-1' } });

  it('finds its first outcome from the revision its key noted, however long the stream before it', async () => {
    await receive(3000);
    const first = await fresh().adjust(staff, SKU, adjustment, keyed('adj-1'));
    expect(first).toMatchObject({ replayed: false, levels: { onHand: 3005, revision: 3000 } });
    await receive(50, 3001);

    const { counted, count } = counting(store);
    const again = await fresh({ snapshotEvery: Infinity }, counted).adjust(staff, SKU, adjustment, keyed('adj-1'));
    expect(again).toMatchObject({ replayed: true, adjustment: first!.adjustment, levels: first!.levels, position: first!.position });
    // The adjustment at 3000 and the 50 after it; never the 3,000 before.
    expect(count.stockEvents).toBe(51);
  });

  it('still finds the outcome of a key taken before keys noted a revision, by reading from the start', async () => {
    await receive(40);
    const first = await fresh().adjust(staff, SKU, adjustment, keyed('adj-old'));
    // The key as it was recorded before: its target only.
    const [taken] = await store.readStream(keyStream('stock-clerk', 'adj-old'));
    expect(taken!.data).toEqual({ stream: stockStream(SKU), fromRevision: 40 });
    const olderDir = tempDir('stock-old-key-');
    const older = new SqliteEventStore({ file: join(olderDir.path, 'events.sqlite3') });
    try {
      await older.appendToStream(stockStream(SKU), (await store.readStream(stockStream(SKU))).map(({ type, data, metadata }) => ({ type, data, metadata })), 'no_stream');
      await older.appendToStream(taken!.streamName, [{ type: taken!.type, data: { stream: stockStream(SKU) }, metadata: taken!.metadata }], 'no_stream');
      const again = await new StockService(older).adjust(staff, SKU, adjustment, keyed('adj-old'));
      expect(again).toMatchObject({ replayed: true, adjustment: first!.adjustment, levels: first!.levels });
    } finally {
      await older.close();
      olderDir.remove();
    }
  });
});

type Generated =
  | { type: 'adjust'; delta: number }
  | { type: 'reserve'; order: number; quantity: number }
  | { type: 'release' | 'commit'; order: number }
  | { type: 'settle'; order: number; reserved: number; shipped: number; revision: number; raise: boolean; force: boolean };

describe('a stock snapshot, decoded', () => {
  const command: fc.Arbitrary<Generated> = fc.oneof(
    fc.record({ type: fc.constant('adjust' as const), delta: fc.integer({ min: -5, max: 20 }) }),
    fc.record({ type: fc.constant('reserve' as const), order: fc.integer({ min: 0, max: 12 }), quantity: fc.integer({ min: 1, max: 6 }) }),
    fc.record({ type: fc.constant('release' as const), order: fc.integer({ min: 0, max: 12 }) }),
    fc.record({ type: fc.constant('commit' as const), order: fc.integer({ min: 0, max: 12 }) }),
    // Partial commits and fenced raises: what a snapshot carries in its four-member entries.
    fc.record({
      type: fc.constant('settle' as const), order: fc.integer({ min: 0, max: 12 }), reserved: fc.integer({ min: 0, max: 6 }), shipped: fc.integer({ min: 0, max: 6 }),
      revision: fc.integer({ min: 0, max: 8 }), raise: fc.boolean(), force: fc.boolean(),
    }),
  );
  const toCommand = (c: Generated, i: number): StockCommand => {
    const metadata = { now: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() };
    // Thresholds that now and then fall: StockFellLow is among the events a snapshot may end on.
    const lowStockThreshold = i % 7;
    switch (c.type) {
      case 'adjust':
        return { type: 'AdjustStock', data: { sku: SKU, adjustmentId: `a-${i}`, delta: c.delta || 1, reason: 'count', note: null, lowStockThreshold }, metadata };
      case 'reserve':
        return { type: 'ReserveStock', data: { sku: SKU, orderId: `o-${c.order}`, quantity: c.quantity, lowStockThreshold }, metadata };
      case 'release':
        return { type: 'ReleaseReservation', data: { sku: SKU, orderId: `o-${c.order}`, reason: 'order-cancelled' }, metadata };
      case 'commit':
        return { type: 'SettleReservation', data: { sku: SKU, orderId: `o-${c.order}`, reserved: 0, shipped: Number.MAX_SAFE_INTEGER, reason: 'order-cancelled', orderRevision: 0, raise: false, lowStockThreshold }, metadata };
      case 'settle': {
        const { reserved, shipped, revision: orderRevision, raise, force } = c;
        return { type: 'SettleReservation', data: { sku: SKU, orderId: `o-${c.order}`, reserved, shipped, reason: 'order-edited', orderRevision, raise, force, lowStockThreshold }, metadata };
      }
    }
  };
  /** The events a command decides on the state, or the error's name. */
  function decide(c: Generated, i: number, state: Stock): StockEvent[] | string {
    try {
      return decideStock(toCommand(c, i), state);
    } catch (error) {
      return (error as Error).name;
    }
  }

  it('decides every later command as the full fold does, wherever it was taken', () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 1, maxLength: 80 }), fc.nat(), (commands, at) => {
        const cut = at % commands.length;
        let full = initialStock(SKU);
        let fromSnapshot: Stock | null = null;
        commands.forEach((c, i) => {
          // Taken at the first event on or after the cut (a stream with no event has no snapshot).
          if (i >= cut && !fromSnapshot && full.updatedAt !== null) {
            const recorded = encodeStockSnapshot({ stock: full, revision: i }, meta);
            fromSnapshot = decodeStockSnapshot(recorded, SKU)?.stock ?? null;
            expect(fromSnapshot).not.toBeNull();
          }
          const decided = decide(c, i, full);
          if (fromSnapshot) expect(decide(c, i, fromSnapshot)).toEqual(decided);
          if (typeof decided === 'string') return;
          for (const event of decided) {
            full = evolveStock(full, event);
            if (fromSnapshot) fromSnapshot = evolveStock(fromSnapshot, event);
          }
        });
        const end = fromSnapshot as Stock | null;
        if (!end) return;
        expect({ onHand: end.onHand, reserved: end.reserved, live: liveReservations(end.live), committed: new Map(end.committed), fences: new Map(end.fences), updatedAt: end.updatedAt }).toEqual({
          onHand: full.onHand,
          reserved: full.reserved,
          live: liveReservations(full.live),
          committed: new Map(full.committed),
          fences: new Map(full.fences),
          updatedAt: full.updatedAt,
        });
      }),
      { numRuns: 300 },
    );
  });

  describe('its reservations as written', () => {
    const at = '2026-01-01T00:00:00.000Z';
    let stock = evolveStock(initialStock(SKU), { type: 'StockAdjusted', schemaVersion: 1, data: { sku: SKU, adjustmentId: 'a', delta: 100, reason: 'count', note: null, onHand: 100, reserved: 0, adjustedAt: at } });
    for (const [orderId, quantity] of [['o-c', 1], ['o-a', 2], ['o-b', 3]] as const) {
      stock = evolveStock(stock, { type: 'StockReserved', schemaVersion: 1, data: { sku: SKU, orderId, quantity, reservedAt: at } });
    }
    const written = encodeStockSnapshot({ stock, revision: 3 }, meta);
    const withReservations = (reservations: [string, number][], reserved = stock.reserved) => ({ ...written, data: { ...written.data, reserved, reservations } });

    it('are written in the order of their ids, and read back so', () => {
      expect(written.data.reservations).toEqual([['o-a', 2], ['o-b', 3], ['o-c', 1]]);
      expect([...decodeStockSnapshot(written, SKU)!.stock.live]).toEqual([['o-a', 2], ['o-b', 3], ['o-c', 1]]);
    });

    it('are read in any order (an earlier build wrote them in its map’s order)', () => {
      const decoded = decodeStockSnapshot(withReservations([['o-c', 1], ['o-a', 2], ['o-b', 3]]), SKU);
      expect(liveReservations(decoded!.stock.live)).toEqual(liveReservations(stock.live));
      expect(decoded!.stock.live.get('o-b')).toBe(3);
    });

    it('are not trusted when they name an order twice, even with counters that add up', () => {
      expect(decodeStockSnapshot(withReservations([['o-a', 2], ['o-b', 3], ['o-b', 3], ['o-c', 1]], stock.reserved + 3), SKU)).toBeNull();
      expect(decodeStockSnapshot(withReservations([['o-b', 3], ['o-a', 2], ['o-b', 3], ['o-c', 1]], stock.reserved + 3), SKU)).toBeNull();
    });
  });
});
