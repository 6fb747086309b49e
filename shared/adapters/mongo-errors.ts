// What both sides' MongoDB adapters share: the driver's time bounds, and which driver failures
// mean "the store cannot serve right now" (answered as StoreUnavailable, 503 with Retry-After).
import {
  MongoBulkWriteError, type MongoClientOptions, MongoClientClosedError, MongoDriverError, MongoError, MongoErrorLabel, MongoNetworkError,
  MongoNotConnectedError, MongoOperationTimeoutError, MongoServerError, MongoServerSelectionError, MongoTopologyClosedError,
} from 'mongodb';
import { StoreUnavailable } from '../../write-side/kernel/event-store.js';

/**
 * The driver's waits, bounded below the request timeout: without them, every read and readiness
 * probe during an outage waits for the driver's 30 s server selection, and an operation on a
 * server that stopped answering waits until TCP gives up. Driver 7.9.0 ignores `timeoutMS`
 * (connection_string.ts: "has no effect", with a deprecation warning for every client built),
 * so each wait has its own option:
 * - serverSelectionTimeoutMS and connectTimeoutMS: finding a server and opening a connection;
 * - waitQueueTimeoutMS: waiting for a free connection of the pool (half the request timeout);
 * - socketTimeoutMS: each answer on a connection (half the request timeout), which ends a hung
 *   operation (the connection is closed, a MongoNetworkTimeoutError). The driver retries a
 *   retryable read or write once after it, so a hung server holds an operation for up to twice
 *   this: the request timeout.
 * An index build at start-up longer than socketTimeoutMS (a release adding an index to a large
 * collection) fails the start as unavailable; the server goes on building, and a later start
 * waits for the build again.
 */
export function mongoClientOptions(requestTimeoutMs: number): MongoClientOptions {
  const operationMs = Math.max(1, Math.floor(requestTimeoutMs / 2));
  const findMs = Math.min(2_000, operationMs);
  return {
    // An absent field reads back absent, as through JSON in the embedded store, not as null.
    ignoreUndefined: true,
    serverSelectionTimeoutMS: findMs,
    connectTimeoutMS: findMs,
    waitQueueTimeoutMS: operationMs,
    socketTimeoutMS: operationMs,
  };
}

const UNREACHABLE = [
  MongoNetworkError, MongoServerSelectionError, MongoNotConnectedError, MongoTopologyClosedError, MongoClientClosedError, MongoOperationTimeoutError,
];

/** The server's answer to an operation that ran past its maxTimeMS (8.0's defaultMaxTimeMS sets one for every read). */
const MAX_TIME_MS_EXPIRED = 50;

function unavailable(error: unknown): boolean {
  // bulkWrite wraps a failure to reach the server in a MongoBulkWriteError that keeps it as errorResponse.
  if (error instanceof MongoBulkWriteError && error.errorResponse instanceof Error) return unavailable(error.errorResponse);
  if (UNREACHABLE.some((type) => error instanceof type)) return true;
  if (error instanceof MongoServerError && error.code === MAX_TIME_MS_EXPIRED) return true;
  // No free connection in the pool within waitQueueTimeoutMS; the driver does not export its class.
  if (error instanceof MongoDriverError && error.name === 'MongoWaitQueueTimeoutError') return true;
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
