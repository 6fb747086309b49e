// Every list of orders the collection offers is served by an index on the embedded store: SQLite's
// plan (EXPLAIN QUERY PLAN) for each, first page and a later one, searches the one index that leads
// with the list's equalities and then its sort, scans no table whole and sorts nothing apart (no
// temporary B-tree); and each page answers what the list says, worked out by hand. The same lists
// on MongoDB: tests/read-side/mongo-read-store.test.ts. Which combinations are offered at all:
// read-side/orders/list-shape.ts, held to the same enumeration here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteReadStore } from '../../read-side/adapters/sqlite-read-store.js';
import { byTotal, unservedCombination, type OrderSort } from '../../read-side/orders/list-shape.js';
import type { OrderView } from '../../read-side/orders/views.js';
import { encodePosition } from '../../write-side/kernel/position.js';
import { openEmbeddedReadStore, type ReadStoreFixture } from '../support/read-stores.js';
import { declaredIndexesFor, expectedPage, LISTED_VALUES, listedViews, offeredOrderLists, pageOf, type OrderList } from './order-lists.js';

const VIEWS: OrderView[] = listedViews(400);
const VALUES = LISTED_VALUES;
const LIMIT = 10;
const describeList = (list: OrderList) => `${list.sort} ${JSON.stringify(list.filter)}`;

describe('the orders\' collection on the embedded store: every list offered, by an index', () => {
  let fixture: ReadStoreFixture;
  let store: SqliteReadStore;
  beforeAll(async () => {
    fixture = await openEmbeddedReadStore();
    store = fixture.store as SqliteReadStore;
    await store.views<OrderView>('order-views', 1).commit(VIEWS.map((view) => ({ key: view.id, view })), encodePosition(1n));
  });
  afterAll(() => fixture.dispose());

  const lists = offeredOrderLists(VALUES);

  it('offers exactly the combinations enumerated here (list-shape.ts); a customer\'s token (customerId given) lists by date alone, without a SKU', () => {
    const parameters = ['status', 'customerId', 'sku', 'currency', 'createdFrom', 'createdTo'] as const;
    const shapeOf = (list: OrderList) => `${list.sort} ${parameters.filter((p) => list.filter[p] !== undefined).join(',')}${list.filter.apiVersion! < '2027-01-01' ? ' legacy' : ''}`;
    const offered = new Set(lists.map(shapeOf));
    let accepted = 0;
    for (const sort of ['createdAt', '-createdAt', 'total', '-total'] as OrderSort[]) {
      for (let mask = 0; mask < 1 << parameters.length; mask++) {
        const given = parameters.filter((_, i) => mask & (1 << i));
        for (const legacy of given.includes('status') ? [false, true] : [false]) {
          const shape = { ...Object.fromEntries(given.map((p) => [p, VALUES[p]])), legacyStatus: legacy };
          const named = `${sort} ${given.join(',')}${legacy ? ' legacy' : ''}`;
          const served = unservedCombination(shape, sort).length === 0;
          expect(served, named).toBe(offered.has(named));
          if (served) accepted++;
          // A customer's token lists its customer's orders alone: what it asks is asked with customerId.
          const forCustomer = unservedCombination({ ...shape, customerId: 'cus_token' }, sort);
          if (served && !given.includes('sku') && !byTotal(sort)) expect(forCustomer, `${named} for a customer`).toEqual([]);
          else expect(forCustomer.length, `${named} for a customer`).toBeGreaterThan(0);
        }
      }
    }
    expect(accepted).toBe(offered.size);
  });

  it('has one declared index for each list, leading with its equalities and then its sort', () => {
    for (const list of lists) expect(declaredIndexesFor(list), describeList(list)).toHaveLength(1);
  });

  it('plans each list, first page and a later one, as a search of that index (or a read of it in order), with no table scanned whole and no sort apart', async () => {
    const generation = await store.activeGeneration('order-views');
    const table = `order_views_g${generation}`;
    let searched = 0;
    for (const list of lists) {
      const index = `${table}_i${declaredIndexesFor(list)[0]}`;
      const all = expectedPage(VIEWS, list, null, VIEWS.length);
      const middle = all[Math.floor(all.length / 2)];
      for (const after of [null, middle ? { createdAt: middle.createdAt, id: middle.id, total: middle.total } : null]) {
        const what = `${describeList(list)} after ${JSON.stringify(after)}`;
        const plan = await store.queryPlan('order-views', pageOf(list, after, LIMIT + 1));
        expect(plan.join(' | '), what).not.toMatch(/TEMP B-TREE/);
        // The list's own index, searched by its equalities and bounds; only a list with neither reads it from its start, in order, up to the limit.
        const [first, ...rest] = plan;
        const bounded = (pageOf(list, after, 1).where ?? []).length > 0 || after !== null;
        expect(first, what).toMatch(new RegExp(`^${bounded ? 'SEARCH' : 'SCAN'} \\S+ USING (COVERING )?INDEX ${index}${bounded ? ' \\(' : '$'}`));
        if (bounded) searched++;
        // A later page's search starts at the cursor's row (a row-value bound), not at the range's start: deep pages cost no more.
        if (after !== null) expect(first, what).toMatch(/\((total,)?created_at,key\)[<>]\(\?,\?(,\?)?\)/);
        // A list by SKU reads the SKUs' table by that index, then each order by its key.
        if (list.filter.sku !== undefined) expect(rest, what).toEqual([expect.stringMatching(new RegExp(`^SEARCH m USING (INDEX sqlite_autoindex_${table}_1|PRIMARY KEY) \\(key=\\?\\)$`))]);
        else expect(rest, what).toEqual([]);
      }
    }
    expect(searched).toBeGreaterThan(lists.length);
  });

  it('answers each list as it says, first page and a later one', async () => {
    for (const list of lists) {
      const all = expectedPage(VIEWS, list, null, VIEWS.length);
      expect(all.length, `${describeList(list)} selects something: the lists are worth checking`).toBeGreaterThan(0);
      const middle = all[Math.floor(all.length / 2)]!;
      for (const after of [null, { createdAt: middle.createdAt, id: middle.id, total: middle.total }]) {
        const page = await store.page<OrderView>('order-views', pageOf(list, after, LIMIT));
        expect(page.map((v) => v.id), `${describeList(list)} after ${JSON.stringify(after)}`).toEqual(expectedPage(VIEWS, list, after, LIMIT).map((v) => v.id));
      }
    }
  });
});
