import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SqliteReadStore } from '../../read-side/adapters/sqlite-read-store.js';
import { jobsView } from '../../projections/jobs/jobs.js';
import { Projector } from '../../projections/projector.js';
import { ExportWorker } from '../../workers/export-worker.js';
import { SqliteEventStore } from '../../write-side/adapters/sqlite-event-store.js';
import { serviceViewer } from '../../write-side/kernel/access.js';
import { JobService } from '../../write-side/jobs/service.js';
import { inMemoryPersonalData } from '../support/personal-data.js';
import { tempDir } from '../support/event-stores.js';
import { READ_STORAGE } from '../../projections/registry.js';
import { until } from '../support/until.js';

describe('export workers', () => {
  it('never run one job twice at once: three workers, twelve jobs, each started and finished once', async () => {
    const dir = tempDir('workers-');
    const events = new SqliteEventStore({ file: join(dir.path, 'events.sqlite3') });
    const reads = new SqliteReadStore(join(dir.path, 'read-models.sqlite3'), READ_STORAGE);
    const exportsDir = join(dir.path, 'exports');
    mkdirSync(exportsDir);
    const jobs = new JobService(events);
    const personal = inMemoryPersonalData();
    const projector = new Projector(events, reads, jobsView);
    projector.start();
    // Leases of a minute (were 10 s): each job must be started once, and a run that a loaded machine held back past its lease would rightly be taken over.
    const workers = Array.from({ length: 3 }, (_, i) => new ExportWorker(new JobService(events), reads, personal.exports, { exportsDir, workerId: `w${i}`, pollMs: 5, leaseMs: 60_000 }));
    workers.forEach((w) => w.start());
    const ids = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const result = await jobs.requestExport(serviceViewer(`p${i}`), { format: i % 2 ? 'csv' : 'ndjson', filter: {} }, { correlationId: 'c', idempotency: { key: `k${i}`, fingerprint: 'f' } });
        return (result.state as { id: string }).id;
      }),
    );
    // Polled with no deadline but the test's (was 10 s, then on regardless).
    await until(async () => (await Promise.all(ids.map((id, i) => jobs.get(serviceViewer(`p${i}`), id)))).every((s) => s?.job.status === 'succeeded'));
    const runners = new Set<string>();
    for (const id of ids) {
      const types = (await events.readStream(`job-${id}`)).map((e) => e.type);
      if (types.filter((t) => t === 'JobStarted').length !== 1) console.log(JSON.stringify((await events.readStream(`job-${id}`)).map((e) => [e.revision, e.type, e.data, e.recordedAt])));
      expect(types.filter((t) => t === 'JobStarted')).toHaveLength(1);
      expect(types.filter((t) => t === 'JobSucceeded')).toHaveLength(1);
      runners.add(((await events.readStream(`job-${id}`))[1]!.data as { workerId: string }).workerId);
    }
    expect(runners.size).toBeGreaterThan(1);
    await Promise.all(workers.map((w) => w.stop()));
    await projector.stop();
    await reads.close();
    await events.close();
    dir.remove();
  });
});
