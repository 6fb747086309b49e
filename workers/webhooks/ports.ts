// The delivery worker's ports, made of the service's own parts (the composition root's): the
// active subscriptions from their read model (each beginning at its creation's log position), the
// secrets and disabling from their use cases, the messages of messages.ts, the delivery log's use
// cases and read model, the sender with WEBHOOK_ALLOWED_HOSTS bound, and the replay jobs from the
// jobs' read model and use cases.
import { openJobs } from '../../read-side/jobs/queries.js';
import { decodeJobEvent, JOB_STREAM_PREFIX } from '../../write-side/jobs/codec.js';
import type { JobService } from '../../write-side/jobs/service.js';
import { StateConflict } from '../../write-side/kernel/errors.js';
import type { WebhookDeliveryQueries, WebhookSubscriptionQueries } from '../../read-side/webhooks/queries.js';
import type { DeliveryView } from '../../read-side/webhooks/views.js';
import type { ReadModelStore } from '../../read-side/read-store.js';
import { serviceViewer } from '../../write-side/kernel/access.js';
import type { EventStore, Position, RecordedEvent } from '../../write-side/kernel/event-store.js';
import { decodeDeliveryEvent, subscriptionStream, WEBHOOK_DELIVERY_STREAM_PREFIX } from '../../write-side/webhooks/codec.js';
import type { WebhookDeliveryService } from '../../write-side/webhooks/deliveries.js';
import { deliveryIdOf, type AttemptReport } from '../../write-side/webhooks/delivery-log.js';
import type { WebhookService } from '../../write-side/webhooks/service.js';
import { subscriptionsPortOf, type DeliveryLogPort, type DeliveryState, type DeliveryWorkerPorts, type ReplayJobsPort } from './delivery-worker.js';
import { buildMessage, webhookEventOf, type MessageReaders } from './messages.js';
import { Connections, send } from './sender.js';

const RECORDER = 'service:webhook-delivery';

export interface DeliveryWorkerParts {
  readonly eventStore: EventStore;
  readonly readModels: ReadModelStore;
  readonly subscriptions: WebhookService;
  readonly subscriptionQueries: WebhookSubscriptionQueries;
  readonly deliveries: WebhookDeliveryService;
  readonly deliveryQueries: WebhookDeliveryQueries;
  readonly readers: MessageReaders;
  readonly allowedHosts: readonly string[];
  /** The jobs' use cases: replays are jobs. */
  readonly jobs: JobService;
}

/** Open replays the worker looks at, at each refresh. */
const OPEN_REPLAYS = 100;

/** The replay jobs: the open ones from the jobs' read model, their lifecycle through JobService. */
export function replayJobsPort(jobs: JobService, readModels: ReadModelStore, subscriptions: WebhookService): ReplayJobsPort {
  const viewer = serviceViewer(RECORDER);
  return {
    async open() {
      return (await openJobs(readModels, 'webhook-replay', OPEN_REPLAYS)).map(({ id, subscriptionId, from, to, status, lease }) => ({
        id, subscriptionId, from, to, status: status === 'running' ? 'running' : 'queued', lease,
      }));
    },
    async start(jobId, holder, leaseMs) {
      try {
        const { state } = await jobs.start(jobId, holder, leaseMs);
        // Given up after too many attempts: it failed, and is not this holder's.
        return state.status === 'running' && state.lease?.workerId === holder;
      } catch (error) {
        if (error instanceof StateConflict) return false;
        throw error;
      }
    },
    progress: async (jobId, holder, processed, total, leaseMs) => void (await jobs.progress(jobId, holder, processed, total, leaseMs)),
    complete: async (jobId, holder, count) => void (await jobs.complete(jobId, holder, { count })),
    failDeleted: async (jobId, holder) =>
      void (await jobs.fail(jobId, holder, { code: 'subscription-deleted', detail: 'The subscription was deleted: nothing more is sent to it.' })),
    subscriptionGone: async (subscriptionId) => (await subscriptions.get(viewer, subscriptionId)) === null,
    requestStreams: [JOB_STREAM_PREFIX],
    requestedIn(recorded) {
      if (recorded.type !== 'WebhookReplayRequested' || !recorded.streamName.startsWith(JOB_STREAM_PREFIX)) return null;
      const event = decodeJobEvent(recorded);
      if (event.type !== 'WebhookReplayRequested') return null;
      const { jobId: id, subscriptionId, from, to } = event.data;
      return { id, subscriptionId, from, to, status: 'queued', lease: null };
    },
  };
}

