// Opaque, tamper-evident cursors for keyset paging: the last item's sort key, signed with
// HMAC-SHA256 together with the filter and sort the page came from. The filter and sort are
// not carried in the cursor (the request names them again), only bound by the signature, which
// keeps a cursor short: it travels twice in every page (the body and Link). A cursor used with
// any other filter or sort, altered, or made up is refused.
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { InvalidCursor } from '../../write-side/kernel/errors.js';

export { InvalidCursor };

export const MAX_CURSOR_LENGTH = 1024;

export type Scope = Readonly<Record<string, string | number | undefined>>;

export class CursorCodec {
  /** Imported once: given the raw secret, createHmac would import it again for every cursor. */
  private readonly key: KeyObject;
  /**
   * Cursors this codec issued lately, with their scope and key: a client paging on asks for the
   * next page with the cursor of the last one, and a cursor found here needs no signature check,
   * since only this codec put it there.
   */
  private readonly issued = new LRUCache<string, { readonly bound: string; readonly key: Readonly<Record<string, string>> }>({ max: 10_000 });
  /**
   * The same cursors by what they sign (scope and payload): every client listing the same filter
   * gets the same cursor after the same page (all of them after the first), which is signed once.
   */
  private readonly signed = new LRUCache<string, string>({ max: 10_000 });

  constructor(secret: string | Buffer) {
    this.key = createSecretKey(typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret);
  }

  encode(scope: Scope, key: Readonly<Record<string, string>>): string {
    const bound = canonical(scope);
    const payload = Buffer.from(JSON.stringify(key)).toString('base64url');
    const signing = `${bound}\n${payload}`;
    let cursor = this.signed.get(signing);
    if (cursor === undefined) {
      cursor = `${payload}.${this.sign(bound, payload)}`;
      this.signed.set(signing, cursor);
      this.issued.set(cursor, { bound, key });
    }
    return cursor;
  }

  /** The key inside the cursor, as long as it is authentic and was issued for this scope. */
  decode(cursor: string, scope: Scope): Record<string, unknown> {
    if (cursor.length > MAX_CURSOR_LENGTH) throw new InvalidCursor('too long');
    const bound = canonical(scope);
    const issued = this.issued.get(cursor);
    if (issued?.bound === bound) return { ...issued.key };
    const [payload, signature, ...rest] = cursor.split('.');
    if (!payload || !signature || rest.length > 0) throw new InvalidCursor('malformed');
    let decoded = this.verified(signature, this.sign(bound, payload)) ? parse(payload) : undefined;
    // Issued before cursors left their scope out (by a replica not upgraded yet): {s: scope, k: key}, the payload alone signed.
    if (decoded === undefined && this.verified(signature, this.sign('', payload))) {
      const legacy = parse(payload) as { s?: unknown; k?: unknown } | null;
      if (legacy?.s !== bound) throw new InvalidCursor('it belongs to another filter or sort');
      decoded = legacy.k;
    }
    if (decoded === undefined) throw new InvalidCursor('it was altered, or belongs to another filter or sort');
    if (typeof decoded !== 'object' || decoded === null) throw new InvalidCursor('undecodable');
    return decoded as Record<string, unknown>;
  }

  /** An empty scope signs the payload alone, as cursors did before: no canonical scope is empty. */
  private sign(scope: string, payload: string): string {
    const hmac = createHmac('sha256', this.key);
    if (scope !== '') hmac.update(scope).update('\n');
    return hmac.update(payload).digest('base64url').slice(0, 22);
  }

  private verified(given: string, expected: string): boolean {
    const a = Buffer.from(given);
    const b = Buffer.from(expected);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}

/** The payload's JSON; undefined when it is none. */
function parse(payload: string): unknown {
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The scope's members that are set, as [name, value] pairs by name, in JSON: the same text however the scope was built. */
function canonical(scope: Scope): string {
  let pairs = '';
  for (const name of Object.keys(scope).sort()) {
    const value = scope[name];
    if (value !== undefined) pairs += `${pairs === '' ? '' : ','}[${JSON.stringify(name)},${JSON.stringify(value)}]`;
  }
  return `[${pairs}]`;
}
