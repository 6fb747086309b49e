// Job events, commands and state. A job is long-running work (an order export, a webhook replay)
// whose every state change is an event: who claimed it, how far it got, how it ended. The
// lifecycle (claim, lease, progress, outcome) is one for every kind; what a job does is its kind's.

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';
export type ExportFormat = 'ndjson' | 'csv';

export interface ExportFilter {
  /** As clients of the export's API version read the status (partially_shipped since 2027-01-01). */
  readonly status?: 'pending' | 'paid' | 'partially_shipped' | 'shipped' | 'cancelled';
  /** Inclusive lower bound on createdAt (RFC 3339). */
  readonly createdFrom?: string;
  /** Exclusive upper bound on createdAt (RFC 3339). */
  readonly createdTo?: string;
}

/** An export's result: its file. */
export interface ExportResult {
  /** File name inside the exports folder. */
  readonly file: string;
  readonly contentType: string;
  readonly count: number;
  readonly bytes: number;
}

/** A replay's result: how many events of its range were sent, each to a final outcome (succeeded or failed for good). */
export interface ReplayResult {
  readonly count: number;
}

export type JobResult = ExportResult | ReplayResult;

/** Why a job failed, as a domain code: api/ says it to clients as problem details. */
export type JobErrorCode = 'export-failed' | 'store-unavailable' | 'attempts-exhausted' | 'subscription-deleted';

export interface JobError {
  readonly code: JobErrorCode;
  /** Fit for the job's owner: never an internal message. */
  readonly detail: string;
}

/**
 * Version 2 added `apiVersion`. Version 1 events are upcast on read (jobs/codec.ts) with
 * 2026-11-01: nobody recorded one, and every version before 2027-01-01 reads an order alike.
 */
export type ExportRequested = {
  readonly type: 'ExportRequested';
  readonly schemaVersion: 2;
  readonly data: {
    readonly jobId: string;
    readonly owner: string;
    /** Set when a customer's token asked: the export holds only that customer's orders. */
    readonly customerId: string | null;
    readonly format: ExportFormat;
    readonly filter: ExportFilter;
    /** The Api-Version it was asked under: the file shows each order, and the filter selects, as that version's clients read them. */
    readonly apiVersion: string;
    readonly requestedAt: string;
  };
};
/**
 * A webhook replay (HTTP-CONTRACT "Webhooks"): every event of the range that the subscription
 * selects is sent again. `from` and `to` are log positions or RFC 3339 instants (UTC), both
 * inclusive; `to` is the log's head at the request when the client gave none, so the range is fixed.
 */
export type WebhookReplayRequested = {
  readonly type: 'WebhookReplayRequested';
  readonly schemaVersion: 1;
  readonly data: {
    readonly jobId: string;
    readonly owner: string;
    readonly customerId: null;
    readonly subscriptionId: string;
    readonly from: string;
    readonly to: string;
    readonly requestedAt: string;
  };
};

export type JobStarted = {
  readonly type: 'JobStarted';
  readonly schemaVersion: 1;
  readonly data: { readonly jobId: string; readonly workerId: string; readonly attempt: number; readonly leaseUntil: string; readonly startedAt: string };
};
export type JobProgressed = {
  readonly type: 'JobProgressed';
  readonly schemaVersion: 1;
  readonly data: { readonly jobId: string; readonly workerId: string; readonly processed: number; readonly total: number; readonly leaseUntil: string };
};
export type JobSucceeded = {
  readonly type: 'JobSucceeded';
  readonly schemaVersion: 1;
  readonly data: { readonly jobId: string; readonly workerId: string; readonly result: JobResult; readonly finishedAt: string };
};
/** Version 2 records a domain code; version 1 recorded problem details and is upcast on read (jobs/codec.ts). */
export type JobFailed = {
  readonly type: 'JobFailed';
  readonly schemaVersion: 2;
  readonly data: { readonly jobId: string; readonly workerId: string | null; readonly error: JobError; readonly finishedAt: string };
};
export type JobResultExpired = {
  readonly type: 'JobResultExpired';
  readonly schemaVersion: 1;
  readonly data: { readonly jobId: string; readonly expiredAt: string };
};

export type JobEvent = ExportRequested | WebhookReplayRequested | JobStarted | JobProgressed | JobSucceeded | JobFailed | JobResultExpired;

export interface JobCommandMetadata {
  readonly now: string;
  readonly principal: string;
}

export type JobCommand =
  | { readonly type: 'RequestExport'; readonly data: ExportRequested['data'] extends infer D ? Omit<D, 'requestedAt'> : never; readonly metadata: JobCommandMetadata }
  | { readonly type: 'RequestReplay'; readonly data: Omit<WebhookReplayRequested['data'], 'requestedAt'>; readonly metadata: JobCommandMetadata }
  | { readonly type: 'StartJob'; readonly data: { readonly jobId: string; readonly workerId: string; readonly leaseUntil: string }; readonly metadata: JobCommandMetadata }
  | { readonly type: 'RecordProgress'; readonly data: { readonly jobId: string; readonly workerId: string; readonly processed: number; readonly total: number; readonly leaseUntil: string }; readonly metadata: JobCommandMetadata }
  | { readonly type: 'CompleteJob'; readonly data: { readonly jobId: string; readonly workerId: string; readonly result: JobResult }; readonly metadata: JobCommandMetadata }
  | { readonly type: 'FailJob'; readonly data: { readonly jobId: string; readonly workerId: string; readonly error: JobError }; readonly metadata: JobCommandMetadata }
  | { readonly type: 'ExpireResult'; readonly data: { readonly jobId: string }; readonly metadata: JobCommandMetadata };

/** What every job has: its lifecycle. */
interface JobLifecycle {
  readonly status: JobStatus;
  readonly id: string;
  readonly owner: string;
  readonly customerId: string | null;
  readonly progress: { readonly processed: number; readonly total: number };
  readonly createdAt: string;
  readonly startedAt: string | null;
  readonly finishedAt: string | null;
  readonly error: JobError | null;
  readonly lease: { readonly workerId: string; readonly until: string } | null;
  readonly attempts: number;
}

export interface ExportJob extends JobLifecycle {
  readonly type: 'order-export';
  readonly format: ExportFormat;
  readonly filter: ExportFilter;
  readonly apiVersion: string;
  readonly result: ExportResult | null;
  readonly resultExpiredAt: string | null;
}

export interface ReplayJob extends JobLifecycle {
  readonly type: 'webhook-replay';
  readonly subscriptionId: string;
  readonly from: string;
  readonly to: string;
  readonly result: ReplayResult | null;
}

export type Job = ExportJob | ReplayJob;
export type JobType = Job['type'];

export type JobState = { readonly status: 'absent' } | Job;
