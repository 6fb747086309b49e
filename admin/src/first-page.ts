// The first screen's data, asked for as the first thing the app does: the home screen's figures
// (GET /summary), or the first page of orders. main.tsx imports this module before anything else,
// so the request leaves while Preact and the screens are still being evaluated and drawn, instead
// of after them (bench:admin measures both instants).
import createClient from 'openapi-fetch';
import { api, authHeaders, consistency, noteResponse, type Schemas } from './api';
import type { paths } from './generated/api';
import { principalOf, storedToken, type Principal } from './session';

type Query = NonNullable<Schemas['OrderListQuery']>;
export type OrderFilter = Partial<Pick<Query, 'status' | 'customerId' | 'createdFrom' | 'createdTo' | 'sku' | 'currency'>> & { sort: Query['sort'] };

/** The query the orders screen opens with. */
export const FIRST_QUERY: OrderFilter = { sort: '-createdAt' };
const PAGE_SIZE = 20;

const request = (filter: OrderFilter, cursor: string | undefined) => ({
  params: { query: { ...filter, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) }, header: consistency() },
});

export function ordersPage(filter: OrderFilter, cursor: string | undefined) {
  return api.GET('/orders', request(filter, cursor));
}

/**
 * The home screen's figures: at once without an ETag; with one, a long-poll that answers when a
 * figure changes (200) or after `wait` seconds (304). Never from the browser's cache: the ETag is
 * the app's to send.
 */
export function summary(etag: string | null, signal?: AbortSignal) {
  return api.GET('/summary', {
    params: { query: etag ? { wait: 30 } : {}, header: { ...(etag ? { 'If-None-Match': etag } : {}), ...consistency() } },
    cache: 'no-store',
    ...(signal ? { signal } : {}),
  });
}

/** Whether the token is a member of staff's that may read the store's figures and lists (not a customer's own). */
export const isStaff = (principal: Principal) => principal.scopes.has('orders:read') && !principal.customer;

/** The screen the app opens on, when it is one whose data is asked for early: '#/' and '#/home' for staff, '#/orders'. */
function opensOn(): 'home' | 'orders' | null {
  const token = storedToken();
  const principal = token ? principalOf(token) : null;
  if (!principal || principal.exp * 1000 <= Date.now() || !principal.scopes.has('orders:read')) return null;
  // Matched here rather than with the router's parseRoute: router.ts brings Preact's hooks, which
  // this module must not wait for. A route with a query or an id asks for nothing early.
  const match = /^#?\/?(home|orders)?\/?$/.exec(location.hash);
  if (!match) return null;
  const first = match[1] ?? '';
  if (first === 'orders' || (first === '' && !isStaff(principal))) return 'orders';
  return isStaff(principal) ? 'home' : null;
}

/**
 * The same requests as ordersPage and summary, through a client without middleware: openapi-fetch
 * awaits each middleware before it calls fetch, which would put the request after this whole
 * script (Preact and the first drawing included); without any, fetch is called right here. What
 * the middleware does (the headers, noting the response) is done around the call instead.
 */
const direct = () => createClient<paths>({ baseUrl: location.origin });
const noted = <T extends { response: Response }>(result: T) => (noteResponse('GET', result.response), result);

type OrdersAnswer = Awaited<ReturnType<typeof ordersPage>>;
type SummaryAnswer = Awaited<ReturnType<typeof summary>>;

const opening = opensOn();
let earlyOrders: Promise<OrdersAnswer> | null = opening === 'orders' ? direct().GET('/orders', { ...request(FIRST_QUERY, undefined), headers: authHeaders() }).then(noted) : null;
let earlySummary: Promise<SummaryAnswer> | null = opening === 'home' ? direct().GET('/summary', { cache: 'no-store', headers: authHeaders() }).then(noted) : null;
let settledOrders: OrdersAnswer | null = null;
let settledSummary: SummaryAnswer | null = null;
earlyOrders?.then((result) => (settledOrders = result), () => undefined);
earlySummary?.then((result) => (settledSummary = result), () => undefined);

/**
 * Resolves when the first screen's data asked for at the start is in, or after `ms` at the most,
 * or at once when none was asked for. The app waits for it before it draws anything, so that its
 * first frame has the data in it, instead of drawing the screen empty and then again with it: a
 * second style, layout and paint on the way to the figures or the rows.
 */
export function firstPageOrAfter(ms: number): Promise<void> {
  const early = earlyOrders ?? earlySummary;
  if (!early) return Promise.resolve();
  const done = () => undefined;
  return Promise.race([early.then(done, done), new Promise<void>((resolve) => setTimeout(resolve, ms))]);
}

/**
 * The first page of orders asked for at the start, once (the orders screen opens with it instead
 * of asking again): the answer when it is in, else the promise of it; null when none was asked for
 * or it was taken already.
 */
export function takeFirstPage(): OrdersAnswer | Promise<OrdersAnswer> | null {
  const page = settledOrders ?? earlyOrders;
  earlyOrders = settledOrders = null;
  return page;
}

/** The figures asked for at the start, once, as takeFirstPage. */
export function takeFirstSummary(): SummaryAnswer | Promise<SummaryAnswer> | null {
  const answer = settledSummary ?? earlySummary;
  earlySummary = settledSummary = null;
  return answer;
}
