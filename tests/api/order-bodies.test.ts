// The kept order bodies (api/orders/parts.ts) hold the bytes their budget counts, not the slabs of
// Node's shared Buffer pool that small Buffers are cut from: one kept slice would keep its whole
// 8 KiB slab, and every dead slice beside it, alive.
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { orderBody } from '../../api/orders/parts.js';
import { evolve, initialState, orderDecider } from '../../write-side/orders/decider.js';
import type { Order, OrderCommand, PlacedOrder } from '../../write-side/orders/types.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

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
  it('hold about the bytes of the bodies they keep, whatever else was cut from the Buffer pool meanwhile', () => {
    const orders = Array.from({ length: 2000 }, (_, n) => placedOrder(n));
    gc();
    const before = process.memoryUsage().arrayBuffers;
    let bytes = 0;
    for (const order of orders) {
      bytes += orderBody(order, 0, '2027-01-01').length;
      // What a request makes meanwhile and drops (a page's body, a cursor): a slice of the same pool.
      Buffer.from('x'.repeat(3000));
    }
    gc();
    const held = process.memoryUsage().arrayBuffers - before;
    // 2,000 bodies of some 530 bytes each: 1.1 MB. Cut from the pool between the dropped slices,
    // they held 1,000 slabs of 8 KiB whole: 8.2 MB.
    expect(bytes).toBeGreaterThan(800_000);
    expect(held).toBeLessThan(1.25 * bytes);
    expect(held).toBeGreaterThan(0.9 * bytes);
    expect(orders).toHaveLength(2000);
  });
});
