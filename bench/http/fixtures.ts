// What the driver and the servers of bench:http share: the address every order has, and the
// contract's example order (~400 bytes of JSON) that the bare baseline answers.
import type { Address } from '../../write-side/orders/types.js';

export const address: Address = { name: 'Ada Lovelace', line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' };

export const EXAMPLE_ORDER = {
  id: '7c1d2f9e-3b4a-4c5d-8e6f-0a1b2c3d4e5f', customerId: 'cus_42', status: 'paid', currency: 'EUR',
  lines: [{ sku: 'SKU-1', quantity: 2, unitPrice: 1999, lineTotal: 3998 }], total: 3998, address,
  createdAt: '2026-11-22T10:00:00.000Z', updatedAt: '2026-11-22T10:05:00.000Z', revision: 1,
};
