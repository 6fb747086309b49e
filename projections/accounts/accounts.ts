// accounts: one document per account, as administrators list it. Folded by the account domain's
// own evolve; the password's hash stays in the event log and never reaches the read models.
import { ACCOUNT_STREAM_PREFIX, decodeAccountEvent } from '../../write-side/accounts/codec.js';
import { evolveAccount } from '../../write-side/accounts/decider.js';
import type { Account, AccountEvent } from '../../write-side/accounts/types.js';
import { accountRepresentation, type AccountView } from '../../read-side/accounts/views.js';
import type { EventContext, Projection } from '../projection.js';

export const accountsView: Projection<'accounts', AccountView, AccountEvent> = {
  name: 'accounts',
  storage: {
    fields: [{ name: 'createdAt', type: 'text', value: (v) => v.createdAt }],
    indexes: [['createdAt']],
  },
  streamPrefix: ACCOUNT_STREAM_PREFIX,
  decode: decodeAccountEvent,
  handles: new Set(['AccountCreated', 'AccountRoleChanged', 'AccountDisabled', 'AccountEnabled', 'AccountPasswordChanged']),
  keyOf: (event) => (event.type === 'UniqueValueClaimFenced' ? '' : event.data.accountId),
  evolve(view: AccountView | null, event, { revision }: EventContext): AccountView {
    // The view keeps no hash, so the account is folded on one with an empty one; evolve never reads it.
    const before: Account | { status: 'absent' } = view
      ? { ...view, status: view.disabled ? 'disabled' : 'active', passwordHash: '', tokenVersion: 0 }
      : { status: 'absent' };
    if (event.type === 'UniqueValueClaimFenced') throw new TypeError('a fenced claim is not projected');
    const account = evolveAccount(before, event);
    if (account.status === 'absent') throw new TypeError(`${event.type} left account ${event.data.accountId} absent`);
    return accountRepresentation(account, revision);
  },
};
