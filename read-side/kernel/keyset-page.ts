// One page of a keyset-paged collection, the way every collection but the orders' is paged: the
// limit checked, the read model brought up to the client's Consistency-Token, the cursor's key
// read back (its HMAC binds it to the collection's filter and sort, its `scope`), one row more
// than the limit fetched to know whether a next page exists, and the next cursor made from the
// last row's key. The orders' collection does the same steps in its own hot path (order-queries.ts).
import type { Consistency } from './consistency.js';
import { CursorCodec, InvalidCursor, type Scope } from './cursor.js';
import { assertLimit, type ViewPage } from './page.js';

export interface PageRequest {
  readonly limit: number;
  readonly cursor?: string;
  readonly consistencyToken?: string;
}

export interface KeysetCollection<Row, Key extends Readonly<Record<string, string>>> {
  /** What a cursor is bound to: the collection's name and each filter and sort of the request. */
  readonly scope: Scope;
  /** The key in a decoded cursor, or null when the cursor does not hold one of this collection's keys. */
  readonly readKey: (decoded: Record<string, unknown>) => Key | null;
  /** The key of a row, from which the next page starts. */
  readonly keyOf: (row: Row) => Key;
  /** Up to `count` rows after `after` (from the start when null), in the collection's order. */
  readonly fetch: (after: Key | null, count: number) => Promise<readonly Row[]>;
}

export class KeysetPages {
  constructor(
    private readonly cursors: CursorCodec,
    private readonly consistency: Consistency,
  ) {}

  async page<Row, Key extends Readonly<Record<string, string>>, Item>(
    request: PageRequest,
    collection: KeysetCollection<Row, Key>,
    represent: (row: Row) => Item,
  ): Promise<ViewPage<Item>> {
    assertLimit(request.limit);
    const reflects = await this.consistency.reflect(request.consistencyToken);
    let after: Key | null = null;
    if (request.cursor !== undefined) {
      after = collection.readKey(this.cursors.decode(request.cursor, collection.scope));
      if (after === null) throw new InvalidCursor('undecodable');
    }
    const rows = await collection.fetch(after, request.limit + 1);
    const shown = rows.slice(0, request.limit);
    const last = shown.at(-1);
    const nextCursor = rows.length > request.limit && last !== undefined ? this.cursors.encode(collection.scope, collection.keyOf(last)) : null;
    return { items: shown.map(represent), nextCursor, reflects };
  }
}

/** The key of the collections newest first with the id as tie-breaker (customers, accounts). */
export type CreatedKey = { readonly createdAt: string; readonly id: string };

export function readCreatedKey(decoded: Record<string, unknown>): CreatedKey | null {
  return typeof decoded.createdAt === 'string' && typeof decoded.id === 'string' ? { createdAt: decoded.createdAt, id: decoded.id } : null;
}

export const createdKeyOf = (row: CreatedKey): CreatedKey => ({ createdAt: row.createdAt, id: row.id });
