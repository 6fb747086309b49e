import { describe, expect, it } from 'vitest';
import { customerDecider, evolveCustomer, initialCustomer } from '../../../write-side/customers/decider.js';
import type { CustomerCommand, CustomerEvent } from '../../../write-side/customers/types.js';
import { CustomerNotFound, StateConflict, ValidationFailed } from '../../../write-side/kernel/errors.js';
import type { Address } from '../../../write-side/orders/types.js';
import { givenDecider } from '../../support/decider.js';

const given = givenDecider(customerDecider);

const customerId = 'cus_1';
const meta = { now: '2026-12-01T10:00:00.000Z', principal: 'staff-1' };
const later = { now: '2026-12-01T11:00:00.000Z', principal: 'staff-1' };
const home: Address = { name: 'Ada Lovelace', line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' };
const profile = { email: 'Ada@Example.org', name: 'Ada Lovelace', phone: null, defaultAddress: null };

const register: CustomerCommand = { type: 'RegisterCustomer', data: { customerId, ...profile }, metadata: meta };
const change = (patch: object): CustomerCommand => ({ type: 'ChangeCustomer', data: { customerId, patch }, metadata: later });
const erase: CustomerCommand = { type: 'EraseCustomer', data: { customerId }, metadata: later };

const registered: CustomerEvent = { type: 'CustomerRegistered', schemaVersion: 1, data: { customerId, ...profile, registeredAt: meta.now } };
const changed = (changes: object): CustomerEvent => ({ type: 'CustomerChanged', schemaVersion: 1, data: { customerId, changes, changedAt: later.now } });
const erased: CustomerEvent = { type: 'CustomerErased', schemaVersion: 1, data: { customerId, erasedAt: later.now } };
const fenced: CustomerEvent = { type: 'UniqueValueClaimFenced', schemaVersion: 1, data: { claim: 'unique-customer-email-00', claimRevision: 0 } };

describe('customer decider', () => {
  it('registers a customer that does not exist', () => given().when(register).then(registered));
  it('registers a customer whose stream holds only a fence marker', () => given(fenced).when(register).then(registered));
  it('refuses a second registration', () => given(registered).when(register).thenFails(StateConflict, { currentStatus: 'active' }));

  it('records only the members a patch changes', () =>
    given(registered).when(change({ name: 'Ada L.', email: profile.email, phone: '+49 30 1234' })).then(changed({ name: 'Ada L.', phone: '+49 30 1234' })));
  it('changes nothing for a patch that repeats the record', () => given(registered).when(change({ name: profile.name, phone: null })).then());
  it('merges the default address member by member, and null removes it', () => {
    given(registered).when(change({ defaultAddress: home })).then(changed({ defaultAddress: home }));
    given(registered, changed({ defaultAddress: home })).when(change({ defaultAddress: { city: 'Paris' } })).then(changed({ defaultAddress: { ...home, city: 'Paris' } }));
    given(registered, changed({ defaultAddress: home })).when(change({ defaultAddress: null })).then(changed({ defaultAddress: null }));
  });
  it('refuses a default address that would lack a required member, pointing into defaultAddress', () =>
    given(registered).when(change({ defaultAddress: { city: 'Paris' } })).thenFails(ValidationFailed, { errors: expect.arrayContaining([{ pointer: '/defaultAddress/line1', message: expect.any(String) }]) }));
  it('refuses a change of a customer that has no record', () => given().when(change({ name: 'X' })).thenFails(CustomerNotFound));
  it('refuses a change of an erased customer', () => given(registered, erased).when(change({ name: 'X' })).thenFails(StateConflict, { currentStatus: 'erased' }));

  it('erases a customer, and a guest customer without a record', () => {
    given(registered).when(erase).then(erased);
    given().when(erase).then(erased);
  });
  it('erases an erased customer once only', () => given(registered, erased).when(erase).then());

  it('keeps nothing personal once erased', () => {
    const state = [registered, changed({ phone: '+49' }), erased].reduce(evolveCustomer, initialCustomer());
    expect(state).toEqual({ status: 'erased', id: customerId, createdAt: meta.now, updatedAt: later.now, erasedAt: later.now });
  });
});
