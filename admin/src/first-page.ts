// The first page of orders, asked for as the first thing the app does. main.tsx imports this
// module before anything else, so the request leaves while Preact and the screens are still being
// evaluated and drawn, instead of after them (bench:admin measures both instants).
import createClient from 'openapi-fetch';
import { api, authHeaders, consistency, noteResponse, type Schemas } from './api';
import type { paths } from './generated/api';
import { principalOf, storedToken } from './session';

type Query = NonNullable<Schemas['OrderListQuery']>;
type Filter = { status?: Query['status']; customerId?: string; sort: Query['sort'] };

/** The query the orders screen opens with. */
export const FIRST_QUERY: Filter = { sort: '-createdAt' };
const PAGE_SIZE = 20;

const request = (filter: Filter, cursor: string | undefined) => ({
  params: { query: { ...filter, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) }, header: consistency() },
});

export function ordersPage(filter: Filter, cursor: string | undefined) {
  return api.GET('/orders', request(filter, cursor));
}

/** Whether the app opens on the orders list: the screen of '#/orders', and of no route when the token may read orders. */
function opensOnOrders(): boolean {
  const token = storedToken();
  const principal = token ? principalOf(token) : null;
  if (!principal || principal.exp * 1000 <= Date.now() || !principal.scopes.has('orders:read')) return false;
  return /^#?\/?(orders\/?)?$/.test(location.hash);
}

/**
 * The same request as ordersPage, through a client without middleware: openapi-fetch awaits
 * each middleware before it calls fetch, which would put the request after this whole script
 * (Preact and the first drawing included); without any, fetch is called right here. What the
 * middleware does (the headers, noting the response) is done around the call instead.
 */
function askNow(): ReturnType<typeof ordersPage> {
  const direct = createClient<paths>({ baseUrl: location.origin });
  return direct.GET('/orders', { ...request(FIRST_QUERY, undefined), headers: authHeaders() }).then((result) => {
    noteResponse('GET', result.response);
    return result;
  });
}

type Result = Awaited<ReturnType<typeof ordersPage>>;

let early: Promise<Result> | null = opensOnOrders() ? askNow() : null;
let settled: Result | null = null;
early?.then(
  (result) => (settled = result),
  () => undefined,
);

/**
 * Resolves when the first page asked for at the start is in, or after `ms` at the most, or at once
 * when none was asked for. The app waits for it before it draws anything, so that its first frame
 * has the orders in it, instead of drawing the screen empty and then again with the rows: a second
 * style, layout and paint on the way to the rows.
 */
export function firstPageOrAfter(ms: number): Promise<void> {
  if (!early) return Promise.resolve();
  return Promise.race([early.then(
    () => undefined,
    () => undefined,
  ), new Promise<void>((resolve) => setTimeout(resolve, ms))]);
}

/**
 * The first page asked for at the start, once (the orders screen opens with it instead of asking
 * again): the answer when it is in, else the promise of it; null when none was asked for or it
 * was taken already.
 */
export function takeFirstPage(): Result | Promise<Result> | null {
  const page = settled ?? early;
  early = settled = null;
  return page;
}
