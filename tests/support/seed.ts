// Places orders through the real write side and moves them through their lifecycle.
import { randomUUID } from 'node:crypto';
import { serviceViewer } from '../../write-side/kernel/access.js';
import { defineProducts } from './catalogue.js';
import { OrderService } from '../../write-side/orders/service.js';
import { StockService, type Reservations } from '../../write-side/stock/service.js';
import type { EventStore, Position } from '../../write-side/kernel/event-store.js';
import { orderStream } from '../../write-side/orders/codec.js';
import type { Address } from '../../write-side/orders/types.js';

export const address: Address = { name: 'Ada Lovelace', line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' };

/**
 * For the tests of the order service's own mechanics (its reads, appends and folds, counted on
 * wrapped stores): an order service whose stock steps do nothing. Placement with stock is tested
 * in tests/api/stock.test.ts and tests/workers/stock-reconciler.test.ts.
 */
export const ORDERS_ONLY: { readonly reservations: Reservations } = {
  reservations: { reserve: async () => {}, release: async () => {}, settle: async () => {} },
};

/** The SKUs the API tests order (newOrder's and a few more): receiveStock them before placing. */
export const TEST_SKUS: readonly string[] = ['SKU-1', 'SKU-2', 'A', 'S', 'T'];

/**
 * Receives `quantity` units of each SKU, so that orders for them can be placed (placing reserves
 * stock). Additive: on a store shared with other tests, each call adds its own units.
 */
export async function receiveStock(store: EventStore, skus: readonly string[], quantity = 1_000_000): Promise<void> {
  const stock = new StockService(store);
  const receiver = serviceViewer(`receiver-${randomUUID()}`);
  for (const sku of new Set(skus)) {
    const key = `receive-${randomUUID()}`;
    await stock.adjust(receiver, sku, { delta: quantity, reason: 'received', note: null }, { correlationId: 'seed', idempotency: { key, fingerprint: key } });
  }
}

/**
 * Order i ends pending (i%5=0), paid (1, 2), shipped (3) or cancelled (4); some change address.
 * Every call places new orders: the principal is fresh, so its keys (and the order ids derived
 * from them) are too, even on a store that keeps an earlier run's data.
 */
export async function seedOrders(store: EventStore, count: number, prefix = 'seed', options: { stock?: boolean } = {}): Promise<string[]> {
  await defineProducts(store);
  // Without stock, the log holds order events only (what the projection tests follow); with it,
  // each SKU is received first and every order reserves, as in the service.
  const service = new OrderService(store, options.stock ? {} : ORDERS_ONLY);
  const seeder = serviceViewer(`seeder-${randomUUID()}`);
  const ctx = (key: string) => ({ correlationId: 'seed', idempotency: { key, fingerprint: key } });
  if (options.stock) await receiveStock(store, Array.from({ length: 10 }, (_, i) => `SEED-${i}`), 1000);
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const placed = await service.place(seeder, 
        { customerId: `cus_${i % 4}`, currency: 'EUR', lines: [{ sku: `SEED-${i % 10}`, quantity: 1 + (i % 3) }], address },
        ctx(`${prefix}-place-${i}`),
      );
      const id = (placed.state as { id: string }).id;
      const total = (placed.state as { total: number }).total;
      if (i % 7 === 0) await service.changeAddress(seeder, id, { ...address, line1: `${i} Side St` }, ctx(`${prefix}-addr-${i}`));
      if (i % 5 === 0) return id;
      if (i % 5 === 4) {
        await service.cancel(seeder, id, 'seeded', ctx(`${prefix}-cancel-${i}`));
        return id;
      }
      await service.recordPayment(seeder, id, { amount: total, reference: `psp-${i}` }, ctx(`${prefix}-pay-${i}`));
      if (i % 5 === 3) await service.createShipment(seeder, id, { carrier: 'DHL', trackingNumber: `T${i}` }, ctx(`${prefix}-ship-${i}`));
      return id;
    }),
  );
}

/**
 * Orders past payment, through the write side with stock (the SEED SKUs received first), one of
 * each: partly shipped; edited while paid, shipped in two parts, part of it returned (received,
 * some restocked) and refunded; partly shipped, then cancelled (the rest), and refunded what was
 * cancelled; edited while pending. Every call places new orders, as seedOrders does.
 */
