import { describe, it } from 'vitest';
import { PERSONAL_DATA } from '../../write-side/areas.js';
import { StoreHealth } from '../../write-side/kernel/store-health.js';
import { SealingEventStore } from '../../write-side/personal-data/sealing-event-store.js';
import { esdbUrl, openEmbedded, openEsdb } from '../support/event-stores.js';
import { inMemoryPersonalData } from '../support/personal-data.js';
import { eventStoreContract } from './event-store.contract.js';

eventStoreContract('embedded (SQLite)', openEmbedded);

// The stores the service composes around the event store (bootstrap/services.ts) pass it too: a
// wrapper that dropped an append's options would let an order be written without the
// reservations it was to follow.
eventStoreContract('embedded, behind the health watch and the seal', async () => {
  const { store, dispose } = await openEmbedded();
  const { keys, personal } = inMemoryPersonalData();
  const sealed = new SealingEventStore(new StoreHealth(store).watched(), personal, PERSONAL_DATA);
  return { store: sealed, dispose: async () => (await dispose(), await keys.close()) };
});

if (esdbUrl) eventStoreContract('EventStoreDB', openEsdb);
else describe.skip('EventStore contract: EventStoreDB — skipped, EVENTSTORE_URL is not set', () => it('runs against a live EventStoreDB', () => {}));
