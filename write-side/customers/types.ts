// Customer events, commands and state: readonly data, unions on `type` and `status`.
import type { Address, AddressPatch } from '../kernel/address.js';
import type { CommandMetadata } from '../kernel/write-context.js';

export type CustomerStatus = 'active' | 'erased';

/** The personal data of a customer: what erasure removes. */
export interface CustomerProfile {
  readonly email: string;
  readonly name: string;
  readonly phone: string | null;
  readonly defaultAddress: Address | null;
}

/** An RFC 7396 merge patch of a profile: the address is merged member by member, null removes phone or address. */
export interface CustomerPatch {
  readonly email?: string;
  readonly name?: string;
  readonly phone?: string | null;
  readonly defaultAddress?: AddressPatch | null;
}

// ---- events ----

export type CustomerRegistered = {
  readonly type: 'CustomerRegistered';
  readonly schemaVersion: 1;
  readonly data: CustomerProfile & { readonly customerId: string; readonly registeredAt: string };
};

/** `changes` holds only the members that changed, with their new values. */
export type CustomerChanged = {
  readonly type: 'CustomerChanged';
  readonly schemaVersion: 1;
  readonly data: { readonly customerId: string; readonly changes: Partial<CustomerProfile>; readonly changedAt: string };
};

/** Also recorded for a guest customer, an id that only ever appeared on orders. */
export type CustomerErased = {
  readonly type: 'CustomerErased';
  readonly schemaVersion: 1;
  readonly data: { readonly customerId: string; readonly erasedAt: string };
};

/** unique-values.ts revoked a claim of this customer's (a claimant that died); it changes nothing here. */
export type CustomerClaimFenced = {
  readonly type: 'UniqueValueClaimFenced';
  readonly schemaVersion: 1;
  readonly data: { readonly claim: string; readonly claimRevision: number };
};

export type CustomerEvent = CustomerRegistered | CustomerChanged | CustomerErased | CustomerClaimFenced;
export type CustomerEventType = CustomerEvent['type'];

// ---- commands ----

export type RegisterCustomer = {
  readonly type: 'RegisterCustomer';
  readonly data: CustomerProfile & { readonly customerId: string };
  readonly metadata: CommandMetadata;
};

export type ChangeCustomer = {
  readonly type: 'ChangeCustomer';
  readonly data: { readonly customerId: string; readonly patch: CustomerPatch };
  readonly metadata: CommandMetadata;
};

export type EraseCustomer = {
  readonly type: 'EraseCustomer';
  readonly data: { readonly customerId: string };
  readonly metadata: CommandMetadata;
};

export type CustomerCommand = RegisterCustomer | ChangeCustomer | EraseCustomer;

// ---- state ----

export type ActiveCustomer = CustomerProfile & {
  readonly status: 'active';
  readonly id: string;
  readonly createdAt: string;
  readonly updatedAt: string;
};

export interface ErasedCustomer {
  readonly status: 'erased';
  readonly id: string;
  /** When the record came to be: its registration, or the erasure itself for a guest customer. */
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly erasedAt: string;
}

export type Customer = { readonly status: 'absent' } | ActiveCustomer | ErasedCustomer;
