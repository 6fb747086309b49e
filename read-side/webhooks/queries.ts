// The webhook subscriptions' collection over the webhook-subscriptions projection: newest first,
// deleted ones left out, keyset paging with signed cursors. Subscriptions belong to no single
// customer: a customer token is refused whatever its scopes. A single subscription is read from
// its stream (WebhookService.get), always current, as every single resource is.
import { isStaff, type Viewer } from '../../write-side/kernel/access.js';
import { Forbidden } from '../../write-side/kernel/errors.js';
import { createdKeyOf, readCreatedKey, type CreatedKey, type KeysetCollection, type KeysetPages } from '../kernel/keyset-page.js';
import type { ViewPage } from '../kernel/page.js';
import type { PageQuery, ReadModelStore } from '../read-store.js';
import type { SubscriptionRepresentation, SubscriptionView } from './views.js';

const LISTED = ['active', 'paused', 'disabled'];

/** Subscriptions not deleted, by (createdAt, id) descending, strictly after `after`, at most `limit`. */
export function subscriptionPage(after: CreatedKey | null, limit: number): PageQuery {
  return {
    where: [{ field: 'status', op: 'in', values: LISTED }],
    order: { by: ['createdAt'], direction: 'desc' },
    after: after && { values: [after.createdAt], key: after.id },
    limit,
  };
}

export interface SubscriptionListRequest {
  readonly limit: number;
  readonly cursor?: string;
  readonly consistencyToken?: string;
}

export class WebhookSubscriptionQueries {
  constructor(
    private readonly store: ReadModelStore,
    private readonly pages: KeysetPages,
  ) {}

  async list(viewer: Viewer, request: SubscriptionListRequest): Promise<ViewPage<SubscriptionRepresentation>> {
    if (!isStaff(viewer)) throw new Forbidden('Webhook subscriptions belong to no single customer: a customer token cannot list them.');
    const collection: KeysetCollection<SubscriptionView, CreatedKey> = {
      scope: { collection: 'webhook-subscriptions' },
      readKey: readCreatedKey,
      keyOf: createdKeyOf,
      fetch: (after, count) => this.store.page<SubscriptionView>('webhook-subscriptions', subscriptionPage(after, count)),
    };
    return this.pages.page(request, collection, representation);
  }
}

/** The collection holds no deleted subscription, so every view it answers is one a client may see. */
function representation(view: SubscriptionView): SubscriptionRepresentation {
  if (view.status === 'deleted') throw new TypeError(`the collection answered deleted webhook subscription ${view.id}`);
  return { ...view, status: view.status };
}
