import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repeatedMember } from '../../api/body.js';
import { ALL_SCOPES, client, newOrder, startService, type TestService } from '../support/http.js';
import { receiveStock, TEST_SKUS } from '../support/seed.js';

/** A member name as a client might write it: plain, or with every character escaped as \uXXXX. */
const spelled = (name: string, escaped: boolean) =>
  escaped ? `"${[...name].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"` : JSON.stringify(name);
const escapePointer = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * JSON text of `value` with white space between tokens, and, in the `target`-th non-empty object
 * met (in text order), its first member written a second time at its end; the pointer of that object.
 */
function withRepeat(value: unknown, target: number, space: string, escaped: boolean): { text: string; pointer: string | null; name: string | null } {
  let seen = 0;
  const found: Array<{ pointer: string; name: string }> = [];
  const write = (v: unknown, pointer: string): string => {
    if (Array.isArray(v)) return `[${space}${v.map((e, i) => write(e, `${pointer}/${i}`)).join(`${space},${space}`)}${space}]`;
    if (v !== null && typeof v === 'object') {
      const names = Object.keys(v);
      const members = names.map((k) => `${JSON.stringify(k)}${space}:${space}${write((v as Record<string, unknown>)[k], `${pointer}/${escapePointer(k)}`)}`);
      if (names.length > 0 && seen++ === target) {
        found.push({ pointer, name: names[0]! });
        members.push(`${spelled(names[0]!, escaped)}:${JSON.stringify('again')}`);
      }
      return `{${space}${members.join(`${space},${space}`)}${space}}`;
    }
    return JSON.stringify(v);
  };
  const text = write(value, '');
  return { text, pointer: found[0]?.pointer ?? null, name: found[0]?.name ?? null };
}

describe('reading a JSON body: repeated members', () => {
  const name = fc.oneof(fc.string(), fc.constantFrom('a', 'b', 'a/b', '~', '~1', '"', '\\', '{', '}', '[', ']', ',', ':', 'é', '\u2028'));
  const json = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), fc.integer(), fc.string(), name, fc.array(tie('value')), fc.dictionary(name, tie('value'))),
  })).value;

  it('finds none in text without one, whatever its strings hold', () => {
    fc.assert(fc.property(json, fc.constantFrom('', ' ', '\n\t '), (value, space) => {
      expect(repeatedMember(withRepeat(value, -1, space, false).text)).toBeNull();
    }), { numRuns: 1000 });
  });

  it('finds the one there is, escaped or not, with the pointer of its object', () => {
    fc.assert(fc.property(json, fc.nat(20), fc.constantFrom('', ' ', '\n\t '), fc.boolean(), (value, target, space, escaped) => {
      const { text, pointer, name: repeated } = withRepeat(value, target, space, escaped);
      expect(JSON.parse(text)).toBeDefined(); // the scanner is only ever given valid JSON
      expect(repeatedMember(text)).toEqual(pointer === null ? null : { pointer, name: repeated });
    }), { numRuns: 2000 });
  });
});

describe('reading a JSON body over HTTP', () => {
  let service: TestService;
  let token: string;
  beforeAll(async () => {
    service = await startService();
    await receiveStock(service.events, TEST_SKUS);
    token = await service.token({ scope: ALL_SCOPES });
  });
  afterAll(() => service.stop());

  /** POST /orders with the body written in `pieces`, chunked (no Content-Length); the status, or the error that ended it. */
  const chunked = (pieces: readonly string[]) =>
    new Promise<number | string>((resolve) => {
      const { port } = new URL(service.url);
      const request = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/orders', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() } });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode!);
      });
      request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      (async () => {
        for (const piece of pieces) {
          if (request.destroyed) return;
          request.write(piece);
          await new Promise((r) => setTimeout(r, 5));
        }
        request.end();
      })().catch(() => {});
    });

  it('takes a body sent in many chunks', async () => {
    const text = JSON.stringify(newOrder());
    const pieces = Array.from({ length: Math.ceil(text.length / 7) }, (_, i) => text.slice(i * 7, i * 7 + 7));
    expect(await chunked(pieces)).toBe(201);
  });

  it('answers 413 to a chunked body once it passes 64 KiB, without reading the rest', async () => {
    const text = JSON.stringify({ ...newOrder(), padding: 'x'.repeat(70 * 1024) });
    expect(await chunked(Array.from({ length: Math.ceil(text.length / 8192) }, (_, i) => text.slice(i * 8192, i * 8192 + 8192)))).toBe(413);
  });

  it('takes nothing from a request whose client went away mid-body: its key is still free', async () => {
    const key = randomUUID();
    await new Promise<void>((resolve) => {
      const { port } = new URL(service.url);
      const request = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/orders', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': '500', 'idempotency-key': key } });
      request.on('error', () => resolve());
      request.write(JSON.stringify(newOrder()).slice(0, 100));
      setTimeout(() => {
        request.destroy();
        resolve();
      }, 50);
    });
    const retried = await client(service, token)('POST', '/orders', { body: newOrder(), headers: { 'Idempotency-Key': key } });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });
});
