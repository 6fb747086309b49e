// The bare Koa baseline of bench:http, run as a child process by servers.ts: any GET answers the
// fixed example order, serialised per request as the service serialises its own. Listens on PORT
// and prints {"port":N} once listening.
import { once } from 'node:events';
import Koa from 'koa';
import { HOST } from '../support/free-port.js';
import { EXAMPLE_ORDER } from './fixtures.js';

const app = new Koa();
app.use((ctx) => {
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = EXAMPLE_ORDER;
});
const server = app.listen(Number(process.env.PORT), HOST);
await once(server, 'listening');
console.log(JSON.stringify({ port: Number(process.env.PORT) }));
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
