// The customers projection: the view a fresh fold gives, erasure's nulls, and fence markers passed over.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { customersView } from '../../../projections/customers/customers.js';
import { rebuild, verify } from '../../../projections/rebuild.js';
import type { ReadModelStore } from '../../../read-side/read-store.js';
import { customerPage } from '../../../read-side/customers/queries.js';
import { encodeCustomerEvent, customerStream } from '../../../write-side/customers/codec.js';
import type { CustomerEvent } from '../../../write-side/customers/types.js';
import type { EventStore } from '../../../write-side/kernel/event-store.js';
import { CLAIM_FENCED } from '../../../write-side/kernel/unique-values.js';
import { openEmbedded, type StoreFixture } from '../../support/event-stores.js';
import { openEmbeddedReadStore, type ReadStoreFixture } from '../../support/read-stores.js';

const meta = { principal: 'tester', correlationId: 'c', causationId: null };

describe('customers projection', () => {
  let events: StoreFixture;
  let reads: ReadStoreFixture;
  let store: EventStore;
  let readModels: ReadModelStore;
  beforeEach(async () => {
    events = await openEmbedded();
    reads = await openEmbeddedReadStore();
    store = events.store;
    readModels = reads.store;
  });
  afterEach(async () => {
    await reads.dispose();
    await events.dispose();
  });

  const append = (id: string, list: CustomerEvent[], expected: number | 'no_stream') =>
    store.appendToStream(customerStream(id), list.map((e) => encodeCustomerEvent(e, meta)), expected);

  it('folds registration, change and erasure, passes over a fence marker, and verifies with no difference', async () => {
    const id = `cus_${randomUUID().slice(0, 8)}`;
    const fenced = `cus_${randomUUID().slice(0, 8)}`;
    // A stream that begins with a fence marker (its first claimant died), and one that is nothing else.
    for (const stream of [id, fenced]) {
      await store.appendToStream(customerStream(stream), [{ type: CLAIM_FENCED, data: { claim: 'unique-customer-email-00', claimRevision: 0 }, metadata: { schemaVersion: 1, ...meta } }], 'no_stream');
    }
    await append(id, [
      { type: 'CustomerRegistered', schemaVersion: 1, data: { customerId: id, email: `${id.toUpperCase()}@Example.org`, name: 'Ada', phone: null, defaultAddress: null, registeredAt: '2026-12-01T10:00:00.000Z' } },
      { type: 'CustomerChanged', schemaVersion: 1, data: { customerId: id, changes: { phone: '+49 1' }, changedAt: '2026-12-01T11:00:00.000Z' } },
    ], 0);
    await rebuild(store, readModels, customersView);
    expect(await readModels.page('customers', customerPage(`${id}@example.org`, null, 5))).toEqual([
      { id, email: `${id.toUpperCase()}@Example.org`, name: 'Ada', phone: '+49 1', defaultAddress: null, status: 'active', createdAt: '2026-12-01T10:00:00.000Z', updatedAt: '2026-12-01T11:00:00.000Z', erasedAt: null, revision: 2, emailKey: `${id}@example.org` },
    ]);
    await append(id, [{ type: 'CustomerErased', schemaVersion: 1, data: { customerId: id, erasedAt: '2026-12-02T00:00:00.000Z' } }], 2);
    await rebuild(store, readModels, customersView);
    const customers = readModels.views('customers', await readModels.activeGeneration('customers'));
    expect((await customers.load([id, fenced])).get(id)).toEqual(
      { id, email: null, name: null, phone: null, defaultAddress: null, status: 'erased', createdAt: '2026-12-01T10:00:00.000Z', updatedAt: '2026-12-02T00:00:00.000Z', erasedAt: '2026-12-02T00:00:00.000Z', revision: 3, emailKey: null },
    );
    expect((await customers.load([fenced])).size).toBe(0);
    const differences: unknown[] = [];
    // Every stream of the log (others' too, on a shared store), and these two by name.
    expect((await verify(store, readModels, customersView, (d) => differences.push(d))).differences).toBe(0);
    expect(await verify(store, readModels, customersView, (d) => differences.push(d), { only: new Set([id, fenced]) })).toEqual({ checked: 2, differences: 0 });
  });
});
