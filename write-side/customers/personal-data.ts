// The personal data of customers: email, name, phone and default address, sealed with the
// customer's own key. The customers' views hold them opened (their email is looked up exactly);
// the customers projection forgets them on CustomerErased.
import { CUSTOMER_STREAM_PREFIX } from './codec.js';
import type { PersonalDataRule } from '../personal-data/rules.js';

export const customerPersonalData: PersonalDataRule = {
  streamPrefix: CUSTOMER_STREAM_PREFIX,
  fields: {
    CustomerRegistered: ['email', 'name', 'phone', 'defaultAddress'].map((name) => ({ name, erased: null })),
    // Only personal members change: what changed is sealed as one value, and reads as no change once erased.
    CustomerChanged: [{ name: 'changes', erased: {} }],
  },
  subject: async (stream) => stream.slice(CUSTOMER_STREAM_PREFIX.length),
};
