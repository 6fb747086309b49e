// Starting while a store cannot be reached: the step is retried, the listener answers "starting",
// and a store that could not be opened leaves nothing of the others open.
import { readdirSync, readlinkSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createStartingApp } from '../../api/starting-app.js';
import { parseConfig } from '../../bootstrap/config.js';
import { openStores } from '../../bootstrap/services.js';
import { retryDelayMs, untilReachable } from '../../bootstrap/until-reachable.js';
import { StoreUnavailable } from '../../write-side/kernel/errors.js';
import { tempDir } from '../support/event-stores.js';

const logger = pino({ level: 'silent' });

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The files this process has open (Linux). */
function openFiles(): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      return [readlinkSync(`/proc/self/fd/${fd}`)];
    } catch {
      return [];
    }
  });
}

describe('untilReachable', () => {
  it('retries a step while a store is unavailable, saying why, and returns what it opened', async () => {
    let attempts = 0;
    const reasons: string[] = [];
    const opened = await untilReachable(
      'opening the stores',
      async () => {
        attempts++;
        if (attempts < 3) throw new StoreUnavailable(`MongoDB unavailable: attempt ${attempts}`);
        return 'stores';
      },
      { logger, onWaiting: (reason) => reasons.push(reason), delayMs: () => 1 },
    );
    expect(opened).toBe('stores');
    expect(reasons).toEqual(['MongoDB unavailable: attempt 1', 'MongoDB unavailable: attempt 2']);
  });

  it('does not retry any other failure (a wrong password is not fixed by waiting)', async () => {
    let attempts = 0;
    const failing = untilReachable('opening the stores', async () => {
      attempts++;
      throw new Error('MongoServerError: Authentication failed.');
    }, { logger, delayMs: () => 1 });
    await expect(failing).rejects.toThrow('Authentication failed');
    expect(attempts).toBe(1);
  });

  it('waits 1 s, then doubles, up to 10 s', () => {
    expect([0, 1, 2, 3, 4, 5, 60].map(retryDelayMs)).toEqual([1_000, 2_000, 4_000, 8_000, 10_000, 10_000, 10_000]);
  });
});

describe('the starting app', () => {
  it('is alive, not ready (saying why), and answers everything else 503 with Retry-After', async () => {
    const server = createStartingApp(logger, () => 'MongoDB unavailable: connection refused').listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect((await fetch(`${url}/health/live`)).status).toBe(200);
      const ready = await fetch(`${url}/health/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'unavailable', reason: 'starting: MongoDB unavailable: connection refused' });
      const orders = await fetch(`${url}/orders`, { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } });
      expect(orders.status).toBe(503);
      expect(orders.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(orders.headers.get('retry-after')).toBe('2');
      expect(await orders.json()).toMatchObject({ type: 'https://errors.orders.example/unavailable', status: 503, detail: expect.stringContaining('MongoDB unavailable') });
    } finally {
      server.close();
    }
  });
});

describe('openStores', () => {
  it('closes the event store it opened when the read models cannot be reached, so that a retry does not leak it', async () => {
    const dir = tempDir('unreachable-');
    try {
      const config = parseConfig({ DATA_DIR: dir.path, MONGO_URL: `mongodb://127.0.0.1:${await closedPort()}/?directConnection=true`, REQUEST_TIMEOUT_MS: '2000' });
      const error = await openStores(config, logger).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreUnavailable);
      expect(openFiles().filter((file) => file.startsWith(dir.path))).toEqual([]);
    } finally {
      dir.remove();
    }
  });
});
