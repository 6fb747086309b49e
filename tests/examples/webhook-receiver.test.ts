// The example webhook receiver (examples/webhook-receiver.ts), started as a partner would start it,
// takes what the service's sender sends: it accepts a signed message once, answers its repeat
// (same webhook-id) without taking it again, and refuses a tampered one. Loopback only.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { send } from '../../workers/webhooks/sender.js';
import { until } from '../support/until.js';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
let child: ChildProcess;
let url = '';
const lines: string[] = [];

// Starting the example under tsx takes a second or two of CPU; a loaded 2-core machine stretches
// it, so the start is given 2 minutes, which is generous.
beforeAll(async () => {
  child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../../examples/webhook-receiver.ts')], {
    env: { ...process.env, WEBHOOK_SECRET: secret, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => lines.push(...chunk.split('\n').filter(Boolean)));
  await until(() => lines.some((line) => line.startsWith('listening on')));
  const { port } = JSON.parse(lines[0]!.slice('listening on '.length)) as { port: number };
  url = `http://127.0.0.1:${port}/hooks`;
}, 120_000);
afterAll(() => void child?.kill());

const options = { allowedHosts: ['127.0.0.1'] };
const message = { id: 'evt_8c0b6f8e-5d5e-5b0a-9a8e-4b7f3f0d2c11', body: JSON.stringify({ id: 'evt_8c0b6f8e-5d5e-5b0a-9a8e-4b7f3f0d2c11', type: 'order.paid', data: {} }) };

it('takes a signed message once, answers its repeat, and refuses one signed with another secret', async () => {
  expect(await send({ url, secrets: [secret] }, message, options)).toMatchObject({ ok: true, statusCode: 204 });
  expect(await send({ url, secrets: [secret] }, message, options)).toMatchObject({ ok: true, statusCode: 204 });
  const other = `whsec_${randomBytes(32).toString('base64')}`;
  expect(await send({ url, secrets: [other] }, { ...message, id: 'evt_other' }, options)).toMatchObject({ ok: false, statusCode: 400 });
  const taken = lines.filter((line) => line.startsWith('{'));
  expect(taken.map((line) => JSON.parse(line))).toEqual([{ id: message.id, type: 'order.paid' }]);
}, 60_000);
