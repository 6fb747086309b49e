// Wiring: picks the adapters the config names and opens them. The only module that imports adapters.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { checkpointProgress } from '../projections/checkpoint-progress.js';
import { streamPrefixesOf } from '../projections/projection.js';
import { Projector, type ProjectionProgress } from '../projections/projector.js';
import { ProjectorLease } from '../projections/projector-lease.js';
import { firstFailing, Readiness } from '../projections/readiness.js';
import { perProjection, PROJECTIONS, READ_STORAGE, type ProjectionName } from '../projections/registry.js';
import { startWebhookThread } from './webhook-thread.js';
import { startProjectorThread } from './projector-thread.js';
import { AccountQueries } from '../read-side/accounts/queries.js';
import { KeysetPages } from '../read-side/kernel/keyset-page.js';
import { MongoReadStore } from '../read-side/adapters/mongo-read-store.js';
import { SqliteReadStore } from '../read-side/adapters/sqlite-read-store.js';
import { Consistency, consistencyOn } from '../read-side/kernel/consistency.js';
import { CursorCodec } from '../read-side/kernel/cursor.js';
import { OrderHistory } from '../read-side/orders/history.js';
import { CustomerQueries } from '../read-side/customers/queries.js';
import { OrderQueries } from '../read-side/orders/queries.js';
import { ReturnQueries } from '../read-side/orders/returns.js';
import { SummaryQueries } from '../read-side/summary/queries.js';
import { ProductQueries } from '../read-side/catalogue/queries.js';
import { QueueFeed } from '../read-side/orders/queue-feed.js';
import { StockQueries } from '../read-side/stock/queries.js';
import { WebhookDeliveryQueries, WebhookSubscriptionQueries } from '../read-side/webhooks/queries.js';
import type { ReadModelStore } from '../read-side/read-store.js';
import { OpenedViews } from '../read-side/orders/opened-views.js';
import { AccountService } from '../write-side/accounts/service.js';
import { argon2Passwords } from '../write-side/adapters/argon2-passwords.js';
import { EsdbEventStore } from '../write-side/adapters/esdb-event-store.js';
import { MongoKeyStore } from '../write-side/adapters/mongo-key-store.js';
import { SqliteEventStore } from '../write-side/adapters/sqlite-event-store.js';
import { SqliteKeyStore } from '../write-side/adapters/sqlite-key-store.js';
import { CustomerErasure } from '../write-side/personal-data/erasure.js';
import type { KeyStore } from '../write-side/personal-data/key-store.js';
import { Keyring } from '../write-side/personal-data/keyring.js';
import { PERSONAL_DATA } from '../write-side/areas.js';
import { PersonalData } from '../write-side/personal-data/personal-data.js';
import { SealingEventStore } from '../write-side/personal-data/sealing-event-store.js';
import type { EventStore } from '../write-side/kernel/event-store.js';
import { StoreHealth } from '../write-side/kernel/store-health.js';
import { JobService } from '../write-side/jobs/service.js';
import { CustomerService } from '../write-side/customers/service.js';
import { OrderService } from '../write-side/orders/service.js';
import { StockService } from '../write-side/stock/service.js';
import { PendingOrderExpiry } from '../workers/pending-expiry.js';
import { StockReconciler, type StockReconcilerOptions, type StockReconcilerTimings } from '../workers/stock-reconciler.js';
import { ProductService } from '../write-side/catalogue/service.js';
import { WebhookDeliveryService } from '../write-side/webhooks/deliveries.js';
import { WebhookService } from '../write-side/webhooks/service.js';
import { checkWebhookUrl } from '../workers/webhooks/address-policy.js';
import { WebhookDeliveryWorker, type DeliveryWorkerOptions } from '../workers/webhooks/delivery-worker.js';
import { messageReaders } from '../workers/webhooks/messages.js';
import { deliveryWorkerPorts } from '../workers/webhooks/ports.js';
import { CURRENT_API_VERSION, SUPPORTED_API_VERSIONS } from '../api/versions.js';
import { ExportWorker, type ExportWorkerOptions } from '../workers/export-worker.js';
import type { Config, Role } from './config.js';
import { cursorSecret } from './secrets.js';

