// Consistency-Token waits on an API process without a projector: the checkpoint another
// connection (another process) commits is what the wait sees.
import { afterEach, describe, expect, it } from 'vitest';
import { CheckpointConsistency } from '../../../read-side/kernel/checkpoint-consistency.js';
import type { ReadModelStore } from '../../../read-side/read-store.js';
import { encodePosition } from '../../../write-side/kernel/position.js';
import { availableReadStores, type ReadStoreFixture } from '../../support/read-stores.js';
import { until } from '../../support/until.js';
import { order } from '../read-store.contract.js';

const pos = (n: number) => encodePosition(BigInt(n));

describe.each(availableReadStores)('checkpoint consistency: %s', (_name, open) => {
  let fixture: ReadStoreFixture;
  let consistency: CheckpointConsistency | undefined;
  afterEach(async () => {
    consistency?.stop();
    await fixture.dispose();
  });

  async function setUp(): Promise<{ writer: ReadModelStore; reader: ReadModelStore }> {
    fixture = await open();
    return { writer: fixture.store, reader: await fixture.reopen() };
  }

  it('waits until another connection commits the checkpoint, and then reports it', async () => {
    const { writer, reader } = await setUp();
    consistency = new CheckpointConsistency(reader, 'order-views', { pollMs: 5 });
    const views = writer.views('order-views', 1);
    await views.commit([{ key: order(1).id, view: order(1) }], pos(3));
    // Each wait below resolves as soon as the checkpoint is seen; its 60 s only bounds one that never is (a loaded machine may take far more than the usual few ms).
    expect(await consistency.waitFor(pos(3), 60_000)).toBe(true);
    expect(consistency.position).toBe(pos(3));

    const waiting = consistency.waitFor(pos(9), 60_000);
    const many = Promise.all(Array.from({ length: 20 }, () => consistency!.waitFor(pos(7), 60_000)));
    // Lets the waiters start polling before the commit; if a loaded machine delays them, they find the commit at once, as true.
    await new Promise((r) => setTimeout(r, 50));
    await views.commit([{ key: order(2).id, view: order(2) }], pos(8));
    expect(await many).toEqual(Array.from({ length: 20 }, () => true));
    await views.commit([{ key: order(3).id, view: order(3) }], pos(12));
    expect(await waiting).toBe(true);
    expect(consistency.position).toBe(pos(12));
    expect((await reader.find('order-views', [order(3).id])).get(order(3).id)).toEqual(order(3));
  });

  it('answers false after the timeout when the checkpoint does not get there', async () => {
    const { writer, reader } = await setUp();
    consistency = new CheckpointConsistency(reader, 'order-views', { pollMs: 5 });
    await writer.views('order-views', 1).commit([], pos(2));
    const started = Date.now();
    expect(await consistency.waitFor(pos(5), 200)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(consistency.position).toBe(pos(2));
  });

  it('follows the generation a rebuild activated', async () => {
    const { writer, reader } = await setUp();
    consistency = new CheckpointConsistency(reader, 'order-views', { pollMs: 5 });
    await writer.views('order-views', 1).commit([], pos(4));
    expect(await consistency.refresh()).toBe(pos(4));
    const generation = await writer.createGeneration('order-views');
    await writer.views('order-views', generation).commit([], pos(6));
    await writer.activateGeneration('order-views', generation);
    expect(await consistency.waitFor(pos(6), 60_000)).toBe(true); // as soon as seen; 60 s only bounds a wait that never ends
  });

  it('keeps the position current in the background once started', async () => {
    const { writer, reader } = await setUp();
    consistency = new CheckpointConsistency(reader, 'fulfilment-queue', { idleMs: 10 });
    consistency.start();
    await writer.views('fulfilment-queue', 1).commit([], pos(5));
    // Polled with no deadline but the test's (was 1 s): the background refresh runs when a loaded machine lets it.
    await until(() => consistency!.position === pos(5), Boolean, 10);
    expect(consistency.position).toBe(pos(5));
  });
});
