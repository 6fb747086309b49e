// `npm start` as a user runs it: a real process on the embedded default, no server needed.
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { signDevToken } from '../../api/auth.js';
import { tempDir } from '../support/event-stores.js';
import { startServiceProcess } from '../support/service-process.js';
import { until } from '../support/until.js';

// These tests start the service (or a command) as processes: node with tsx, seconds of CPU each,
// which a loaded 2-core machine stretches past the default 30 s (half a minute at load 16 was seen);
// 3 minutes is generous.
const PROCESS_TEST_MS = 180_000;

/** A loopback port nothing listens on: bound by the system, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function start(env: Record<string, string>) {
  return startServiceProcess(env);
}

describe('starting the service', () => {
  it('starts on the embedded stores, serves /health/live and stops cleanly on SIGTERM', async () => {
    const dir = tempDir('start-');
    const dataDir = join(dir.path, 'data');
    const service = start({ DATA_DIR: dataDir });
    const port = await service.port;
    const live = await fetch(`http://127.0.0.1:${port}/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(200);
    expect(existsSync(join(dataDir, 'events.sqlite3'))).toBe(true);
    service.child.kill('SIGTERM');
    const [code] = await once(service.child, 'exit');
    expect(code).toBe(0);
    expect(service.output()).toContain('stopped');
    dir.remove();
  }, PROCESS_TEST_MS);

  it('finishes in-flight requests on SIGTERM, then exits', async () => {
    const dir = tempDir('stop-');
    // 4 s (was 1.5): the request must still be in flight when the SIGTERM comes, 2 s after it was sent (below).
    const service = start({ DATA_DIR: dir.path, REQUEST_TIMEOUT_MS: '4000' });
    const port = await service.port;
    const token = await signDevToken(readFileSync(join(dir.path, 'dev-jwt-secret'), 'utf8').trim(), { sub: 'me', scope: 'orders:read' });
    // Waits for a position the projections never reach, until the request timeout answers it.
    const started = Date.now();
    const inFlight = fetch(`http://127.0.0.1:${port}/orders`, {
      headers: { Authorization: `Bearer ${token}`, 'Consistency-Token': 'ffffffffffffff00ffffffffffffff00' },
    });
    // Time for the request to reach the process (a few ms, or far more on a loaded machine): 2 s, not 300 ms; nothing the test can see tells when it has.
    await new Promise((r) => setTimeout(r, 2000));
    service.child.kill('SIGTERM');
    const response = await inFlight;
    expect(response.status).toBe(503);
    // Answered by its timeout (4 s after it was sent), not cut short by the stop.
    expect(Date.now() - started).toBeGreaterThanOrEqual(3900);
    const [code] = await once(service.child, 'exit');
    expect(code).toBe(0);
    expect(service.output()).toMatch(/stopping[\s\S]*stopped/);
    await expect(fetch(`http://127.0.0.1:${port}/health/live`)).rejects.toThrow();
    dir.remove();
  }, PROCESS_TEST_MS);

  it('says at start-up how to mint a token when no secret is configured', async () => {
    const dir = tempDir('hint-');
    const service = start({ DATA_DIR: dir.path });
    await service.port;
    expect(service.output()).toContain('npm run --silent token --');
    service.child.kill('SIGTERM');
    await once(service.child, 'exit');
    dir.remove();
  }, PROCESS_TEST_MS);

  it('says in one line that the port is busy and exits non-zero, before it opens the stores', async () => {
    const dir = tempDir('busy-');
    const dataDir = join(dir.path, 'data');
    const other = createServer();
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const { port } = other.address() as AddressInfo;
    try {
      const service = start({ DATA_DIR: dataDir, PORT: String(port) });
      expect(await service.exit).toBe(1);
      expect(service.output().trim().split('\n')).toEqual([`Cannot listen on 127.0.0.1:${port}: the port is in use (is the service running already?); stop that process or set PORT.`]);
      // Nothing was opened: no store, no secret, not even the folder.
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      other.close();
      dir.remove();
    }
  }, PROCESS_TEST_MS);

  it('starts on a cluster\'s host list it cannot reach, and answers readiness with "unavailable"', async () => {
    const dir = tempDir('cluster-');
    // Two loopback ports that were just free: nothing answers there.
    const [a, b] = await Promise.all([closedPort(), closedPort()]);
    const service = start({ DATA_DIR: dir.path, EVENTSTORE_URL: `esdb://127.0.0.1:${a},127.0.0.1:${b}?tls=false` });
    try {
      const port = await service.port;
      const ready = await fetch(`http://127.0.0.1:${port}/health/ready`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { reason: string }).reason).toMatch(/^EventStoreDB unavailable/);
      expect(service.output()).not.toContain('Configuration error');
    } finally {
      await service.stop();
      dir.remove();
    }
  }, PROCESS_TEST_MS);

  it('starts on a replica set\'s host list it cannot reach: alive, not ready (naming MongoDB), 503 for the rest, retrying', async () => {
    const dir = tempDir('replica-set-');
    // Nothing answers on these loopback ports: neither the replica set nor the cluster.
    const [a, b, c, d] = await Promise.all([closedPort(), closedPort(), closedPort(), closedPort()]);
    const service = start({
      DATA_DIR: dir.path,
      MONGO_URL: `mongodb://127.0.0.1:${a},127.0.0.1:${b}/?replicaSet=rs0`,
      EVENTSTORE_URL: `esdb://127.0.0.1:${c},127.0.0.1:${d}?tls=false`,
      AUTH_JWT_SECRET: 'x'.repeat(32),
      REQUEST_TIMEOUT_MS: '2000',
    });
    try {
      const port = await service.listening;
      expect((await fetch(`http://127.0.0.1:${port}/health/live`)).status).toBe(200);
      // The first attempt may still be running: wait for its failure (each takes the driver's 1 s server selection).
      await until(() => service.output().includes('a store cannot be reached; retrying'));
      const ready = await fetch(`http://127.0.0.1:${port}/health/ready`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { reason: string }).reason).toMatch(/^starting: MongoDB unavailable/);
      const orders = await fetch(`http://127.0.0.1:${port}/orders`);
      expect(orders.status).toBe(503);
      expect(orders.headers.get('retry-after')).not.toBeNull();
      // It keeps trying rather than exiting: a second attempt fails too, and the process is still up.
      await until(() => service.output().split('a store cannot be reached; retrying').length > 2);
      expect(service.child.exitCode).toBeNull();
      expect(service.output()).not.toMatch(/Configuration error|MongoParseError|is not a URL/);
      expect(await service.stop()).toBe(0);
    } finally {
      await service.stop();
      dir.remove();
    }
  }, PROCESS_TEST_MS);

  it('refuses to start on a bad variable and names it', async () => {
    const service = start({ PORT: 'eighty' });
    expect(await service.exit).toBe(2);
    expect(service.output()).toContain('PORT');
  }, PROCESS_TEST_MS);
});
