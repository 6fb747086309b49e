// The delivery log's use cases: the delivery worker records what its attempts came to, and an
// admin asks for a delivery to be attempted again at once. Both append facts to the
// subscription's delivery log (`webhook-deliveries-<id>`) with any expected revision: an attempt
// or a request does not depend on what the log held before it, so no command reads the log
// (which grows with every attempt). A retry needs the delivery's event, which it reads from the
// deliveries' read model through the port it is given (what an admin retries is a delivery the
// page showed). Deliveries belong to no single customer: a customer token is refused.
import { isStaff, type Viewer } from '../kernel/access.js';
import { Forbidden } from '../kernel/errors.js';
import type { EventStore, Position } from '../kernel/event-store.js';
import type { WriteContext } from '../kernel/write-context.js';
import { decodeDeliveryEvent, decodeWebhookEvent, deliveryStream, encodeDeliveryEvent, subscriptionStream } from './codec.js';
import { subscriptionDecider } from './decider.js';
import { attemptsRecorded, failingSinceOf, retryRequested, type AttemptReport, type DeliveredEvent } from './delivery-log.js';
import { DeliveryNotFound, SubscriptionNotFound } from './rules.js';
import { isLive, type WebhookDeliveryEvent } from './types.js';

/** Where a delivery's event is found (the deliveries' read model, wired by the composition root); null when unknown. */
export interface DeliveryLookup {
  find(deliveryId: string): Promise<DeliveredEvent | null>;
}

export interface WebhookDeliveryServiceOptions {
  readonly deliveries: DeliveryLookup;
  readonly clock?: () => Date;
}

/** Where an append left the delivery log: its revision, and the log position (a Consistency-Token). */
export interface Appended {
  readonly revision: number;
  readonly position: Position;
}

export class WebhookDeliveryService {
  private readonly deliveries: DeliveryLookup;
  private readonly clock: () => Date;

  constructor(
    private readonly store: EventStore,
    options: WebhookDeliveryServiceOptions,
  ) {
    this.deliveries = options.deliveries;
    this.clock = options.clock ?? (() => new Date());
  }

  /**
   * For the delivery worker (a service principal): one flush of attempts, of any deliveries of the
   * subscription, recorded as one event. It refuses nothing but an empty list: the attempts were made.
   */
  async recordAttempts(viewer: Viewer, subscriptionId: string, attempts: readonly AttemptReport[], context: WriteContext, failingSince?: string | null): Promise<Appended> {
    refuseCustomers(viewer);
    return this.append(viewer, subscriptionId, attemptsRecorded(subscriptionId, attempts, failingSince), context);
  }

  /**
   * For the delivery worker at a subscription's start: since when it has failed, as its delivery
   * log's last flush says (one read of the stream's last event); null when unknown or not failing.
   */
  async failingSince(subscriptionId: string): Promise<Date | null> {
    const last = await this.store.readLastEvent(deliveryStream(subscriptionId));
    const since = failingSinceOf(last && decodeDeliveryEvent(last));
    return since === null ? null : new Date(since);
  }

  /**
   * An admin's request that the delivery be attempted again at once, whatever its status (a pending
   * one is then attempted now, not at its next attempt's time). An unknown or deleted subscription,
   * and a delivery unknown or of another subscription, are 404, and nothing is written.
   */
  async requestRetry(viewer: Viewer, subscriptionId: string, deliveryId: string, context: WriteContext): Promise<Appended & { readonly requestedAt: string }> {
    refuseCustomers(viewer);
    if (!(await this.isLive(subscriptionId))) throw new SubscriptionNotFound(subscriptionId);
    const delivery = await this.deliveries.find(deliveryId);
    if (!delivery || delivery.subscriptionId !== subscriptionId) throw new DeliveryNotFound(deliveryId);
    const requestedAt = this.clock().toISOString();
    return { ...(await this.append(viewer, subscriptionId, retryRequested(delivery, requestedAt), context)), requestedAt };
  }

  /** Whether the subscription exists and is not deleted, as its stream says now (the delivery page's 404). */
  async isLive(subscriptionId: string): Promise<boolean> {
    const events = await this.store.readStream(subscriptionStream(subscriptionId));
    return isLive(events.reduce((state, recorded) => subscriptionDecider.evolve(state, decodeWebhookEvent(recorded)), subscriptionDecider.initialState()));
  }

  private async append(viewer: Viewer, subscriptionId: string, event: WebhookDeliveryEvent, context: WriteContext): Promise<Appended> {
    const metadata = { correlationId: context.correlationId, causationId: context.causationId ?? null, principal: viewer.sub };
    const { nextRevision, position } = await this.store.appendToStream(deliveryStream(subscriptionId), [encodeDeliveryEvent(event, metadata)], 'any');
    return { revision: nextRevision, position };
  }
}

function refuseCustomers(viewer: Viewer): void {
  if (!isStaff(viewer)) throw new Forbidden('Webhook deliveries belong to no single customer: a customer token cannot see or retry them.');
}
