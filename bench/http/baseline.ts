// The bare Koa baseline of bench:http, run as a child process by servers.ts: any GET answers the
// fixed example order, serialised per request as the service serialises its own. Listens on PORT
// and prints {"port":N} once listening.
import { createServer } from 'node:http';
import Koa from 'koa';
import { serveOnPort } from '../support/free-port.js';
import { EXAMPLE_ORDER } from './fixtures.js';

const app = new Koa();
app.use((ctx) => {
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = EXAMPLE_ORDER;
});
await serveOnPort(createServer(app.callback()));
