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
import { backgroundThread } from './thread-priority.js';

const port = parentPort!;
const post = (message: ThreadMessage) => port.postMessage(message);
const { config } = workerData as { config: Config };
// Before the stores are opened: the threads they start (the writer, the read store's checkpointer) inherit its priority.
backgroundThread('projections', config.backgroundNice);
const stores = await openStores(config, pino({ enabled: false }), 'projections');
const projectors = new Map<ProjectionName, Projector>(
  PROJECTION_NAMES.map((name) => [
    name,
    new Projector(projectionSource(stores, config, name), stores.readModels, PROJECTIONS[name], {
      onPosition: (position, reachedBy, caughtUp) => post({ kind: 'position', name, position, reachedBy, caughtUp }),
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
