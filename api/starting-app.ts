// What the listener answers while the process is still opening its stores (a MongoDB or
// EventStoreDB that cannot be reached yet): alive, not ready, and 503 with Retry-After for
// everything else, so that a load balancer sends no traffic here and a client retries.
import Koa from 'koa';
import type { Logger } from 'pino';
import { requestContext } from './middleware/context.js';
import { HttpProblem } from './problem.js';

/** `waiting()`: why the process is not serving yet, in one sentence (the last store failure). */
export function createStartingApp(logger: Logger, waiting: () => string): Koa {
  const app = new Koa();
  app.use(requestContext(logger));
  app.use((ctx) => {
    if (ctx.method === 'GET' && ctx.path === '/health/live') {
      ctx.body = { status: 'ok' };
      return;
    }
    if (ctx.method === 'GET' && ctx.path === '/health/ready') {
      ctx.status = 503;
      ctx.set('Retry-After', '2');
      ctx.body = { status: 'unavailable', reason: `starting: ${waiting()}` };
      return;
    }
    throw new HttpProblem(503, 'unavailable', `The service is starting and cannot serve yet (${waiting()}); retry shortly.`, {}, { 'Retry-After': '2' });
  });
  return app;
}
