// The kept order bodies (api/orders/parts.ts) hold the bytes their budget counts, not the slabs of
// Node's shared Buffer pool that small Buffers are cut from: a kept slice keeps its whole 8 KiB
// slab, and every dead slice beside it, alive (a heap snapshot at a million orders held 35 MB of
// slabs for 16 MB of bodies). Checked on each body's own memory: a body that is a slice of a
// larger ArrayBuffer would keep all of it. (Not on process.memoryUsage().arrayBuffers after a
// collection: that figure lagged in a CI run, most likely because V8 frees dead ArrayBuffers'
// memory from a background sweeper after gc() returns.)
import { describe, expect, it } from 'vitest';
import type { Context } from 'koa';
import { orderBody, sendOrder } from '../../api/orders/parts.js';
import { evolve, initialState, orderDecider } from '../../write-side/orders/decider.js';
import type { Order, OrderCommand, PlacedOrder } from '../../write-side/orders/types.js';

function placedOrder(n: number): PlacedOrder {
  const command: OrderCommand = {
    type: 'PlaceOrder',
    data: {
      orderId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, customerId: 'cus_42', currency: 'EUR',
      lines: [{ sku: `SKU-${n % 100}`, name: 'Blue mug', quantity: 1 + (n % 3), unitPrice: 1999 }],
      address: { name: 'Ada Lovelace', line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' },
    },
    metadata: { now: '2026-11-22T10:00:00.000Z', principal: 'user-1' },
  };
  const order = orderDecider.decide(command, initialState()).reduce(evolve, initialState() as Order);
  if (order.status === 'absent') throw new Error('not placed');
  return order;
}

describe('the kept order bodies', () => {
  it('each hold memory of their own size, not a slice of a shared slab', () => {
    const orders = Array.from({ length: 200 }, (_, n) => placedOrder(n));
    for (const order of orders) {
      const body = orderBody(order, 0, '2027-01-01');
      // What a request makes meanwhile and drops (a page's body, a cursor): cut from the same pool.
      Buffer.from('x'.repeat(300));
      expect(body.length).toBeGreaterThan(200);
      expect({ byteOffset: body.byteOffset, held: body.buffer.byteLength }).toEqual({ byteOffset: 0, held: body.length });
      // The same body is answered again for the same state: the kept one.
      expect(orderBody(order, 0, '2027-01-01')).toBe(body);
    }
  });

  it("keeps no body of a state no kept fold holds: a command's outcome never pushes the kept ones out", () => {
    const kept = placedOrder(0);
    const body = orderBody(kept, 0, '2027-01-01');
    // More than the 16 MB budget of answers to writes (about 600 bytes each).
    let answered: unknown = null;
    for (let n = 1; n <= 32_000; n++) {
      const ctx = { state: { apiVersion: '2027-01-01' }, set: () => {}, status: 0, body: null as unknown };
      sendOrder(ctx as unknown as Context, 201, placedOrder(n), { revision: 0, position: null });
      answered = ctx.body;
    }
    expect(JSON.parse(String(answered))).toMatchObject({ id: '00000000-0000-4000-8000-000000032000', revision: 0 });
    expect(orderBody(kept, 0, '2027-01-01')).toBe(body);
  });
});