export function deliveryWorkerPorts(parts: DeliveryWorkerParts): DeliveryWorkerPorts {
  const { eventStore, readModels } = parts;
  // Where a subscription begins: the position of its creation, read once per subscription.
  const beginnings = new Map<string, Position | null>();
  const beginning = async (id: string): Promise<Position | null> => {
    if (!beginnings.has(id)) beginnings.set(id, (await eventStore.readStream(subscriptionStream(id), { toRevision: 0 })).at(0)?.position ?? null);
    return beginnings.get(id)!;
  };
  const activeSubscriptions = async () =>
    Promise.all((await parts.subscriptionQueries.active()).map(async (view) => ({ id: view.id, url: view.url, events: view.events, apiVersion: view.apiVersion, from: await beginning(view.id) })));
  const recorder = serviceViewer(RECORDER);
  const deliveries: DeliveryLogPort = {
    deliveryIdOf,
    // The attempts' types are webhookEventOf's (messages.ts), the contract's event types.
    recordAttempts: (subscriptionId, attempts, context, failingSince) =>
      parts.deliveries.recordAttempts(recorder, subscriptionId, attempts as readonly AttemptReport[], context, failingSince),
    // What the last flush said: the 3 days before a failing subscription is disabled count across restarts.
    failingSince: (subscriptionId) => parts.deliveries.failingSince(subscriptionId),
    retryRequestOf(recorded: RecordedEvent) {
      if (!recorded.streamName.startsWith(WEBHOOK_DELIVERY_STREAM_PREFIX) || recorded.type !== 'WebhookDeliveryRetryRequested') return null;
      const event = decodeDeliveryEvent(recorded);
      if (event.type !== 'WebhookDeliveryRetryRequested') return null;
      const { subscriptionId, deliveryId, eventId, eventPosition, type, resource, jobId } = event.data;
      return { subscriptionId, deliveryId, eventId, eventPosition: eventPosition as Position, type, resource, ...(jobId ? { jobId } : {}) };
    },
    // What the delivery log's read model holds of them: a delivery taken again after a restart
    // goes on with its schedule, or, final already, is not sent again.
    async states(_subscriptionId, deliveryIds) {
      const views = await readModels.find<DeliveryView>('webhook-deliveries', deliveryIds);
      return new Map([...views].map(([id, view]): [string, DeliveryState] => [id, {
        outcome: view.status === 'pending' ? 'retrying' : view.status,
        attempts: view.attemptCount,
        firstAttemptAt: view.createdAt,
        lastAttemptAt: view.attempts.at(-1)?.at ?? view.updatedAt,
        nextAttemptAt: view.nextAttemptAt,
      }]));
    },
  };
  // One pool of kept-alive connections for the worker's messages (sender.ts).
  const connections = new Connections();
  return {
    log: eventStore,
    process: readModels,
    subscriptions: subscriptionsPortOf(parts.subscriptions, activeSubscriptions),
    messages: { webhookEventOf, buildMessage: (ref, recorded, apiVersion) => buildMessage(ref as Parameters<typeof buildMessage>[0], recorded, apiVersion, parts.readers) },
    deliveries,
    send: (target, message) => send(target, message, { allowedHosts: parts.allowedHosts, connections }),
    replays: replayJobsPort(parts.jobs, readModels, parts.subscriptions),
  };
}
