// Job events as stored: JobFailed version 1 recorded problem details, and reads as the domain code it stood for.
import { describe, expect, it } from 'vitest';
import { decodeJobEvent, encodeJobEvent } from '../../../write-side/jobs/codec.js';
import type { JsonObject } from '../../../write-side/kernel/event-store.js';
import type { JobEvent } from '../../../write-side/jobs/types.js';

const meta = (schemaVersion: number) => ({ schemaVersion, principal: 'worker:w1', correlationId: 'c', causationId: null });
const v1 = (error: JsonObject) => decodeJobEvent({ type: 'JobFailed', data: { jobId: 'j', workerId: 'w1', error, finishedAt: '2026-11-22T10:00:00.000Z' }, metadata: meta(1) });

describe('job codec', () => {
  it('writes JobFailed with a domain code and reads it back as it was', () => {
    const event: JobEvent = { type: 'JobFailed', schemaVersion: 2, data: { jobId: 'j', workerId: 'w1', error: { code: 'store-unavailable', detail: 'd' }, finishedAt: '2026-11-22T10:00:00.000Z' } };
    const stored = encodeJobEvent(event, { principal: 'worker:w1', correlationId: 'c', causationId: null });
    expect(stored.metadata.schemaVersion).toBe(2);
    expect(JSON.stringify(stored.data)).not.toContain('https://');
    expect(decodeJobEvent(stored)).toEqual(event);
  });

  it('upcasts a version 1 problem to the domain code it stood for', () => {
    expect(v1({ type: 'https://errors.orders.example/unavailable', title: 'Service unavailable', status: 503, detail: 'A store was unavailable.' })).toEqual({
      type: 'JobFailed', schemaVersion: 2,
      data: { jobId: 'j', workerId: 'w1', error: { code: 'store-unavailable', detail: 'A store was unavailable.' }, finishedAt: '2026-11-22T10:00:00.000Z' },
    });
    expect(v1({ type: 'https://errors.orders.example/internal', title: 'Internal server error', status: 500, detail: 'The export was abandoned after 3 attempts that did not finish.' }).data)
      .toMatchObject({ error: { code: 'attempts-exhausted' } });
    expect(v1({ type: 'https://errors.orders.example/internal', title: 'Internal server error', status: 500, detail: 'The export failed unexpectedly.' }).data)
      .toMatchObject({ error: { code: 'export-failed', detail: 'The export failed unexpectedly.' } });
  });

  it('reads an export requested before its API version was recorded as asked under 2026-11-01', () => {
    const data = { jobId: 'j', owner: 'alice', customerId: null, format: 'csv', filter: { status: 'paid' as const }, requestedAt: '2026-11-22T10:00:00.000Z' };
    expect(decodeJobEvent({ type: 'ExportRequested', data, metadata: meta(1) })).toEqual({ type: 'ExportRequested', schemaVersion: 2, data: { ...data, apiVersion: '2026-11-01' } });
    const event: JobEvent = { type: 'ExportRequested', schemaVersion: 2, data: { ...data, format: 'csv', apiVersion: '2027-01-01' } };
    const stored = encodeJobEvent(event, { principal: 'alice', correlationId: 'c', causationId: null });
    expect(stored.metadata.schemaVersion).toBe(2);
    expect(decodeJobEvent(stored)).toEqual(event);
  });

  it('refuses a schema version it does not know', () => {
    expect(() => decodeJobEvent({ type: 'JobFailed', data: {}, metadata: meta(3) })).toThrow(/schema version 3/);
    expect(() => decodeJobEvent({ type: 'JobStarted', data: {}, metadata: meta(2) })).toThrow(/schema version 2/);
  });
});
