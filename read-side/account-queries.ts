// The accounts collection, from the `accounts` projection: newest first, keyset paged. Accounts
// belong to no single customer, so a customer's token lists none.
import { isStaff, type Viewer } from '../write-side/access.js';
import { Forbidden } from '../write-side/errors.js';
import type { Consistency } from './consistency.js';
import { CursorCodec, InvalidCursor } from './cursor.js';
import { MAX_LIMIT, type ViewPage } from './order-queries.js';
import type { ReadModelStore } from './read-store.js';
import type { AccountView } from './views.js';

export class AccountQueries {
  constructor(
    private readonly store: ReadModelStore,
    private readonly cursors: CursorCodec,
    private readonly consistency: Consistency,
  ) {}

  async list(viewer: Viewer, request: { limit: number; cursor?: string; consistencyToken?: string }): Promise<ViewPage<AccountView>> {
    if (!isStaff(viewer)) throw new Forbidden('Accounts belong to no single customer: a customer token cannot list them.');
    const { limit } = request;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new RangeError(`limit must be an integer from 1 to ${MAX_LIMIT}`);
    const reflects = await this.consistency.reflect(request.consistencyToken);
    const scope = { collection: 'accounts' };
    let after = null;
    if (request.cursor !== undefined) {
      const key = this.cursors.decode(request.cursor, scope);
      if (typeof key.createdAt !== 'string' || typeof key.id !== 'string') throw new InvalidCursor('undecodable');
      after = { createdAt: key.createdAt, id: key.id };
    }
    const rows = await this.store.listAccounts(after, limit + 1);
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    const nextCursor = rows.length > limit && last ? this.cursors.encode(scope, { createdAt: last.createdAt, id: last.id }) : null;
    return { items, nextCursor, reflects };
  }
}
