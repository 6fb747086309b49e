// How job events are stored: one stream per job, `job-<id>`. JobFailed version 1 recorded an
// RFC 9457 problem as its error; it is upcast on read to the domain code it stood for.
// ExportRequested version 1 recorded no API version; it is upcast to 2026-11-01.
import type { EventMetadata, JsonObject, NewEvent, RecordedEvent } from '../kernel/event-store.js';
import type { JobError, JobEvent } from './types.js';

export const JOB_STREAM_PREFIX = 'job-';

export const jobStream = (jobId: string): string => JOB_STREAM_PREFIX + jobId;

/** The exports one principal (sub and customer) asked for, one `ExportSlotTaken` event each. */
export const exportSlotsStream = (sub: string, customerId: string | null): string =>
  `exports-of-${Buffer.from(JSON.stringify([sub, customerId])).toString('base64url')}`;

export function exportSlotTaken(jobId: string, metadata: Omit<EventMetadata, 'schemaVersion'>): NewEvent {
  return { type: 'ExportSlotTaken', data: { jobId }, metadata: { ...metadata, schemaVersion: 1 } };
}

const TYPES = new Set<string>(['ExportRequested', 'WebhookReplayRequested', 'JobStarted', 'JobProgressed', 'JobSucceeded', 'JobFailed', 'JobResultExpired']);
/** The schema version each type is written with now. */
const CURRENT: Readonly<Record<string, number>> = { JobFailed: 2, ExportRequested: 2 };
/** What an export asked before its API version was recorded is read as (types.ts, ExportRequested). */
const UNRECORDED_API_VERSION = '2026-11-01';

export function encodeJobEvent(event: JobEvent, metadata: Omit<EventMetadata, 'schemaVersion'>): NewEvent {
  return { type: event.type, data: event.data as unknown as JsonObject, metadata: { ...metadata, schemaVersion: event.schemaVersion } };
}

export function decodeJobEvent(recorded: Pick<RecordedEvent, 'type' | 'data' | 'metadata'>): JobEvent {
  if (!TYPES.has(recorded.type)) throw new TypeError(`not a job event: ${recorded.type}`);
  const version = recorded.metadata.schemaVersion;
  const current = CURRENT[recorded.type] ?? 1;
  if (version === current) return { type: recorded.type, schemaVersion: current, data: recorded.data } as unknown as JobEvent;
  if (recorded.type === 'JobFailed' && version === 1) {
    const { error, ...rest } = recorded.data as { error: { type?: unknown; detail?: unknown } };
    return { type: 'JobFailed', schemaVersion: 2, data: { ...rest, error: upcastProblem(error) } } as unknown as JobEvent;
  }
  if (recorded.type === 'ExportRequested' && version === 1) {
    return { type: 'ExportRequested', schemaVersion: 2, data: { ...recorded.data, apiVersion: UNRECORDED_API_VERSION } } as unknown as JobEvent;
  }
  throw new TypeError(`${recorded.type} has schema version ${version}, which this build cannot read`);
}

/** A version 1 problem's `type` ended in the API code it was answered with. */
function upcastProblem(problem: { type?: unknown; detail?: unknown }): JobError {
  const detail = typeof problem.detail === 'string' ? problem.detail : 'The export failed.';
  if (typeof problem.type === 'string' && problem.type.endsWith('/unavailable')) return { code: 'store-unavailable', detail };
  if (detail.includes('abandoned after')) return { code: 'attempts-exhausted', detail };
  return { code: 'export-failed', detail };
}
