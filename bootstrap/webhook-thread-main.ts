// What the workers' thread runs (started by webhook-thread.ts, in the `all` role): the services
// on stores of its own over the same files or servers, with the worker role's background work
// running but the export worker: the webhook deliveries, the stock reconciler and the payment
// timeout. An erasure made on the requests' thread is passed on at once, so no message built after
// it opens the subject's data.
import pino from 'pino';
import { parentPort, workerData } from 'node:worker_threads';
import { openServices } from './services.js';
import type { ToWebhookThread, WebhookThreadData } from './webhook-thread.js';
import { backgroundThread } from './thread-priority.js';

const port = parentPort!;
const { config, stockWorkers } = workerData as WebhookThreadData;
// Below the requests' thread from the start (none of its work holds up readiness), and before the services are opened, so that the threads their stores start inherit it.
backgroundThread('workers', config.backgroundNice);
const logger = pino({ level: config.logLevel, base: { service: 'order-service', role: 'all', thread: 'workers' } });
// Reads-only: another thread of the process (the projections', or the requests' without one) alone checkpoints the read store's WAL (ReadStoreUse).
const services = await openServices(config, logger, 'worker', { exportWorker: false, stockWorkers, readStoreUse: 'reads-only' });
port.on('message', (message: ToWebhookThread) => {
  if (message.kind === 'erased') return services.personalData.keyring.learnErased(message.subject, new Date(message.at));
  void services.close().then(() => port.close());
});
port.postMessage('started');