export async function seedOrdersAfterPayment(store: EventStore, prefix = 'after'): Promise<string[]> {
  await defineProducts(store);
  await receiveStock(store, ['SEED-1', 'SEED-2', 'SEED-3'], 1000);
  const service = new OrderService(store);
  const seeder = serviceViewer(`seeder-${randomUUID()}`);
  const ctx = (key: string) => ({ correlationId: 'seed', idempotency: { key: `${prefix}-${key}`, fingerprint: key } });
  const place = async (name: string, lines: { sku: string; quantity: number }[]) => {
    const placed = await service.place(seeder, { customerId: `cus_${name}`, currency: 'EUR', lines, address }, ctx(`place-${name}`));
    return placed.state as { id: string; total: number };
  };
  const pay = async (order: { id: string; total: number }) => service.recordPayment(seeder, order.id, { amount: order.total, reference: `psp-${order.id}` }, ctx(`pay-${order.id}`));
  const ship = (id: string, key: string, lines?: { sku: string; quantity: number }[]) =>
    service.createShipment(seeder, id, { carrier: 'DHL', trackingNumber: key, ...(lines ? { lines } : {}) }, ctx(`ship-${id}-${key}`));

  const partly = await place('partly', [{ sku: 'SEED-1', quantity: 3 }, { sku: 'SEED-2', quantity: 1 }]);
  await pay(partly);
  await ship(partly.id, 'p1', [{ sku: 'SEED-1', quantity: 2 }]);

  const returned = await place('returned', [{ sku: 'SEED-1', quantity: 2 }]);
  await pay(returned);
  await service.edit(seeder, returned.id, { lines: [{ sku: 'SEED-1', quantity: 2 }, { sku: 'SEED-3', quantity: 2 }], dryRun: false }, ctx(`edit-${returned.id}`));
  await ship(returned.id, 'r1', [{ sku: 'SEED-3', quantity: 1 }]);
  await ship(returned.id, 'r2');
  const requested = await service.requestReturn(seeder, returned.id, { lines: [{ sku: 'SEED-3', quantity: 2 }], reason: 'too big' }, ctx(`return-${returned.id}`));
  if (requested.state.status === 'absent') throw new Error('the return left no order');
  const returnId = requested.state.returns[0]!.id;
  await service.receiveReturn(seeder, returned.id, returnId, [{ sku: 'SEED-3', quantity: 1, restock: true }, { sku: 'SEED-3', quantity: 1, restock: false }], ctx(`receive-${returned.id}`));
  await service.recordRefund(seeder, returned.id, { amount: 50, reason: 'goodwill', note: null }, ctx(`refund-${returned.id}`));

  const cancelled = await place('cancelled', [{ sku: 'SEED-2', quantity: 4 }]);
  await pay(cancelled);
  await ship(cancelled.id, 'c1', [{ sku: 'SEED-2', quantity: 1 }]);
  await service.cancel(seeder, cancelled.id, 'the rest is out of stock', ctx(`cancel-${cancelled.id}`));
  await service.recordRefund(seeder, cancelled.id, { amount: 3 * 102, reason: 'cancellation', note: 'three of four' }, ctx(`refund-${cancelled.id}`));

  const pending = await place('pending', [{ sku: 'SEED-1', quantity: 1 }]);
  await service.edit(seeder, pending.id, { lines: [{ sku: 'SEED-2', quantity: 5 }], dryRun: false }, ctx(`edit-${pending.id}`));
  return [partly.id, returned.id, cancelled.id, pending.id];
}

/** The position of the last event on these orders' streams: what a test waits for, not the log's head. */
export async function lastPositionOf(store: EventStore, ids: readonly string[]): Promise<Position> {
  let last: Position | null = null;
  for (const id of ids) {
    const events = await store.readStream(orderStream(id));
    const position = events.at(-1)?.position;
    if (position && (last === null || position > last)) last = position;
  }
  if (last === null) throw new Error('none of these orders has an event');
  return last;
}
