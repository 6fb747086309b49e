// The customers' view and representation.
import type { Address } from '../../write-side/orders/types.js';
import type { Customer, CustomerStatus } from '../../write-side/customers/types.js';

/**
 * A customer's HTTP representation, and the key its exact email filter matches (lowercased). Once
 * erased, every personal member is null and `erasedAt` says when; until then `erasedAt` is null.
 */
export interface CustomerView {
  readonly id: string;
  readonly email: string | null;
  readonly name: string | null;
  readonly phone: string | null;
  readonly defaultAddress: Address | null;
  readonly status: CustomerStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly erasedAt: string | null;
  /** The customer stream's revision this view includes. */
  readonly revision: number;
  /** The email as the `email` filter compares it (unique-values.ts's normalization); null once erased. */
  readonly emailKey: string | null;
}

export type CustomerRepresentation = Omit<CustomerView, 'emailKey'>;

export function customerRepresentation(view: CustomerView): CustomerRepresentation {
  const { emailKey: _key, ...representation } = view;
  return representation;
}

/**
 * A customer as folded from its stream, represented as GET /customers/{id} answers it (members in
 * the documented order; every personal member null once erased): the API and the webhook messages.
 */
export function representCustomer(customer: Exclude<Customer, { status: 'absent' }>, revision: number): CustomerRepresentation {
  const { id, createdAt, updatedAt } = customer;
  if (customer.status === 'erased') {
    return { id, email: null, name: null, phone: null, defaultAddress: null, status: 'erased', createdAt, updatedAt, erasedAt: customer.erasedAt, revision };
  }
  const { email, name, phone, defaultAddress } = customer;
  return { id, email, name, phone, defaultAddress, status: 'active', createdAt, updatedAt, erasedAt: null, revision };
}
