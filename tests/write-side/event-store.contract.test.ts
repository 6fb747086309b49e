import { describe, it } from 'vitest';
import { esdbUrl, openEmbedded, openEsdb } from '../support/event-stores.js';
import { eventStoreContract } from './event-store.contract.js';

eventStoreContract('embedded (SQLite)', openEmbedded);

if (esdbUrl) eventStoreContract('EventStoreDB', openEsdb);
else describe.skip('EventStore contract: EventStoreDB — skipped, EVENTSTORE_URL is not set', () => it('runs against a live EventStoreDB', () => {}));
