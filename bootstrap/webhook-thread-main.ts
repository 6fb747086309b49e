// What the webhook deliveries' thread runs (started by webhook-thread.ts, in the `all` role): the
// services on stores of its own over the same files or servers, with the delivery worker alone
// running (the worker role's, without the export worker and the stock's workers). An erasure made
// on the requests' thread is passed on at once, so no message built after it opens the subject's data.
import pino from 'pino';
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from './config.js';
import { openServices } from './services.js';
import type { ToWebhookThread } from './webhook-thread.js';

const port = parentPort!;
const { config } = workerData as { config: Config };
const logger = pino({ level: config.logLevel, base: { service: 'order-service', role: 'all', thread: 'webhooks' } });
// Reads-only: another thread of the process (the projections', or the requests' without one) alone checkpoints the read store's WAL (ReadStoreUse).
const services = await openServices(config, logger, 'worker', { exportWorker: false, stockWorkers: false, readStoreUse: 'reads-only' });
port.on('message', (message: ToWebhookThread) => {
  if (message.kind === 'erased') return services.personalData.keyring.learnErased(message.subject, new Date(message.at));
  void services.close().then(() => port.close());
});
port.postMessage('started');
