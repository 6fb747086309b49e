// npm run bench:export: 1,000,000 orders exported as NDJSON and as CSV by the export worker,
// on the embedded default. Each export runs in a child process, so its peak RSS is its own.
import { OpenedViews } from '../read-side/orders/opened-views.js';
import { SqliteKeyStore } from '../write-side/adapters/sqlite-key-store.js';
import { Keyring } from '../write-side/personal-data/keyring.js';
import { PersonalData } from '../write-side/personal-data/personal-data.js';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jobsView } from '../projections/jobs/jobs.js';
import { Projector } from '../projections/projector.js';
import { SqliteReadStore } from '../read-side/adapters/sqlite-read-store.js';
import type { OrderView } from '../read-side/orders/views.js';
import { ExportWorker } from '../workers/export-worker.js';
import { SqliteEventStore } from '../write-side/adapters/sqlite-event-store.js';
import { serviceViewer } from '../write-side/kernel/access.js';
import { JobService } from '../write-side/jobs/service.js';
import type { ExportFormat } from '../write-side/jobs/types.js';
import { encodePosition } from '../write-side/kernel/position.js';
import { READ_STORAGE } from '../projections/registry.js';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

if (process.argv[2] === '--export') {
  // Child: one export job, start to finish, through JobService and the worker.
  const [dir, format] = process.argv.slice(3) as [string, ExportFormat];
  // One log for both runs: the jobs view's checkpoint, kept in the shared read store, is a position
  // in it (a log of its own per run would start below that checkpoint, and the job never be seen).
  const events = new SqliteEventStore({ file: join(dir, 'events.sqlite3') });
  const reads = new SqliteReadStore(join(dir, 'read-models.sqlite3'), READ_STORAGE);
  const jobs = new JobService(events);
  // The worker reads the jobs view, which the jobs projection keeps.
  const projector = new Projector(events, reads, jobsView);
  projector.start();
  const keys = new SqliteKeyStore(':memory:');
  const worker = new ExportWorker(jobs, reads, { views: new OpenedViews(new PersonalData(new Keyring(keys))), erasures: keys }, { exportsDir: join(dir, 'exports'), pollMs: 10 });
  const bench = serviceViewer('bench');
  const started = performance.now();
  const requested = await jobs.requestExport(bench, { format, filter: {} }, { correlationId: 'bench', idempotency: { key: format, fingerprint: format } });
  const id = (requested.state as { id: string }).id;
  worker.start();
  let job = await jobs.get(bench, id);
  while (job?.job.status !== 'succeeded' && job?.job.status !== 'failed') {
    await new Promise((r) => setTimeout(r, 20));
    job = await jobs.get(bench, id);
  }
  const seconds = (performance.now() - started) / 1000;
  await worker.stop();
  await projector.stop();
  console.log(JSON.stringify({ status: job.job.status, count: job.job.result?.count, bytes: job.job.result && 'bytes' in job.job.result ? job.job.result.bytes : null, seconds, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
  await reads.close();
  await events.close();
  process.exit(0);
}

// Under the working directory, not /tmp: a tmpfs would flatter the file writes.
const dir = mkdtempSync(join(process.cwd(), '.bench-export-'));
try {
  mkdirSync(join(dir, 'exports'));
  console.log(`loading ${fmt(ORDERS)} order views into the embedded read store ...`);
  const reads = new SqliteReadStore(join(dir, 'read-models.sqlite3'), READ_STORAGE);
  const views = reads.views('order-views', 1);
  const t0 = Date.UTC(2026, 0, 1);
  for (let base = 0; base < ORDERS; base += 10_000) {
    const batch: Array<{ key: string; view: OrderView }> = [];
    for (let i = base; i < Math.min(base + 10_000, ORDERS); i++) {
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const at = new Date(t0 + i * 1000).toISOString();
      // Every tenth address needs CSV quoting.
      const name = i % 10 === 0 ? `Lovelace, Ada "${i}"` : 'Ada Lovelace';
      batch.push({ key: id, view: {
        id, customerId: `cus_${i % 1000}`, status: (['pending', 'paid', 'shipped', 'cancelled'] as const)[i % 4]!, currency: 'EUR',
        lines: [{ sku: 'SKU-1', name: 'Blue mug', quantity: 2, unitPrice: 1999, lineTotal: 3998, shipped: 0, cancelled: 0, returned: 0 }], total: 3998, balance: { charged: 3998, paid: 0, refunded: 0, due: 3998 },
        address: { name, line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' },
        createdAt: at, updatedAt: at, revision: 2,
      } });
    }
    await views.commit(batch, encodePosition(BigInt(base + 1)));
  }
  await reads.close();

  console.log(`\nexporting ${fmt(ORDERS)} orders (each run a fresh child process: job requested → worker → file):`);
  for (const format of ['ndjson', 'csv'] as const) {
    const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--export', dir, format], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(child.stderr);
    const r = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { status: string; count: number; bytes: number; seconds: number; maxRssMb: number };
    if (r.status !== 'succeeded' || r.count !== ORDERS) throw new Error(`export ${format} ended ${r.status} with ${r.count} orders`);
    const rate = r.count / r.seconds;
    console.log(`  ${format.padEnd(6)} ${fmt(r.count)} orders, ${(r.bytes / 1e6).toFixed(0)} MB in ${r.seconds.toFixed(1)} s = ${fmt(rate)} orders/s, peak RSS ${r.maxRssMb.toFixed(0)} MB` +
      `  (targets: >= 100,000 orders/s ${rate >= 100_000 ? 'met' : 'NOT met'}, < 250 MB ${r.maxRssMb < 250 ? 'met' : 'NOT met'})`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
