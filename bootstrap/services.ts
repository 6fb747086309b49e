// Wiring: picks the adapters the config names and opens them. The only module that imports adapters.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { EsdbEventStore } from '../write-side/adapters/esdb-event-store.js';
import { SqliteEventStore } from '../write-side/adapters/sqlite-event-store.js';
import type { EventStore } from '../write-side/event-store.js';
import { OrderService } from '../write-side/order-service.js';
import type { Config } from './config.js';

export interface Services {
  readonly eventStore: EventStore;
  readonly orders: OrderService;
  checkReady(): Promise<void>;
  close(): Promise<void>;
}

export function openEventStore(config: Config, logger: Logger): EventStore {
  if (config.eventStore.kind === 'eventstoredb') {
    logger.info({ eventStore: 'eventstoredb' }, 'event store: EventStoreDB');
    return EsdbEventStore.connect(config.eventStore.url);
  }
  mkdirSync(config.dataDir, { recursive: true });
  const file = join(config.dataDir, 'events.sqlite3');
  const store = new SqliteEventStore({ file, synchronous: config.eventStore.synchronous });
  logger.info({ eventStore: 'embedded', file, ...store.durability() }, 'event store: embedded SQLite');
  return store;
}

export async function openServices(config: Config, logger: Logger): Promise<Services> {
  const eventStore = openEventStore(config, logger);
  return {
    eventStore,
    orders: new OrderService(eventStore),
    checkReady: async () => {
      await eventStore.headPosition();
    },
    close: () => eventStore.close(),
  };
}
