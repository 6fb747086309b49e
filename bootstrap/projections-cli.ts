// npm run projections -- rebuild [name] | verify [name]
// rebuild: fills a new generation from the start of the log while the service keeps serving the
// old one, then switches. verify: folds every order stream afresh and compares with the views.
import { pino } from 'pino';
import { rebuild, verify } from '../projections/rebuild.js';
import { PROJECTION_NAMES, PROJECTIONS, type ProjectionName } from '../projections/registry.js';
import { fractionOf } from '../write-side/kernel/position.js';
import { configOrExit } from './config.js';
import { progressReporter } from './progress.js';
import { openStores, projectionSource } from './services.js';

const USAGE = `usage: npm run projections -- rebuild [${PROJECTION_NAMES.join('|')}]
       npm run projections -- verify [${PROJECTION_NAMES.join('|')}]`;

const [command, only] = process.argv.slice(2);
if ((command !== 'rebuild' && command !== 'verify') || (only !== undefined && !PROJECTION_NAMES.includes(only as ProjectionName))) {
  console.error(USAGE);
  process.exit(2);
}
const config = configOrExit();
const logger = pino({ level: 'warn' }, pino.destination(2));
// A rebuild's commits wait out the read store's checkpoints, however long a rebuilt generation's takes (ReadStoreUse).
const stores = await openStores(config, logger, command === 'rebuild' ? 'rebuild' : 'requests');
const names = only ? [only as ProjectionName] : PROJECTION_NAMES;
let failed = false;

try {
  for (const name of names) {
    const projection = PROJECTIONS[name] as (typeof PROJECTIONS)['order-views'];
    if (command === 'rebuild') {
      const progress = progressReporter(name, process.stdout);
      const started = performance.now();
      const result = await rebuild(projectionSource(stores, config, projection.name), stores.readModels, projection, {
        onProgress: (p) => progress.update(p.events, p.head ? fractionOf(p.position, p.head) : 1),
      });
      const seconds = (performance.now() - started) / 1000;
      progress.finish();
      console.log(`${name}: rebuilt generation ${result.generation} from ${result.events.toLocaleString('en-US')} events in ${seconds.toFixed(1)} s (${rate(result.events, seconds)} events/s); now serving it`);
    } else {
      const result = await verify(projectionSource(stores, config, projection.name), stores.readModels, projection, (d) => {
        console.log(`${name}: ${d.key} differs\n  expected ${JSON.stringify(d.expected)}\n  stored   ${JSON.stringify(d.actual)}`);
      });
      console.log(`${name}: ${result.checked.toLocaleString('en-US')} orders checked, ${result.differences} difference(s)`);
      if (result.differences > 0) failed = true;
    }
  }
} finally {
  await stores.close();
}
process.exit(failed ? 1 : 0);

function rate(events: number, seconds: number): string {
  return Math.round(events / Math.max(seconds, 0.001)).toLocaleString('en-US');
}
