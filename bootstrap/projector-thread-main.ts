// What the projections' thread runs (started by projector-thread.ts, in the `all` role): every
// projection, on stores of its own over the same files, reporting each position it reaches and
// each failure to the thread that serves the requests.
import pino from 'pino';
import { parentPort, workerData } from 'node:worker_threads';
import { Projector } from '../projections/projector.js';
import { PROJECTION_NAMES, PROJECTIONS } from '../projections/registry.js';
import type { ProjectionName } from '../read-side/read-store.js';
import type { Config } from './config.js';
import type { ThreadMessage, ToThread } from './projector-thread.js';
import { openStores, projectionSource } from './services.js';
import { lowerThreads, nameThread } from './thread-priority.js';

const port = parentPort!;
const post = (message: ThreadMessage) => port.postMessage(message);
const { config } = workerData as { config: Config };
// Named before the stores are opened, so that the writer it starts is named alike (its read store's checkpointer names itself).
nameThread('projections');
/**
 * The projections not yet caught up since the thread started. Until all are, the thread and its
 * checkpointer run at the requests' priority: readiness waits for the catch-up, and at a lower one
 * any other busy process of the machine would slow it tenfold. Then they go below the requests'
 * thread (BACKGROUND_NICE; bootstrap/thread-priority.ts), for good.
 */
const catchingUp = new Set<ProjectionName>(PROJECTION_NAMES);
const stores = await openStores(config, pino({ enabled: false }), 'projections');
const projectors = new Map<ProjectionName, Projector>(
  PROJECTION_NAMES.map((name) => [
    name,
    new Projector(projectionSource(stores, config, name), stores.readModels, PROJECTIONS[name], {
      onPosition: (position, reachedBy, caughtUp) => {
        post({ kind: 'position', name, position, reachedBy, caughtUp });
        if (caughtUp && catchingUp.delete(name) && catchingUp.size === 0) lowerThreads(['projections', 'checkpointer'], config.backgroundNice);
      },
      onError: (error, retryInMs) => post({ kind: 'failing', name, error, retryInMs }),
      fillFromNothing: true,
      ...config.projectorBatch,
    }),
  ]),
);
port.on('message', (message: ToThread) => {
  if (message !== 'stop') {
    projectors.get(message.name)?.hurry(message.position, message.forMs);
    return;
  }
  void (async () => {
    await Promise.all([...projectors.values()].map((p) => p.stop()));
    await stores.close();
    port.close();
  })();
});
projectors.forEach((p) => p.start());
