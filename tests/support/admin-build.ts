// The administration app as npm install builds it (admin/dist), for the tests that serve it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './service-process.js';

/** Builds the app when this checkout has not been installed since it came (npm install builds it). */
export function ensureAdminBuilt(): void {
  if (existsSync(join(ROOT, 'admin/dist/index.html'))) return;
  const build = spawnSync('npm', ['run', '--silent', 'build:admin'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  if (build.status !== 0) throw new Error(`npm run build:admin failed: ${build.stderr}${build.stdout}`);
}

/** The path of the app's script, as its page names it. */
export function adminScriptPath(): string {
  ensureAdminBuilt();
  const path = /src="(\/admin\/assets\/[^"]+\.js)"/.exec(readFileSync(join(ROOT, 'admin/dist/index.html'), 'utf8'))?.[1];
  if (!path) throw new Error('admin/dist/index.html names no script');
  return path;
}
