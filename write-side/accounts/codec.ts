// How account events are stored: one stream per account, `account-<id>`.
import type { EventMetadata, JsonObject, NewEvent, RecordedEvent } from '../kernel/event-store.js';
import type { AccountEvent, AccountEventType } from './types.js';

export const ACCOUNT_STREAM_PREFIX = 'account-';

export const accountStream = (accountId: string): string => ACCOUNT_STREAM_PREFIX + accountId;

const TYPES: ReadonlySet<string> = new Set<AccountEventType>(['AccountCreated', 'AccountRoleChanged', 'AccountDisabled', 'AccountEnabled', 'AccountPasswordChanged', 'UniqueValueClaimFenced']);
// 'UniqueValueClaimFenced' is unique-values.ts's CLAIM_FENCED: the domain names it without reaching the
// mechanism (which does I/O); accounts/service.ts ties the two at compile time.

export function encodeAccountEvent(event: AccountEvent, metadata: Omit<EventMetadata, 'schemaVersion'>): NewEvent {
  return { type: event.type, data: event.data as unknown as JsonObject, metadata: { ...metadata, schemaVersion: event.schemaVersion } };
}

export function decodeAccountEvent(recorded: Pick<RecordedEvent, 'type' | 'data' | 'metadata'>): AccountEvent {
  if (!TYPES.has(recorded.type)) throw new TypeError(`not an account event: ${recorded.type}`);
  if (recorded.metadata.schemaVersion !== 1) throw new TypeError(`${recorded.type} has schema version ${recorded.metadata.schemaVersion}, which this build cannot read`);
  return { type: recorded.type, schemaVersion: 1, data: recorded.data } as unknown as AccountEvent;
}
