// The returns of every order, as the `returns` projection keeps them (one view per return), and
// their collection: GET /returns, oldest first, of one status or all. A list across customers:
// staff only, as the fulfilment queue is (a customer reads its returns on its own orders).
import { isStaff, type Viewer } from '../../write-side/kernel/access.js';
import { Forbidden } from '../../write-side/kernel/errors.js';
import type { Return, ReturnStatus } from '../../write-side/orders/types.js';
import { createdKeyOf, readCreatedKey, type CreatedKey, type KeysetCollection, type KeysetPages } from '../kernel/keyset-page.js';
import type { ViewPage } from '../kernel/page.js';
import type { Condition, PageQuery, ReadModelStore } from '../read-store.js';

/** A return as its order holds it, with the order it belongs to and the order stream's revision it reflects. */
export type ReturnView = Return & { readonly orderId: string; readonly revision: number };

/** A return's HTTP representation (HTTP-CONTRACT "Orders after payment"), members in the documented order. */
export interface ReturnRepresentation {
  readonly id: string;
  readonly orderId: string;
  readonly status: ReturnStatus;
  readonly lines: Return['lines'];
  readonly reason: string;
  readonly received: Return['received'];
  readonly createdAt: string;
  readonly updatedAt: string;
}

export function returnRepresentation(orderId: string, ret: Return): ReturnRepresentation {
  const { id, status, lines, reason, received, createdAt, updatedAt } = ret;
  return { id, orderId, status, lines, reason, received, createdAt, updatedAt };
}

/** The returns of a status (or all), oldest request first: the conditions an index serves (status, then createdAt). */
export function returnConditions(status: ReturnStatus | undefined): Condition[] {
  return status === undefined ? [] : [{ field: 'status', op: '=', value: status }];
}

/** Returns by (createdAt, id) ascending, strictly after `after`, at most `limit`. */
export function returnPage(status: ReturnStatus | undefined, after: CreatedKey | null, limit: number): PageQuery {
  return { where: returnConditions(status), order: { by: ['createdAt'], direction: 'asc' }, after: after && { values: [after.createdAt], key: after.id }, limit };
}

export interface ReturnListRequest {
  readonly status?: ReturnStatus;
  readonly limit: number;
  readonly cursor?: string;
  readonly consistencyToken?: string;
}

export class ReturnQueries {
  constructor(
    private readonly store: ReadModelStore,
    private readonly pages: KeysetPages,
  ) {}

  async list(viewer: Viewer, request: ReturnListRequest): Promise<ViewPage<ReturnRepresentation>> {
    if (!isStaff(viewer)) throw new Forbidden("The returns of every order belong to no single customer: a customer token reads its own on its orders (GET /orders/{id}/returns).");
    const { status } = request;
    const collection: KeysetCollection<ReturnView, CreatedKey> = {
      scope: { collection: 'returns', status },
      readKey: readCreatedKey,
      keyOf: createdKeyOf,
      fetch: (after, count) => this.store.page<ReturnView>('returns', returnPage(status, after, count)),
    };
    return this.pages.page(request, collection, (view) => returnRepresentation(view.orderId, view));
  }
}
