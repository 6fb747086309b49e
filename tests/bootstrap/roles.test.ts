// The export worker as a role of its own: `npm start -- --role worker` beside `--role api`
// (HTTP only) and `--role projector` (the projections the export reads).
import { once } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { signDevToken } from '../../api/auth.js';
import { defineProductsIn } from '../support/catalogue.js';
import { tempDir } from '../support/event-stores.js';
import { receiveStockOverHttp } from '../support/http.js';
import { startServiceProcess } from '../support/service-process.js';
import { until } from '../support/until.js';

// These tests start the service (or a command) as processes: node with tsx, seconds of CPU each,
// which a loaded 2-core machine stretches past the default 30 s (half a minute at load 16 was seen);
// 3 minutes is generous.
const PROCESS_TEST_MS = 180_000;

const SECRET = 'roles-test-secret-roles-test-secret-123';

function start(role: string, env: Record<string, string>) {
  return startServiceProcess({ AUTH_JWT_SECRET: SECRET, ...env }, ['--role', role]);
}

describe('process roles', () => {
  it('runs exports in a separate worker process while the API process serves', async () => {
    const dir = tempDir('roles-');
    await defineProductsIn(dir.path);
    const api = start('api', { DATA_DIR: dir.path });
    const worker = start('worker', { DATA_DIR: dir.path });
    const projector = start('projector', { DATA_DIR: dir.path });
    try {
      const port = await api.port;
      const token = await signDevToken(SECRET, { sub: 'ops', scope: 'orders:read orders:write exports:write' });
      const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
      const order = { customerId: 'cus_1', currency: 'EUR', lines: [{ sku: 'A', quantity: 1 }], address: { name: 'A', line1: 'B', city: 'C', postalCode: '1', country: 'DE' } };
      await receiveStockOverHttp(`http://127.0.0.1:${port}`, SECRET, ['A']);
      const placed = await fetch(`http://127.0.0.1:${port}/orders`, { method: 'POST', headers: { ...headers, 'Idempotency-Key': 'o1' }, body: JSON.stringify(order) });
      expect(placed.status).toBe(201);
      // The export reads the projected views: wait until the projector process has the order.
      const seen = await fetch(`http://127.0.0.1:${port}/orders`, { headers: { ...headers, 'Consistency-Token': placed.headers.get('consistency-token')! } });
      expect(seen.status).toBe(200);
      const started = await fetch(`http://127.0.0.1:${port}/exports`, { method: 'POST', headers: { ...headers, 'Idempotency-Key': 'e1' }, body: JSON.stringify({ format: 'ndjson' }) });
      expect(started.status).toBe(202);
      const { id } = (await started.json()) as { id: string };
      // Polled with no deadline but the test's (was 10 s): the worker process runs it at the pace a loaded machine allows; a failed job ends the wait too.
      const job = await until(
        async () => (await (await fetch(`http://127.0.0.1:${port}/jobs/${id}`, { headers })).json()) as { status: string; result: { count: number } | null },
        (job) => job.status === 'succeeded' || job.status === 'failed',
        100,
      );
      expect(job.status).toBe('succeeded');
      expect(job.result?.count).toBe(1);
      expect(worker.output()).toContain('export worker running');
      expect(worker.output()).not.toContain('listening on');
      expect(projector.output()).toContain('holding the lease');
      expect(projector.output()).not.toContain('listening on');
    } finally {
      api.child.kill('SIGTERM');
      worker.child.kill('SIGTERM');
      projector.child.kill('SIGTERM');
      const [[apiCode], [workerCode], [projectorCode]] = await Promise.all([once(api.child, 'exit'), once(worker.child, 'exit'), once(projector.child, 'exit')]);
      expect(apiCode).toBe(0);
      expect(workerCode).toBe(0);
      expect(projectorCode).toBe(0);
      dir.remove();
    }
  }, PROCESS_TEST_MS);

  it('refuses an unknown role', async () => {
    const service = start('chef', {});
    expect(await service.exit).toBe(2);
    expect(service.output()).toContain('--role');
    const fromEnv = startServiceProcess({ ROLE: 'chef' });
    expect(await fromEnv.exit).toBe(2);
    expect(fromEnv.output()).toContain('ROLE');
  }, PROCESS_TEST_MS);
});
