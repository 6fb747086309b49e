// The example fulfilment worker, killed with SIGKILL mid-way and started again, ships every
// paid order exactly once.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/event-stores.js';
import { client, newOrder, startService, type TestService } from '../support/http.js';

let service: TestService;
let api: ReturnType<typeof client>;
beforeAll(async () => {
  service = await startService();
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

const waitFor = async (condition: () => boolean | Promise<boolean>, timeoutMs = 20_000) => {
  for (const until = Date.now() + timeoutMs; Date.now() < until; ) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('timed out');
};

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
  });
});
