// Pages of orders answered again from memory (kept-pages.ts): only while the views stand at the
// position the page was read at, only for the exact request it answered, and never once a key
// that opened one of its addresses was erased or is not known current.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Consistency, type ProjectionProgress } from '../../../read-side/kernel/consistency.js';
import { CursorCodec, InvalidCursor } from '../../../read-side/kernel/cursor.js';
import { OpenedViews } from '../../../read-side/orders/opened-views.js';
import { OrderQueries } from '../../../read-side/orders/queries.js';
import type { OrderView } from '../../../read-side/orders/views.js';
import type { ReadModelStore } from '../../../read-side/read-store.js';
import { SqliteKeyStore } from '../../../write-side/adapters/sqlite-key-store.js';
import type { Viewer } from '../../../write-side/kernel/access.js';
import type { Position } from '../../../write-side/kernel/event-store.js';
import { encodePosition } from '../../../write-side/kernel/position.js';
import { ERASED_ADDRESS, orderAddressPlace } from '../../../write-side/orders/personal-data.js';
import { KEY_CACHE_TTL_MS, Keyring } from '../../../write-side/personal-data/keyring.js';
import { PersonalData } from '../../../write-side/personal-data/personal-data.js';
import { openEmbeddedReadStore } from '../../support/read-stores.js';
import type { ReadStoreFixture } from '../../support/read-stores.js';

