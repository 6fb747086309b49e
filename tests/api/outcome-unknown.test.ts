// An append whose answer was lost (EventStoreDB's commit timeout or the client's deadline):
// the write may have happened. The client is told so, and that a retry with the same
// Idempotency-Key is safe; the retry then replays instead of acting twice. The loss is made
// here around the real embedded store: the append is written, then its answer is dropped.
import { afterEach, describe, expect, it } from 'vitest';
import { AppendOutcomeUnknown, type EventStore } from '../../write-side/kernel/event-store.js';
import { OrderService } from '../../write-side/orders/service.js';
import { ORDER_STREAM_PREFIX, orderStream } from '../../write-side/orders/codec.js';
import { client, newOrder, startService, type TestService } from '../support/http.js';
import { receiveStock, TEST_SKUS } from '../support/seed.js';

/** The store, except that the next `lose` appends to an order stream are written and then answered "outcome unknown" (the key record before them is answered as usual). */
function losingAnswers(store: () => EventStore, lose: { count: number; written: boolean }): EventStore {
  return {
    appendToStream: async (stream, events, expected, options) => {
      if (lose.count === 0 || !stream.startsWith(ORDER_STREAM_PREFIX)) return store().appendToStream(stream, events, expected, options);
      lose.count--;
      if (lose.written) await store().appendToStream(stream, events, expected, options);
      throw new AppendOutcomeUnknown('EventStoreDB did not confirm the append in time; it may have been written');
    },
    readStream: (stream, options) => store().readStream(stream, options),
    readLastEvent: (stream) => store().readLastEvent(stream),
    setMaxCount: (stream, maxCount) => store().setMaxCount(stream, maxCount),
    readAll: (options) => store().readAll(options),
    subscribeToAll: (options) => store().subscribeToAll(options),
    headPosition: () => store().headPosition(),
    close: async () => {},
  };
}

describe('a write whose outcome is unknown', () => {
  let service: TestService;
  afterEach(() => service.stop());

  for (const written of [true, false]) {
    it(`answers 503 "outcome unknown", and a retry with the same key ${written ? 'replays the write that was made' : 'makes the write that was not'}, once`, async () => {
      const lose = { count: 1, written };
      service = await startService({ orders: new OrderService(losingAnswers(() => service.events, lose)) });
      await receiveStock(service.events, TEST_SKUS);
      const call = client(service, await service.token());
      const place = () => call('POST', '/orders', { body: newOrder(), headers: { 'Idempotency-Key': 'lost-answer' } });

      const first = await place();
      expect(first.status).toBe(503);
      expect(first.headers.get('retry-after')).not.toBeNull();
      expect(first.body).toMatchObject({ type: 'https://errors.orders.example/unavailable', outcome: 'unknown' });
      expect(first.body.detail).toMatch(/same Idempotency-Key is safe/);

      const retried = await place();
      expect(retried.status).toBe(201);
      expect(retried.headers.get('idempotent-replayed')).toBe(written ? 'true' : null);
      expect(await service.events.readStream(orderStream(retried.body.id))).toHaveLength(1);
    });
  }
});
