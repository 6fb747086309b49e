import { describe, expect, it } from 'vitest';
import { StateConflict } from '../../../write-side/kernel/errors.js';
import { evolveJob, initialJobState, jobDecider, JobNotFound, MAX_ATTEMPTS } from '../../../write-side/jobs/decider.js';
import type { JobCommand, JobEvent } from '../../../write-side/jobs/types.js';
import { givenDecider } from '../../support/decider.js';

const given = givenDecider(jobDecider);
const at = (s: number) => new Date(Date.UTC(2026, 10, 22, 10, 0, s)).toISOString();
const meta = (s: number) => ({ now: at(s), principal: 'w' });

const requested: JobEvent = { type: 'ExportRequested', schemaVersion: 2, data: { jobId: 'j', owner: 'alice', customerId: null, format: 'csv', filter: {}, apiVersion: '2027-01-01', requestedAt: at(0) } };
const started = (worker: string, attempt: number, until: number): JobEvent => ({ type: 'JobStarted', schemaVersion: 1, data: { jobId: 'j', workerId: worker, attempt, leaseUntil: at(until), startedAt: at(until - 30) } });
const start = (worker: string, now: number, until = now + 30): JobCommand => ({ type: 'StartJob', data: { jobId: 'j', workerId: worker, leaseUntil: at(until) }, metadata: meta(now) });
const result = { file: 'j-1.csv', contentType: 'text/csv', count: 3, bytes: 100 };
const problem = { code: 'export-failed', detail: 'x' } as const;

describe('job decider', () => {
  it('requests an export once', () => {
    const command: JobCommand = { type: 'RequestExport', data: { jobId: 'j', owner: 'alice', customerId: null, format: 'csv', filter: {}, apiVersion: '2027-01-01' }, metadata: meta(0) };
    given().when(command).then(requested);
    given(requested).when(command).thenFails(StateConflict, { currentStatus: 'queued' });
  });

  it('requests a webhook replay once, and it runs with the same lifecycle: its result a count, no file, nothing to expire', () => {
    const data = { jobId: 'j', owner: 'admin', customerId: null, subscriptionId: 's', from: at(0), to: '0000000000000009' + '0000000000000009' };
    const command: JobCommand = { type: 'RequestReplay', data, metadata: meta(0) };
    const replay: JobEvent = { type: 'WebhookReplayRequested', schemaVersion: 1, data: { ...data, requestedAt: at(0) } };
    given().when(command).then(replay);
    given(replay).when(command).thenFails(StateConflict, { currentStatus: 'queued' });
    given(replay).when(start('w1', 1)).then(started('w1', 1, 31));
    const running = [replay, started('w1', 1, 31)];
    given(...running).when({ type: 'CompleteJob', data: { jobId: 'j', workerId: 'w1', result: { count: 7 } }, metadata: meta(20) })
      .then({ type: 'JobSucceeded', schemaVersion: 1, data: { jobId: 'j', workerId: 'w1', result: { count: 7 }, finishedAt: at(20) } });
    // An export's file is no replay's result.
    expect(() => jobDecider.decide({ type: 'CompleteJob', data: { jobId: 'j', workerId: 'w1', result }, metadata: meta(20) }, [...running].reduce(evolveJob, initialJobState()))).toThrow(TypeError);
    const done = [...running, { type: 'JobSucceeded', schemaVersion: 1, data: { jobId: 'j', workerId: 'w1', result: { count: 7 }, finishedAt: at(20) } } as JobEvent];
    given(...done).when({ type: 'ExpireResult', data: { jobId: 'j' }, metadata: meta(30) }).then();
    expect(done.reduce(evolveJob, initialJobState())).toMatchObject({ type: 'webhook-replay', status: 'succeeded', subscriptionId: 's', result: { count: 7 }, progress: { processed: 7, total: 7 } });
  });

  it('lets a worker claim a queued job', () => given(requested).when(start('w1', 1)).then(started('w1', 1, 31)));

  it('refuses a claim while another worker holds a live lease', () =>
    given(requested, started('w1', 1, 31)).when(start('w2', 20)).thenFails(StateConflict, { currentStatus: 'running' }));

  it('lets another worker take over once the lease lapsed', () =>
    given(requested, started('w1', 1, 31)).when(start('w2', 40)).then(started('w2', 2, 70)));

  it(`gives up after ${MAX_ATTEMPTS} attempts that never finished`, () => {
    given(requested, started('w1', 1, 31), started('w2', 2, 61), started('w3', 3, 91)).when(start('w4', 100))
      .thenMatches({ type: 'JobFailed', data: { workerId: null, error: { code: 'attempts-exhausted' } } });
  });

  it('takes progress, success and failure only from the worker that holds the job', () => {
    const running = [requested, started('w1', 1, 31)];
    given(...running).when({ type: 'RecordProgress', data: { jobId: 'j', workerId: 'w1', processed: 5, total: 9, leaseUntil: at(50) }, metadata: meta(20) })
      .then({ type: 'JobProgressed', schemaVersion: 1, data: { jobId: 'j', workerId: 'w1', processed: 5, total: 9, leaseUntil: at(50) } });
    given(...running).when({ type: 'RecordProgress', data: { jobId: 'j', workerId: 'w2', processed: 5, total: 9, leaseUntil: at(50) }, metadata: meta(20) }).thenFails(StateConflict);
    given(...running).when({ type: 'CompleteJob', data: { jobId: 'j', workerId: 'w2', result }, metadata: meta(20) }).thenFails(StateConflict);
    given(...running).when({ type: 'CompleteJob', data: { jobId: 'j', workerId: 'w1', result }, metadata: meta(20) })
      .then({ type: 'JobSucceeded', schemaVersion: 1, data: { jobId: 'j', workerId: 'w1', result, finishedAt: at(20) } });
    given(...running).when({ type: 'FailJob', data: { jobId: 'j', workerId: 'w1', error: problem }, metadata: meta(20) })
      .then({ type: 'JobFailed', schemaVersion: 2, data: { jobId: 'j', workerId: 'w1', error: problem, finishedAt: at(20) } });
    given(requested).when({ type: 'CompleteJob', data: { jobId: 'j', workerId: 'w1', result }, metadata: meta(20) }).thenFails(StateConflict, { currentStatus: 'queued' });
  });

  it('expires a result once, and nothing else', () => {
    const succeeded: JobEvent = { type: 'JobSucceeded', schemaVersion: 1, data: { jobId: 'j', workerId: 'w1', result, finishedAt: at(20) } };
    const expire: JobCommand = { type: 'ExpireResult', data: { jobId: 'j' }, metadata: meta(99) };
    const expired: JobEvent = { type: 'JobResultExpired', schemaVersion: 1, data: { jobId: 'j', expiredAt: at(99) } };
    given(requested, started('w1', 1, 31), succeeded).when(expire).then(expired);
    given(requested, started('w1', 1, 31), succeeded, expired).when(expire).then();
    given(requested).when(expire).then();
    given().when(expire).thenFails(JobNotFound);
  });

  it('folds a job into its state', () => {
    const job = [requested, started('w1', 1, 31), { type: 'JobSucceeded', schemaVersion: 1, data: { jobId: 'j', workerId: 'w1', result, finishedAt: at(20) } } as JobEvent].reduce(evolveJob, initialJobState());
    expect(job).toMatchObject({ status: 'succeeded', owner: 'alice', attempts: 1, lease: null, result, progress: { processed: 3, total: 3 }, finishedAt: at(20) });
  });
});
