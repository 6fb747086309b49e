// The floor of bench:http, run as a child process by servers.ts: bare Koa doing only the store
// work of a route (see bench/http.ts). POST /orders appends one OrderPlaced, made from the body as
// it comes, to a new stream of its own event store (durable, as the service's); GET /orders/{id}
// answers the service's order as the order service folds it; GET /orders answers a page of paid
// orders from the service's read models, with the last key as a plain base64url cursor. POST
// /placements places the order through the write side's order service on the floor's own event
// store, which holds the bench's catalogue and stock: the prices read, every line's stock reserved
// and the order appended, with its key taken, as the service's placement does, but with none of
// the service's HTTP work (token, validation, fingerprint, idempotency headers, metrics, logs),
// no projections, and no sealing. What the placement rows can reach at most. POST
// /reservations-then-order makes only the durable writes of a placement: each line's
// reservation, then the order, two commits in sequence (the least this design needs).
// Usage: PORT=N floor.ts <its own data dir> <the service's data dir>. Prints {"port":N} once listening.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Koa from 'koa';
import { SqliteReadStore } from '../../read-side/adapters/sqlite-read-store.js';
import { orderRepresentation } from '../../read-side/orders/views.js';
import { SqliteEventStore } from '../../write-side/adapters/sqlite-event-store.js';
import { serviceViewer } from '../../write-side/kernel/access.js';
import { OrderService } from '../../write-side/orders/service.js';
import { encodeOrderEvent, orderStream } from '../../write-side/orders/codec.js';
import { encodeStockEvent, stockStream } from '../../write-side/stock/codec.js';
import type { Address } from '../../write-side/orders/types.js';
import { serveOnPort } from '../support/free-port.js';
import { address } from './fixtures.js';
import { READ_STORAGE } from '../../projections/registry.js';
import { orderPage } from '../../read-side/orders/queries.js';

const [dataDir, serviceDir] = process.argv.slice(2) as [string, string];
mkdirSync(dataDir, { recursive: true });
const events = new SqliteEventStore({ file: join(dataDir, 'events.sqlite3') });
const serviceEvents = new SqliteEventStore({ file: join(serviceDir, 'events.sqlite3') });
const orders = new OrderService(serviceEvents);
const reads = new SqliteReadStore(join(serviceDir, 'read-models.sqlite3'), READ_STORAGE, { busyTimeoutMs: 250 });
const meta = { principal: 'floor', correlationId: 'floor', causationId: null };
const placements = new OrderService(events);
const floorViewer = serviceViewer('floor');
const app = new Koa();
app.use(async (ctx) => {
  ctx.type = 'application/json; charset=utf-8';
  if (ctx.method === 'POST' && ctx.path === '/placements') {
    let text = '';
    for await (const chunk of ctx.req) text += chunk;
    const body = JSON.parse(text) as { customerId: string; currency: string; lines: { sku: string; quantity: number; unitPrice: number }[]; address: Address };
    const key = ctx.get('idempotency-key') || randomUUID();
    const { state, revision } = await placements.place(floorViewer, body, { correlationId: key, idempotency: { key, fingerprint: 'floor' } });
    if (state.status === 'absent') throw new Error('the placement left no order');
    ctx.status = 201;
    ctx.body = JSON.stringify(orderRepresentation(state, revision ?? 0));
    return;
  }
  if (ctx.method === 'POST' && ctx.path === '/reservations-then-order') {
    // The durable writes any placement of this design makes, and no more: every line's
    // reservation appended to its SKU's stream (all in one commit, no read, no revision check),
    // then, once they are durable, the order. Two commits in sequence per placement.
    let text = '';
    for await (const chunk of ctx.req) text += chunk;
    const body = JSON.parse(text) as { customerId: string; currency: string; lines: { sku: string; quantity: number; unitPrice: number }[]; address: Partial<Address> };
    const orderId = randomUUID();
    const reservedAt = new Date().toISOString();
    await Promise.all(body.lines.map(({ sku, quantity }) =>
      events.appendToStream(stockStream(sku), [encodeStockEvent({ type: 'StockReserved', schemaVersion: 1, data: { sku, orderId, quantity, reservedAt } }, meta)], 'any')));
    const lines = body.lines.map((l) => ({ ...l, name: l.sku, lineTotal: l.quantity * l.unitPrice }));
    const data = {
      orderId, customerId: body.customerId, currency: body.currency, lines, total: lines.reduce((sum, l) => sum + l.lineTotal, 0),
      address: { ...address, ...body.address }, placedAt: reservedAt,
    };
    const appended = await events.appendToStream(orderStream(orderId), [encodeOrderEvent({ type: 'OrderPlaced', schemaVersion: 2, data }, meta)], 'no_stream');
    ctx.status = 201;
    ctx.body = JSON.stringify({ ...data, revision: appended.nextRevision });
    return;
  }
  if (ctx.method === 'POST') {
    let text = '';
    for await (const chunk of ctx.req) text += chunk;
    const body = JSON.parse(text) as { customerId: string; currency: string; lines: { sku: string; quantity: number; unitPrice: number }[]; address: Partial<Address> };
    const orderId = randomUUID();
    const lines = body.lines.map((l) => ({ ...l, name: l.sku, lineTotal: l.quantity * l.unitPrice }));
    const data = {
      orderId, customerId: body.customerId, currency: body.currency, lines, total: lines.reduce((sum, l) => sum + l.lineTotal, 0),
      address: { ...address, ...body.address }, placedAt: new Date().toISOString(),
    };
    const appended = await events.appendToStream(orderStream(orderId), [encodeOrderEvent({ type: 'OrderPlaced', schemaVersion: 2, data }, meta)], 'no_stream');
    ctx.status = 201;
    ctx.body = JSON.stringify({ ...data, revision: appended.nextRevision });
    return;
  }
  if (ctx.path !== '/orders') {
    const snapshot = await orders.get(serviceViewer('bench'), ctx.path.slice('/orders/'.length));
    if (snapshot) ctx.body = orderRepresentation(snapshot.order, snapshot.revision);
    else ctx.status = 404;
    return;
  }
  const cursor = typeof ctx.query.cursor === 'string' ? (JSON.parse(Buffer.from(ctx.query.cursor, 'base64url').toString()) as [string, string]) : null;
  const rows = await reads.listOrderJson(orderPage({ status: 'paid' }, 'desc', cursor && { createdAt: cursor[0], id: cursor[1] }, 21));
  const items = rows.slice(0, 20);
  const last = items.at(-1);
  const next = rows.length > 20 && last ? Buffer.from(JSON.stringify([last.createdAt, last.id])).toString('base64url') : null;
  ctx.body = `{"items":[${items.map((row) => row.json).join(',')}],"nextCursor":${JSON.stringify(next)}}`;
});
await serveOnPort(createServer(app.callback()), () => Promise.all([events.close(), serviceEvents.close(), reads.close()]));
