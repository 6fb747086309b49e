// A store that cannot be written: 503 with Retry-After, nothing written, a log line, readiness
// failing, and recovery by itself once the store can be written again.
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.js';
import { createTokenVerifier, signDevToken } from '../../api/auth.js';
import { createMetrics } from '../../api/metrics.js';
import { SqliteReadStore } from '../../read-side/adapters/sqlite-read-store.js';
import { CursorCodec } from '../../read-side/cursor.js';
import { OrderQueries } from '../../read-side/order-queries.js';
import { SqliteEventStore } from '../../write-side/adapters/sqlite-event-store.js';
import { StoreUnavailable, type EventStore } from '../../write-side/event-store.js';
import { OrderService } from '../../write-side/order-service.js';
import { StoreHealth } from '../../write-side/store-health.js';
import { tempDir } from '../support/event-stores.js';
import { newOrder, SECRET } from '../support/http.js';

describe('an event store that cannot be written', () => {
  it('answers 503 with Retry-After, writes nothing, logs it, fails readiness, and recovers by itself', async () => {
    const dir = tempDir('full-');
    const real = new SqliteEventStore({ file: join(dir.path, 'events.sqlite3') });
    let full = false;
    // As a store behaves when its disk is full: reads work, every write fails as a whole.
    const flaky: EventStore = {
      appendToStream: (stream, events, expected) =>
        full ? Promise.reject(new StoreUnavailable('the event store could not commit', { cause: new Error('SQLITE_FULL: database or disk is full') })) : real.appendToStream(stream, events, expected),
      readStream: (stream, options) => real.readStream(stream, options),
      readAll: (options) => real.readAll(options),
      subscribeToAll: (options) => real.subscribeToAll(options),
      headPosition: () => real.headPosition(),
      close: () => real.close(),
    };
    const health = new StoreHealth(flaky);
    const events = health.watched();
    const reads = new SqliteReadStore(join(dir.path, 'read-models.sqlite3'));
    const logs: string[] = [];
    const app = createApp({
      orders: new OrderService(events),
      queries: new OrderQueries(reads, new CursorCodec('c')),
      consistency: { position: null, waitFor: async () => true },
      auth: createTokenVerifier({ secret: SECRET }),
      logger: pino({ level: 'info' }, { write: (line: string) => void logs.push(line) }),
      metrics: createMetrics(),
      checkReady: () => health.check(),
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const token = await signDevToken(SECRET, { sub: 'u', scope: 'orders:write orders:read' });
    const place = (key: string) =>
      fetch(`${url}/orders`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': key }, body: JSON.stringify(newOrder()) });
    try {
      expect((await place('before')).status).toBe(201);
      expect((await fetch(`${url}/health/ready`)).status).toBe(200);

      full = true;
      const head = await real.headPosition();
      const refused = await place('during');
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('2');
      expect(((await refused.json()) as { type: string }).type).toBe('https://errors.orders.example/unavailable');
      expect(await real.headPosition()).toBe(head);
      expect(logs.some((line) => line.includes('store unavailable: answered 503') && line.includes('SQLITE_FULL'))).toBe(true);
      const ready = await fetch(`${url}/health/ready`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { reason: string }).reason).toContain('cannot be written');

      full = false;
      // Readiness probes the store by itself, so an instance taken out of rotation comes back.
      expect((await fetch(`${url}/health/ready`)).status).toBe(200);
      const retried = await place('during');
      expect(retried.status).toBe(201);
      expect(retried.headers.get('idempotent-replayed')).toBeNull();
    } finally {
      server.close();
      await reads.close();
      await real.close();
      dir.remove();
    }
  });
});
