// npm run audit -- replay --order <id>   the order's history and its state after each event
// npm run audit -- verify                folds every order stream, checks the domain rules held
//                                        throughout and that the read models agree; exit 1 on any finding
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { auditStock, auditStream, replay } from '../projections/audit.js';
import { verify } from '../projections/rebuild.js';
import { PROJECTION_NAMES, PROJECTIONS } from '../projections/registry.js';
import type { Position, RecordedEvent } from '../write-side/kernel/event-store.js';
import { decodeOrderEvent, ORDER_STREAM_PREFIX, orderStream } from '../write-side/orders/codec.js';
import { evolve, initialState } from '../write-side/orders/decider.js';
import type { Order } from '../write-side/orders/types.js';
import { STOCK_STREAM_PREFIX } from '../write-side/stock/codec.js';
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
    const streams = new Set<string>();
    for (let after: Position | null = null; ; ) {
      const batch = await stores.eventStore.readAll({ after, maxCount: 5000, streamPrefixes: [ORDER_STREAM_PREFIX] });
      if (batch.length === 0) break;
      for (const e of batch) streams.add(e.streamName);
      after = batch.at(-1)!.position;
    }
    const orders = new Map<string, { order: Order; changedAt: Date }>();
    for (const stream of streams) {
      const events = await stores.eventStore.readStream(stream);
      for (const f of auditStream(stream, events)) {
        findings++;
        console.log(`${f.stream} #${f.revision} [${f.rule}] ${f.detail}`);
      }
      let order: Order = initialState();
      for (const e of events) {
        try {
          order = evolve(order, decodeOrderEvent(e));
        } catch {
          // Reported by auditStream above.
        }
      }
      orders.set(stream.slice(ORDER_STREAM_PREFIX.length), { order, changedAt: events.at(-1)?.recordedAt ?? new Date(0) });
    }
    console.log(`domain rules: ${streams.size.toLocaleString('en-US')} orders checked, ${findings} finding(s)`);
    // Stock: every SKU stream folded afresh, against the orders.
    const skus = new Map<string, RecordedEvent[]>();
    for (let after: Position | null = null; ; ) {
      const batch = await stores.eventStore.readAll({ after, maxCount: 5000, streamPrefixes: [STOCK_STREAM_PREFIX] });
      if (batch.length === 0) break;
      for (const e of batch) {
        const sku = e.streamName.slice(STOCK_STREAM_PREFIX.length);
        const events = skus.get(sku) ?? [];
        events.push(e);
        skus.set(sku, events);
      }
      after = batch.at(-1)!.position;
    }
    const stockFindings = auditStock(skus, orders, new Date());
    for (const f of stockFindings) console.log(`${f.stream} #${f.revision} [${f.rule}] ${f.detail}`);
    findings += stockFindings.length;
    console.log(`stock rules: ${skus.size.toLocaleString('en-US')} SKUs checked, ${stockFindings.length} finding(s)`);
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
