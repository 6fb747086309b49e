// The accounts collection, from the `accounts` projection: newest first, keyset paged. Accounts
// belong to no single customer, so a customer's token lists none.
import { isStaff, type Viewer } from '../../write-side/kernel/access.js';
import { Forbidden } from '../../write-side/kernel/errors.js';
import { createdKeyOf, type KeysetPages, readCreatedKey, type CreatedKey, type KeysetCollection, type PageRequest } from '../kernel/keyset-page.js';
import type { ViewPage } from '../kernel/page.js';
import type { PageQuery, ReadModelStore } from '../read-store.js';
import type { AccountView } from './views.js';

/** Accounts by (createdAt, id) descending, newest first, strictly after `after`, at most `limit`. */
export function accountPage(after: CreatedKey | null, limit: number): PageQuery {
  return { order: { by: ['createdAt'], direction: 'desc' }, after: after && { values: [after.createdAt], key: after.id }, limit };
}

export class AccountQueries {
  constructor(
    private readonly store: ReadModelStore,
    private readonly pages: KeysetPages,
  ) {}

  async list(viewer: Viewer, request: PageRequest): Promise<ViewPage<AccountView>> {
    if (!isStaff(viewer)) throw new Forbidden('Accounts belong to no single customer: a customer token cannot list them.');
    const collection: KeysetCollection<AccountView, CreatedKey> = {
      scope: { collection: 'accounts' },
      readKey: readCreatedKey,
      keyOf: createdKeyOf,
      fetch: (after, count) => this.store.page<AccountView>('accounts', accountPage(after, count)),
    };
    return this.pages.page(request, collection, (view) => view);
  }
}
