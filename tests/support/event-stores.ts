// The event stores a test can run against: the embedded one always, EventStoreDB when
// EVENTSTORE_URL is set. Tests that need a server say so when they are skipped.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EsdbEventStore } from '../../write-side/adapters/esdb-event-store.js';
import { SqliteEventStore } from '../../write-side/adapters/sqlite-event-store.js';
import type { EventStore } from '../../write-side/kernel/event-store.js';

export interface StoreFixture {
  readonly store: EventStore;
  dispose(): Promise<void>;
}

export function tempDir(prefix: string): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * Shared-store mode: when TEST_SHARED_EVENT_STORE names a file, every embedded fixture opens
 * that one file and leaves it in place, so tests meet each other's data (and that of earlier
 * runs), as they do on a shared EventStoreDB. .ci/shared-store runs the suites this way.
 */
export const sharedEventStoreFile = process.env.TEST_SHARED_EVENT_STORE?.trim() || null;

export async function openEmbedded(): Promise<StoreFixture> {
  if (sharedEventStoreFile) {
    const store = new SqliteEventStore({ file: sharedEventStoreFile });
    return { store, dispose: () => store.close() };
  }
  const dir = tempDir('events-');
  const store = new SqliteEventStore({ file: join(dir.path, 'events.sqlite3') });
  return {
    store,
    dispose: async () => {
      await store.close();
      dir.remove();
    },
  };
}

export const esdbUrl = process.env.EVENTSTORE_URL;

export async function openEsdb(): Promise<StoreFixture> {
  if (!esdbUrl) throw new Error('EVENTSTORE_URL is not set');
  const store = EsdbEventStore.connect(esdbUrl);
  return { store, dispose: () => store.close() };
}

/** [name, open] for every store available in this run. */
export const availableStores: ReadonlyArray<readonly [string, () => Promise<StoreFixture>]> = [
  ['embedded (SQLite)', openEmbedded],
  ...(esdbUrl ? [['EventStoreDB', openEsdb] as const] : []),
];

if (!esdbUrl) {
  console.warn('[skipped] EventStoreDB tests: EVENTSTORE_URL is not set, so only the embedded event store was tested.');
}

/** The store with some of its methods replaced (to count or hold back calls); every other call goes to it as it is. */
export function delegating(store: EventStore, overrides: Partial<EventStore>): EventStore {
  return {
    appendToStream: (stream, events, expected, options) => store.appendToStream(stream, events, expected, options),
    readStream: (stream, options) => store.readStream(stream, options),
    readLastEvent: (stream) => store.readLastEvent(stream),
    setMaxCount: (stream, maxCount) => store.setMaxCount(stream, maxCount),
    readAll: (options) => store.readAll(options),
    subscribeToAll: (options) => store.subscribeToAll(options),
    headPosition: () => store.headPosition(),
    close: () => store.close(),
    ...(store.changeStamp ? { changeStamp: () => store.changeStamp!() } : {}),
    ...overrides,
  };
}
