// How job events are stored: one stream per job, `job-<id>`.
import type { EventMetadata, JsonObject, NewEvent, RecordedEvent } from '../event-store.js';
import type { JobEvent } from './types.js';

export const JOB_STREAM_PREFIX = 'job-';

export const jobStream = (jobId: string): string => JOB_STREAM_PREFIX + jobId;

const TYPES = new Set<string>(['ExportRequested', 'JobStarted', 'JobProgressed', 'JobSucceeded', 'JobFailed', 'JobResultExpired']);

export function encodeJobEvent(event: JobEvent, metadata: Omit<EventMetadata, 'schemaVersion'>): NewEvent {
  return { type: event.type, data: event.data as unknown as JsonObject, metadata: { ...metadata, schemaVersion: event.schemaVersion } };
}

export function decodeJobEvent(recorded: Pick<RecordedEvent, 'type' | 'data' | 'metadata'>): JobEvent {
  if (!TYPES.has(recorded.type)) throw new TypeError(`not a job event: ${recorded.type}`);
  if (recorded.metadata.schemaVersion !== 1) throw new TypeError(`${recorded.type} has schema version ${recorded.metadata.schemaVersion}, which this build cannot read`);
  return { type: recorded.type, schemaVersion: 1, data: recorded.data } as unknown as JobEvent;
}
