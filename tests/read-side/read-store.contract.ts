// The contract every ReadModelStore adapter passes, with the cursor paging built on it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Consistency } from '../../read-side/kernel/consistency.js';
import { CursorCodec, InvalidCursor } from '../../read-side/kernel/cursor.js';
import { OrderQueries } from '../../read-side/orders/queries.js';
import { storageVersion, type Condition, type FieldValue, type ReadModelStore } from '../../read-side/read-store.js';
import { READ_STORAGE } from '../../projections/registry.js';
import { accountPage } from '../../read-side/accounts/queries.js';
import { productPage, type ProductKey, type ProductSort } from '../../read-side/catalogue/queries.js';
import { customerPage } from '../../read-side/customers/queries.js';
import { keptResults, openJobs } from '../../read-side/jobs/queries.js';
import { orderConditions, orderPage, queuePage, type OrderFilter, type OrderKey, type QueueKey } from '../../read-side/orders/queries.js';
import { stockPage } from '../../read-side/stock/queries.js';
import { CustomerQueries } from '../../read-side/customers/queries.js';
import { KeysetPages } from '../../read-side/kernel/keyset-page.js';
import type { AccountView } from '../../read-side/accounts/views.js';
import type { ProductView } from '../../read-side/catalogue/views.js';
import type { CustomerView } from '../../read-side/customers/views.js';
import type { JobView } from '../../read-side/jobs/views.js';
import type { OrderView, QueueChange, QueueEntry } from '../../read-side/orders/views.js';
import type { StockView } from '../../read-side/stock/views.js';
import { Forbidden } from '../../write-side/kernel/errors.js';
import type { Position } from '../../write-side/kernel/event-store.js';
import { encodePosition } from '../../write-side/kernel/position.js';
import { inMemoryPersonalData } from '../support/personal-data.js';
import type { ReadStoreFixture } from '../support/read-stores.js';

