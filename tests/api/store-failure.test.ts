// Stores that cannot be written, simulated inside SQLite: another connection takes the
// database's write lock and holds it, as a stuck backup or a second writer would. Requests that
// need the store answer 503 with Retry-After, nothing is half-written, a log line says why,
// readiness fails, and the service recovers by itself once the lock is released.
import { defineProductsIn } from '../support/catalogue.js';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { signDevToken } from '../../api/auth.js';
import { tempDir } from '../support/event-stores.js';
import { newOrder, SECRET, startService } from '../support/http.js';
import { runScript, startServiceProcess } from '../support/service-process.js';
import { receiveStock, TEST_SKUS } from '../support/seed.js';
import { until as poll } from '../support/until.js';

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

/** Polls every 100 ms until `done`, with no deadline but the test's: readiness follows the service's background work (catching up, a lock's busy wait). */
const until = <T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> => poll(probe, done, 100);

// A service started (in the process, or as a process with an audit run after it) and stores
// locked and freed: seconds of CPU, which a loaded 2-core machine stretches a long way; 2 minutes is generous.
const TEST_MS = 120_000;

describe('an event store that cannot be written', () => {
  it('answers 503 with Retry-After, writes nothing, logs it, fails readiness, and recovers by itself', async () => {
    // The service as bootstrap/ wires it; the lock is taken on its own event store file.
    const service = await startService();
    await receiveStock(service.events, TEST_SKUS);
    const { url } = service;
    const token = await service.token({ sub: 'u', scope: 'orders:write orders:read' });
    const place = (key: string) =>
      fetch(`${url}/orders`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': key }, body: JSON.stringify(newOrder()) });
    try {
      expect((await place('before')).status).toBe(201);
      // Ready once its projections have caught up (the stock just received, the order): given the time the projector takes.
      expect(await until(async () => (await fetch(`${url}/health/ready`)).status, (status) => status === 200)).toBe(200);

      const lock = holdWriteLock(join(service.dataDir, 'events.sqlite3'));
      const head = await service.events.headPosition();
      const refused = await place('during');
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('2');
      expect(((await refused.json()) as { type: string }).type).toBe('https://errors.orders.example/unavailable');
      expect(await service.events.headPosition()).toBe(head);
      expect(service.logs.some((line) => line.includes('store unavailable: answered 503') && line.includes('database is locked'))).toBe(true);
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
      await service.stop();
    }
  }, TEST_MS);
});

describe('a read-model store that cannot be written', () => {
  it('pauses the projections with a log line and failing readiness, answers a read that needs them 503, and catches up by itself', async () => {
    const dir = tempDir('locked-reads-');
    await defineProductsIn(dir.path);
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
      const stocker = await signDevToken(SECRET, { sub: 'stocker', scope: 'stock:write' });
      const received = await fetch(`${url}/stock/${newOrder().lines[0]!.sku}/adjustments`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${stocker}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'receive' },
        body: JSON.stringify({ delta: 100, reason: 'received' }),
      });
      expect(received.status).toBe(201);
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
  }, TEST_MS);
});
