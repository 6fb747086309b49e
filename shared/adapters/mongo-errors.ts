// What both sides' MongoDB adapters share: the driver's time bounds, and which driver failures
// mean "the store cannot serve right now" (answered as StoreUnavailable, 503 with Retry-After).
import {
  MongoBulkWriteError, type MongoClientOptions, MongoClientClosedError, MongoError, MongoErrorLabel, MongoNetworkError,
  MongoNotConnectedError, MongoOperationTimeoutError, MongoServerSelectionError, MongoTopologyClosedError,
} from 'mongodb';
import { StoreUnavailable } from '../../write-side/event-store.js';

/**
 * The driver's waits, bounded below the request timeout: without them, every read and readiness
 * probe during an outage waits for the driver's 30 s server selection, longer than the request
 * timeout and the compose health check. Half the request timeout is left for the rest of a request.
 */
export function mongoClientOptions(requestTimeoutMs: number): MongoClientOptions {
  const timeoutMS = Math.max(1, Math.floor(requestTimeoutMs / 2));
  // ignoreUndefined: an absent field reads back absent, as through JSON in the embedded store, not as null.
  return { ignoreUndefined: true, timeoutMS, serverSelectionTimeoutMS: Math.min(2_000, timeoutMS), connectTimeoutMS: Math.min(2_000, timeoutMS) };
}

const UNREACHABLE = [
  MongoNetworkError, MongoServerSelectionError, MongoNotConnectedError, MongoTopologyClosedError, MongoClientClosedError, MongoOperationTimeoutError,
];

function unavailable(error: unknown): boolean {
  // bulkWrite wraps a failure to reach the server in a MongoBulkWriteError that keeps it as errorResponse.
  if (error instanceof MongoBulkWriteError && error.errorResponse instanceof Error) return unavailable(error.errorResponse);
  if (UNREACHABLE.some((type) => error instanceof type)) return true;
  // What the driver retried once and still could not write (not primary, shutting down, connection lost).
  return error instanceof MongoError && error.hasErrorLabel(MongoErrorLabel.RetryableWriteError);
}

export function storeError(error: unknown): unknown {
  if (error instanceof StoreUnavailable || !unavailable(error)) return error;
  return new StoreUnavailable(`MongoDB unavailable: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

export async function guard<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw storeError(error);
  }
}
