// The account decider: given events, when a command, then events or an error.
import { describe, expect, it } from 'vitest';
import { accountDecider } from '../../../write-side/accounts/decider.js';
import type { AccountCommand, AccountEvent } from '../../../write-side/accounts/types.js';
import { AccountNotFound, StateConflict, ValidationFailed } from '../../../write-side/kernel/errors.js';
import { givenDecider } from '../../support/decider.js';

const given = givenDecider(accountDecider);
const now = '2026-11-22T10:00:00.000Z';
const meta = { now };
const id = 'a1';
const HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA';

const created = (role: 'staff' | 'customer' = 'staff'): AccountEvent => ({
  type: 'AccountCreated',
  schemaVersion: 1,
  data: { accountId: id, email: 'ada@shop.example', role, customerId: role === 'customer' ? 'cus_1' : null, passwordHash: HASH, createdAt: now },
});
const create = (role: 'staff' | 'customer', customerId: string | null): AccountCommand => ({
  type: 'CreateAccount',
  data: { accountId: id, email: 'ada@shop.example', role, customerId, passwordHash: HASH },
  metadata: meta,
});
const update = (data: { role?: 'admin' | 'staff' | 'customer'; disabled?: boolean }): AccountCommand => ({ type: 'UpdateAccount', data: { accountId: id, ...data }, metadata: meta });
const disabled: AccountEvent = { type: 'AccountDisabled', schemaVersion: 1, data: { accountId: id, disabledAt: now } };

describe('account decider', () => {
  it('creates an account', () => given().when(create('staff', null)).then(created()));
  it('creates a customer account with its customer', () => given().when(create('customer', 'cus_1')).then(created('customer')));
  it('refuses a customer account without a customer', () => given().when(create('customer', null)).thenFails(ValidationFailed));
  it('refuses a staff account with a customer', () => given().when(create('staff', 'cus_1')).thenFails(ValidationFailed));
  it('refuses to create an account twice', () => given(created()).when(create('staff', null)).thenFails(StateConflict));
  it('changes the role and disables in one patch', () =>
    given(created()).when(update({ role: 'admin', disabled: true })).then(
      { type: 'AccountRoleChanged', schemaVersion: 1, data: { accountId: id, role: 'admin', changedAt: now } },
      disabled,
    ));
  it('changes nothing for the role it has and the state it is in', () => given(created(), disabled).when(update({ role: 'staff', disabled: true })).then());
  it('enables a disabled account', () =>
    given(created(), disabled).when(update({ disabled: false })).then({ type: 'AccountEnabled', schemaVersion: 1, data: { accountId: id, enabledAt: now } }));
  it('never makes a staff account a customer’s', () => given(created()).when(update({ role: 'customer' })).thenFails(ValidationFailed, { errors: [{ pointer: '/role' }] }));
  it('never takes the customer role away', () => given(created('customer')).when(update({ role: 'staff' })).thenFails(ValidationFailed));
  it('refuses to change an unknown account', () => given().when(update({ disabled: true })).thenFails(AccountNotFound));
  it('records a new password’s hash', () =>
    given(created()).when({ type: 'ChangePassword', data: { accountId: id, passwordHash: `${HASH}2` }, metadata: meta }).then({
      type: 'AccountPasswordChanged', schemaVersion: 1, data: { accountId: id, passwordHash: `${HASH}2`, changedAt: now },
    }));
  it('moves the token version on a disabling, a new password and a new role, not on enabling', () => {
    const events: AccountEvent[] = [
      created(),
      disabled,
      { type: 'AccountEnabled', schemaVersion: 1, data: { accountId: id, enabledAt: now } },
      { type: 'AccountPasswordChanged', schemaVersion: 1, data: { accountId: id, passwordHash: HASH, changedAt: now } },
      { type: 'AccountRoleChanged', schemaVersion: 1, data: { accountId: id, role: 'auditor', changedAt: now } },
    ];
    const versions = events.map((_, i) => events.slice(0, i + 1).reduce(accountDecider.evolve, accountDecider.initialState())).map((s) => (s.status === 'absent' ? -1 : s.tokenVersion));
    expect(versions).toEqual([0, 1, 1, 2, 3]);
  });
  it('ignores the fence unique-values.ts appends to a dead claim’s stream', () =>
    given({ type: 'UniqueValueClaimFenced', schemaVersion: 1, data: { claim: 'unique-account-email-x', claimRevision: 0 } }).when(create('staff', null)).then(created()));
});
