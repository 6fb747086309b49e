// Stores that cannot be written, simulated inside SQLite: another connection takes the
// database's write lock and holds it, as a stuck backup or a second writer would. Requests that
// need the store answer 503 with Retry-After, nothing is half-written, a log line says why,
// readiness fails, and the service recovers by itself once the lock is released.
import Database from 'better-sqlite3';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.js';
import { createTokenVerifier, signDevToken } from '../../api/auth.js';
import { createMetrics } from '../../api/metrics.js';
import { SqliteReadStore } from '../../read-side/adapters/sqlite-read-store.js';
import { Consistency } from '../../read-side/consistency.js';
import { CursorCodec } from '../../read-side/cursor.js';
import { OrderHistory } from '../../read-side/order-history.js';
import { OrderQueries } from '../../read-side/order-queries.js';
import { SqliteEventStore } from '../../write-side/adapters/sqlite-event-store.js';
import { OrderService } from '../../write-side/order-service.js';
import { StoreHealth } from '../../write-side/store-health.js';
import { tempDir } from '../support/event-stores.js';
import { newOrder, SECRET } from '../support/http.js';
import { runScript, startServiceProcess } from '../support/service-process.js';

/** Another process's connection holding the write lock of a database file. */
function holdWriteLock(file: string): { release(): void } {
  const db = new Database(file);
  db.exec('BEGIN IMMEDIATE');
  return {
    release: () => {
      db.exec('ROLLBACK');
      db.close();
    },
  };
}

async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; ; ) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('an event store that cannot be written', () => {
  it('answers 503 with Retry-After, writes nothing, logs it, fails readiness, and recovers by itself', async () => {
    const dir = tempDir('locked-events-');
    const file = join(dir.path, 'events.sqlite3');
    const store = new SqliteEventStore({ file, busyTimeoutMs: 300 });
    const health = new StoreHealth(store);
    const reads = new SqliteReadStore(join(dir.path, 'read-models.sqlite3'));
    const logs: string[] = [];
    const caughtUp = { position: null, waitFor: async () => true };
    const app = createApp({
      orders: new OrderService(health.watched()),
      queries: new OrderQueries(reads, new CursorCodec('c'), { orders: new Consistency(caughtUp, 'collections', 5000), queue: new Consistency(caughtUp, 'queue', 5000) }),
      history: new OrderHistory(health.watched(), new CursorCodec('c')),
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

      const lock = holdWriteLock(file);
      const head = await store.headPosition();
      const refused = await place('during');
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('2');
      expect(((await refused.json()) as { type: string }).type).toBe('https://errors.orders.example/unavailable');
      expect(await store.headPosition()).toBe(head);
      expect(logs.some((line) => line.includes('store unavailable: answered 503') && line.includes('database is locked'))).toBe(true);
      const ready = await fetch(`${url}/health/ready`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { reason: string }).reason).toContain('cannot be written');
      // Reads go on: GET /orders/{id} is served from the events.
      const order = (await (await place('before')).json()) as { id: string };
      expect((await fetch(`${url}/orders/${order.id}`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);

      lock.release();
      // Readiness probes the store by itself, so an instance taken out of rotation comes back.
      expect((await fetch(`${url}/health/ready`)).status).toBe(200);
      const retried = await place('during');
      expect(retried.status).toBe(201);
      expect(retried.headers.get('idempotent-replayed')).toBeNull();
    } finally {
      server.close();
      await reads.close();
      await store.close();
      dir.remove();
    }
  });
});

describe('a read-model store that cannot be written', () => {
  it('pauses the projections with a log line and failing readiness, answers a read that needs them 503, and catches up by itself', async () => {
    const dir = tempDir('locked-reads-');
    const service = startServiceProcess({ DATA_DIR: dir.path, AUTH_JWT_SECRET: SECRET });
    try {
      const url = `http://127.0.0.1:${await service.port}`;
      const token = await signDevToken(SECRET, { sub: 'u', scope: 'orders:write orders:read' });
      const auth = { Authorization: `Bearer ${token}` };
      const place = async (key: string) => {
        const response = await fetch(`${url}/orders`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': key }, body: JSON.stringify(newOrder()) });
        expect(response.status).toBe(201);
        return { id: ((await response.json()) as { id: string }).id, token: response.headers.get('consistency-token')! };
      };
      const list = (consistencyToken?: string) => fetch(`${url}/orders?limit=100`, { headers: { ...auth, ...(consistencyToken ? { 'Consistency-Token': consistencyToken } : {}) } });
      const ready = () => fetch(`${url}/health/ready`);
      expect((await until(ready, (r) => r.status === 200)).status).toBe(200);
      const first = await place('first');
      expect((await list(first.token)).status).toBe(200);

      const lock = holdWriteLock(join(dir.path, 'read-models.sqlite3'));
      const second = await place('second'); // the events take it: only the read side is stuck
      const waiting = list(second.token);
      const notReady = await until(ready, (r) => r.status === 503);
      expect(notReady.status).toBe(503);
      expect(((await notReady.json()) as { reason: string }).reason).toMatch(/projection .* cannot move on since .*the read-model store could not be written: database is locked/);
      const stale = await list();
      expect(stale.status).toBe(200); // what the read models hold is still served, with its position
      const ids = ((await stale.json()) as { items: { id: string }[] }).items.map((o) => o.id);
      expect(ids).toEqual([first.id]);
      const refused = await waiting;
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).not.toBeNull();
      expect(((await refused.json()) as { type: string }).type).toBe('https://errors.orders.example/unavailable');
      expect(service.output()).toMatch(/"msg":"projection failed; restarting from its checkpoint"/);
      expect(service.output()).toContain('the read-model store could not be written: database is locked');

      lock.release();
      expect((await until(ready, (r) => r.status === 200)).status).toBe(200);
      const caughtUp = await list(second.token);
      expect(caughtUp.status).toBe(200);
      expect(((await caughtUp.json()) as { items: { id: string }[] }).items.map((o) => o.id).sort()).toEqual([first.id, second.id].sort());
    } finally {
      expect(await service.stop()).toBe(0);
    }
    // Nothing half-written: the read models equal a fresh replay of the events.
    const verify = runScript('bootstrap/audit-cli.ts', ['verify'], { DATA_DIR: dir.path });
    expect(verify.status, verify.stdout + verify.stderr).toBe(0);
    dir.remove();
  }, 60_000);
});
