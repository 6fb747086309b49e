// Account events, commands and state. An account is a person's sign-in: an email, a role (whose
// scopes its tokens carry), for the `customer` role the customer it acts for, and an argon2id
// hash of its password. The password itself is never in an event, a command or a state.
import type { Role } from '../kernel/access.js';

/** A password hash as argon2id's PHC string ($argon2id$v=19$m=…,t=…,p=…$salt$hash). */
export type PasswordHash = string;

export type AccountCreated = {
  readonly type: 'AccountCreated';
  readonly schemaVersion: 1;
  readonly data: {
    readonly accountId: string;
    /** Lower-cased: one account per email, whatever its case. */
    readonly email: string;
    readonly role: Role;
    /** Set for the `customer` role only. */
    readonly customerId: string | null;
    readonly passwordHash: PasswordHash;
    readonly createdAt: string;
  };
};
export type AccountRoleChanged = {
  readonly type: 'AccountRoleChanged';
  readonly schemaVersion: 1;
  readonly data: { readonly accountId: string; readonly role: Role; readonly changedAt: string };
};
export type AccountDisabled = {
  readonly type: 'AccountDisabled';
  readonly schemaVersion: 1;
  readonly data: { readonly accountId: string; readonly disabledAt: string };
};
export type AccountEnabled = {
  readonly type: 'AccountEnabled';
  readonly schemaVersion: 1;
  readonly data: { readonly accountId: string; readonly enabledAt: string };
};
export type AccountPasswordChanged = {
  readonly type: 'AccountPasswordChanged';
  readonly schemaVersion: 1;
  readonly data: { readonly accountId: string; readonly passwordHash: PasswordHash; readonly changedAt: string };
};

/**
 * unique-values.ts appends it to an account stream whose email claim it revoked (the account's
 * creation died between its claim and its append): it changes nothing of the account.
 */
export type AccountClaimFenced = {
  readonly type: 'UniqueValueClaimFenced';
  readonly schemaVersion: 1;
  readonly data: { readonly claim: string; readonly claimRevision: number };
};

export type AccountEvent = AccountCreated | AccountRoleChanged | AccountDisabled | AccountEnabled | AccountPasswordChanged | AccountClaimFenced;
export type AccountEventType = AccountEvent['type'];

export interface AccountCommandMetadata {
  readonly now: string;
}

export type AccountCommand =
  | {
      readonly type: 'CreateAccount';
      readonly data: { readonly accountId: string; readonly email: string; readonly role: Role; readonly customerId: string | null; readonly passwordHash: PasswordHash };
      readonly metadata: AccountCommandMetadata;
    }
  | {
      readonly type: 'UpdateAccount';
      readonly data: { readonly accountId: string; readonly role?: Role; readonly disabled?: boolean };
      readonly metadata: AccountCommandMetadata;
    }
  | { readonly type: 'ChangePassword'; readonly data: { readonly accountId: string; readonly passwordHash: PasswordHash }; readonly metadata: AccountCommandMetadata };

export interface Account {
  readonly status: 'active' | 'disabled';
  readonly id: string;
  readonly email: string;
  readonly role: Role;
  readonly customerId: string | null;
  readonly passwordHash: PasswordHash;
  /**
   * Counts the changes that take the account's earlier tokens away (a disabling, a new password,
   * a new role). A token carries the count it was issued at; one that differs is refused.
   */
  readonly tokenVersion: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export type AccountState = { readonly status: 'absent' } | Account;
