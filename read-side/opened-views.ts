// The read models hold order addresses sealed (projections/): a query opens them when it answers,
// with the keys as they are now. So an erasure needs no purge of the read models, a rebuild
// after it yields the same erased addresses, and the read store never holds an address in clear.
import type { PersonalData } from '../write-side/personal-data/personal-data.js';
import { ERASED_ADDRESS, orderAddressPlace } from '../write-side/personal-data/order-fields.js';
import type { Address, ErasedAddress } from '../write-side/orders/types.js';
import type { OrderJson } from './read-store.js';
import type { OrderRepresentation, OrderView, QueueEntry, QueueEntryRepresentation } from './views.js';

export class OpenedViews {
  constructor(private readonly personal: PersonalData) {}

  async orders(views: readonly OrderView[], options: { fresh?: boolean } = {}): Promise<OrderRepresentation[]> {
    const addresses = await this.addresses(views.map((view) => ({ orderId: view.id, address: view.address })), options);
    return views.map((view, i) => ({ ...view, address: addresses[i]! }));
  }

  /** Rows of stored JSON, as JSON again with the addresses opened. */
  async orderJson(rows: readonly OrderJson[], options: { fresh?: boolean } = {}): Promise<OrderJson[]> {
    const opened = await this.orders(rows.map((row) => JSON.parse(row.json) as OrderView), options);
    return rows.map((row, i) => ({ ...row, json: JSON.stringify(opened[i]) }));
  }

  async queue(entries: readonly QueueEntry[]): Promise<QueueEntryRepresentation[]> {
    const addresses = await this.addresses(entries);
    return entries.map((entry, i) => ({ ...entry, address: addresses[i]! }));
  }

  private addresses(items: readonly { orderId: string; address: unknown }[], options: { fresh?: boolean } = {}): Promise<Array<Address | ErasedAddress>> {
    return this.personal.open<Address | ErasedAddress>(
      items.map((item) => ({ value: item.address, place: orderAddressPlace(item.orderId), erased: ERASED_ADDRESS })),
      options,
    );
  }
}
