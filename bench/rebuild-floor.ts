// npm run bench:rebuild-floor -- <data folder>: how fast `npm run projections -- rebuild` goes on
// the embedded stores, beside what no rebuild of these read models on these stores can go below,
// in one run on one folder (one that BENCH_KEEP=1 npm run bench:scale kept, say):
//
//   1. the rebuild itself: every projection, one after another, as the CLI rebuilds them;
//   2. the floor, the least any rebuild must do:
//      - read the log once through the event-store port, 1,000 events a read, each decoded as
//        the projections get them (one read shared by every projection, where the rebuild reads
//        the log once per projection);
//      - write every projection's views as they now stand (and the changes they record) once
//        into a fresh generation, 1,000 a commit, then activate it, which builds its indexes, as a
//        rebuild does. The views are written in key order, the cheapest order for the B-trees
//        (a rebuild writes them in the log's order), and nothing is folded: they are copied from
//        the generation step 1 made (that read is not timed). Activating a copy of the views
//        that serve changes nothing they answer.
//
// Printed: the time of each, per projection, and for the whole log its events per second. A
// rebuild's rate cannot pass the floor's on these stores; a target above it needs other stores or
// other read models, not a faster rebuild.
import { pino } from 'pino';
import { parseConfig } from '../bootstrap/config.js';
import { openStores, projectionSource } from '../bootstrap/services.js';
import { rebuild } from '../projections/rebuild.js';
import { PROJECTION_NAMES, PROJECTIONS } from '../projections/registry.js';
import type { Position } from '../write-side/kernel/event-store.js';

const dir = process.argv[2] ?? process.env.BENCH_DIR;
if (!dir) {
  console.error('usage: npm run bench:rebuild-floor -- <data folder>   (one that BENCH_KEEP=1 npm run bench:scale kept)');
  process.exit(2);
}
const BATCH = 1000;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const seconds = (from: number) => (performance.now() - from) / 1000;
const config = parseConfig({ DATA_DIR: dir });
const stores = await openStores(config, pino({ enabled: false }), 'rebuild');

try {
  // 1. The rebuild, as the CLI makes it.
  const rebuilt = new Map<string, { events: number; s: number }>();
  let rebuildS = 0;
  for (const name of PROJECTION_NAMES) {
    const started = performance.now();
    const result = await rebuild(projectionSource(stores, config, name), stores.readModels, PROJECTIONS[name] as (typeof PROJECTIONS)['order-views']);
    const s = seconds(started);
    rebuildS += s;
    rebuilt.set(name, { events: result.events, s });
    console.log(`  rebuilt ${name}: ${fmt(result.events)} of its events in ${s.toFixed(1)} s`);
  }

  // 2a. The log, read once.
  let logEvents = 0;
  const readStarted = performance.now();
  for (let after: Position | null = null; ; ) {
    const batch = await stores.eventStore.readAll({ after, maxCount: BATCH });
    if (batch.length === 0) break;
    logEvents += batch.length;
    after = batch.at(-1)!.position;
  }
  const readS = seconds(readStarted);
  console.log(`  read the log once: ${fmt(logEvents)} events in ${readS.toFixed(1)} s (${fmt(logEvents / readS)} events/s)`);

  // 2b. Every projection's views and changes, written once into a fresh generation and activated.
  const written = new Map<string, { views: number; changes: number; s: number }>();
  let writeS = 0;
  for (const name of PROJECTION_NAMES) {
    const active = stores.readModels.views<{ revision: number }, { position: Position }>(name, await stores.readModels.activeGeneration(name));
    const checkpoint = await active.checkpoint();
    if (checkpoint === null) throw new Error(`${name}: no checkpoint after its rebuild`);
    const generation = await stores.readModels.createGeneration(name);
    const copy = stores.readModels.views<{ revision: number }, { position: Position }>(name, generation);
    let timed = 0;
    let views = 0;
    let changes = 0;
    for (let afterKey: string | null = null; ; ) {
      const page = await active.scan(afterKey, BATCH);
      if (page.length === 0) break;
      const started = performance.now();
      await copy.commit(page.map(({ key, view }) => ({ key, view })), checkpoint);
      timed += performance.now() - started;
      views += page.length;
      afterKey = page.at(-1)!.key;
    }
    for (let after: Position | null = null; ; ) {
      const page = await active.changes(after, BATCH);
      if (page.length === 0) break;
      const started = performance.now();
      await copy.commit([], checkpoint, page);
      timed += performance.now() - started;
      changes += page.length;
      after = page.at(-1)!.change.position;
    }
    const started = performance.now();
    await stores.readModels.activateGeneration(name, generation);
    timed += performance.now() - started;
    const s = timed / 1000;
    writeS += s;
    written.set(name, { views, changes, s });
  }

  console.log(`\nthe rebuild of every projection, and its floor, on ${dir}: ${fmt(logEvents)} events in the log\n`);
  console.log('  projection             its events   rebuild s   views written   changes written   floor write s');
  for (const name of PROJECTION_NAMES) {
    const r = rebuilt.get(name)!;
    const w = written.get(name)!;
    console.log(`  ${name.padEnd(22)} ${fmt(r.events).padStart(10)} ${r.s.toFixed(1).padStart(11)} ${fmt(w.views).padStart(15)} ${fmt(w.changes).padStart(17)} ${w.s.toFixed(1).padStart(15)}`);
  }
  const floorS = readS + writeS;
  console.log(`\n  rebuild: ${rebuildS.toFixed(1)} s, ${fmt(logEvents / rebuildS)} events/s of the log`);
  console.log(`  floor:   ${floorS.toFixed(1)} s (the log read once ${readS.toFixed(1)} s + every view written once ${writeS.toFixed(1)} s), ${fmt(logEvents / floorS)} events/s of the log`);
  console.log(`  100,000 events/s would take ${(logEvents / 100_000).toFixed(1)} s`);
} finally {
  await stores.close();
}
