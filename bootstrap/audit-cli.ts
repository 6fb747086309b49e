// npm run audit -- replay --order <id>   the order's history and its state after each event
// npm run audit -- verify                folds every order and SKU stream, checks the domain and
//                                        stock rules held throughout and that the read models agree;
//                                        exit 1 on any finding
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { auditLog, replay } from '../projections/audit.js';
import { verify } from '../projections/rebuild.js';
import { PROJECTION_NAMES, PROJECTIONS } from '../projections/registry.js';
import { orderStream } from '../write-side/orders/codec.js';
import { configOrExit } from './config.js';
import { openStores, projectionSource } from './services.js';

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
    const audit = await auditLog(stores.eventStore, new Date());
    for (const f of [...audit.domain, ...audit.stock]) console.log(`${f.stream} #${f.revision} [${f.rule}] ${f.detail}`);
    findings += audit.domain.length + audit.stock.length;
    console.log(`domain rules: ${audit.orders.toLocaleString('en-US')} orders checked, ${audit.domain.length} finding(s)`);
    console.log(`stock rules: ${audit.skus.toLocaleString('en-US')} SKUs checked, ${audit.stock.length} finding(s)`);
    for (const name of PROJECTION_NAMES) {
      const result = await verify(projectionSource(stores, config, name), stores.readModels, PROJECTIONS[name] as (typeof PROJECTIONS)['order-views'], (d) => {
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
