// Opaque, tamper-evident cursors for keyset paging: the last item's sort key plus the filter
// and sort the page came from, signed with HMAC-SHA256. A cursor used with any other filter
// or sort, altered, or made up is refused.
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { InvalidCursor } from '../write-side/errors.js';

export { InvalidCursor };

export const MAX_CURSOR_LENGTH = 1024;

type Scope = Readonly<Record<string, string | number | undefined>>;

export class CursorCodec {
  /** Imported once: given the raw secret, createHmac would import it again for every cursor. */
  private readonly key: KeyObject;

  constructor(secret: string | Buffer) {
    this.key = createSecretKey(typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret);
  }

  encode(scope: Scope, key: Readonly<Record<string, string>>): string {
    const payload = Buffer.from(JSON.stringify({ s: canonical(scope), k: key })).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /** The key inside the cursor, as long as it is authentic and was issued for this scope. */
  decode(cursor: string, scope: Scope): Record<string, unknown> {
    if (cursor.length > MAX_CURSOR_LENGTH) throw new InvalidCursor('too long');
    const [payload, signature, ...rest] = cursor.split('.');
    if (!payload || !signature || rest.length > 0) throw new InvalidCursor('malformed');
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new InvalidCursor('bad signature');
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw new InvalidCursor('undecodable');
    }
    const { s, k } = (decoded ?? {}) as { s?: unknown; k?: unknown };
    if (s !== canonical(scope)) throw new InvalidCursor('it belongs to another filter or sort');
    if (typeof k !== 'object' || k === null) throw new InvalidCursor('undecodable');
    return k as Record<string, unknown>;
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url').slice(0, 22);
  }
}

function canonical(scope: Scope): string {
  return JSON.stringify(Object.keys(scope).sort().filter((k) => scope[k] !== undefined).map((k) => [k, scope[k]]));
}
