// `npm start` as a user runs it: a real process on the embedded default, no server needed.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { signDevToken } from '../../api/auth.js';
import { tempDir } from '../support/event-stores.js';

const root = join(import.meta.dirname, '../..');

function start(env: Record<string, string>): { child: ChildProcess; port: Promise<number>; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bootstrap/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = new Promise<number>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /"port":(\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  return { child, port, output: () => output };
}

describe('starting the service', () => {
  it('starts on the embedded stores, serves /health/live and stops cleanly on SIGTERM', async () => {
    const dir = tempDir('start-');
    const dataDir = join(dir.path, 'data');
    const service = start({ DATA_DIR: dataDir });
    const port = await service.port;
    const live = await fetch(`http://127.0.0.1:${port}/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(200);
    expect(existsSync(join(dataDir, 'events.sqlite3'))).toBe(true);
    service.child.kill('SIGTERM');
    const [code] = await once(service.child, 'exit');
    expect(code).toBe(0);
    expect(service.output()).toContain('stopped');
    dir.remove();
  });

  it('finishes in-flight requests on SIGTERM, then exits', async () => {
    const dir = tempDir('stop-');
    const service = start({ DATA_DIR: dir.path, REQUEST_TIMEOUT_MS: '1500' });
    const port = await service.port;
    const token = await signDevToken(readFileSync(join(dir.path, 'dev-jwt-secret'), 'utf8').trim(), { sub: 'me', scope: 'orders:read' });
    // Waits for a position the projections never reach, until the request timeout answers it.
    const started = Date.now();
    const inFlight = fetch(`http://127.0.0.1:${port}/orders`, {
      headers: { Authorization: `Bearer ${token}`, 'Consistency-Token': 'ffffffffffffff00ffffffffffffff00' },
    });
    await new Promise((r) => setTimeout(r, 300));
    service.child.kill('SIGTERM');
    const response = await inFlight;
    expect(response.status).toBe(503);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    const [code] = await once(service.child, 'exit');
    expect(code).toBe(0);
    expect(service.output()).toMatch(/stopping[\s\S]*stopped/);
    await expect(fetch(`http://127.0.0.1:${port}/health/live`)).rejects.toThrow();
    dir.remove();
  });

  it('says at start-up how to mint a token when no secret is configured', async () => {
    const dir = tempDir('hint-');
    const service = start({ DATA_DIR: dir.path });
    await service.port;
    expect(service.output()).toContain('npm run --silent token --');
    service.child.kill('SIGTERM');
    await once(service.child, 'exit');
    dir.remove();
  });

  it('refuses to start on a bad variable and names it', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bootstrap/main.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH, PORT: 'eighty' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(stderr).toContain('PORT');
  });
});
