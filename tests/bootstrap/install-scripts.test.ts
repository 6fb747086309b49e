// npm 11 warns on every install about dependencies whose install scripts package.json's
// allowScripts does not cover: every one is declared (allowed or denied).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/service-process.js';

describe('install scripts', () => {
  it('leaves no dependency with an install script unreviewed by allowScripts', (context) => {
    const listed = spawnSync('npm', ['install-scripts', 'ls'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    // An npm older than 11's install-scripts policy has nothing to check.
    if (/Unknown command/i.test(listed.stderr + listed.stdout)) context.skip();
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout.trim()).toBe('No packages with unreviewed install scripts.');
  }, 60_000);
});
