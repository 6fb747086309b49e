// The accounts' view.
import type { Role } from '../../write-side/kernel/access.js';
import type { Account } from '../../write-side/accounts/types.js';

/** An account as the administrators list it: never its password's hash. */
export interface AccountView {
  readonly id: string;
  readonly email: string;
  readonly role: Role;
  /** Only for the `customer` role; null otherwise. */
  readonly customerId: string | null;
  readonly disabled: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly revision: number;
}

/** The account's representation (HTTP-CONTRACT "Accounts and login"), which is also its view: nothing of the password. */
export function accountRepresentation(account: Account, revision: number): AccountView {
  const { id, email, role, customerId, status, createdAt, updatedAt } = account;
  return { id, email, role, customerId, disabled: status === 'disabled', createdAt, updatedAt, revision };
}
