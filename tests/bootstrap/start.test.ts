// `npm start` as a user runs it: a real process on the embedded default, no server needed.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
