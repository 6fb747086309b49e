// npm run bench:kept-orders: the memory a folded order takes in the order service's cache of
// folds (KeptFolds, write-side/kernel/kept-folds.ts), which keeps up to 200,000 weight units: some
// 60,000 orders of 1 to 3 lines. Every byte of a kept order is heap the collector marks again and
// again under load; issue 32's first fold of an order was twice the size of the one before it, and
// cost placements some 7% (docs/benchmarks.md).
//
// BENCH_ORDERS (default 60,000) placements of 1 to 3 lines are folded as the service folds them:
// decided and evolved in the process (a placement's own fold), and read back (the event's data
// through JSON, decoded and evolved: a fold after a restart or an eviction). Printed: the heap
// each kept fold takes, beside its floor, the OrderPlaced event's data kept as it is (the fold
// can hold no less: what a fold adds to it is its own cost). Run with the collector exposed
// (`node --expose-gc`, which the npm script passes).
import { v4 as uuidv4 } from 'uuid';
import { keyId } from '../write-side/kernel/idempotency.js';
import { decodeOrderEvent, encodeOrderEvent } from '../write-side/orders/codec.js';
import { orderDecider } from '../write-side/orders/decider.js';
import type { Position } from '../write-side/kernel/event-store.js';
import type { Order, OrderEvent } from '../write-side/orders/types.js';
import { benchSku } from './http/setup.js';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 60_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run bench:kept-orders does)');
const address = { name: 'Ada Lovelace', line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' };
const meta = { principal: 'bench', correlationId: 'bench', causationId: null };

// Ids as the service has them: the order's from its key (keyId, a name-based UUID), the
// customer's parsed from the request's JSON. Both are flat strings of some 60 bytes; a random
// UUID (uuid's v4, node:crypto's randomUUID) is a rope of its parts, about 490 bytes, which would
// swamp what is measured here.
function placed(i: number): OrderEvent {
  const lines = Array.from({ length: 1 + (i % 3) }, (_, j) => ({ sku: benchSku((i * 7 + j) % 1000), name: `Product ${j}`, quantity: 1 + (j % 2), unitPrice: 1999 }));
  const command = { type: 'PlaceOrder' as const, data: { orderId: keyId('bench', uuidv4()), customerId: JSON.parse(JSON.stringify(uuidv4())) as string, currency: 'EUR', lines, address }, metadata: { principal: meta.principal, now: new Date().toISOString() } };
  return orderDecider.decide(command, orderDecider.initialState())[0]!;
}

/** The heap each of ORDERS kept values takes, as `keep` makes them from the i-th placement. */
function bytesPerOrder(keep: (event: OrderEvent) => unknown): number {
  const kept: unknown[] = [];
  gc!();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < ORDERS; i++) kept.push(keep(placed(i)));
  gc!();
  const after = process.memoryUsage().heapUsed;
  if (kept.length !== ORDERS) throw new Error('kept values lost');
  return (after - before) / ORDERS;
}

const position = '00000000000000000001' as Position;
const fold = (event: OrderEvent): Order => orderDecider.evolve(orderDecider.initialState(), event);
const readBack = (event: OrderEvent): OrderEvent => {
  const encoded = encodeOrderEvent(event, meta);
  return decodeOrderEvent({ type: encoded.type, data: JSON.parse(JSON.stringify(encoded.data)), metadata: encoded.metadata });
};

const rows: Array<[string, number]> = [
  ['floor: the OrderPlaced data kept as it is', bytesPerOrder((event) => ({ data: readBack(event).data, revision: 0, position }))],
  ['a placement\'s own fold', bytesPerOrder((event) => ({ order: fold(event), revision: 0, position }))],
  ['a fold read back from the log', bytesPerOrder((event) => ({ order: fold(readBack(event)), revision: 0, position }))],
];
const floor = rows[0]![1];
console.log(`\n${ORDERS.toLocaleString('en-US')} orders of 1 to 3 lines kept, heap per order (Node ${process.versions.node})\n`);
for (const [what, bytes] of rows) console.log(`  ${what.padEnd(44)} ${Math.round(bytes).toString().padStart(5)} bytes  (${((bytes / floor) * 100).toFixed(0)}% of the floor)`);
