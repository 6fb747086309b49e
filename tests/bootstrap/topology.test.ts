// The scaled-out topology on the embedded default: two API processes, a projector and its
// standby, and an export worker, all separate processes on one DATA_DIR.
import { afterEach, describe, expect, it } from 'vitest';
import { signDevToken } from '../../api/auth.js';
import { defineProductsIn } from '../support/catalogue.js';
import { tempDir } from '../support/event-stores.js';
import { receiveStockOverHttp } from '../support/http.js';
import { Topology, waitForOutput } from '../support/topology.js';
import { until } from '../support/until.js';

const SECRET = 'topology-test-secret-topology-test-secret';
const order = (customerId: string) => ({
  customerId, currency: 'EUR', lines: [{ sku: 'A', quantity: 1 }],
  address: { name: 'A', line1: '1 Main St', city: 'Berlin', postalCode: '10115', country: 'DE' },
});

describe('scaled-out topology (embedded, separate processes)', () => {
  const dir = tempDir('topology-');
  let topology: Topology;
  afterEach(async () => {
    await topology.kill();
    dir.remove();
  });

  it('writes through one API, reads through the other with the Consistency-Token, and the standby projector takes over', async () => {
    await defineProductsIn(dir.path);
    // A 5 s lease (renewed every 1.7 s), not 1 s: a loaded machine can hold a projector process back
    // for more than the 0.7 s a 1 s lease allows, and then the standby rightly takes over mid-test.
    // Each member may take 2 minutes to come up (was 30 s): a start needs seconds of CPU, and half a minute was seen at load 16.
    topology = new Topology({ DATA_DIR: dir.path, AUTH_JWT_SECRET: SECRET, PROJECTOR_LEASE_SECONDS: '5' }, {}, { startTimeoutMs: 120_000 });
    await topology.start();
    const [one, other] = [await topology.url('api-1'), await topology.url('api-2')];
    const token = await signDevToken(SECRET, { sub: 'ops', scope: 'orders:read orders:write payments:write shipments:write exports:write' });
    const auth = { Authorization: `Bearer ${token}` };
    const json = { ...auth, 'Content-Type': 'application/json' };
    expect(topology.projectorHolding()).toBe('projector-1');
    expect(topology.process('projector-2').output()).not.toContain('holding the lease');
    for (const member of ['projector-1', 'projector-2', 'worker'] as const) expect(topology.process(member).output()).not.toContain('listening on');
    // Ready from the checkpoints the projector process writes: the API processes project nothing themselves.
    // Polled with no deadline but the test's (was 5 s): the projector process catches up at the pace a loaded machine allows.
    for (const url of [one, other]) expect(await until(async () => (await fetch(`${url}/health/ready`)).status, (ready) => ready === 200, 100)).toBe(200);

    await receiveStockOverHttp(one, SECRET, ['A']);
    // Placed through one API process, listed through the other once its projection is there.
    const placed = await fetch(`${one}/orders`, { method: 'POST', headers: { ...json, 'Idempotency-Key': 'o1' }, body: JSON.stringify(order('cus_1')) });
    expect(placed.status).toBe(201);
    const { id } = (await placed.json()) as { id: string };
    const written = placed.headers.get('consistency-token')!;
    const listed = await fetch(`${other}/orders?customerId=cus_1`, { headers: { ...auth, 'Consistency-Token': written } });
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { items: { id: string }[] }).items.map((o) => o.id)).toEqual([id]);
    expect(BigInt(`0x${listed.headers.get('consistency-token')}`)).toBeGreaterThanOrEqual(BigInt(`0x${written}`));

    // A single order read by the other process, changed through the first, read there again: current.
    expect(await (await fetch(`${other}/orders/${id}`, { headers: auth })).json()).toMatchObject({ revision: 0 });
    const patched = await fetch(`${one}/orders/${id}`, {
      method: 'PATCH', headers: { ...auth, 'Content-Type': 'application/merge-patch+json' }, body: JSON.stringify({ address: { line1: '2 Other Rd' } }),
    });
    expect(patched.status).toBe(200);
    expect(await (await fetch(`${other}/orders/${id}`, { headers: auth })).json()).toMatchObject({ revision: 1, address: { line1: '2 Other Rd' } });

    // Paid through one, in the other's fulfilment queue.
    const paid = await fetch(`${one}/orders/${id}/payments`, { method: 'POST', headers: { ...json, 'Idempotency-Key': 'p1' }, body: JSON.stringify({ amount: 500, reference: 'psp-1' }) });
    expect(paid.status).toBe(201);
    const queue = await fetch(`${other}/fulfilment-queue`, { headers: { ...auth, 'Consistency-Token': paid.headers.get('consistency-token')! } });
    expect(queue.status).toBe(200);
    expect(((await queue.json()) as { items: { orderId: string }[] }).items.map((e) => e.orderId)).toEqual([id]);

    // An export asked of one API process, run by the worker process, fetched through the other.
    const exported = await fetch(`${one}/exports`, { method: 'POST', headers: { ...json, 'Idempotency-Key': 'e1' }, body: JSON.stringify({ format: 'ndjson' }) });
    expect(exported.status).toBe(202);
    const job = (await exported.json()) as { id: string };
    // Polled with no deadline but the test's (was 15 s); a failed export ends the wait too, and the check below says so.
    const status = await until(async () => ((await (await fetch(`${other}/jobs/${job.id}`, { headers: auth })).json()) as { status: string }).status, (s) => s === 'succeeded' || s === 'failed', 100);
    expect(status).toBe('succeeded');
    const result = await fetch(`${other}/jobs/${job.id}/result`, { headers: auth });
    expect((await result.text()).trim().split('\n').map((line) => (JSON.parse(line) as { id: string }).id)).toEqual([id]);

    // The projector dies: the standby takes the lease once it lapses, and the collections move on.
    expect(await topology.stop('projector-1', 'SIGKILL')).toBeNull();
    const later = await fetch(`${one}/orders`, { method: 'POST', headers: { ...json, 'Idempotency-Key': 'o2' }, body: JSON.stringify(order('cus_2')) });
    expect(later.status).toBe(201);
    const { id: laterId } = (await later.json()) as { id: string };
    // The lease lapses 5 s after the last renewal, the standby asks every 1.7 s: 60 s is generous for a loaded machine.
    await waitForOutput(topology.process('projector-2'), 'holding the lease', 60_000);
    expect(topology.projectorHolding()).toBe('projector-2');
    const afterTakeOver = await fetch(`${other}/orders?customerId=cus_2`, { headers: { ...auth, 'Consistency-Token': later.headers.get('consistency-token')! } });
    expect(afterTakeOver.status).toBe(200);
    expect(((await afterTakeOver.json()) as { items: { id: string }[] }).items.map((o) => o.id)).toEqual([laterId]);

    // The one killed comes back as the standby.
    await topology.launch('projector-1'); // resolves on its first answer: standby (a wrong 'holding' shows below too)
    // Then a few of its later asks (one each 1.7 s): a loaded machine may give it fewer, which checks less but never fails a correct run.
    await new Promise((r) => setTimeout(r, 4000));
    expect(topology.projectorHolding()).toBe('projector-2');

    const codes = await topology.stopAll();
    expect([...codes.values()]).toEqual([0, 0, 0, 0, 0]);
  }, 300_000); // six process starts, one after another for the most part, on a loaded machine: 5 minutes (was 2)
});
