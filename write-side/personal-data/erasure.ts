// Erasure of a customer's personal data (GDPR art. 17) by crypto-shredding: its key is destroyed,
// so every value sealed with it, in every event, view and process, reads as erased from then on:
// in this process at once, in the others within the keyring's cache lifetime (4 s). The read
// models hold the values sealed, so they need no purge; export files written before that hold the
// customer's data are deleted by the export worker, which follows the key store's erasures.
// The customers' DELETE /customers/{id} calls this, then records CustomerErased on the customer's stream.
import { sees, type Viewer } from '../kernel/access.js';
import { Forbidden } from '../kernel/errors.js';
import type { Erasure } from './key-store.js';
import type { Keyring } from './keyring.js';

export class CustomerErasure {
  constructor(
    private readonly keyring: Keyring,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * Destroys the customer's key (a guest id's too, or one that never had a key: nothing can be
   * sealed for it afterwards). Erasing again changes nothing and answers the first erasure.
   */
  async eraseCustomerData(viewer: Viewer, customerId: string): Promise<Erasure> {
    if (!sees(viewer, customerId)) throw new Forbidden("A customer token can only erase its own customer's data.");
    return this.keyring.destroy(customerId, this.clock());
  }
}
