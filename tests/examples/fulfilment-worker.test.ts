// The example fulfilment worker, killed with SIGKILL mid-way and started again, ships every
// paid order exactly once.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signDevToken } from '../../api/auth.js';
import { tempDir } from '../support/event-stores.js';
import { client, newOrder, startService, type TestService } from '../support/http.js';
import { receiveStock, TEST_SKUS } from '../support/seed.js';
import { until } from '../support/until.js';

// The worker tests start the example as processes (tsx, a second or two of CPU each, four in the
// first test, three in the second): a loaded 2-core machine stretches that far past the default
// 30 s, so they get 3 minutes, which is generous.
const WORKER_TEST_MS = 180_000;

let service: TestService;
let api: ReturnType<typeof client>;
beforeAll(async () => {
  service = await startService();
  await receiveStock(service.events, TEST_SKUS);
  api = client(service, await service.token({ sub: 'shop' }));
});
afterAll(() => service.stop());

function startWorker(token: string, state: string): { child: ChildProcess; shipped: () => number } {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../../examples/fulfilment-worker.ts'), '--url', service.url, '--token', token, '--state', state], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let lines = 0;
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (lines += chunk.split('\n').filter((l) => l.startsWith('shipped')).length));
  return { child, shipped: () => lines };
}

async function placePaid(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const placed = await api('POST', '/orders', { body: newOrder(), headers: { 'Idempotency-Key': `w-${Date.now()}-${Math.random()}` } });
    await api('POST', `/orders/${placed.body.id}/payments`, { body: { amount: placed.body.total, reference: 'psp' }, headers: { 'Idempotency-Key': `pay-${placed.body.id}` } });
    ids.push(placed.body.id);
  }
  return ids;
}

/** Polls the worker's progress with no deadline but the test's (was 20 s): it runs in its own process, at the pace a loaded machine allows. */
const waitFor = async (condition: () => boolean | Promise<boolean>) => void (await until(condition, Boolean, 20));

describe('example fulfilment worker', () => {
  it('ships every paid order exactly once across SIGKILLs and restarts', async () => {
    const dir = tempDir('fulfil-');
    const state = join(dir.path, 'position');
    const token = await service.token({ sub: 'fulfilment-worker', scope: 'shipments:write' });
    const paid = await placePaid(40);

    for (let kill = 0; kill < 3; kill++) {
      const worker = startWorker(token, state);
      await waitFor(() => worker.shipped() >= 3);
      worker.child.kill('SIGKILL');
      await new Promise((r) => worker.child.once('exit', r));
      paid.push(...(await placePaid(5))); // more orders are paid while it is down
    }
    const last = startWorker(token, state);
    const shippedCount = async () => {
      let shipped = 0;
      for (const id of paid) if ((await service.events.readStream(`order-${id}`)).some((e) => e.type === 'ShipmentCreated')) shipped++;
      return shipped === paid.length;
    };
    await waitFor(shippedCount);
    last.child.kill('SIGKILL');
    for (const id of paid) {
      const types = (await service.events.readStream(`order-${id}`)).map((e) => e.type);
      expect(types.filter((t) => t === 'ShipmentCreated')).toHaveLength(1);
    }
    dir.remove();
  }, WORKER_TEST_MS);

  /** The worker run to its end: exit code, stdout and stderr. */
  async function runToExit(token: string, state: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../../examples/fulfilment-worker.ts'), '--url', service.url, '--token', token, '--state', state], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // Only a stopper for a worker that never exits (these must exit by themselves): 2 minutes, not 20 s, which a loaded machine's start-up alone can take.
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    const [code] = (await once(child, 'exit')) as [number | null];
    clearTimeout(timer);
    return { code, stdout, stderr };
  }

  it('says when its token expires, and stops with a clear message and a non-zero exit on 401 and 403', async () => {
    const dir = tempDir('fulfil-refused-');
    const state = join(dir.path, 'position');
    await placePaid(1);
    const foreign = await signDevToken('a-secret-the-service-does-not-know-at-all', { sub: 'w', scope: 'shipments:write' }, 600);
    const unauthenticated = await runToExit(foreign, state);
    expect(unauthenticated.code).toBe(3);
    expect(unauthenticated.stdout).toMatch(/^token expires at \d{4}-\d{2}-\d{2}T[\d:.]+Z \(in 10 min\)/);
    expect(unauthenticated.stderr).toContain('fulfilment worker stopped: the service refused the token: 401');

    const unscoped = await runToExit(await service.token({ sub: 'w', scope: 'orders:read' }), state);
    expect(unscoped.code).toBe(3);
    expect(unscoped.stderr).toContain('lacks the shipments:write scope (403');

    const expired = await runToExit(await signDevToken('a-secret-the-service-does-not-know-at-all', { sub: 'w', scope: 'shipments:write' }, 1).then(async (t) => (await new Promise((r) => setTimeout(r, 1100)), t)), state);
    expect(expired.code).toBe(3);
    expect(expired.stderr).toMatch(/the token expired at .*mint a new one/);
    dir.remove();
  }, WORKER_TEST_MS);

  it('keeps its position under ./data by default', async () => {
    const dir = tempDir('fulfil-cwd-');
    await placePaid(1);
    const loader = pathToFileURL(join(import.meta.dirname, '../../node_modules/tsx/dist/loader.mjs')).href;
    const child = spawn(process.execPath, ['--import', loader, join(import.meta.dirname, '../../examples/fulfilment-worker.ts'), '--url', service.url, '--token', await service.token({ sub: 'w', scope: 'shipments:write' })], { cwd: dir.path, stdio: 'ignore' });
    try {
      await waitFor(() => existsSync(join(dir.path, 'data', 'fulfilment-worker.position')));
      expect(readdirSync(dir.path)).toEqual(['data']);
    } finally {
      child.kill('SIGKILL');
      await once(child, 'exit');
      dir.remove();
    }
  }, WORKER_TEST_MS);

  it("is told by the README to keep its position under data/, where git ignores it", () => {
    // The README's section on the queue moved whole to docs/fulfilment-and-audit.md, linked from it.
    const readme = readFileSync(join(import.meta.dirname, '../../docs/fulfilment-and-audit.md'), 'utf8');
    const command = /npx tsx examples\/fulfilment-worker\.ts[^`]*--state (\S+)/.exec(readme);
    expect(command?.[1]).toBe('./data/worker.position');
    const root = join(import.meta.dirname, '../..');
    for (const path of ['data/worker.position', 'data/fulfilment-worker.position', 'worker.position', 'fulfilment-worker.position']) {
      expect(spawnSync('git', ['check-ignore', '-q', path], { cwd: root }).status, path).toBe(0);
    }
    expect(existsSync(join(root, 'worker.position'))).toBe(false);
  });
});
