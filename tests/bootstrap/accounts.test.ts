// The first administrator and `npm run accounts`: ADMIN_EMAIL/ADMIN_PASSWORD make one on a start
// that finds no account at all, and the command makes one at any time, its password read from
// standard input.
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../bootstrap/config.js';
import { createFirstAdmin } from '../../bootstrap/first-admin.js';
import { openServices } from '../../bootstrap/services.js';
import { tempDir } from '../support/event-stores.js';
import { runScript } from '../support/service-process.js';

// These tests start the service (or a command) as processes: node with tsx, seconds of CPU each,
// which a loaded 2-core machine stretches past the default 30 s (half a minute at load 16 was seen);
// 3 minutes is generous.
const PROCESS_TEST_MS = 180_000;

const dirs: { remove: () => void }[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => dir.remove()));
const silent = pino({ level: 'silent' });
const PASSWORD = 'the first admin’s passphrase';

function dataDir(): string {
  const dir = tempDir('accounts-');
  dirs.push(dir);
  return dir.path;
}

async function start(env: Record<string, string>) {
  const config = parseConfig(env);
  const services = await openServices(config, silent, 'api');
  await createFirstAdmin(config, services.accounts, silent);
  return services;
}

describe('the first administrator', () => {
  it('is made from ADMIN_EMAIL/ADMIN_PASSWORD on a start that finds no account, and only then', async () => {
    const dir = dataDir();
    const first = await start({ DATA_DIR: dir, ADMIN_EMAIL: 'Root@Shop.example', ADMIN_PASSWORD: PASSWORD });
    try {
      const { account } = await first.accounts.signIn({ email: 'root@shop.example', password: PASSWORD }, { correlationId: 't' });
      expect(account).toMatchObject({ role: 'admin', email: 'root@shop.example', status: 'active' });
    } finally {
      await first.close();
    }
    const second = await start({ DATA_DIR: dir, ADMIN_EMAIL: 'other@shop.example', ADMIN_PASSWORD: PASSWORD });
    try {
      await expect(second.accounts.signIn({ email: 'other@shop.example', password: PASSWORD }, { correlationId: 't' })).rejects.toMatchObject({ code: 'invalid-credentials' });
    } finally {
      await second.close();
    }
  }, PROCESS_TEST_MS);

  it('is not made without ADMIN_EMAIL', async () => {
    const services = await start({ DATA_DIR: dataDir() });
    try {
      expect(await services.accounts.anyAccount()).toBe(false);
    } finally {
      await services.close();
    }
  }, PROCESS_TEST_MS);

  it.each([
    [{ ADMIN_EMAIL: 'a@shop.example' }, 'ADMIN_PASSWORD'],
    [{ ADMIN_PASSWORD: PASSWORD }, 'ADMIN_EMAIL'],
    [{ ADMIN_EMAIL: 'a@shop.example', ADMIN_PASSWORD: 'too short' }, 'ADMIN_PASSWORD'],
    [{ ADMIN_EMAIL: 'not an email', ADMIN_PASSWORD: PASSWORD }, 'ADMIN_EMAIL'],
  ])('stops start-up on %j, naming %s', (env, variable) => {
    let error: unknown;
    try {
      parseConfig(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
  });
});

describe('npm run accounts -- create', () => {
  const cli = (dir: string, args: string[], input?: string) => runScript('bootstrap/accounts-cli.ts', args, { DATA_DIR: dir }, input);

  it('makes an account with the password from standard input, which then signs in', async () => {
    const dir = dataDir();
    const result = cli(dir, ['create', '--email', 'ops@shop.example', '--role', 'admin'], `${PASSWORD}\n`);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const printed = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(printed).toMatchObject({ email: 'ops@shop.example', role: 'admin', disabled: false, revision: 0 });
    expect(result.stdout).not.toContain(PASSWORD);
    const services = await start({ DATA_DIR: dir });
    try {
      const { account } = await services.accounts.signIn({ email: 'ops@shop.example', password: PASSWORD }, { correlationId: 't' });
      expect(account.id).toBe(printed.id);
    } finally {
      await services.close();
    }
  }, PROCESS_TEST_MS);

  it('refuses an email in use (exit 1), a short password (exit 1) and a missing role (exit 2)', () => {
    const dir = dataDir();
    expect(cli(dir, ['create', '--email', 'ops@shop.example', '--role', 'staff'], `${PASSWORD}\n`).status).toBe(0);
    const again = cli(dir, ['create', '--email', 'OPS@shop.example', '--role', 'staff'], `${PASSWORD}\n`);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/email/);
    expect(cli(dir, ['create', '--email', 'b@shop.example', '--role', 'staff'], 'short\n').status).toBe(1);
    expect(cli(dir, ['create', '--email', 'c@shop.example'], `${PASSWORD}\n`).status).toBe(2);
  }, PROCESS_TEST_MS);
});
