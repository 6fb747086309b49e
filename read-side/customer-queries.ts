// The customers' collection over the customers projection: newest first, an exact email filter
// (case-insensitive), keyset paging with signed cursors. The list of customers belongs to no
// single customer: staff only, a customer token reads its own record by id.
import { isStaff, type Viewer } from '../write-side/access.js';
import { Forbidden } from '../write-side/errors.js';
import { normalizeValue } from '../write-side/unique-values.js';
import type { Consistency } from './consistency.js';
import { CursorCodec, InvalidCursor } from './cursor.js';
import { MAX_LIMIT, type ViewPage } from './order-queries.js';
import type { ReadModelStore } from './read-store.js';
import { customerRepresentation, type CustomerRepresentation } from './views.js';

export interface CustomerListRequest {
  readonly email?: string;
  readonly limit: number;
  readonly cursor?: string;
  readonly consistencyToken?: string;
}

export class CustomerQueries {
  constructor(
    private readonly store: ReadModelStore,
    private readonly cursors: CursorCodec,
    private readonly consistency: Consistency,
  ) {}

  async list(viewer: Viewer, request: CustomerListRequest): Promise<ViewPage<CustomerRepresentation>> {
    if (!isStaff(viewer)) throw new Forbidden('The list of customers belongs to no single customer: a customer token reads its own record at /customers/{id}.');
    const { limit } = request;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new RangeError(`limit must be an integer from 1 to ${MAX_LIMIT}`);
    const reflects = await this.consistency.reflect(request.consistencyToken);
    const emailKey = request.email === undefined ? undefined : normalizeValue(request.email);
    const scope = { collection: 'customers', email: emailKey };
    let after = null;
    if (request.cursor !== undefined) {
      const key = this.cursors.decode(request.cursor, scope);
      if (typeof key.createdAt !== 'string' || typeof key.id !== 'string') throw new InvalidCursor('undecodable');
      after = { createdAt: key.createdAt, id: key.id };
    }
    const rows = await this.store.listCustomers(emailKey === undefined ? {} : { emailKey }, after, limit + 1);
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    const nextCursor = rows.length > limit && last ? this.cursors.encode(scope, { createdAt: last.createdAt, id: last.id }) : null;
    return { items: items.map(customerRepresentation), nextCursor, reflects };
  }
}
