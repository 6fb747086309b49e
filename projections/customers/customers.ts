// customers: one document per customer, its HTTP representation with the key of the email filter.
// Folded by the customer domain's own evolve, so the view and a read of the stream agree.
import { CUSTOMER_STREAM_PREFIX, decodeCustomerEvent } from '../../write-side/customers/codec.js';
import { evolveCustomer } from '../../write-side/customers/decider.js';
import type { Customer } from '../../write-side/customers/types.js';
import { normalizeValue } from '../../write-side/kernel/unique-values.js';
import type { CustomerView } from '../../read-side/customers/views.js';
import type { CustomerEvent } from '../../write-side/customers/types.js';
import type { EventContext, Projection } from '../projection.js';

export const customersView: Projection<'customers', CustomerView, CustomerEvent> = {
  name: 'customers',
  opensPersonalData: true,
  storage: {
    fields: [
      { name: 'emailKey', type: 'text', nullable: true, value: (v) => v.emailKey },
      { name: 'createdAt', type: 'text', value: (v) => v.createdAt },
    ],
    // Newest first, or the one customer of an email.
    indexes: [['createdAt'], ['emailKey', 'createdAt']],
  },
  streamPrefix: CUSTOMER_STREAM_PREFIX,
  decode: decodeCustomerEvent,
  handles: new Set(['CustomerRegistered', 'CustomerChanged', 'CustomerErased']),
  keyOf: (event) => {
    if (event.type === 'UniqueValueClaimFenced') throw new TypeError('the customers projection does not handle fence markers');
    return event.data.customerId;
  },
  evolve(view: CustomerView | null, event, { revision }: EventContext): CustomerView {
    const customer = evolveCustomer(view ? stateOf(view) : { status: 'absent' }, event);
    switch (customer.status) {
      case 'absent':
        throw new TypeError(`${event.type} left a customer absent`);
      case 'active': {
        const { id, email, name, phone, defaultAddress, createdAt, updatedAt } = customer;
        // Replayed after its erasure (a rebuild, a projector catching up), the registration's email reads as null.
        const emailKey = typeof email === 'string' ? normalizeValue(email) : null;
        return { id, email, name, phone, defaultAddress, status: 'active', createdAt, updatedAt, erasedAt: null, revision, emailKey };
      }
      case 'erased': {
        const { id, createdAt, updatedAt, erasedAt } = customer;
        return { id, email: null, name: null, phone: null, defaultAddress: null, status: 'erased', createdAt, updatedAt, erasedAt, revision, emailKey: null };
      }
    }
  },
};

/** The domain's state that a view shows. */
function stateOf(view: CustomerView): Customer {
  const { id, createdAt, updatedAt } = view;
  if (view.status === 'erased') return { status: 'erased', id, createdAt, updatedAt, erasedAt: view.erasedAt ?? updatedAt };
  return { status: 'active', id, email: view.email ?? '', name: view.name ?? '', phone: view.phone, defaultAddress: view.defaultAddress, createdAt, updatedAt };
}
