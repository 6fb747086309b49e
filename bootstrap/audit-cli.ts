// npm run audit -- replay --order <id>   the order's history and its state after each event
// npm run audit -- verify                folds every order stream, checks the domain rules held
//                                        throughout and that the read models agree; exit 1 on any finding
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { auditStream, replay } from '../projections/audit.js';
import { verify } from '../projections/rebuild.js';
import { PROJECTION_NAMES } from '../read-side/read-store.js';
import type { Position } from '../write-side/event-store.js';
import { ORDER_STREAM_PREFIX, orderStream } from '../write-side/orders/codec.js';
import { configOrExit } from './config.js';
import { openStores, PROJECTIONS } from './services.js';

const USAGE = 'usage: npm run audit -- replay --order <id>\n       npm run audit -- verify';
const { positionals, values } = parseArgs({ allowPositionals: true, options: { order: { type: 'string' } } });
const [command] = positionals;
if (!(command === 'replay' && values.order) && command !== 'verify') {
  console.error(USAGE);
  process.exit(2);
}
const config = configOrExit();
const stores = await openStores(config, pino({ level: 'warn' }, pino.destination(2)));
let findings = 0;
try {
  if (command === 'replay') {
    const events = await stores.eventStore.readStream(orderStream(values.order!));
    if (events.length === 0) {
      console.error(`order ${values.order} has no history`);
      findings = 1;
    }
    for (const { event, state } of replay(events)) {
      console.log(`#${event.revision} ${event.recordedAt.toISOString()} ${event.type} v${event.metadata.schemaVersion} by ${event.metadata.principal} (correlation ${event.metadata.correlationId})`);
      console.log(`   data  ${JSON.stringify(event.data)}`);
      console.log(`   state ${JSON.stringify(state)}`);
    }
  } else {
    const streams = new Set<string>();
    for (let after: Position | null = null; ; ) {
      const batch = await stores.eventStore.readAll({ after, maxCount: 5000, streamPrefixes: [ORDER_STREAM_PREFIX] });
      if (batch.length === 0) break;
      for (const e of batch) streams.add(e.streamName);
      after = batch.at(-1)!.position;
    }
    for (const stream of streams) {
      for (const f of auditStream(stream, await stores.eventStore.readStream(stream))) {
        findings++;
        console.log(`${f.stream} #${f.revision} [${f.rule}] ${f.detail}`);
      }
    }
    console.log(`domain rules: ${streams.size.toLocaleString('en-US')} orders checked, ${findings} finding(s)`);
    for (const name of PROJECTION_NAMES) {
      const result = await verify(stores.eventStore, stores.readModels, PROJECTIONS[name] as (typeof PROJECTIONS)['order-views'], (d) => {
        console.log(`${name}: ${d.key} differs from a fresh fold\n  expected ${JSON.stringify(d.expected)}\n  stored   ${JSON.stringify(d.actual)}`);
      });
      findings += result.differences;
      console.log(`read model ${name}: ${result.checked.toLocaleString('en-US')} orders checked, ${result.differences} difference(s)`);
    }
  }
} finally {
  await stores.close();
}
process.exit(findings > 0 ? 1 : 0);
