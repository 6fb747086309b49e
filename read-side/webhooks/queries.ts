// The webhook subscriptions' collection over the webhook-subscriptions projection: newest first,
// deleted ones left out, keyset paging with signed cursors; and a subscription's deliveries over
// the webhook-deliveries projection, newest first, of one status or all. Subscriptions belong to
// no single customer: a customer token is refused whatever its scopes. A single subscription is
// read from its stream (WebhookService.get), always current, as every single resource is.
import { isStaff, type Viewer } from '../../write-side/kernel/access.js';
import { Forbidden } from '../../write-side/kernel/errors.js';
import type { DeliveredEvent } from '../../write-side/webhooks/delivery-log.js';
import { SubscriptionNotFound } from '../../write-side/webhooks/rules.js';
import type { DeliveryStatus } from '../../write-side/webhooks/types.js';
import { createdKeyOf, readCreatedKey, type CreatedKey, type KeysetCollection, type KeysetPages } from '../kernel/keyset-page.js';
import type { ViewPage } from '../kernel/page.js';
import type { PageQuery, ReadModelStore } from '../read-store.js';
import { deliveryRepresentation, type DeliveryRepresentation, type DeliveryView, type SubscriptionRepresentation, type SubscriptionView } from './views.js';

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

  /** Every active subscription, oldest first (the delivery worker's list: it reads them all, a page of 500 at a time). */
  async active(): Promise<SubscriptionView[]> {
    const all: SubscriptionView[] = [];
    for (let after: SubscriptionView | undefined; ; ) {
      const page = await this.store.page<SubscriptionView>('webhook-subscriptions', {
        where: [{ field: 'status', op: '=', value: 'active' }],
        order: { by: ['createdAt'], direction: 'asc' },
        after: after ? { values: [after.createdAt], key: after.id } : null,
        limit: 500,
      });
      all.push(...page);
      if (page.length < 500) return all;
      after = page.at(-1);
    }
  }
}

/** The collection holds no deleted subscription, so every view it answers is one a client may see. */
function representation(view: SubscriptionView): SubscriptionRepresentation {
  if (view.status === 'deleted') throw new TypeError(`the collection answered deleted webhook subscription ${view.id}`);
  return { ...view, status: view.status };
}

/** A subscription's deliveries (of one status or all, of one replay or all), by (createdAt, id) descending, strictly after `after`, at most `limit`. */
export function deliveryPage(subscriptionId: string, filter: { readonly status?: DeliveryStatus | undefined; readonly jobId?: string | undefined }, after: CreatedKey | null, limit: number): PageQuery {
  const { status, jobId } = filter;
  return {
    where: [
      { field: 'subscriptionId', op: '=', value: subscriptionId },
      ...(status === undefined ? [] : [{ field: 'status', op: '=' as const, value: status }]),
      ...(jobId === undefined ? [] : [{ field: 'jobId', op: '=' as const, value: jobId }]),
    ],
    order: { by: ['createdAt'], direction: 'desc' },
    after: after && { values: [after.createdAt], key: after.id },
    limit,
  };
}

export interface DeliveryListRequest {
  readonly status?: DeliveryStatus;
  /** Only the deliveries of this replay (its job's id). */
  readonly jobId?: string;
  readonly limit: number;
  readonly cursor?: string;
  readonly consistencyToken?: string;
}

export interface WebhookDeliveryQueriesOptions {
  /** Whether the subscription exists and is not deleted, as its stream says now (WebhookDeliveryService.isLive): its deliveries are 404 otherwise. */
  readonly isLive: (subscriptionId: string) => Promise<boolean>;
}

export class WebhookDeliveryQueries {
  constructor(
    private readonly store: ReadModelStore,
    private readonly pages: KeysetPages,
    private readonly options: WebhookDeliveryQueriesOptions,
  ) {}

  /** The subscription's deliveries, newest first (by their first attempt or retry request); an unknown or deleted subscription is SubscriptionNotFound. */
  async list(viewer: Viewer, subscriptionId: string, request: DeliveryListRequest): Promise<ViewPage<DeliveryRepresentation>> {
    if (!isStaff(viewer)) throw new Forbidden('Webhook deliveries belong to no single customer: a customer token cannot list them.');
    if (!(await this.options.isLive(subscriptionId))) throw new SubscriptionNotFound(subscriptionId);
    const { status, jobId } = request;
    const collection: KeysetCollection<DeliveryView, CreatedKey> = {
      scope: { collection: 'webhook-deliveries', subscriptionId, status, jobId },
      readKey: readCreatedKey,
      keyOf: createdKeyOf,
      fetch: (after, count) => this.store.page<DeliveryView>('webhook-deliveries', deliveryPage(subscriptionId, { status, jobId }, after, count)),
    };
    return this.pages.page(request, collection, deliveryRepresentation);
  }

  /** The event a delivery sends, for a retry (the write side's DeliveryLookup); null when the read model holds no such delivery. */
  async delivery(deliveryId: string): Promise<DeliveredEvent | null> {
    const view = (await this.store.find<DeliveryView>('webhook-deliveries', [deliveryId])).get(deliveryId);
    if (!view) return null;
    const { id, subscriptionId, eventId, eventPosition, type, resource, jobId } = view;
    return { id, subscriptionId, eventId, eventPosition, type, resource, jobId };
  }
}
