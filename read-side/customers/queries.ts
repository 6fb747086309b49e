// The customers' collection over the customers projection: newest first, an exact email filter
// (case-insensitive), keyset paging with signed cursors. The list of customers belongs to no
// single customer: staff only, a customer token reads its own record by id.
import { isStaff, type Viewer } from '../../write-side/kernel/access.js';
import { Forbidden } from '../../write-side/kernel/errors.js';
import { normalizeValue } from '../../write-side/kernel/unique-values.js';
import { createdKeyOf, type KeysetPages, readCreatedKey, type CreatedKey, type KeysetCollection } from '../kernel/keyset-page.js';
import type { ViewPage } from '../kernel/page.js';
import type { PageQuery, ReadModelStore } from '../read-store.js';
import { customerRepresentation, type CustomerRepresentation, type CustomerView } from './views.js';

/** Customers by (createdAt, id) descending, newest first, strictly after `after`, at most `limit`; with `emailKey`, only the customer whose email key it is. */
export function customerPage(emailKey: string | undefined, after: CreatedKey | null, limit: number): PageQuery {
  return {
    where: emailKey === undefined ? [] : [{ field: 'emailKey', op: '=', value: emailKey }],
    order: { by: ['createdAt'], direction: 'desc' },
    after: after && { values: [after.createdAt], key: after.id },
    limit,
  };
}

export interface CustomerListRequest {
  readonly email?: string;
  readonly limit: number;
  readonly cursor?: string;
  readonly consistencyToken?: string;
}

export class CustomerQueries {
  constructor(
    private readonly store: ReadModelStore,
    private readonly pages: KeysetPages,
  ) {}

  async list(viewer: Viewer, request: CustomerListRequest): Promise<ViewPage<CustomerRepresentation>> {
    if (!isStaff(viewer)) throw new Forbidden('The list of customers belongs to no single customer: a customer token reads its own record at /customers/{id}.');
    const emailKey = request.email === undefined ? undefined : normalizeValue(request.email);
    const collection: KeysetCollection<CustomerView, CreatedKey> = {
      scope: { collection: 'customers', email: emailKey },
      readKey: readCreatedKey,
      keyOf: createdKeyOf,
      fetch: (after, count) => this.store.page<CustomerView>('customers', customerPage(emailKey, after, count)),
    };
    return this.pages.page(request, collection, customerRepresentation);
  }
}
