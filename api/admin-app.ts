// Serves the administration web app (admin/, built into admin/dist by `npm run build:admin`) at
// /admin. The build is small, so it is read once and kept in memory, with a gzip copy of each
// file. index.html names the hashed assets and is revalidated on every load (no-cache); the
// assets never change under their name, so browsers keep them for a year without asking.
import Router from '@koa/router';
import type Koa from 'koa';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { HttpProblem } from './problem.js';

/** No inline script or style, nothing from another origin, no framing. */
export const ADMIN_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; font-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const IMMUTABLE = 'public, max-age=31536000, immutable';
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

interface File {
  readonly type: string;
  readonly body: Buffer;
  readonly gzipped: Buffer;
  readonly etag: string;
}

function load(path: string): File {
  const body = readFileSync(path);
  return { type: TYPES[extname(path)] ?? 'application/octet-stream', body, gzipped: gzipSync(body, { level: 9 }), etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/** The routes of /admin, over the build in `dir` as it is now; without a build they answer 404 saying so. */
export function adminAppRoutes(dir: string): Router {
  const built = existsSync(join(dir, 'index.html'));
  const index = built ? load(join(dir, 'index.html')) : null;
  const assetsDir = join(dir, 'assets');
  const assets = new Map(built && existsSync(assetsDir) ? readdirSync(assetsDir).map((name) => [name, load(join(assetsDir, name))] as const) : []);

  const serve = (ctx: Koa.Context, file: File, cacheControl: string) => {
    // Each encoding is a representation of its own, with an ETag of its own.
    const gzip = ctx.acceptsEncodings('gzip', 'identity') === 'gzip';
    ctx.vary('Accept-Encoding');
    ctx.set({ 'Cache-Control': cacheControl, ETag: gzip ? `${file.etag.slice(0, -1)}-gzip"` : file.etag, 'X-Content-Type-Options': 'nosniff' });
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.type = file.type;
    if (gzip) ctx.set('Content-Encoding', 'gzip');
    ctx.body = gzip ? file.gzipped : file.body;
  };

  const router = new Router();
  router.get('/admin', (ctx) => {
    if (!index) throw new HttpProblem(404, 'not-found', 'The administration app is not built: run npm run build:admin (npm install does).');
    ctx.set({ 'Content-Security-Policy': ADMIN_CSP, 'Referrer-Policy': 'no-referrer' });
    serve(ctx, index, 'no-cache');
  });
  router.get('/admin/assets/:file', (ctx) => {
    const file = assets.get(ctx.params.file ?? '');
    if (!file) throw new HttpProblem(404, 'not-found', `Nothing is at ${ctx.path}.`);
    serve(ctx, file, IMMUTABLE);
  });
  return router;
}
