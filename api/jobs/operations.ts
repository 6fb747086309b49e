// Long-running work as job resources: POST /exports starts an order export (202), GET /jobs/{id}
// follows it, GET /jobs/{id}/result downloads the file once it succeeded.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context } from 'koa';
import { MAX_ACTIVE_EXPORTS, type JobResultOf, type JobService } from '../../write-side/jobs/service.js';
import type { ExportFilter, ExportFormat, ExportJob, Job } from '../../write-side/jobs/types.js';
import { statusKnownTo } from '../../read-side/orders/status.js';
import { hasScope } from '../auth.js';
import { keyedPost } from '../idempotency.js';
import { area, type Operation, type Shared } from '../operation.js';
import { authProblems, commonHeaders, header, headerRef, idempotencyKey, json, problem, rateLimitHeaders, ref, responseRef, retryAfter } from '../openapi-parts.js';
import { EXPORT_LIMIT_RETRY_AFTER_SECONDS, HttpProblem, validationFailed } from '../problem.js';
import { ORDER_ID_PATTERN, sharedSchemas } from '../schemas.js';
import { validators } from '../validation.js';
import { jobSchemas } from './schemas.js';
import { jobRepresentation } from './representation.js';

export interface ExportDeps {
  readonly jobs: JobService;
  /** Where the export worker writes its files. */
  readonly exportsDir: string;
  readonly retentionMs: number;
}
type Deps = ExportDeps & Pick<Shared, 'inFlight'>;

type NewExport = { format: ExportFormat; filter?: ExportFilter };
const { bodyValidator } = validators({ ...sharedSchemas, ...jobSchemas });
const validNewExport = bodyValidator<NewExport>('NewExport');
const JOB_ID = new RegExp(ORDER_ID_PATTERN);
const POLL_AFTER_SECONDS = '1';
const EXTENSIONS: Readonly<Record<ExportFormat, string>> = { ndjson: 'ndjson', csv: 'csv' };
const jobId = { $ref: '#/components/parameters/JobId' };

