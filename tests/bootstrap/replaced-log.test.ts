// The event log replaced under read models that outlived it (events.sqlite3 deleted, or restored
// from an older copy): the views' checkpoints lie past its end. Followed on from there, every
// projection would skip the new log's events until it grew past them; the service says so
// instead, failing readiness and naming the remedy, and a rebuild from the new log ends it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineProductsIn } from '../support/catalogue.js';
import { tempDir } from '../support/event-stores.js';
import { signDevToken } from '../../api/auth.js';
import { ROOT, startServiceProcess } from '../support/service-process.js';
import { until } from '../support/until.js';

// Three service starts and a rebuild as processes: seconds of CPU each, stretched by a loaded machine.
const PROCESS_TEST_MS = 240_000;

const SECRET = 'test-secret-that-is-at-least-32-bytes-long!!';
const env = (dir: string) => ({ DATA_DIR: dir, AUTH_JWT_SECRET: SECRET });

async function readiness(port: number): Promise<{ status: number; body: { status: string; reason?: string } }> {
  const response = await fetch(`http://127.0.0.1:${port}/health/ready`);
  return { status: response.status, body: (await response.json()) as { status: string; reason?: string } };
}

describe('an event log replaced under the read models', () => {
  it('fails readiness naming the rebuild, projects nothing from the new log, and serves again once rebuilt', async () => {
    const dir = tempDir('replaced-log-');
    try {
      await defineProductsIn(dir.path);
      const first = startServiceProcess(env(dir.path));
      const port = await first.port;
      // Caught up with the products; a clean stop stores every projection's checkpoint at the log's end.
      await until(() => readiness(port), (r) => r.status === 200, 100);
      expect(await first.stop()).toBe(0);

      for (const suffix of ['', '-wal', '-shm']) rmSync(join(dir.path, `events.sqlite3${suffix}`), { force: true });
      await defineProductsIn(dir.path, { 'NEW-1': { name: 'New mug', description: null, prices: { EUR: 500 }, status: 'active' } });

      const second = startServiceProcess(env(dir.path));
      try {
        const again = await second.port;
        const refused = await until(() => readiness(again), (r) => r.status === 503 && /past the end of the event log/.test(r.body.reason ?? ''), 100);
        expect(refused.body.reason).toMatch(/npm run projections -- rebuild/);
        expect(second.output()).toMatch(/past the end of the event log/);
        // Nothing of the new log reached the views.
        const token = await signDevToken(SECRET, { sub: 'me', scope: 'catalogue:read' });
        const products = (await (await fetch(`http://127.0.0.1:${again}/products?limit=100`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { items: { sku: string }[] };
        expect(products.items.map((p) => p.sku)).not.toContain('NEW-1');

        // The remedy it names: the views filled anew from this log, which the running service then follows.
        // Run without blocking this process (spawnSync would: the pooled connections' keep-alive then
        // lapses on the service's side unseen, and the next request meets a closed socket).
        const rebuild = spawn(process.execPath, ['--import', 'tsx', 'bootstrap/projections-cli.ts', 'rebuild'], { cwd: ROOT, env: { PATH: process.env.PATH, ...env(dir.path) }, stdio: 'ignore' });
        const [code] = (await once(rebuild, 'exit')) as [number | null];
        expect(code).toBe(0);
        await until(() => readiness(again), (r) => r.status === 200, 100);
        const after = (await (await fetch(`http://127.0.0.1:${again}/products?limit=100`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { items: { sku: string }[] };
        expect(after.items.map((p) => p.sku)).toEqual(['NEW-1']);
      } finally {
        await second.stop();
      }
    } finally {
      dir.remove();
    }
  }, PROCESS_TEST_MS);
});
