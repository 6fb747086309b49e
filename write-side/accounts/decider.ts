// The account decider: pure, the clock and the password's hash arrive in the command. A role is
// a staff role or `customer`, fixed at creation: an account never moves between acting for one
// customer and acting for the store, since its customer would then be lost or made up.
import { AccountNotFound, StateConflict, ValidationFailed } from '../kernel/errors.js';
import type { Account, AccountCommand, AccountEvent, AccountState } from './types.js';

export const initialAccountState = (): AccountState => ({ status: 'absent' });

export function evolveAccount(state: AccountState, event: AccountEvent): AccountState {
  if (event.type === 'UniqueValueClaimFenced') return state;
  if (event.type === 'AccountCreated') {
    const { accountId: id, email, role, customerId, passwordHash, createdAt } = event.data;
    return { status: 'active', id, email, role, customerId, passwordHash, tokenVersion: 0, createdAt, updatedAt: createdAt };
  }
  const account = existing(state, event.data.accountId);
  switch (event.type) {
    case 'AccountRoleChanged':
      return { ...account, role: event.data.role, tokenVersion: account.tokenVersion + 1, updatedAt: event.data.changedAt };
    case 'AccountDisabled':
      return { ...account, status: 'disabled', tokenVersion: account.tokenVersion + 1, updatedAt: event.data.disabledAt };
    case 'AccountEnabled':
      return { ...account, status: 'active', updatedAt: event.data.enabledAt };
    case 'AccountPasswordChanged':
      return { ...account, passwordHash: event.data.passwordHash, tokenVersion: account.tokenVersion + 1, updatedAt: event.data.changedAt };
    default: {
      const unknown: never = event;
      throw new TypeError(`unhandled event ${(unknown as AccountEvent).type}`);
    }
  }
}

export function decideAccount(command: AccountCommand, state: AccountState): AccountEvent[] {
  const now = command.metadata.now;
  switch (command.type) {
    case 'CreateAccount': {
      if (state.status !== 'absent') throw new StateConflict(`Account ${state.id} exists already.`, state.status);
      const { role, customerId } = command.data;
      if (role === 'customer' && customerId === null) throw new ValidationFailed([{ pointer: '/customerId', message: 'is required for the customer role' }]);
      if (role !== 'customer' && customerId !== null) throw new ValidationFailed([{ pointer: '/customerId', message: 'is only for the customer role' }]);
      return [{ type: 'AccountCreated', schemaVersion: 1, data: { ...command.data, createdAt: now } }];
    }
    case 'UpdateAccount': {
      const account = existing(state, command.data.accountId);
      const { role, disabled } = command.data;
      const events: AccountEvent[] = [];
      if (role !== undefined && role !== account.role) {
        if (role === 'customer' || account.role === 'customer') {
          throw new ValidationFailed([{ pointer: '/role', message: 'an account is a customer’s or the store’s from its creation: the customer role can be neither given nor taken away' }]);
        }
        events.push({ type: 'AccountRoleChanged', schemaVersion: 1, data: { accountId: account.id, role, changedAt: now } });
      }
      if (disabled === true && account.status === 'active') events.push({ type: 'AccountDisabled', schemaVersion: 1, data: { accountId: account.id, disabledAt: now } });
      if (disabled === false && account.status === 'disabled') events.push({ type: 'AccountEnabled', schemaVersion: 1, data: { accountId: account.id, enabledAt: now } });
      return events;
    }
    case 'ChangePassword': {
      const account = existing(state, command.data.accountId);
      return [{ type: 'AccountPasswordChanged', schemaVersion: 1, data: { accountId: account.id, passwordHash: command.data.passwordHash, changedAt: now } }];
    }
    default: {
      const unknown: never = command;
      throw new TypeError(`unhandled command ${(unknown as AccountCommand).type}`);
    }
  }
}

export const accountDecider = { initialState: initialAccountState, evolve: evolveAccount, decide: decideAccount };

function existing(state: AccountState, accountId: string): Account {
  if (state.status === 'absent') throw new AccountNotFound(accountId);
  return state;
}
