// Long-running work as job resources: POST /exports starts an order export (202), GET /jobs/{id}
// follows it, GET /jobs/{id}/result downloads the file once it succeeded.
import Router from '@koa/router';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context } from 'koa';
import type { JobService } from '../../write-side/jobs/service.js';
import { resultExpiresAt } from '../../write-side/jobs/rules.js';
import type { ExportFilter, ExportFormat, Job } from '../../write-side/jobs/types.js';
import { hasScope } from '../auth.js';
import { readJson } from '../body.js';
import { fingerprint, idempotencyKey, idempotencyRequest, type InFlight } from '../idempotency.js';
import { requireScope } from '../middleware/auth.js';
import { HttpProblem, jobErrorProblem, validationFailed } from '../problem.js';
import { ORDER_ID_PATTERN } from '../schemas.js';
import { bodyValidator } from '../validation.js';

export interface JobRoutesDeps {
  readonly jobs: JobService;
  /** Where the export worker writes its files. */
  readonly exportsDir: string;
  readonly retentionMs: number;
  readonly inFlight: InFlight;
}

type NewExport = { format: ExportFormat; filter?: ExportFilter };
const validNewExport = bodyValidator<NewExport>('NewExport');
const JOB_ID = new RegExp(ORDER_ID_PATTERN);
const POLL_AFTER_SECONDS = '1';
const EXTENSIONS: Readonly<Record<ExportFormat, string>> = { ndjson: 'ndjson', csv: 'csv' };

export function jobRoutes(deps: JobRoutesDeps): Router {
  const { jobs, exportsDir, inFlight } = deps;
  const router = new Router();

  router.post('/exports', requireScope('exports:write'), async (ctx) => {
    const key = idempotencyKey(ctx);
    const body = await readJson(ctx, { mediaTypes: ['application/json'] });
    const input = validNewExport(body);
    const filter = normaliseFilter(input.filter ?? {});
    const { principal } = ctx.state;
    const print = fingerprint('POST', '/exports', body);
    const result = await inFlight.run(principal.sub, key, () =>
      jobs.requestExport(principal, { format: input.format, filter }, { correlationId: ctx.state.correlationId, causationId: ctx.state.correlationId, idempotency: idempotencyRequest(ctx, key, print) }),
    );
    if (result.state.status === 'absent') throw new Error('export request recorded no job');
    if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
    ctx.status = 202;
    ctx.set('Location', `/jobs/${result.state.id}`);
    ctx.set('Retry-After', POLL_AFTER_SECONDS);
    ctx.body = representation(result.state, deps.retentionMs);
  });

  router.get('/jobs/:id', async (ctx) => {
    const job = await visibleJob(ctx);
    if (job.status === 'queued' || job.status === 'running') ctx.set('Retry-After', POLL_AFTER_SECONDS);
    ctx.body = representation(job, deps.retentionMs);
  });

  router.get('/jobs/:id/result', async (ctx) => {
    const job = await visibleJob(ctx);
    if (job.status !== 'succeeded') {
      throw new HttpProblem(409, 'state-conflict', `Job ${job.id} is ${job.status}; its result exists once it has succeeded.`, { currentStatus: job.status });
    }
    if (!job.result) {
      throw new HttpProblem(410, 'result-expired', `The result of job ${job.id} was removed at ${job.resultExpiredAt}; start a new export.`, { resultExpiredAt: job.resultExpiredAt });
    }
    const path = join(exportsDir, job.result.file);
    const size = await stat(path).then((s) => s.size, () => null);
    if (size === null) throw new HttpProblem(410, 'result-expired', `The result of job ${job.id} is no longer kept; start a new export.`);
    ctx.set('Content-Type', job.result.contentType);
    ctx.set('Content-Length', String(size));
    ctx.set('Content-Disposition', `attachment; filename="orders-${job.id}.${EXTENSIONS[job.format]}"`);
    ctx.body = createReadStream(path);
  });

  /** The job, if this token started it or audits as staff; 404 otherwise, exactly as for an unknown job. */
  async function visibleJob(ctx: Context): Promise<Job> {
    const { principal } = ctx.state;
    if (!hasScope(principal, 'audit:read') && !hasScope(principal, 'exports:write')) {
      throw new HttpProblem(403, 'forbidden', 'Reading jobs needs the exports:write or the audit:read scope.', { requiredScope: 'exports:write' });
    }
    const id = ctx.params.id ?? '';
    if (!JOB_ID.test(id)) throw validationFailed([{ pointer: '/path/id', message: 'must be a job id (a UUID)' }]);
    return jobs.visible(principal, id);
  }

  return router;
}

function representation(job: Job, retentionMs: number) {
  const { id, type, status, format, filter, progress, createdAt, startedAt, finishedAt, error, resultExpiredAt } = job;
  return {
    id, type, status, format, filter, progress, createdAt, startedAt, finishedAt,
    result: job.result ? { href: `/jobs/${id}/result`, contentType: job.result.contentType, count: job.result.count, bytes: job.result.bytes } : null,
    resultExpiresAt: resultExpiresAt(job, retentionMs),
    resultExpiredAt,
    error: error ? jobErrorProblem(error) : null,
  };
}

/** Bounds become UTC instants in the form the views store, so that they compare as text. */
function normaliseFilter(filter: ExportFilter): ExportFilter {
  const errors = [];
  const instant = (name: 'createdFrom' | 'createdTo') => {
    const value = filter[name];
    if (value === undefined) return {};
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) {
      errors.push({ pointer: `/filter/${name}`, message: 'must be an RFC 3339 date-time' });
      return {};
    }
    return { [name]: new Date(ms).toISOString() };
  };
  const normalised: ExportFilter = { ...(filter.status ? { status: filter.status } : {}), ...instant('createdFrom'), ...instant('createdTo') };
  if (normalised.createdFrom && normalised.createdTo && normalised.createdFrom >= normalised.createdTo) {
    errors.push({ pointer: '/filter/createdTo', message: 'must be later than createdFrom' });
  }
  if (errors.length > 0) throw validationFailed(errors);
  return normalised;
}
