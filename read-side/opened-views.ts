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

  /**
   * Rows of stored JSON, as JSON again with the addresses opened. Only the address is read out of
   * the text and written back into it: the rest of the view is kept as the text it is.
   */
  async orderJson(rows: readonly OrderJson[], options: { fresh?: boolean } = {}): Promise<OrderJson[]> {
    const spans = rows.map((row) => addressSpan(row.json));
    const stored = rows.map((row, i) => spans[i]?.value ?? (JSON.parse(row.json) as OrderView).address);
    const addresses = await this.addresses(rows.map((row, i) => ({ orderId: row.id, address: stored[i] })), options);
    return rows.map((row, i) => {
      const span = spans[i];
      const address = JSON.stringify(addresses[i]);
      if (span) return { ...row, json: row.json.slice(0, span.start) + address + row.json.slice(span.end) };
      return { ...row, json: JSON.stringify({ ...(JSON.parse(row.json) as OrderView), address: addresses[i] }) };
    });
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

const ADDRESS_MEMBER = '"address":';

/**
 * Where an order view's address lies in its JSON text, and what it holds; null when it is not
 * found so (then the view is decoded whole). The first member named "address" is the view's own:
 * no member before it holds an object with one, and a string cannot hold the name with its quotes
 * unescaped. An address, sealed or in clear, is a flat object of strings and nulls, so it ends at
 * the first "}" after it begins; when that "}" lies inside a string instead, or closes an object
 * nested in it, the text up to it is no JSON, and the view is decoded whole.
 */
function addressSpan(json: string): { start: number; end: number; value: unknown } | null {
  const at = json.indexOf(ADDRESS_MEMBER);
  if (at < 0) return null;
  const start = at + ADDRESS_MEMBER.length;
  const end = json.indexOf('}', start) + 1;
  if (json.charCodeAt(start) !== 0x7b || end === 0) return null; // {
  try {
    return { start, end, value: JSON.parse(json.slice(start, end)) as unknown };
  } catch {
    return null;
  }
}
