// The Koa application factory. The listener lives elsewhere (bootstrap/main.ts), so tests
// drive the same app on port 0.
import Router from '@koa/router';
import Koa from 'koa';

export interface AppDeps {
  /** Resolves when the stores answer; rejects with the reason when one does not. */
  readonly checkReady: () => Promise<void>;
}

export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  const router = new Router();

  router.get('/health/live', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/health/ready', async (ctx) => {
    try {
      await deps.checkReady();
      ctx.body = { status: 'ok' };
    } catch {
      ctx.status = 503;
      ctx.set('Retry-After', '1');
      ctx.body = { status: 'unavailable' };
    }
  });

  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
