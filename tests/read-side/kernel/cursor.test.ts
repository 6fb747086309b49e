import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CursorCodec, InvalidCursor } from '../../../read-side/kernel/cursor.js';

const SECRET = 'cursor-test-secret';
const scope = { collection: 'orders', sort: '-createdAt', status: 'paid', customerId: undefined };
const key = { createdAt: '2026-11-22T10:00:00.000Z', id: '7c1d2f9e-3b4a-4c5d-8e6f-0a1b2c3d4e5f' };

/** A cursor as replicas made them before the scope left the payload: {s, k}, the payload alone signed. */
function legacyCursor(secret: string, canonicalScope: string, k: object): string {
  const payload = Buffer.from(JSON.stringify({ s: canonicalScope, k })).toString('base64url');
  return `${payload}.${createHmac('sha256', secret).update(payload).digest('base64url').slice(0, 22)}`;
}

describe('cursor codec', () => {
  const codec = new CursorCodec(SECRET);

  it('carries only the key: the filter and sort are bound by the signature, not sent along', () => {
    const cursor = codec.encode(scope, key);
    const [payload] = cursor.split('.');
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'))).toEqual(key);
    expect(codec.decode(cursor, { ...scope })).toEqual(key);
  });

  it('refuses the cursor for another filter or sort, and with its key altered', () => {
    const cursor = codec.encode(scope, key);
    expect(() => codec.decode(cursor, { ...scope, status: 'pending' })).toThrow(InvalidCursor);
    expect(() => codec.decode(cursor, { ...scope, customerId: 'cus_1' })).toThrow(InvalidCursor);
    expect(() => codec.decode(cursor, { ...scope, sort: 'createdAt' })).toThrow(InvalidCursor);
    const [, signature] = cursor.split('.');
    const altered = Buffer.from(JSON.stringify({ ...key, id: 'another' })).toString('base64url');
    expect(() => codec.decode(`${altered}.${signature}`, scope)).toThrow(InvalidCursor);
  });

  it('continues a cursor another replica issued with the same secret, and refuses one signed with another', () => {
    const cursor = new CursorCodec(SECRET).encode(scope, key);
    expect(codec.decode(cursor, scope)).toEqual(key);
    expect(() => codec.decode(new CursorCodec('another-secret').encode(scope, key), scope)).toThrow(InvalidCursor);
  });

  it('still continues a cursor issued before the scope left the payload (a replica not upgraded yet), for its own scope only', () => {
    const canonical = JSON.stringify([['collection', 'orders'], ['sort', '-createdAt'], ['status', 'paid']]);
    const cursor = legacyCursor(SECRET, canonical, key);
    expect(codec.decode(cursor, scope)).toEqual(key);
    expect(() => codec.decode(cursor, { ...scope, status: 'shipped' })).toThrow(InvalidCursor);
    expect(() => codec.decode(legacyCursor('another-secret', canonical, key), scope)).toThrow(InvalidCursor);
  });
});