export { PROJECTIONS } from '../projections/registry.js';

export interface Stores {
  /** The event log as stored: personal data sealed (what the projections read). */
  readonly eventStore: EventStore;
  readonly readModels: ReadModelStore;
  /** The keys that seal each customer's personal data. */
  readonly keys: KeyStore;
  close(): Promise<void>;
}

/** How long a start waits for its projections' thread to report where each projection starts from. */
const PROJECTOR_THREAD_START_MS = 30_000;

export type { Role } from './config.js';

export type { ProjectionProgress } from '../projections/projector.js';

export interface Services extends Stores {
  readonly orders: OrderService;
  /** Erases a customer's personal data (crypto-shredding); the customers' DELETE calls it. */
  readonly erasure: CustomerErasure;
  /** Seals and opens personal data with the customers' keys. */
  readonly personalData: PersonalData;
  /** The catalogue: its use cases, and what placements price their lines from. */
  readonly products: ProductService;
  readonly productQueries: ProductQueries;
  readonly customers: CustomerService;
  readonly customerQueries: CustomerQueries;
  readonly stock: StockService;
  readonly stockQueries: StockQueries;
  readonly jobs: JobService;
  readonly accounts: AccountService;
  readonly accountQueries: AccountQueries;
  /** Webhook subscriptions: their use cases (the delivery worker's signingSecrets and disable too), and their collection. */
  readonly webhooks: WebhookService;
  readonly webhookSubscriptionQueries: WebhookSubscriptionQueries;
  /** The delivery log: the worker's recordAttempts, an admin's requestRetry, and the page of a subscription's deliveries. */
  readonly webhookDeliveries: WebhookDeliveryService;
  readonly webhookDeliveryQueries: WebhookDeliveryQueries;
  readonly exportsDir: string;
  readonly queries: OrderQueries;
  readonly history: OrderHistory;
  /** The returns of every order, from the returns projection. */
  readonly returns: ReturnQueries;
  /** The store at a glance, from the projections of its figures. */
  readonly summary: SummaryQueries;
  readonly feed: QueueFeed;
  /** The projectors of this thread: running in the `all` role without its projections' thread, and in the `projector` role while it holds the lease. */
  readonly projectors: { readonly [N in ProjectionName]: Projector };
  /**
   * Each projection's progress as this process sees it: as its projections' thread reports it in
   * the `all` role (or its own projector's, without the thread), the read store's checkpoints
   * (written by the projector process) in the `api` role.
   */
  readonly progress: { readonly [N in ProjectionName]: ProjectionProgress };
  /** The export worker of this process; null in the roles without one. */
  readonly worker: ExportWorker | null;
  /** The stock reconciler and the payment timeout of this process; null in the roles without them. */
  readonly reconciler: StockReconciler | null;
  readonly pendingExpiry: PendingOrderExpiry | null;
  checkReady(): Promise<void>;
}

/** What a test may change in the wiring that the environment cannot say (sub-second timings, a misbehaving store). */
export interface ServiceOverrides {
  /** false: no export worker, whatever the role (a test whose jobs must stay queued). */
  readonly exportWorker?: boolean;
  readonly worker?: Partial<Omit<ExportWorkerOptions, 'exportsDir'>>;
  /** The read models the export worker reads. */
  readonly workerReadModels?: (real: ReadModelStore) => ReadModelStore;
  /** How long a read waits for a Consistency-Token's write. */
  readonly consistencyWaitMs?: number;
  /** false: no stock reconciler and no payment timeout, whatever the role; or the reconciler's timings. */
  readonly stockWorkers?: false | StockReconcilerOptions;
  /** false: no webhook delivery worker, whatever the role; or its timings. */
  readonly webhookWorker?: false | Partial<DeliveryWorkerOptions>;
  /** How this thread uses the embedded read store, when its role does not say (the workers' thread beside a projections' thread: reads-only, one checkpointer a file). */
  readonly readStoreUse?: ReadStoreUse;
  /** The key store the service uses (one that fails, for a test). */
  readonly keyStore?: (real: KeyStore) => KeyStore;
}

