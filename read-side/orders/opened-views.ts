// The read models hold order addresses sealed (projections/): a query opens them when it answers,
// with the keys as they are now. So an erasure needs no purge of the read models, a rebuild
// after it yields the same erased addresses, and the read store never holds an address in clear.
import { LRUCache } from 'lru-cache';
import { isSealed } from '../../write-side/personal-data/cipher.js';
import type { PersonalData } from '../../write-side/personal-data/personal-data.js';
import { ERASED_ADDRESS, orderAddressPlace } from '../../write-side/orders/personal-data.js';
import type { Address, ErasedAddress } from '../../write-side/orders/types.js';
import type { OrderJson } from '../read-store.js';
import type { OpenedKeys } from './kept-pages.js';
import type { OrderRepresentation, OrderView, QueueEntry, QueueEntryRepresentation } from './views.js';

/** An order's address as last opened: the sealed text it was opened from, whose key opened it, and the address as JSON. */
interface OpenedAddress {
  readonly sealed: string;
  readonly subject: string;
  readonly json: string;
}

export class OpenedViews implements OpenedKeys {
  /**
   * The addresses of order views opened lately, by order id: a page of orders opens the same
   * addresses client after client. One is used only while the view still holds the sealed text it
   * was opened from, and while the keyring knows its customer's key current and not destroyed, so
   * an erasure hides it exactly as it hides the key; an erasure the keyring learns drops its
   * customer's addresses from here at once.
   */
  private readonly opened: LRUCache<string, OpenedAddress>;

  constructor(
    private readonly personal: PersonalData,
    options: { /** How many opened addresses are kept; 20,000 by default. */ readonly openedKept?: number } = {},
  ) {
    this.opened = new LRUCache<string, OpenedAddress>({ max: options.openedKept ?? 20_000 });
    personal.keyring.onErased((subject) => {
      if (subject === null) this.opened.clear();
      // Rare (an erasure), and what is kept is bounded: a walk through it beats an index by customer.
      else for (const [orderId, kept] of this.opened.entries()) if (kept.subject === subject) this.opened.delete(orderId);
    });
  }

  servable(subject: string): boolean {
    return this.personal.keyring.current(subject);
  }

  onErased(listener: (subject: string | null) => void): void {
    this.personal.keyring.onErased(listener);
  }

  async orders(views: readonly OrderView[], options: { fresh?: boolean } = {}): Promise<OrderRepresentation[]> {
    const addresses = await this.addresses(views.map((view) => ({ orderId: view.id, address: view.address })), options);
    return views.map((view, i) => ({ ...view, address: addresses[i]! }));
  }

  /**
   * Rows of stored JSON, as JSON again with the addresses opened. Only the address is read out of
   * the text and written back into it: the rest of the view is kept as the text it is. `fresh`
   * opens every address with the key store's keys as they are now (for what goes into files).
   * `subjects`, when given, receives the subject of each key an answered address was opened with.
   */
  async orderJson(rows: readonly OrderJson[], options: { fresh?: boolean; subjects?: Set<string> } = {}): Promise<OrderJson[]> {
    const answered = new Array<OrderJson>(rows.length);
    const rest: Array<{ index: number; span: Span | null; address: unknown }> = [];
    rows.forEach((row, index) => {
      let span = addressSpan(row.json);
      if (span && !options.fresh) {
        const kept = this.opened.get(row.id);
        if (kept?.sealed === span.text && this.personal.keyring.current(kept.subject)) {
          options.subjects?.add(kept.subject);
          answered[index] = { ...row, json: spliced(row.json, span, kept.json) };
          return;
        }
      }
      let address: unknown;
      try {
        address = span ? (JSON.parse(span.text) as unknown) : undefined;
      } catch {
        span = null; // The text up to the first "}" is no JSON: not a flat address (see addressSpan).
      }
      rest.push({ index, span, address: span ? address : (JSON.parse(row.json) as OrderView).address });
    });
    if (rest.length === 0) return answered;
    const addresses = await this.addresses(rest.map(({ index, address }) => ({ orderId: rows[index]!.id, address })), options);
    rest.forEach(({ index, span, address: stored }, i) => {
      const row = rows[index]!;
      const address = addresses[i]!;
      // An erased address stays erased: only what a key opened depends on that key.
      if (isSealed(stored) && address !== ERASED_ADDRESS) options.subjects?.add(stored.subject);
      if (!span) {
        answered[index] = { ...row, json: JSON.stringify({ ...(JSON.parse(row.json) as OrderView), address }) };
        return;
      }
      // In clear (written before sealing began): the stored text is the address already.
      if (!isSealed(stored)) {
        answered[index] = row;
        return;
      }
      const json = JSON.stringify(address);
      answered[index] = { ...row, json: spliced(row.json, span, json) };
      // Only what its key opened, and only while that key is known current: an erasure learnt meanwhile keeps it out.
      if (address !== ERASED_ADDRESS && this.personal.keyring.current(stored.subject)) this.opened.set(row.id, { sealed: span.text, subject: stored.subject, json });
    });
    return answered;
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

/** Where an order view's address lies in its JSON text, and that text. */
interface Span {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * Where an order view's address lies in its JSON text; null when it is not found so (then the
 * view is decoded whole). The first member named "address" is the view's own: no member before it
 * holds an object with one, and a string cannot hold the name with its quotes unescaped. An
 * address, sealed or in clear, is a flat object of strings and nulls, so it ends at the first "}"
 * after it begins; when that "}" lies inside a string instead, or closes an object nested in it,
 * the text up to it is no JSON, which its reader finds.
 */
function addressSpan(json: string): Span | null {
  const at = json.indexOf(ADDRESS_MEMBER);
  if (at < 0) return null;
  const start = at + ADDRESS_MEMBER.length;
  const end = json.indexOf('}', start) + 1;
  if (json.charCodeAt(start) !== 0x7b || end === 0) return null; // {
  return { start, end, text: json.slice(start, end) };
}

function spliced(json: string, span: Span, address: string): string {
  return json.slice(0, span.start) + address + json.slice(span.end);
}