const address = { name: 'Ada', line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' };
const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
const pos = (n: number): Position => encodePosition(BigInt(n));
const staff = { sub: 'staff', scopes: new Set<string>(), customerId: null };
const CURRENT = { apiVersion: '2027-01-01' };

/** An order's lines of these SKUs, one unit each. */
export function lines(...skus: string[]): OrderView['lines'] {
  return skus.map((sku) => ({ sku, name: `Product ${sku}`, quantity: 1, unitPrice: 1, lineTotal: 1, shipped: 0, cancelled: 0, returned: 0 }));
}

export function order(n: number, overrides: Partial<OrderView> = {}): OrderView {
  return {
    id: `ord-${String(n).padStart(6, '0')}`, customerId: `cus_${n % 3}`, status: (['pending', 'paid', 'shipped'] as const)[n % 3]!,
    currency: 'EUR', lines: [{ sku: 'A', name: 'Product A', quantity: 1, unitPrice: n, lineTotal: n, shipped: 0, cancelled: 0, returned: 0 }], total: n, balance: { charged: n, paid: 0, refunded: 0, due: n }, address,
    createdAt: at(n), updatedAt: at(n), revision: 0, ...overrides,
  };
}

function entry(n: number, state: QueueEntry['state'], paidAt: string | null): QueueEntry {
  return { orderId: `ord-${n}`, customerId: 'cus_1', state, currency: 'EUR', total: n, lines: [], address, paidAt, revision: 1 };
}

export function customer(n: number, overrides: Partial<CustomerView> = {}): CustomerView {
  const email = `Customer${n}@Example.org`;
  return {
    id: `cus_${String(n).padStart(6, '0')}`, email, name: `Customer ${n}`, phone: null, defaultAddress: null, status: 'active',
    createdAt: at(n), updatedAt: at(n), erasedAt: null, revision: 0, emailKey: email.toLowerCase(), ...overrides,
  };
}

export function readStoreContract(name: string, open: () => Promise<ReadStoreFixture>): void {
  describe(`ReadModelStore contract: ${name}`, () => {
    let fixture: ReadStoreFixture;
    let store: ReadModelStore;
    const orders = async () => store.views('order-views', await store.activeGeneration('order-views'));
    const put = async (views: OrderView[], checkpoint = pos(views.length)) =>
      (await orders()).commit(views.map((view) => ({ key: view.id, view })), checkpoint);

    // The area reads the tests below were written against, as the areas now make them of the port's generic ones.
    const getOrder = async (from: ReadModelStore, id: string) => (await from.find<OrderView>('order-views', [id])).get(id) ?? null;
    const listOrders = (filter: OrderFilter, direction: 'asc' | 'desc', after: OrderKey | null, limit: number) => store.page<OrderView>('order-views', orderPage(filter, direction, after, limit));
    const listOrderJson = (filter: OrderFilter, direction: 'asc' | 'desc', after: OrderKey | null, limit: number) => store.listOrderJson(orderPage(filter, direction, after, limit));
    const countOrders = (filter: OrderFilter) => store.count('order-views', orderConditions(filter));
    const listQueue = (after: QueueKey | null, limit: number) => store.page<QueueEntry>('fulfilment-queue', queuePage(after, limit));
    const listQueueChanges = (from: ReadModelStore, after: Position | null, limit: number) => from.changesAfter<QueueChange>('fulfilment-queue', after, limit);
    const listAccounts = (after: { createdAt: string; id: string } | null, limit: number) => store.page<AccountView>('accounts', accountPage(after, limit));
    const listStock = (below: number | null, afterSku: string | null, limit: number) => store.page<StockView>('stock', stockPage(below === null ? {} : { below }, afterSku, limit));
    const listProducts = (filter: { status?: 'draft' | 'active' }, sort: ProductSort, after: ProductKey | null, limit: number) =>
      store.page<ProductView>('products', productPage(filter.status, sort, after, limit));
    const listCustomers = (filter: { emailKey?: string }, after: { createdAt: string; id: string } | null, limit: number) =>
      store.page<CustomerView>('customers', customerPage(filter.emailKey, after, limit));

    beforeEach(async () => {
      fixture = await open();
      store = fixture.store;
    });
    afterEach(() => fixture.dispose());

    it('starts every projection at generation 1 with no checkpoint', async () => {
      expect(await store.activeGeneration('order-views')).toBe(1);
      expect(await store.activeGeneration('fulfilment-queue')).toBe(1);
      expect(await (await orders()).checkpoint()).toBeNull();
    });

    it('stores views and the checkpoint together, and keeps them across a restart', async () => {
      await put([order(1), order(2)], pos(7));
      const reopened = await fixture.reopen();
      const views = reopened.views('order-views', 1);
      expect(await views.checkpoint()).toBe(pos(7));
      expect(await views.load(['ord-000001', 'ord-000002', 'missing'])).toEqual(new Map([['ord-000001', order(1)], ['ord-000002', order(2)]]));
      expect(await getOrder(reopened, 'ord-000002')).toEqual(order(2));
      expect(await getOrder(reopened, 'missing')).toBeNull();
    });

    it('never lets an older revision overwrite a newer view, nor the checkpoint move back', async () => {
      await put([order(1, { revision: 3, status: 'shipped' })], pos(10));
      await put([order(1, { revision: 2, status: 'paid' })], pos(5));
      await put([order(1, { revision: 3, status: 'cancelled' })], pos(6));
      expect(await getOrder(store, 'ord-000001')).toMatchObject({ revision: 3, status: 'shipped' });
      expect(await (await orders()).checkpoint()).toBe(pos(10));
      await put([order(1, { revision: 4, status: 'cancelled' })], pos(11));
      expect(await getOrder(store, 'ord-000001')).toMatchObject({ revision: 4, status: 'cancelled' });
      expect(await (await orders()).checkpoint()).toBe(pos(11));
    });

    it('filters by status and customer, sorts both ways, and pages after a key', async () => {
      await put(Array.from({ length: 30 }, (_, i) => order(i)));
      const ids = (views: OrderView[]) => views.map((v) => v.id);
      const all = await listOrders({}, 'asc', null, 100);
      expect(ids(all)).toEqual(Array.from({ length: 30 }, (_, i) => order(i).id));
      expect(ids(await listOrders({}, 'desc', null, 3))).toEqual([order(29).id, order(28).id, order(27).id]);
      const paid = await listOrders({ status: 'paid' }, 'asc', null, 100);
      expect(paid.every((v) => v.status === 'paid')).toBe(true);
      expect(paid).toHaveLength(10);
      const mine = await listOrders({ customerId: 'cus_2', status: 'shipped' }, 'desc', null, 100);
      expect(ids(mine)).toEqual([29, 26, 23, 20, 17, 14, 11, 8, 5, 2].map((n) => order(n).id));
      expect(ids(await listOrders({}, 'asc', { createdAt: at(10), id: order(10).id }, 2))).toEqual([order(11).id, order(12).id]);
      expect(ids(await listOrders({}, 'desc', { createdAt: at(10), id: order(10).id }, 2))).toEqual([order(9).id, order(8).id]);
    });

    it('gives the same page as JSON text, with each sort key', async () => {
      await put(Array.from({ length: 12 }, (_, i) => order(i)));
      for (const direction of ['asc', 'desc'] as const) {
        const views = await listOrders({ status: 'paid' }, direction, null, 3);
        const rows = await listOrderJson({ status: 'paid' }, direction, null, 3);
        expect(rows.map((r) => JSON.parse(r.json))).toEqual(views);
        expect(rows.map((r) => [r.id, r.createdAt])).toEqual(views.map((v) => [v.id, v.createdAt]));
      }
    });

    it('filters by a createdAt range (from inclusive, to exclusive) and counts what a filter selects', async () => {
      await put(Array.from({ length: 30 }, (_, i) => order(i)));
      const range = { createdFrom: at(10), createdTo: at(20) };
      const inRange = await listOrders(range, 'asc', null, 100);
      expect(inRange.map((v) => v.id)).toEqual(Array.from({ length: 10 }, (_, i) => order(10 + i).id));
      expect(await countOrders(range)).toBe(10);
      expect(await countOrders({ ...range, status: 'paid' })).toBe(inRange.filter((v) => v.status === 'paid').length);
      expect(await countOrders({})).toBe(30);
      expect(await countOrders({ customerId: 'nobody' })).toBe(0);
    });

    it('breaks ties on createdAt by id', async () => {
      const same = at(0);
      await put([order(3, { createdAt: same }), order(1, { createdAt: same }), order(2, { createdAt: same })]);
      const page = await listOrders({}, 'asc', { createdAt: same, id: order(1).id }, 10);
      expect(page.map((v) => v.id)).toEqual([order(2).id, order(3).id]);
    });

    it('lists only queued entries, oldest payment first', async () => {
      const queue = store.views<QueueEntry, QueueChange>('fulfilment-queue', await store.activeGeneration('fulfilment-queue'));
      const entries = [entry(1, 'queued', at(5)), entry(2, 'awaiting-payment', null), entry(3, 'queued', at(1)), entry(4, 'left', at(0)), entry(5, 'queued', at(9))];
      await queue.commit(entries.map((e) => ({ key: e.orderId, view: e })), pos(1));
      expect((await listQueue(null, 10)).map((e) => e.orderId)).toEqual(['ord-3', 'ord-1', 'ord-5']);
      expect((await listQueue({ paidAt: at(1), orderId: 'ord-3' }, 1)).map((e) => e.orderId)).toEqual(['ord-1']);
    });

    it("records the queue's changes once each, in position order, with the views and the checkpoint", async () => {
      const queue = store.views<QueueEntry, QueueChange>('fulfilment-queue', await store.activeGeneration('fulfilment-queue'));
      const change = (n: number, orderId: string, kind: 'entered' | 'left' = 'entered'): QueueChange =>
        ({ position: pos(n), orderId, change: kind, reason: kind === 'entered' ? 'paid' : 'shipped', at: at(n) });
      const first = [change(3, 'ord-1'), change(5, 'ord-2')];
      await queue.commit([{ key: 'ord-1', view: entry(1, 'queued', at(3)) }], pos(5), first.map((c) => ({ key: c.orderId, change: c })));
      // The same batch applied again (a replay after a crash) records nothing twice.
      await queue.commit([], pos(5), first.map((c) => ({ key: c.orderId, change: c })));
      await queue.commit([], pos(9), [{ key: 'ord-1', change: change(8, 'ord-1', 'left') }]);
      expect(await listQueueChanges(store, null, 10)).toEqual({ changes: [change(3, 'ord-1'), change(5, 'ord-2'), change(8, 'ord-1', 'left')], checkpoint: pos(9) });
      expect((await listQueueChanges(store, pos(3), 1)).changes).toEqual([change(5, 'ord-2')]);
      expect((await listQueueChanges(store, pos(8), 10)).changes).toEqual([]);
      expect((await queue.changes(pos(3), 10)).map((c) => c.key)).toEqual(['ord-2', 'ord-1']);
      expect(await queue.changesOf(['ord-1', 'missing'])).toEqual([{ key: 'ord-1', change: change(3, 'ord-1') }, { key: 'ord-1', change: change(8, 'ord-1', 'left') }]);
      const reopened = await fixture.reopen();
      expect((await listQueueChanges(reopened, null, 10)).changes).toHaveLength(3);
    });

    it("keeps the queue's changes per generation: a new one starts empty and replaces the old on activation", async () => {
      const change: QueueChange = { position: pos(2), orderId: 'ord-1', change: 'entered', reason: 'paid', at: at(2) };
      await store.views<QueueEntry, QueueChange>('fulfilment-queue', 1).commit([], pos(2), [{ key: 'ord-1', change }]);
      const generation = await store.createGeneration('fulfilment-queue');
      const fresh = store.views<QueueEntry, QueueChange>('fulfilment-queue', generation);
      expect(await fresh.changes(null, 10)).toEqual([]);
      expect((await listQueueChanges(store, null, 10)).changes).toEqual([change]);
      await fresh.commit([], pos(1), []);
      await store.activateGeneration('fulfilment-queue', generation);
      expect(await listQueueChanges(store, null, 10)).toEqual({ changes: [], checkpoint: pos(1) });
      expect(await store.views('order-views', 1).changes(null, 10)).toEqual([]);
    });

    it('lists open jobs of a kind oldest first, and kept export results the earliest finished first', async () => {
      const job = (n: number, status: JobView['status'], finishedAt: string | null = null, kept = false): JobView => ({
        id: `job-${n}`, type: 'order-export', status, owner: 'p', customerId: null, format: 'csv', filter: {}, apiVersion: '2027-01-01', progress: { processed: 0, total: 0 },
        createdAt: at(n), startedAt: null, finishedAt, result: kept ? { file: `f${n}.csv`, contentType: 'text/csv', count: 1, bytes: 10 } : null,
        resultExpiredAt: null, error: null, lease: status === 'running' ? { workerId: 'w', until: at(100) } : null, attempts: 0, revision: 1,
      });
      // Webhook replays are jobs too: listed with their kind alone, and their result is no file to keep.
      const replay = (n: number, status: JobView['status'], finishedAt: string | null = null): JobView => ({
        id: `job-${n}`, type: 'webhook-replay', status, owner: 'p', customerId: null, subscriptionId: 's', from: at(0), to: at(50), progress: { processed: 0, total: 0 },
        createdAt: at(n), startedAt: null, finishedAt, result: finishedAt ? { count: 3 } : null, error: null, lease: null, attempts: 0, revision: 1,
      });
      const jobs = [job(5, 'queued'), job(2, 'running'), job(1, 'succeeded', at(9), true), job(3, 'succeeded', at(4), true), job(4, 'succeeded', at(1)), job(6, 'failed', at(2)), job(7, 'queued'), replay(8, 'queued'), replay(0, 'succeeded', at(0)), replay(9, 'running')];
      await store.views('jobs', await store.activeGeneration('jobs')).commit(jobs.map((j) => ({ key: j.id, view: j })), pos(1));
      expect((await openJobs(store, 'order-export', 10)).map((j) => j.id)).toEqual(['job-2', 'job-5', 'job-7']);
      expect((await openJobs(store, 'order-export', 1)).map((j) => j.id)).toEqual(['job-2']);
      expect((await openJobs(store, 'webhook-replay', 10)).map((j) => j.id)).toEqual(['job-8', 'job-9']);
      expect(await keptResults(store, 10)).toEqual([job(3, 'succeeded', at(4), true), job(1, 'succeeded', at(9), true)]);
    });

    it('lists accounts newest first, ties broken by id, and pages after a key', async () => {
      const account = (n: number, createdAt = at(n)): AccountView => ({
        id: `acc-${n}`, email: `a${n}@shop.example`, role: 'staff', customerId: null, disabled: false, createdAt, updatedAt: createdAt, revision: 0,
      });
      const accounts = [account(1), account(3), account(2), account(4, at(3))];
      await store.views('accounts', await store.activeGeneration('accounts')).commit(accounts.map((a) => ({ key: a.id, view: a })), pos(1));
      expect((await listAccounts(null, 10)).map((a) => a.id)).toEqual(['acc-4', 'acc-3', 'acc-2', 'acc-1']);
      expect(await listAccounts(null, 1)).toEqual([account(4, at(3))]);
      expect((await listAccounts({ createdAt: at(3), id: 'acc-4' }, 2)).map((a) => a.id)).toEqual(['acc-3', 'acc-2']);
      expect((await listAccounts({ createdAt: at(2), id: 'acc-2' }, 10)).map((a) => a.id)).toEqual(['acc-1']);
    });

    it('lists stock by SKU after a key, only what is available below a bound when one is given', async () => {
      const level = (sku: string, available: number): StockView => ({ sku, name: null, status: null, lowStockThreshold: 0, onHand: available + 1, reserved: 1, available, stockUpdatedAt: at(1), stockRevision: 0, low: 0, position: pos(1), revision: 0 });
      const views = store.views('stock', await store.activeGeneration('stock'));
      await views.commit([level('B', 5), level('A', 0), level('D', 2), level('C', 9)].map((view) => ({ key: view.sku, view })), pos(4));
      expect((await listStock(null, null, 10)).map((v) => v.sku)).toEqual(['A', 'B', 'C', 'D']);
      expect((await listStock(null, 'B', 10)).map((v) => v.sku)).toEqual(['C', 'D']);
      expect((await listStock(3, null, 10)).map((v) => v.sku)).toEqual(['A', 'D']);
      expect((await listStock(3, 'A', 1))).toEqual([level('D', 2)]);
      expect(await listStock(0, null, 10)).toEqual([]);
    });

    it("keeps a background process's checkpoint across a restart, and never moves it back", async () => {
      expect(await store.processCheckpoint('reconciler')).toBeNull();
      await store.saveProcessCheckpoint('reconciler', pos(5));
      await store.saveProcessCheckpoint('reconciler', pos(3));
      expect(await (await fixture.reopen()).processCheckpoint('reconciler')).toBe(pos(5));
      await store.saveProcessCheckpoint('reconciler', pos(8));
      expect(await store.processCheckpoint('reconciler')).toBe(pos(8));
      expect(await store.processCheckpoint('another')).toBeNull();
    });

    it('lists products not retired, by sku or newest change first, filtered by status, after a key', async () => {
      const product = (n: number, status: ProductView['status'], updated: number): ProductView => ({
        sku: `P-${n}`, name: `Product ${n}`, description: null, prices: { EUR: n }, status, lowStockThreshold: 0, createdAt: at(0), updatedAt: at(updated), revision: 0,
      });
      const views = [product(1, 'active', 5), product(2, 'draft', 9), product(3, 'retired', 20), product(4, 'active', 9), product(5, 'active', 1)];
      await store.views('products', await store.activeGeneration('products')).commit(views.map((view) => ({ key: view.sku, view })), pos(1));
      const skus = (list: ProductView[]) => list.map((p) => p.sku);
      expect(skus(await listProducts({}, 'sku', null, 10))).toEqual(['P-1', 'P-2', 'P-4', 'P-5']);
      expect(await listProducts({}, 'sku', null, 1)).toEqual([views[0]]);
      expect(skus(await listProducts({}, 'sku', { sku: 'P-2' }, 10))).toEqual(['P-4', 'P-5']);
      expect(skus(await listProducts({ status: 'active' }, 'sku', null, 10))).toEqual(['P-1', 'P-4', 'P-5']);
      // Newest change first; equal times by sku, descending.
      expect(skus(await listProducts({}, '-updatedAt', null, 10))).toEqual(['P-4', 'P-2', 'P-1', 'P-5']);
      expect(skus(await listProducts({}, '-updatedAt', { sku: 'P-4', updatedAt: at(9) }, 10))).toEqual(['P-2', 'P-1', 'P-5']);
      expect(skus(await listProducts({ status: 'draft' }, '-updatedAt', null, 10))).toEqual(['P-2']);
      expect(await listProducts({ status: 'active' }, '-updatedAt', { sku: 'P-5', updatedAt: at(1) }, 10)).toEqual([]);
    });

    describe('the generic reads (find, page, count) on declared fields', () => {
      const ids = (views: readonly OrderView[]) => views.map((v) => v.id);
      const page = (query: Parameters<ReadModelStore['page']>[1]) => store.page<OrderView>('order-views', query);

      it('finds the active views of the keys given, leaving out keys without one', async () => {
        await put([order(1), order(2), order(3)]);
        expect(await store.find<OrderView>('order-views', [order(3).id, 'missing', order(1).id])).toEqual(new Map([[order(3).id, order(3)], [order(1).id, order(1)]]));
        expect(await store.find('order-views', ['missing'])).toEqual(new Map());
        expect(await store.find('order-views', [])).toEqual(new Map());
      });

      it('selects by equality, by one of several values, and by a range of either bound', async () => {
        await put(Array.from({ length: 12 }, (_, i) => order(i)));
        expect(ids(await page({ where: [{ field: 'customerId', op: '=', value: 'cus_1' }], limit: 100 }))).toEqual([1, 4, 7, 10].map((n) => order(n).id));
        expect(ids(await page({ where: [{ field: 'status', op: 'in', values: ['pending', 'shipped'] }], order: { by: ['createdAt'], direction: 'asc' }, limit: 100 })))
          .toEqual([0, 2, 3, 5, 6, 8, 9, 11].map((n) => order(n).id));
        const between = await page({ where: [{ field: 'createdAt', op: '>', value: at(3) }, { field: 'createdAt', op: '<=', value: at(6) }], order: { by: ['createdAt'], direction: 'asc' }, limit: 100 });
        expect(ids(between)).toEqual([4, 5, 6].map((n) => order(n).id));
        expect(await store.count('order-views', [{ field: 'status', op: 'in', values: ['pending', 'shipped'] }, { field: 'createdAt', op: '>=', value: at(6) }])).toBe(4);
        expect(await store.count('order-views', [])).toBe(12);
      });

      it('orders by several declared fields then the key, either way, and pages after the last row\'s sort values', async () => {
        await put(Array.from({ length: 9 }, (_, i) => order(i)));
        const byCustomer = (direction: 'asc' | 'desc', after: { values: string[]; key: string } | null, limit: number) =>
          page({ order: { by: ['customerId', 'createdAt'], direction }, after, limit });
        expect(ids(await byCustomer('asc', null, 100))).toEqual([0, 3, 6, 1, 4, 7, 2, 5, 8].map((n) => order(n).id));
        expect(ids(await byCustomer('asc', { values: ['cus_0', at(6)], key: order(6).id }, 2))).toEqual([1, 4].map((n) => order(n).id));
        expect(ids(await byCustomer('desc', { values: ['cus_1', at(4)], key: order(4).id }, 3))).toEqual([1, 6, 3].map((n) => order(n).id));
        // The key alone: no declared field sorted, the key is the order.
        expect(ids(await page({ after: { values: [], key: order(6).id }, limit: 100 }))).toEqual([7, 8].map((n) => order(n).id));
        expect(ids(await page({ order: { by: [], direction: 'desc' }, after: { values: [], key: order(2).id }, limit: 100 }))).toEqual([1, 0].map((n) => order(n).id));
        expect(await page({ limit: 0 })).toEqual([]);
      });

      it('matches a derived field (a job has a result) as the view\'s members it is derived from', async () => {
        const job = (n: number, status: JobView['status'], kept: boolean): JobView => ({
          id: `job-${n}`, type: 'order-export', status, owner: 'p', customerId: null, format: 'csv', filter: {}, apiVersion: '2027-01-01', progress: { processed: 0, total: 0 },
          createdAt: at(n), startedAt: null, finishedAt: at(n + 1), result: kept ? { file: `f${n}.csv`, contentType: 'text/csv', count: 1, bytes: 10 } : null,
          resultExpiredAt: null, error: null, lease: null, attempts: 0, revision: 1,
        });
        await store.views<JobView>('jobs', await store.activeGeneration('jobs')).commit([job(1, 'succeeded', true), job(2, 'succeeded', false), job(3, 'failed', false)].map((j) => ({ key: j.id, view: j })), pos(1));
        expect(await store.count('jobs', [{ field: 'hasResult', op: '=', value: 1 }])).toBe(1);
      });

      it('refuses a field the projection does not declare', async () => {
        await expect(page({ where: [{ field: 'balance', op: '=', value: 1 }], limit: 10 })).rejects.toThrow(/balance/);
      });
    });

    it('keeps a computed field beside the view: selects, counts and pages by it, and reads the view back without it', async () => {
      // legacyStatus: the status as API versions before 2027-01-01 read it (a partially shipped order is paid).
      const ids = (views: readonly OrderView[]) => views.map((v) => v.id);
      const partly = (n: number) => order(n, { status: 'partially_shipped' });
      await put([order(0), order(1), partly(2), order(4), partly(5), order(7)]);
      const byLegacy = (value: string, direction: 'asc' | 'desc' = 'asc') =>
        store.page<OrderView>('order-views', { where: [{ field: 'legacyStatus', op: '=', value }], order: { by: ['createdAt'], direction }, limit: 100 });
      expect(await byLegacy('paid')).toEqual([order(1), partly(2), order(4), partly(5), order(7)]);
      expect(ids(await byLegacy('paid', 'desc'))).toEqual([7, 5, 4, 2, 1].map((n) => order(n).id));
      expect(await byLegacy('partially_shipped')).toEqual([]);
      expect(await store.count('order-views', [{ field: 'legacyStatus', op: '=', value: 'paid' }, { field: 'customerId', op: '=', value: 'cus_2' }])).toBe(2);
      const after = await store.page<OrderView>('order-views', {
        where: [{ field: 'customerId', op: '=', value: 'cus_2' }, { field: 'legacyStatus', op: '=', value: 'paid' }],
        order: { by: ['createdAt'], direction: 'asc' }, after: { values: [at(2)], key: order(2).id }, limit: 10,
      });
      expect(after).toEqual([partly(5)]);
      expect(ids(await listOrders({ status: 'paid' }, 'asc', null, 100))).toEqual([1, 4, 7].map((n) => order(n).id));
      expect((await store.find<OrderView>('order-views', [order(2).id])).get(order(2).id)).toEqual(partly(2));
      expect(Object.keys((await orders().then((v) => v.load([order(2).id]))).get(order(2).id)!)).not.toContain('legacyStatus');
      const [row] = await store.listOrderJson({ where: [{ field: 'legacyStatus', op: '=', value: 'paid' }, { field: 'customerId', op: '=', value: 'cus_2' }], order: { by: ['createdAt'], direction: 'asc' }, limit: 1 });
      expect(JSON.parse(row!.json)).toEqual(partly(2));
      expect((await (await orders()).scan(null, 100)).map((v) => v.view)).toEqual([order(0), order(1), partly(2), order(4), partly(5), order(7)]);
    });

    describe('a multi-valued field (the SKUs of an order\'s lines)', () => {
      const ids = (views: readonly OrderView[]) => views.map((v) => v.id);
      const bySku = (sku: string, more: Condition[] = [], direction: 'asc' | 'desc' = 'asc', after: { values: FieldValue[]; key: string } | null = null, limit = 100) =>
        store.page<OrderView>('order-views', { where: [{ field: 'sku', op: '=', value: sku }, ...more], order: { by: ['createdAt'], direction }, after, limit });

      it('selects the views with any value equal, with the fields its indexes name, both ways and after a key, and reads the views back as they are', async () => {
        // order n has SKU A, B when n is even, C when n is a multiple of 3.
        const skus = (n: number) => ['A', ...(n % 2 === 0 ? ['B'] : []), ...(n % 3 === 0 ? ['C'] : [])];
        const views = Array.from({ length: 12 }, (_, n) => order(n, { lines: lines(...skus(n)) }));
        await put(views);
        expect(await bySku('B')).toEqual([0, 2, 4, 6, 8, 10].map((n) => views[n]));
        expect(ids(await bySku('C', [], 'desc'))).toEqual([9, 6, 3, 0].map((n) => order(n).id));
        expect(ids(await bySku('A', [{ field: 'createdAt', op: '>=', value: at(3) }, { field: 'createdAt', op: '<', value: at(6) }]))).toEqual([3, 4, 5].map((n) => order(n).id));
        expect(ids(await bySku('B', [], 'desc', { values: [at(6)], key: order(6).id }, 2))).toEqual([4, 2].map((n) => order(n).id));
        expect(ids(await bySku('B', [], 'asc', { values: [at(6)], key: order(6).id }, 10))).toEqual([8, 10].map((n) => order(n).id));
        expect(await bySku('Z')).toEqual([]);
        expect(await store.count('order-views', [{ field: 'sku', op: '=', value: 'C' }])).toBe(4);
        expect(await store.count('order-views', [{ field: 'sku', op: '=', value: 'B' }, { field: 'createdAt', op: '>=', value: at(5) }])).toBe(3);
        const rows = await store.listOrderJson({ where: [{ field: 'sku', op: '=', value: 'C' }], order: { by: ['createdAt'], direction: 'desc' }, limit: 2 });
        expect(rows.map((r) => ({ id: r.id, createdAt: r.createdAt, total: r.total, view: JSON.parse(r.json) }))).toEqual([9, 6].map((n) => ({ id: order(n).id, createdAt: at(n), total: n, view: views[n] })));
        // The values are kept beside the view, never in it.
        expect(Object.keys((await store.find<OrderView>('order-views', [order(2).id])).get(order(2).id)!)).not.toContain('sku');
        expect((await (await orders()).scan(null, 100)).map((v) => v.view)).toEqual(views);
      });

      it('takes a view\'s values again when the view changes, never from an older revision, and its other fields with them', async () => {
        await put([order(1, { lines: lines('A', 'B'), createdAt: at(1), revision: 1 })], pos(1));
        expect(ids(await bySku('A'))).toEqual([order(1).id]);
        // An edit: A is no longer on the order, C is; and (say) its createdAt moved, which is copied beside the values.
        await put([order(1, { lines: lines('B', 'C'), createdAt: at(7), revision: 2 })], pos(2));
        expect(await bySku('A')).toEqual([]);
        expect(ids(await bySku('C', [{ field: 'createdAt', op: '>=', value: at(7) }]))).toEqual([order(1).id]);
        expect(await bySku('B', [{ field: 'createdAt', op: '<', value: at(7) }])).toEqual([]);
        // A replayed older revision changes neither the view nor its values.
        await put([order(1, { lines: lines('A'), createdAt: at(1), revision: 1 })], pos(3));
        expect(await bySku('A')).toEqual([]);
        expect(ids(await bySku('B', [{ field: 'createdAt', op: '>=', value: at(7) }]))).toEqual([order(1).id]);
        expect((await (await orders()).fields([order(1).id])).get(order(1).id)).toMatchObject({ createdAt: at(7), sku: ['B', 'C'] });
      });

      it('given the view as stored (was), writes what changed: its fields, its values when they changed, and nothing over a newer revision', async () => {
        const views = await orders();
        const first = order(1, { lines: lines('A', 'B'), status: 'pending', revision: 1 });
        await views.commit([{ key: first.id, view: first }], pos(1));
        const paid = order(1, { lines: lines('A', 'B'), status: 'paid', revision: 2 });
        await views.commit([{ key: first.id, view: paid, was: first }], pos(2));
        const byStatus = (status: string) => store.page<OrderView>('order-views', { where: [{ field: 'status', op: '=', value: status }], order: { by: ['createdAt'], direction: 'asc' }, limit: 10 });
        expect(await byStatus('pending')).toEqual([]);
        expect(await byStatus('paid')).toEqual([paid]);
        expect(await bySku('B')).toEqual([paid]);
        const edited = order(1, { lines: lines('C'), status: 'paid', total: 77, revision: 3 });
        await views.commit([{ key: first.id, view: edited, was: paid }], pos(3));
        expect(await bySku('A')).toEqual([]);
        expect(await bySku('C')).toEqual([edited]);
        expect(ids(await store.page<OrderView>('order-views', { where: [{ field: 'currency', op: '=', value: edited.currency }], order: { by: ['total', 'createdAt'], direction: 'asc' }, limit: 10 }))).toEqual([edited.id]);
        // A batch applied again, its view older than the stored one: nothing of it is written.
        await views.commit([{ key: first.id, view: paid, was: first }], pos(4));
        expect(await byStatus('paid')).toEqual([edited]);
        expect(await bySku('C')).toEqual([edited]);
        expect((await views.fields([first.id])).get(first.id)).toMatchObject({ status: 'paid', legacyStatus: 'paid', total: 77, sku: ['C'] });
      });

      it('keeps the values per generation: a new one starts without them and replaces the old on activation', async () => {
        await put([order(1, { lines: lines('A') })], pos(1));
        const generation = await store.createGeneration('order-views');
        await store.views('order-views', generation).commit([{ key: order(2).id, view: order(2, { lines: lines('A', 'B') }) }], pos(2));
        expect(ids(await bySku('A'))).toEqual([order(1).id]);
        await store.activateGeneration('order-views', generation);
        expect(ids(await bySku('A'))).toEqual([order(2).id]);
        expect(ids(await bySku('B'))).toEqual([order(2).id]);
        expect(ids(await (await fixture.reopen()).page<OrderView>('order-views', { where: [{ field: 'sku', op: '=', value: 'B' }], limit: 10 }))).toEqual([order(2).id]);
      });

      it('matches it by equality only, never sorts by it, and combines it with nothing its indexes do not name', async () => {
        await put([order(1)]);
        await expect(store.page('order-views', { where: [{ field: 'sku', op: 'in', values: ['A', 'B'] }], limit: 10 })).rejects.toThrow(/sku/);
        await expect(store.page('order-views', { where: [{ field: 'sku', op: '>', value: 'A' }], limit: 10 })).rejects.toThrow(/sku/);
        await expect(store.page('order-views', { order: { by: ['sku'], direction: 'asc' }, limit: 10 })).rejects.toThrow(/sku/);
        await expect(store.page('order-views', { where: [{ field: 'sku', op: '=', value: 'A' }, { field: 'nothing', op: '=', value: 1 }], limit: 10 })).rejects.toThrow(/nothing/);
      });
    });

    it('orders by an integer field then another, either way, and pages after both (the orders by total in one currency)', async () => {
      const totals = [500, 100, 300, 100, 500, 200];
      const views = totals.map((total, n) => order(n, { total, currency: n === 5 ? 'USD' : 'EUR' }));
      await put(views);
      const byTotal = (direction: 'asc' | 'desc', after: { values: FieldValue[]; key: string } | null = null, more: Condition[] = []) =>
        store.page<OrderView>('order-views', { where: [{ field: 'currency', op: '=', value: 'EUR' }, ...more], order: { by: ['total', 'createdAt'], direction }, after, limit: 100 });
      const ids = (list: readonly OrderView[]) => list.map((v) => v.id);
      expect(ids(await byTotal('asc'))).toEqual([1, 3, 2, 0, 4].map((n) => order(n).id));
      expect(ids(await byTotal('desc'))).toEqual([4, 0, 2, 3, 1].map((n) => order(n).id));
      expect(ids(await byTotal('desc', { values: [500, at(0)], key: order(0).id }))).toEqual([2, 3, 1].map((n) => order(n).id));
      expect(ids(await byTotal('asc', { values: [100, at(3)], key: order(3).id }))).toEqual([2, 0, 4].map((n) => order(n).id));
      expect(ids(await byTotal('asc', null, [{ field: 'status', op: '=', value: 'pending' }]))).toEqual([3, 0].map((n) => order(n).id));
      const [row] = await store.listOrderJson({ where: [{ field: 'currency', op: '=', value: 'USD' }], order: { by: ['total', 'createdAt'], direction: 'desc' }, limit: 1 });
      expect(row).toMatchObject({ id: order(5).id, createdAt: at(5), total: 200 });
    });

    it('reports the declared fields as stored beside each view, computed and multi-valued ones included', async () => {
      await put([order(1), order(2, { status: 'partially_shipped', lines: lines('C', 'A', 'C') })]);
      expect(await (await orders()).fields([order(2).id, 'missing', order(1).id])).toEqual(new Map([
        [order(1).id, { customerId: 'cus_1', status: 'paid', createdAt: at(1), legacyStatus: 'paid', currency: 'EUR', total: 1, sku: ['A'] }],
        [order(2).id, { customerId: 'cus_2', status: 'partially_shipped', createdAt: at(2), legacyStatus: 'paid', currency: 'EUR', total: 2, sku: ['A', 'C'] }],
      ]));
      const job: JobView = {
        id: 'job-1', type: 'order-export', status: 'succeeded', owner: 'p', customerId: null, format: 'csv', filter: {}, apiVersion: '2027-01-01', progress: { processed: 1, total: 1 },
        createdAt: at(1), startedAt: at(1), finishedAt: at(2), result: { file: 'f.csv', contentType: 'text/csv', count: 1, bytes: 10 }, resultExpiredAt: null, error: null, lease: null, attempts: 1, revision: 3,
      };
      const jobs = store.views<JobView>('jobs', await store.activeGeneration('jobs'));
      await jobs.commit([{ key: job.id, view: job }], pos(1));
      expect(await jobs.fields([job.id])).toEqual(new Map([[job.id, { type: 'order-export', status: 'succeeded', createdAt: at(1), finishedAt: at(2), hasResult: 1 }]]));
    });

    it("starts a projection afresh, once, when its storage version rose (another build opens the store), and keeps the others", async () => {
      await put([order(1)], pos(4));
      const stock = store.views<StockView>('stock', await store.activeGeneration('stock'));
      await stock.commit([{ key: 'A', view: { sku: 'A', name: null, status: null, lowStockThreshold: 0, onHand: 1, reserved: 0, available: 1, stockUpdatedAt: at(1), stockRevision: 0, low: 0, position: pos(1), revision: 0 } }], pos(4));
      const raised = READ_STORAGE.map((declared) => (declared.name === 'stock' ? { ...declared, version: storageVersion(declared) + 1 } : declared));
      const upgraded = await fixture.reopen(raised);
      expect(await upgraded.activeGeneration('stock')).toBe(2);
      expect(await upgraded.views('stock', 2).checkpoint()).toBeNull();
      expect(await upgraded.find('stock', ['A'])).toEqual(new Map());
      expect(await upgraded.activeGeneration('order-views')).toBe(1);
      expect(await getOrder(upgraded, order(1).id)).toEqual(order(1));
      // Opened again by the same build, or by the one before it: not started afresh again.
      expect(await (await fixture.reopen(raised)).activeGeneration('stock')).toBe(2);
      expect(await (await fixture.reopen()).activeGeneration('stock')).toBe(2);
      // A rebuild's generation is of the shape its build declares: the next open leaves it.
      const generation = await upgraded.createGeneration('stock');
      await upgraded.activateGeneration('stock', generation);
      expect(await (await fixture.reopen(raised)).activeGeneration('stock')).toBe(generation);
    });

    it('scans views in key order', async () => {
      await put([order(3), order(1), order(2)]);
      const views = await orders();
      expect((await views.scan(null, 2)).map((v) => v.key)).toEqual([order(1).id, order(2).id]);
      expect((await views.scan(order(2).id, 2)).map((v) => v.key)).toEqual([order(3).id]);
    });

    it('fills a new generation while the active one serves, then switches and drops the old', async () => {
      await put([order(1)], pos(1));
      const generation = await store.createGeneration('order-views');
      expect(generation).toBe(2);
      const fresh = store.views('order-views', generation);
      await fresh.commit([{ key: order(2).id, view: order(2) }], pos(2));
      expect(await getOrder(store, order(1).id)).not.toBeNull();
      expect(await getOrder(store, order(2).id)).toBeNull();
      await store.activateGeneration('order-views', generation);
      expect(await store.activeGeneration('order-views')).toBe(2);
      expect(await getOrder(store, order(1).id)).toBeNull();
      expect(await getOrder(store, order(2).id)).toEqual(order(2));
      expect(await store.views('order-views', 2).checkpoint()).toBe(pos(2));
      expect(await store.activeGeneration('fulfilment-queue')).toBe(1);
    });

    describe('leases', () => {
      const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

      it('gives a lease to one holder at a time, and lets the holder renew it', async () => {
        expect(await store.acquireLease('projector', 'a', 60_000)).toBe(true);
        expect(await store.acquireLease('projector', 'b', 60_000)).toBe(false);
        expect(await store.acquireLease('projector', 'a', 60_000)).toBe(true);
        expect(await store.acquireLease('projector', 'b', 60_000)).toBe(false);
        // Another name is another lease.
        expect(await store.acquireLease('other', 'b', 60_000)).toBe(true);
      });

      it('lets another holder take a lease that lapsed, and the old holder then loses it', async () => {
        // 3 s to live (was 300 ms): the refusal just below must come while it lives, and a loaded
        // machine can take longer than 300 ms between two statements; the wait is one lifetime and a bit.
        expect(await store.acquireLease('projector', 'a', 3_000)).toBe(true);
        expect(await store.acquireLease('projector', 'b', 60_000)).toBe(false);
        await sleep(3_300);
        expect(await store.acquireLease('projector', 'b', 60_000)).toBe(true);
        expect(await store.acquireLease('projector', 'a', 300)).toBe(false);
      });

      it('hands a released lease over at once, and ignores a release by one who does not hold it', async () => {
        expect(await store.acquireLease('projector', 'a', 60_000)).toBe(true);
        await store.releaseLease('projector', 'b');
        expect(await store.acquireLease('projector', 'b', 60_000)).toBe(false);
        await store.releaseLease('projector', 'a');
        expect(await store.acquireLease('projector', 'b', 60_000)).toBe(true);
      });

      it('is one lease for every store opened on the same data (another process)', async () => {
        const other = await fixture.reopen();
        expect(await store.acquireLease('projector', 'a', 60_000)).toBe(true);
        expect(await other.acquireLease('projector', 'b', 60_000)).toBe(false);
        const racers = await Promise.all(['c', 'd', 'e'].map((holder) => other.acquireLease('race', holder, 60_000)));
        expect(racers.filter(Boolean)).toHaveLength(1);
      });
    });

    it('lists customers newest first, by the exact email key, and pages after a key', async () => {
      const views = await store.views('customers', await store.activeGeneration('customers'));
      const all = Array.from({ length: 6 }, (_, i) => customer(i));
      // Two customers created in the same millisecond: the id breaks the tie.
      all.push(customer(6, { createdAt: at(5), id: 'cus_000005b' }));
      await views.commit(all.map((view) => ({ key: view.id, view })), pos(1));
      expect((await listCustomers({}, null, 10)).map((v) => v.id)).toEqual(['cus_000005b', 'cus_000005', 'cus_000004', 'cus_000003', 'cus_000002', 'cus_000001', 'cus_000000']);
      expect((await listCustomers({}, { createdAt: at(5), id: 'cus_000005b' }, 2)).map((v) => v.id)).toEqual(['cus_000005', 'cus_000004']);
      expect(await listCustomers({ emailKey: 'customer3@example.org' }, null, 10)).toEqual([customer(3)]);
      expect(await listCustomers({ emailKey: 'Customer3@Example.org' }, null, 10)).toEqual([]);
      // An erased customer keeps its place, and its email matches no more.
      await views.commit([{ key: 'cus_000003', view: customer(3, { email: null, name: null, status: 'erased', erasedAt: at(9), emailKey: null, revision: 1 }) }], pos(2));
      expect(await listCustomers({ emailKey: 'customer3@example.org' }, null, 10)).toEqual([]);
      expect((await listCustomers({}, null, 10)).find((v) => v.id === 'cus_000003')).toMatchObject({ status: 'erased', email: null });
    });

    describe('cursor paging', () => {
      const codec = new CursorCodec('test-secret');
      let queries: OrderQueries;
      beforeEach(() => {
        // No Consistency-Token is sent here: the views' progress is never asked.
        const idle = new Consistency({ position: null, waitFor: async () => true }, 'collections', 0);
        queries = new OrderQueries(store, codec, { orders: idle, queue: idle }, inMemoryPersonalData().views);
      });

      it('walks 1,000 orders with inserts between pages, seeing each existing order exactly once', async () => {
        await put(Array.from({ length: 1000 }, (_, i) => order(i * 10 + 5)), pos(1));
        for (const sort of ['createdAt', '-createdAt'] as const) {
          const seen: string[] = [];
          let cursor: string | undefined;
          let inserted = 0;
          for (;;) {
            const page = await queries.listOrders(staff, { ...CURRENT, sort, limit: 37, ...(cursor ? { cursor } : {}) });
            seen.push(...page.items.map((v) => v.id));
            // New orders land before, between and after the pages already read.
            const fresh = [inserted * 10 + 1, 5000 + inserted * 10 + 2, 20000 + inserted].map((n) => order(n, { id: `new-${sort}-${n}` }));
            await put(fresh, pos(2 + inserted++));
            if (!page.nextCursor) break;
            cursor = page.nextCursor;
          }
          const existing = seen.filter((id) => id.startsWith('ord-'));
          expect(existing).toHaveLength(1000);
          expect(new Set(existing).size).toBe(1000);
          expect(new Set(seen).size).toBe(seen.length);
        }
      });

      it('continues the exact filter it came from and ends with a null cursor', async () => {
        await put(Array.from({ length: 25 }, (_, i) => order(i)));
        const first = await queries.listOrders(staff, { ...CURRENT, status: 'paid', sort: '-createdAt', limit: 5 });
        const second = await queries.listOrders(staff, { ...CURRENT, status: 'paid', sort: '-createdAt', limit: 5, cursor: first.nextCursor! });
        expect([...first.items, ...second.items].every((v) => v.status === 'paid')).toBe(true);
        expect(first.items.map((v) => v.id)).toEqual([22, 19, 16, 13, 10].map((n) => order(n).id));
        expect(second.items.map((v) => v.id)).toEqual([7, 4, 1].map((n) => order(n).id));
        expect(second.nextCursor).toBeNull();
      });

      it("pages the customers by an email filter, case-insensitively, and refuses a cursor of another filter or a customer's token", async () => {
        const idle = new Consistency({ position: null, waitFor: async () => true }, 'collections', 0);
        const customers = new CustomerQueries(store, new KeysetPages(codec, idle));
        const views = await store.views('customers', await store.activeGeneration('customers'));
        const many = Array.from({ length: 5 }, (_, i) => customer(i + 1));
        await views.commit(many.map((view) => ({ key: view.id, view })), pos(1));
        const first = await customers.list(staff, { limit: 2 });
        expect(first.items.map((v) => v.id)).toEqual(['cus_000005', 'cus_000004']);
        expect(first.items[0]).not.toHaveProperty('emailKey');
        const second = await customers.list(staff, { limit: 2, cursor: first.nextCursor! });
        expect(second.items.map((v) => v.id)).toEqual(['cus_000003', 'cus_000002']);
        expect((await customers.list(staff, { email: 'CUSTOMER2@example.ORG', limit: 5 })).items.map((v) => v.id)).toEqual(['cus_000002']);
        await expect(customers.list(staff, { email: 'customer2@example.org', limit: 2, cursor: first.nextCursor! })).rejects.toBeInstanceOf(InvalidCursor);
        await expect(customers.list({ ...staff, customerId: 'cus_000002' }, { limit: 2 })).rejects.toBeInstanceOf(Forbidden);
      });

      it('refuses a cursor that is tampered with, made up, or used with another filter or sort', async () => {
        await put(Array.from({ length: 10 }, (_, i) => order(i)));
        const { nextCursor } = await queries.listOrders(staff, { ...CURRENT, sort: 'createdAt', limit: 2 });
        const cursor = nextCursor!;
        const [payload, signature] = cursor.split('.');
        const forged = Buffer.from(Buffer.from(payload!, 'base64url').toString().replace('ord-000001', 'ord-000005')).toString('base64url');
        const misuses: Array<Parameters<OrderQueries['listOrders']>[1]> = [
          { ...CURRENT, sort: '-createdAt', limit: 2, cursor },
          { ...CURRENT, sort: 'createdAt', status: 'paid', limit: 2, cursor },
          { ...CURRENT, sort: 'createdAt', customerId: 'cus_1', limit: 2, cursor },
          { ...CURRENT, sort: 'createdAt', limit: 2, cursor: `${forged}.${signature}` },
          { ...CURRENT, sort: 'createdAt', limit: 2, cursor: `${payload}.AAAA${signature!.slice(4)}` },
          { ...CURRENT, sort: 'createdAt', limit: 2, cursor: 'garbage' },
          { ...CURRENT, sort: 'createdAt', limit: 2, cursor: 'x'.repeat(10_000) },
          { ...CURRENT, sort: 'createdAt', limit: 2, cursor: new CursorCodec('other-secret').encode({ collection: 'orders', sort: 'createdAt' }, { createdAt: at(1), id: 'x' }) },
        ];
        for (const request of misuses) await expect(queries.listOrders(staff, request)).rejects.toBeInstanceOf(InvalidCursor);
        expect((await queries.listOrders(staff, { ...CURRENT, sort: 'createdAt', limit: 2, cursor })).items.map((v) => v.id)).toEqual([order(2).id, order(3).id]);
      });
    });
  });
}
