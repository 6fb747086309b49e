// The customer decider: pure functions from (command, state) to events and from (state, event)
// to state. The command brings `now`; uniqueness of the email is kept outside, by unique-values.ts.
import { CustomerNotFound, StateConflict, ValidationFailed } from '../kernel/errors.js';
import { mergeAddress, type Address } from '../kernel/address.js';
import type { ActiveCustomer, Customer, CustomerCommand, CustomerEvent, CustomerPatch, CustomerProfile } from './types.js';

export const initialCustomer = (): Customer => ({ status: 'absent' });

export function evolveCustomer(state: Customer, event: CustomerEvent): Customer {
  switch (event.type) {
    case 'CustomerRegistered': {
      const { customerId: id, email, name, phone, defaultAddress, registeredAt } = event.data;
      return { status: 'active', id, email, name, phone, defaultAddress, createdAt: registeredAt, updatedAt: registeredAt };
    }
    case 'CustomerChanged': {
      if (state.status !== 'active') throw new TypeError(`CustomerChanged of customer ${event.data.customerId}, which is ${state.status}`);
      return { ...state, ...event.data.changes, updatedAt: event.data.changedAt };
    }
    case 'CustomerErased': {
      const { customerId: id, erasedAt } = event.data;
      return { status: 'erased', id, createdAt: state.status === 'absent' ? erasedAt : state.createdAt, updatedAt: erasedAt, erasedAt };
    }
    case 'UniqueValueClaimFenced':
      return state;
    default: {
      const unknown: never = event;
      throw new TypeError(`unhandled event ${(unknown as CustomerEvent).type}`);
    }
  }
}

export function decideCustomer(command: CustomerCommand, state: Customer): CustomerEvent[] {
  const now = command.metadata.now;
  switch (command.type) {
    case 'RegisterCustomer': {
      if (state.status !== 'absent') throw new StateConflict(`Customer ${state.id} already exists.`, state.status);
      const { customerId, email, name, phone, defaultAddress } = command.data;
      return [{ type: 'CustomerRegistered', schemaVersion: 1, data: { customerId, email, name, phone, defaultAddress, registeredAt: now } }];
    }
    case 'ChangeCustomer': {
      const { customerId, patch } = command.data;
      if (state.status === 'absent') throw new CustomerNotFound(customerId);
      if (state.status === 'erased') throw new StateConflict(`Customer ${customerId} was erased; it can no longer change.`, 'erased');
      const changes = changedMembers(state, patch);
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'CustomerChanged', schemaVersion: 1, data: { customerId, changes, changedAt: now } }];
    }
    case 'EraseCustomer': {
      // A guest customer (no record, only orders) is erased all the same; erasing twice changes nothing.
      if (state.status === 'erased') return [];
      return [{ type: 'CustomerErased', schemaVersion: 1, data: { customerId: command.data.customerId, erasedAt: now } }];
    }
    default: {
      const unknown: never = command;
      throw new TypeError(`unhandled command ${(unknown as CustomerCommand).type}`);
    }
  }
}

export const customerDecider = { initialState: initialCustomer, evolve: evolveCustomer, decide: decideCustomer };

const NO_ADDRESS: Address = { name: '', line1: '', line2: null, city: '', postalCode: '', region: null, country: '' };

/** The patch merged onto the profile (RFC 7396), reduced to the members whose value it changes. */
function changedMembers(current: ActiveCustomer, patch: CustomerPatch): Partial<CustomerProfile> {
  const changes: { -readonly [K in keyof CustomerProfile]?: CustomerProfile[K] } = {};
  if (patch.email !== undefined && patch.email !== current.email) changes.email = patch.email;
  if (patch.name !== undefined && patch.name !== current.name) changes.name = patch.name;
  if (patch.phone !== undefined && patch.phone !== current.phone) changes.phone = patch.phone;
  if (patch.defaultAddress !== undefined) {
    const address = patch.defaultAddress === null ? null : mergedAddress(current.defaultAddress, patch.defaultAddress);
    if (JSON.stringify(address) !== JSON.stringify(current.defaultAddress)) changes.defaultAddress = address;
  }
  return changes;
}

function mergedAddress(current: Address | null, patch: NonNullable<CustomerPatch['defaultAddress']>): Address {
  try {
    return mergeAddress(current ?? NO_ADDRESS, patch);
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    const errors = error.errors.map((e) => ({ ...e, pointer: e.pointer.replace(/^\/address/, '/defaultAddress') }));
    throw new ValidationFailed(errors, 'The default address would not be valid after this change.');
  }
}