export async function openEventStore(config: Config, logger: Logger): Promise<EventStore> {
  if (config.eventStore.kind === 'eventstoredb') {
    logger.info('event store: EventStoreDB');
    return EsdbEventStore.connect(config.eventStore.url, {
      onSubscriptionError: (error, retryInMs) => logger.warn({ err: error, retryInMs }, 'event store subscription dropped; resubscribing'),
    });
  }
  mkdirSync(config.dataDir, { recursive: true });
  const file = join(config.dataDir, 'events.sqlite3');
  const store = new SqliteEventStore({ file, synchronous: config.eventStore.synchronous });
  logger.info({ file, ...(await store.durability()) }, 'event store: embedded SQLite');
  return store;
}

/** How often the embedded read store's background thread checkpoints its WAL. */
export const READ_STORE_CHECKPOINT_MS = 100;

/**
 * How a thread uses the embedded read store. `requests` (the default): a thread that serves
 * requests, whose lock waits block them, so a short one (the projector retries anyway), and the
 * WAL's checkpoints from a thread of their own. `projections`: the projections' thread, which
 * commits them and alone checkpoints the WAL (one checkpointer a file, or they get in each
 * other's way), and waits out a checkpoint that holds the lock rather than fail its commit.
 * `reads-only`: a thread that serves requests beside a projections' thread of the same process.
 */
export type ReadStoreUse = 'requests' | 'projections' | 'reads-only' | 'rebuild';

export async function openReadStore(config: Config, logger: Logger, use: ReadStoreUse = 'requests'): Promise<ReadModelStore> {
  if (config.readStore.kind === 'mongodb') {
    logger.info({ database: config.readStore.database }, 'read models: MongoDB');
    return MongoReadStore.connect(config.readStore.url, config.readStore.database, READ_STORAGE, { requestTimeoutMs: config.requestTimeoutMs });
  }
  mkdirSync(config.dataDir, { recursive: true });
  const file = join(config.dataDir, 'read-models.sqlite3');
  logger.info({ file }, 'read models: embedded SQLite');
  return new SqliteReadStore(file, READ_STORAGE, {
    busyTimeoutMs: use === 'rebuild' ? REBUILD_BUSY_TIMEOUT_MS : use === 'projections' ? PROJECTIONS_BUSY_TIMEOUT_MS : 250,
    ...(use === 'reads-only' ? {} : { backgroundCheckpointMs: READ_STORE_CHECKPOINT_MS }),
  });
}

/** How long the projections' commits wait for a lock (a WAL checkpoint copying tens of megabytes holds it). */
export const PROJECTIONS_BUSY_TIMEOUT_MS = 5000;

/**
 * How long a rebuild's commits wait for a lock (`projections rebuild`, offline). A generation of
 * a million orders is indexed at its end: the WAL then holds gigabytes, whose checkpoint holds the
 * lock for longer than the projections' 5 s (bench:scale, 1,000,000 orders: SQLITE_BUSY at the next
 * projection's first commit).
 */
export const REBUILD_BUSY_TIMEOUT_MS = 10 * 60_000;

/** The key store: MongoDB beside the read models when they are there, else a SQLite file of its own (never the event log's). */
export async function openKeyStore(config: Config, logger: Logger): Promise<KeyStore> {
  if (config.readStore.kind === 'mongodb') {
    logger.info({ database: config.readStore.database }, 'key store: MongoDB');
    return MongoKeyStore.connect(config.readStore.url, config.readStore.database, { requestTimeoutMs: config.requestTimeoutMs });
  }
  mkdirSync(config.dataDir, { recursive: true });
  const file = join(config.dataDir, 'keys.sqlite3');
  logger.info({ file }, 'key store: embedded SQLite');
  return new SqliteKeyStore(file);
}

export async function openStores(config: Config, logger: Logger, use: ReadStoreUse = 'requests'): Promise<Stores> {
  const eventStore = await openEventStore(config, logger);
  // A store that cannot be opened closes those opened before it: a start that retries opens them again.
  const readModels = await openReadStore(config, logger, use).catch(closing(eventStore));
  const keys = await openKeyStore(config, logger).catch(closing(readModels, eventStore));
  return {
    eventStore,
    readModels,
    keys,
    close: async () => {
      await keys.close();
      await readModels.close();
      await eventStore.close();
    },
  };
}