const address = { name: 'Ada', line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' };
const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
const pos = (n: number): Position => encodePosition(BigInt(n));
const staff: Viewer = { sub: 'staff', scopes: new Set<string>(), customerId: null };
const customerToken = (customerId: string): Viewer => ({ sub: `user-${customerId}`, scopes: new Set<string>(), customerId });
const paidPage = { apiVersion: '2027-01-01', status: 'paid', sort: '-createdAt', limit: 5 } as const;

describe('kept pages of orders', () => {
  let fixture: ReadStoreFixture;
  let store: ReadModelStore;
  let keys: SqliteKeyStore;
  let now: number;
  let keyring: Keyring;
  let personal: PersonalData;
  /** The views' progress as the projector reports it: moved by hand here, with each commit. */
  let progress: { position: Position | null } & ProjectionProgress;
  let reads: ReturnType<typeof vi.spyOn>;

  beforeEach(async () => {
    fixture = await openEmbeddedReadStore();
    store = fixture.store;
    keys = new SqliteKeyStore(':memory:');
    now = 0;
    keyring = new Keyring(keys, { now: () => now });
    personal = new PersonalData(keyring);
    progress = { position: null, waitFor: async () => true };
    reads = vi.spyOn(store, 'listOrderJson');
  });
  afterEach(async () => {
    await fixture.dispose();
    await keys.close();
  });

  const queries = (options: { pagesKeptBytes?: number } = {}) => {
    const consistency = new Consistency(progress, 'collections', 0);
    return new OrderQueries(store, new CursorCodec('test-secret'), { orders: consistency, queue: consistency }, new OpenedViews(personal), options);
  };

  /** Orders n of `customerId`, every one paid, each address sealed with its customer's key; then the views stand at `position`. */
  async function put(ns: number[], customerId: (n: number) => string, position: number): Promise<void> {
    const views: OrderView[] = [];
    for (const n of ns) {
      const id = `ord-${String(n).padStart(6, '0')}`;
      const sealed = await (await personal.sealer(customerId(n)))(orderAddressPlace(id), { ...address, line1: `${n} Main St` } as never);
      views.push({
        id, customerId: customerId(n), status: 'paid', currency: 'EUR', lines: [{ sku: 'A', name: 'Product A', quantity: 1, unitPrice: n, lineTotal: n, shipped: 0, cancelled: 0, returned: 0 }],
        total: n, balance: { charged: n, paid: n, refunded: 0, due: 0 }, address: sealed as unknown as OrderView["address"], createdAt: at(n), updatedAt: at(n), revision: 1,
      });
    }
    const orders = await store.views('order-views', await store.activeGeneration('order-views'));
    await orders.commit(views.map((view) => ({ key: view.id, view })), pos(position));
    progress.position = pos(position);
  }

  const ids = (page: { items: readonly { id: string }[] }) => page.items.map((item) => item.id);

  it('answers a page asked again from memory while the views stand where it was read, and reads it again once they move', async () => {
    await put([1, 2, 3, 4, 5, 6, 7], () => 'cus_1', 1);
    const orders = queries();
    const first = await orders.listOrderJson(staff, paidPage);
    expect(reads).toHaveBeenCalledTimes(1);
    const again = await orders.listOrderJson(staff, paidPage);
    expect(reads).toHaveBeenCalledTimes(1);
    expect(again).toEqual(first);
    expect(again.reflects).toBe(pos(1));
    // The following page by its cursor, asked twice: read once.
    const second = await orders.listOrderJson(staff, { ...paidPage, cursor: first.nextCursor! });
    await orders.listOrderJson(staff, { ...paidPage, cursor: first.nextCursor! });
    expect(reads).toHaveBeenCalledTimes(2);
    expect(ids(second)).toEqual(['ord-000002', 'ord-000001']);

    // A new order: the views move on, and the page is read again with it.
    await put([8], () => 'cus_1', 2);
    const moved = await orders.listOrderJson(staff, paidPage);
    expect(reads).toHaveBeenCalledTimes(3);
    expect(ids(moved)).toEqual(['ord-000008', 'ord-000007', 'ord-000006', 'ord-000005', 'ord-000004']);
    expect(moved.reflects).toBe(pos(2));
    // Another limit, another Api-Version: other requests, other pages.
    await orders.listOrderJson(staff, { ...paidPage, limit: 4 });
    await orders.listOrderJson(staff, { ...paidPage, apiVersion: '2026-12-01' });
    expect(reads).toHaveBeenCalledTimes(5);
  });

  it("never answers a customer another customer's kept page", async () => {
    await put([1, 2, 3, 4, 5, 6], (n) => `cus_${n % 2}`, 1);
    const orders = queries();
    for (let round = 0; round < 2; round++) {
      expect(ids(await orders.listOrderJson(customerToken('cus_0'), paidPage))).toEqual(['ord-000006', 'ord-000004', 'ord-000002']);
      expect(ids(await orders.listOrderJson(customerToken('cus_1'), paidPage))).toEqual(['ord-000005', 'ord-000003', 'ord-000001']);
      expect(ids(await orders.listOrderJson(staff, paidPage))).toEqual(['ord-000006', 'ord-000005', 'ord-000004', 'ord-000003', 'ord-000002']);
    }
    // Each page was read once, and answered from memory the second time.
    expect(reads).toHaveBeenCalledTimes(3);
  });

  it("answers an erased customer's addresses erased at once, never from a page kept before", async () => {
    await put([1, 2], (n) => `cus_${n}`, 1);
    const orders = queries();
    const before = await orders.listOrderJson(staff, paidPage);
    expect(before.items.map((item) => JSON.parse(item.json).address.line1)).toEqual(['2 Main St', '1 Main St']);
    await keyring.destroy('cus_2', new Date());
    const after = await orders.listOrderJson(staff, paidPage);
    expect(reads).toHaveBeenCalledTimes(2);
    expect(after.items.map((item) => JSON.parse(item.json).address)).toEqual([ERASED_ADDRESS, { ...address, line1: '1 Main St' }]);
  });

  it('reads a page again once the keyring no longer knows its keys current (an erasure elsewhere may not be learnt yet)', async () => {
    await put([1, 2], (n) => `cus_${n}`, 1);
    const orders = queries();
    await orders.listOrderJson(staff, paidPage);
    now += KEY_CACHE_TTL_MS; // The erasures were last checked a whole lifetime ago.
    await orders.listOrderJson(staff, paidPage);
    expect(reads).toHaveBeenCalledTimes(2);
    await orders.listOrderJson(staff, paidPage); // Checked again by that read: kept once more.
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('keeps answering a page asked for throughout, past the keyring lifetime: asked past half of it, the keyring checks again meanwhile', async () => {
    await put([1, 2], (n) => `cus_${n}`, 1);
    const orders = queries();
    const checks = vi.spyOn(keys, 'erasuresSince');
    await orders.listOrderJson(staff, paidPage);
    now += KEY_CACHE_TTL_MS * 0.6;
    await orders.listOrderJson(staff, paidPage);
    await vi.waitFor(() => expect(checks).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setImmediate(resolve)); // the check's result taken in
    now += KEY_CACHE_TTL_MS * 0.6; // 1.2 lifetimes after the first read
    await orders.listOrderJson(staff, paidPage);
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('refuses a forged cursor whatever is kept, and keeps nothing with no bytes to keep it in', async () => {
    await put([1, 2, 3, 4, 5, 6, 7], () => 'cus_1', 1);
    const orders = queries();
    const first = await orders.listOrderJson(staff, paidPage);
    await orders.listOrderJson(staff, { ...paidPage, cursor: first.nextCursor! });
    const forged = `${first.nextCursor!.slice(0, -2)}${first.nextCursor!.endsWith('AA') ? 'BB' : 'AA'}`;
    await expect(orders.listOrderJson(staff, { ...paidPage, cursor: forged })).rejects.toBeInstanceOf(InvalidCursor);
    // A cursor of the paid pages is no cursor of another customer's pages, kept or not.
    await expect(orders.listOrderJson(customerToken('cus_1'), { ...paidPage, cursor: first.nextCursor! })).rejects.toBeInstanceOf(InvalidCursor);

    const unkept = queries({ pagesKeptBytes: 0 });
    reads.mockClear();
    await unkept.listOrderJson(staff, paidPage);
    await unkept.listOrderJson(staff, paidPage);
    expect(reads).toHaveBeenCalledTimes(2);
  });
});