const operations: Operation<Deps>[] = [
  {
    method: 'post',
    path: '/exports',
    access: { scope: 'exports:write' },
    operationId: 'startExport',
    tags: ['jobs'],
    summary: 'Start an order export',
    description: 'Needs exports:write. Answers 202 at once with the job; the export runs in the background (in the service, or in a process started with --role worker). A customer token exports only its own orders. A retry with the same Idempotency-Key and body returns the same job. ' +
      'The file shows each order, and the status filter selects, as the request\'s Api-Version reads the status (under 2026-11-01 and 2026-12-01 a partially_shipped order is paid), whenever the export runs. ' +
      `One principal (sub and customer together) may have at most ${MAX_ACTIVE_EXPORTS} exports queued or running at once: the next is 429 rate-limited, with Retry-After, until one of them ends (a retry of an accepted request is still answered with its job).`,
    parameters: [idempotencyKey],
    requestBody: { required: true, content: json(ref('NewExport')) },
    responses: {
      '202': { description: 'The job was accepted.', headers: { ...commonHeaders, ...rateLimitHeaders, Location: header('/jobs/{id}', { type: 'string' }, true), 'Retry-After': retryAfter(true), 'Idempotent-Replayed': headerRef('Idempotent-Replayed') }, content: json(ref('ExportJob')) },
      ...authProblems,
      '409': responseRef('IdempotencyKeyInUse'),
      '413': responseRef('PayloadTooLarge'),
      '415': responseRef('UnsupportedMediaType'),
      '422': responseRef('IdempotencyKeyReused'),
      '429': problem(
        `rate-limited: the token's rate limit, or ${MAX_ACTIVE_EXPORTS} exports of this principal already queued or running (the problem then has limit: ${MAX_ACTIVE_EXPORTS}); Retry-After says when to try again (about ${EXPORT_LIMIT_RETRY_AFTER_SECONDS} s for the export cap).`,
        429,
        ['rate-limited'],
        { 'Retry-After': retryAfter(true) },
      ),
    },
    async handle(ctx, { jobs, inFlight, retentionMs }) {
      const result = await keyedPost(ctx, inFlight, {
        validate: (body) => {
          const input = validNewExport(body);
          return { format: input.format, filter: normaliseFilter(input.filter ?? {}, ctx.state.apiVersion), apiVersion: ctx.state.apiVersion };
        },
        target: () => null,
        path: () => '/exports',
        perTargetUnderOldVersion: true,
        run: (input, _, context) => jobs.requestExport(ctx.state.principal, input, context),
        location: (requested) => `/jobs/${recorded(requested).id}`,
      });
      ctx.status = 202;
      ctx.set('Retry-After', POLL_AFTER_SECONDS);
      ctx.body = jobRepresentation(recorded(result), retentionMs);
    },
  },
  {
    method: 'get',
    path: '/jobs/{id}',
    pathParameters: [jobId],
    // Either scope reads jobs: the handler checks (visibleJob).
    access: { scope: 'exports:write', checkedBy: 'handler' },
    operationId: 'getJob',
    tags: ['jobs'],
    summary: 'Follow a job',
    description: 'Needs exports:write or webhooks:admin (the jobs this principal started: its sub and customer together) or audit:read on a staff token (any job); anyone else gets 404, a customer token included whatever its scopes. Retry-After is set while the job is queued or running. ' +
      'An order export (type order-export) keeps its result for the retention (EXPORT_RETENTION_SECONDS, default 24 h); then result becomes null and resultExpiredAt says when. A webhook replay (type webhook-replay, started by POST /webhook-subscriptions/{id}/replays) has no file: its result counts the events it sent.',
    responses: {
      '200': { description: 'The job.', headers: { ...commonHeaders, ...rateLimitHeaders, 'Retry-After': retryAfter(false) }, content: json(ref('Job')) },
      ...authProblems,
      '404': responseRef('NotFound'),
    },
    async handle(ctx, { jobs, retentionMs }) {
      const job = await visibleJob(ctx, jobs);
      if (job.status === 'queued' || job.status === 'running') ctx.set('Retry-After', POLL_AFTER_SECONDS);
      ctx.body = jobRepresentation(job, retentionMs);
    },
  },
  {
    method: 'get',
    path: '/jobs/{id}/result',
    pathParameters: [jobId],
    access: { scope: 'exports:write', checkedBy: 'handler' },
    operationId: 'getJobResult',
    tags: ['jobs'],
    summary: 'Download the export',
    description: 'The file, streamed, once the export has succeeded: 409 state-conflict before (currentStatus says how far it is), 410 result-expired after the retention. A webhook replay has no file: 404.',
    responses: {
      '200': {
        description: 'The export file.',
        headers: { ...commonHeaders, ...rateLimitHeaders, 'Content-Length': header('bytes', { type: 'integer' }), 'Content-Disposition': header('attachment; filename="orders-<id>.<ndjson|csv>"', { type: 'string' }, true) },
        content: { 'application/x-ndjson': { schema: { type: 'string' } }, 'text/csv': { schema: { type: 'string' } } },
      },
      ...authProblems,
      '404': responseRef('NotFound'),
      '409': responseRef('StateConflict'),
      '410': problem('result-expired: the result was removed after the retention.', 410, ['result-expired']),
    },
    async handle(ctx, { jobs, exportsDir }) {
      const job = await visibleJob(ctx, jobs);
      if (job.type !== 'order-export') throw new HttpProblem(404, 'not-found', `Job ${job.id} is a ${job.type}: it has no result file.`);
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
    },
  },
];

export const jobsArea = area<ExportDeps, Deps, typeof jobSchemas>({
  schemas: jobSchemas,
  tags: [{ name: 'jobs', description: 'Long-running work: order exports' }],
  operations,
  deps: ({ inFlight }, own) => own && { ...own, inFlight },
});

function recorded(result: JobResultOf): ExportJob {
  if (result.state.status === 'absent' || result.state.type !== 'order-export') throw new Error('export request recorded no export');
  return result.state;
}

/** The job, if this token started it or audits as staff; 404 otherwise, exactly as for an unknown job. */
async function visibleJob(ctx: Context, jobs: JobService): Promise<Job> {
  const { principal } = ctx.state;
  if (!hasScope(principal, 'audit:read') && !hasScope(principal, 'exports:write') && !hasScope(principal, 'webhooks:admin')) {
    throw new HttpProblem(403, 'forbidden', 'Reading jobs needs the exports:write, webhooks:admin or audit:read scope.', { requiredScope: 'exports:write' });
  }
  const id = ctx.params.id ?? '';
  if (!JOB_ID.test(id)) throw validationFailed([{ pointer: '/path/id', message: 'must be a job id (a UUID)' }]);
  return jobs.visible(principal, id);
}
/**
 * Bounds become UTC instants in the form the views store, so that they compare as text. A status
 * the version's clients do not know (partially_shipped before 2027-01-01) is refused, as GET /orders refuses it.
 */
function normaliseFilter(filter: ExportFilter, apiVersion: string): ExportFilter {
  const errors = [];
  if (filter.status && !statusKnownTo(filter.status, apiVersion)) {
    errors.push({ pointer: '/filter/status', message: `is not a status of Api-Version ${apiVersion}: ${filter.status} is known from 2027-01-01 on` });
  }
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