/** The reconciler's timings (a test's), which can be passed to another thread; its functions cannot. */
function stockTimings({ orphanAfterMs, intervalMs, batchSize }: StockReconcilerOptions = {}): StockReconcilerTimings {
  return { orphanAfterMs, intervalMs, batchSize };
}

function closing(...opened: { close(): Promise<void> }[]): (error: unknown) => Promise<never> {
  return async (error) => {
    for (const store of opened) await store.close().catch(() => undefined);
    throw error;
  };
}

/**
 * The log a projection reads, for the tools that rebuild and verify outside the service: the
 * projections that open personal data (Projection.opensPersonalData) read it through the seal, the others as stored.
 */
export function projectionSource(stores: Stores, config: Config, name: ProjectionName): EventStore {
  if (!PROJECTIONS[name].opensPersonalData) return stores.eventStore;
  return new SealingEventStore(stores.eventStore, new PersonalData(new Keyring(stores.keys), { seal: config.personalData.seal }), PERSONAL_DATA);
}

export async function openServices(config: Config, logger: Logger, role: Role = config.role, overrides: ServiceOverrides = {}): Promise<Services> {
  // In the `all` role with the projections' thread, that thread commits them and checkpoints.
  const stores = await openStores(config, logger, overrides.readStoreUse ?? (role === 'all' && config.projectorThread ? 'reads-only' : 'requests'));
  const health = new StoreHealth(stores.eventStore);
  const eventStore = health.watched();
  const { readModels } = stores;
  const keyring = new Keyring(overrides.keyStore ? overrides.keyStore(stores.keys) : stores.keys);
  const personalData = new PersonalData(keyring, { seal: config.personalData.seal });
  // The write side reads and writes personal data through the seal; the projections read the log as stored.
  const sealed = new SealingEventStore(eventStore, personalData, PERSONAL_DATA);
  const erasure = new CustomerErasure(keyring);
  const opened = new OpenedViews(personalData);
  const jobs = new JobService(eventStore);
  const exportsDir = join(config.dataDir, 'exports');
  mkdirSync(exportsDir, { recursive: true });
  const worker =
    role === 'api' || role === 'projector' || overrides.exportWorker === false
      ? null
      : new ExportWorker(jobs, overrides.workerReadModels ? overrides.workerReadModels(readModels) : readModels, { views: opened, erasures: stores.keys }, {
          leaseMs: config.exports.leaseMs,
          retentionMs: config.exports.retentionMs,
          onError: (error, what) => logger.error({ err: error }, `export worker: ${what}`),
          ...overrides.worker,
          exportsDir,
        });
  worker?.start();
  // The orders' views keep addresses sealed (read-side/orders/opened-views.ts); a projection that opens personal data reads through the seal.
  const projectors = perProjection(
    (projection): Projector =>
      new Projector(projection.opensPersonalData ? sealed : eventStore, readModels, projection, {
        onError: (error, retryInMs) => logger.error({ err: error, projection: projection.name, retryInMs }, 'projection failed; restarting from its checkpoint'),
        fillFromNothing: true,
        ...config.projectorBatch,
      }),
  );
  // The `all` role projects in a thread of its own, unless told not to (then here, like a test's service).
  const thread = role === 'all' && config.projectorThread ? startProjectorThread(config, eventStore, PROJECTIONS, logger) : null;
  if (role === 'all' && !thread) Object.values(projectors).forEach((p) => p.start());
  // Ready as soon as in-process projectors would be: a start that is not, within the wait, goes on and says so at /health/ready.
  await thread?.started(PROJECTOR_THREAD_START_MS);
  // One projector process at a time, under the read store's lease; the others wait as standbys.
  const lease =
    role === 'projector'
      ? new ProjectorLease(readModels, Object.values(projectors), {
          holder: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
          ttlMs: config.projectorLeaseMs,
          onChange: (holding) =>
            logger.info(holding ? 'projector: holding the lease, projecting' : 'projector: standby, waiting for the lease to take over'),
          onError: (error) => logger.warn({ err: error }, 'projector: the lease could not be renewed'),
        })
      : null;
  if (lease) {
    logger.info('projector: standby, waiting for the lease to take over');
    lease.start();
  }
  const checkpoints = role === 'api' ? perProjection((projection) => checkpointProgress(eventStore, readModels, projection)) : null;
  const progress: { readonly [N in ProjectionName]: ProjectionProgress } = checkpoints ?? thread?.progress ?? projectors;
  const readiness = new Readiness({
    progress,
    // The projector process reports its own failures; here, only whether its checkpoints answer.
    failing: () => (checkpoints ? null : thread ? thread.failing() : firstFailing(Object.values(projectors))),
    stores: [() => health.check(), () => readModels.activeGeneration('order-views')],
  });

  const cursors = new CursorCodec(cursorSecret(config));
  const consistencyWaitMs = overrides.consistencyWaitMs ?? config.consistencyWaitMs;
  const waitOn = consistencyOn(eventStore, consistencyWaitMs);
  const consistency = (name: ProjectionName, views: string) => waitOn(progress[name], streamPrefixesOf(PROJECTIONS[name]), views);
  const products = new ProductService(eventStore);
  const customers = new CustomerService(sealed, { erasure, sealedRecords: eventStore });
  // The thresholds of stock.low from the catalogue's kept folds, which the placements' pricing keeps fresh.
  const stock = new StockService(eventStore, { thresholds: products, onSnapshotError: (error) => logger.warn({ err: error }, 'a stock snapshot could not be written; the next cold fold reads further back') });
  const orders = new OrderService(sealed, { catalogue: products, customers, reservations: stock, restocking: stock, ...(personalData.sealing ? { keys: keyring } : {}) });
  // The stock's own background work, beside the export worker: any number may run, every step is idempotent.
  // Where the `all` role's workers' thread (webhook-thread.ts) runs, it runs them instead of this
  // thread: the reconciler's pass over half a minute of placements then takes nothing from the requests.
  const workersThread = role === 'all' && config.webhookThread && overrides.webhookWorker === undefined;
  const stockWorkers = (role === 'worker' || (role === 'all' && !workersThread)) && overrides.stockWorkers !== false;
  const reconciler = stockWorkers
    ? new StockReconciler(eventStore, readModels, orders, stock, {
        onError: (error) => logger.error({ err: error }, 'stock reconciler failed; retrying'),
        ...(role === 'all' ? { mayRun: () => readiness.caughtUpOnce() } : {}),
        ...(overrides.stockWorkers || {}),
      })
    : null;
  const pendingExpiry = stockWorkers
    ? new PendingOrderExpiry(readModels, orders, { ttlMs: config.pendingOrderTtlMs, onError: (error) => logger.error({ err: error }, 'payment timeout failed; retrying') })
    : null;
  reconciler?.start();
  pendingExpiry?.start();
  // A retry finds the delivery's event in the deliveries' read model; a page's subscription is checked on its stream.
  const webhookDeliveryQueries: WebhookDeliveryQueries = new WebhookDeliveryQueries(readModels, new KeysetPages(cursors, consistency('webhook-deliveries', 'webhook deliveries')), {
    isLive: (subscriptionId) => webhookDeliveries.isLive(subscriptionId),
  });
  const webhookDeliveries = new WebhookDeliveryService(eventStore, { deliveries: { find: (deliveryId) => webhookDeliveryQueries.delivery(deliveryId) } });
  const webhooks = new WebhookService(eventStore, {
    // https to a public host, or a host WEBHOOK_ALLOWED_HOSTS lists; checked again at each connection by the sender.
    checkUrl: (url) => checkWebhookUrl(url, config.webhooks.allowedHosts),
    apiVersions: { current: CURRENT_API_VERSION, supported: SUPPORTED_API_VERSIONS },
    jobs,
  });
  const webhookSubscriptionQueries = new WebhookSubscriptionQueries(readModels, new KeysetPages(cursors, consistency('webhook-subscriptions', 'webhook subscriptions')));
  // Webhook deliveries, beside the other workers: each subscription is worked by one process at a time (a lease each).
  // The `all` role delivers from its workers' thread (webhook-thread.ts), unless told not to or given the worker's timings (a test's).
  const webhookThread = workersThread ? startWebhookThread(config, logger, { stockWorkers: overrides.stockWorkers === false ? false : stockTimings(overrides.stockWorkers) }) : null;
  if (webhookThread) keyring.onErased((subject) => subject !== null && webhookThread.erased(subject, new Date()));
  const deliveryWorker =
    (role === 'all' || role === 'worker') && overrides.webhookWorker !== false && !webhookThread
      ? new WebhookDeliveryWorker(
          deliveryWorkerPorts({
            eventStore,
            readModels,
            subscriptions: webhooks,
            subscriptionQueries: webhookSubscriptionQueries,
            deliveries: webhookDeliveries,
            deliveryQueries: webhookDeliveryQueries,
            readers: messageReaders({ orders, customers, eventStore }),
            allowedHosts: config.webhooks.allowedHosts,
            jobs,
          }),
          {
            holder: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
            onError: (error) => logger.error({ err: error }, 'webhook deliveries: a step failed; retrying'),
            // Read as soon as anything is appended: the delay to a delivery is not a poll's.
            follow: true,
            ...(overrides.webhookWorker || {}),
          },
        )
      : null;
  deliveryWorker?.start();
  return {
    ...stores,
    eventStore,
    orders,
    erasure,
    personalData,
    products,
    productQueries: new ProductQueries(readModels, new KeysetPages(cursors, consistency('products', 'products'))),
    customers,
    customerQueries: new CustomerQueries(readModels, new KeysetPages(cursors, consistency('customers', 'collections'))),
    stock,
    stockQueries: new StockQueries(readModels, new KeysetPages(cursors, consistency('stock', 'stock levels'))),
    jobs,
    // A customer account names a customer that exists (and was not erased).
    accounts: new AccountService(eventStore, argon2Passwords(), { customers }),
    accountQueries: new AccountQueries(readModels, new KeysetPages(cursors, new Consistency(progress.accounts, 'accounts', consistencyWaitMs))),
    webhooks,
    webhookSubscriptionQueries,
    webhookDeliveries,
    webhookDeliveryQueries,
    exportsDir,
    queries: new OrderQueries(readModels, cursors, {
      orders: consistency('order-views', 'collections'),
      queue: consistency('fulfilment-queue', 'queue'),
    }, opened),
    history: new OrderHistory(sealed, cursors, eventStore),
    returns: new ReturnQueries(readModels, new KeysetPages(cursors, consistency('returns', 'returns'))),
    summary: new SummaryQueries(readModels, {
      'daily-sales': consistency('daily-sales', 'summary figures'),
      'order-views': consistency('order-views', 'summary figures'),
      'fulfilment-queue': consistency('fulfilment-queue', 'summary figures'),
      returns: consistency('returns', 'summary figures'),
      stock: consistency('stock', 'summary figures'),
      'webhook-subscriptions': consistency('webhook-subscriptions', 'summary figures'),
      'webhook-deliveries': consistency('webhook-deliveries', 'summary figures'),
    }),
    feed: new QueueFeed(readModels, progress['fulfilment-queue'], eventStore, consistencyWaitMs),
    projectors,
    progress,
    worker,
    reconciler,
    pendingExpiry,
    checkReady: () => readiness.check(),
    close: async () => {
      // The workers' thread stops beside the rest, not before it: one still opening its stores
      // (a start under load) must not keep the projections going meanwhile.
      const webhooksStopped = webhookThread?.stop();
      await deliveryWorker?.stop();
      await worker?.stop();
      await reconciler?.stop();
      await pendingExpiry?.stop();
      await lease?.stop();
      await thread?.stop();
      Object.values(checkpoints ?? {}).forEach((c) => c.stop());
      await Promise.all(Object.values(projectors).map((p) => p.stop()));
      await stock.idle();
      await webhooksStopped;
      await stores.close();
    },
  };
}
