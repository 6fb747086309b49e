// The README's quick start, run as a new user runs it: its shell block against a real service.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/event-stores.js';
import { ROOT, startServiceProcess, type ServiceProcess } from '../support/service-process.js';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const quickStart = /### A first request[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';

let dir: { path: string; remove: () => void };
let service: ServiceProcess;
let url: string;

beforeAll(async () => {
  dir = tempDir('readme-');
  service = startServiceProcess({ DATA_DIR: dir.path });
  url = `http://127.0.0.1:${await service.port}`;
}, 60_000);
afterAll(async () => {
  await service.stop();
  dir.remove();
});

describe('the README quick start', () => {
  it('places an order and lists it at once with its Consistency-Token, with a token that also reads the audit history', async () => {
    expect(quickStart).toContain('Consistency-Token: $CONSISTENCY');
    const script = `set -euo pipefail\n${quickStart.replaceAll('http://127.0.0.1:3000', url)}\necho\necho "TOKEN=$TOKEN"\n`;
    const run = spawnSync('bash', ['-c', script], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dir.path }, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n');
    const token = lines.at(-1)!.replace(/^TOKEN=/, '');
    expect(JSON.parse(lines[0]!)).toMatchObject({ customerId: 'cus_42', status: 'pending' });
    const page = JSON.parse(lines[1]!) as { items: Array<{ id: string; customerId: string }> };
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ customerId: 'cus_42' });

    // The README's audit reads need audit:read: the quick start's token has it.
    const history = await fetch(`${url}/orders/${page.items[0]!.id}/history`, { headers: { Authorization: `Bearer ${token}` } });
    expect(history.status).toBe(200);
    // And it lasts what the README says (--ttl 3600).
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number; iat: number };
    expect(claims.exp - claims.iat).toBe(3600);
  }, 90_000);

  it('says how long tokens last and how to ask for another lifetime', () => {
    expect(readme).toContain('A token lasts `TOKEN_TTL_SECONDS` (15 minutes by default)');
    expect(readme).toMatch(/`--ttl <seconds>`/);
    // The configuration table lives in docs/configuration.md, which the README links to.
    expect(readme).toContain('](docs/configuration.md)');
    const configuration = readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8');
    expect(configuration).toMatch(/\| `TOKEN_TTL_SECONDS` \|[^\n]*\| `900` \|/);
    expect(configuration).toMatch(/\| `MAX_TOKEN_LIFETIME_SECONDS` \|[^\n]*\| `86400` \|/);
  });
});

describe('the README as a document', () => {
  it('is at most 15 KB', () => {
    expect(Buffer.byteLength(readme, 'utf8')).toBeLessThanOrEqual(15 * 1024);
  });

  it('links only to docs/ files that exist, and to every Markdown file in docs/', () => {
    const linked = [...readme.matchAll(/\]\((docs\/[^)#\s]+)(?:#[^)]*)?\)/g)].map((match) => match[1]!);
    expect(linked.length).toBeGreaterThan(0);
    for (const path of linked) expect(existsSync(join(ROOT, path)), `${path} is linked from README.md`).toBe(true);
    const documents = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
    expect(documents.filter((path) => !linked.includes(path))).toEqual([]);
  });
});

describe('the README sign-in', () => {
  const signIn = /### Signing in with an account[\s\S]*?```sh\n[\s\S]*?```[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  let admin: { dir: { path: string; remove: () => void }; service: ServiceProcess };

  beforeAll(async () => {
    const adminDir = tempDir('readme-admin-');
    const credentials = /ADMIN_EMAIL=(\S+) ADMIN_PASSWORD='([^']+)'/.exec(signIn);
    admin = { dir: adminDir, service: startServiceProcess({ DATA_DIR: adminDir.path, ADMIN_EMAIL: credentials?.[1] ?? '', ADMIN_PASSWORD: credentials?.[2] ?? '' }) };
    await admin.service.port;
  }, 60_000);
  afterAll(async () => {
    await admin?.service.stop();
    admin?.dir.remove();
  });

  it('signs the first administrator in with curl, reads its account and creates another with the token', async () => {
    const port = await admin.service.port;
    const script = `set -euo pipefail\n${signIn.replaceAll('http://127.0.0.1:3000', `http://127.0.0.1:${port}`)}\n`;
    const run = spawnSync('bash', ['-c', script], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME }, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    const [me, created] = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(me).toMatchObject({ email: 'admin@shop.example', role: 'admin', disabled: false });
    expect(created).toMatchObject({ email: 'ada@shop.example', role: 'staff' });
    expect(admin.service.output()).not.toContain('a long admin passphrase');
  }, 90_000);
});
