// Pages of orders answered lately, answered again from memory while nothing they were read from
// has changed. Clients paging down a list ask for the same pages one after another (the first
// page of each filter most of all), and each page otherwise costs an index walk, 21 rows of JSON
// and the opening of their addresses.
//
// A page is kept with the position its views were known to include when it was read (its
// Consistency-Token), and served again only while the views are still known at exactly that
// position: a page read afterwards would say the same position, and the kept one includes all of
// it, so the Consistency-Token rules hold as for a page read now. The views move on with every
// event they read; from then on every kept page is a miss, and is read again.
//
// What it holds is the answer to one request's exact filter, sort, cursor, limit and Api-Version,
// with a customer token's own customer as its filter: nobody is answered a page kept for another
// filter, so no customer is answered another's page. Its addresses were opened with their
// customers' keys: it is served only while the keyring knows each of those keys current and not
// erased, as the opened addresses are (opened-views.ts), and an erasure drops every kept page.
import { LRUCache } from 'lru-cache';
import type { Position } from '../../write-side/kernel/event-store.js';
import type { ViewPage } from '../kernel/page.js';
import type { OrderJson } from '../read-store.js';

/** The keys a page's addresses were opened with, as the order views' opener knows them. */
export interface OpenedKeys {
  /** True while what was opened with the subject's key may still be served (Keyring.current). */
  servable(subject: string): boolean;
  /** Calls `listener` as soon as this process learns a subject erased (null: any subject may have been). */
  onErased(listener: (subject: string | null) => void): void;
}

interface KeptPage {
  readonly page: ViewPage<OrderJson>;
  readonly subjects: readonly string[];
}

/** 8 MiB of pages by default: a few hundred pages of 20 orders. */
export const PAGES_KEPT_BYTES = 8 * 1024 * 1024;

export class KeptPages {
  private readonly pages: LRUCache<string, KeptPage> | null;

  constructor(
    private readonly keys: OpenedKeys,
    /** At most this many bytes of page text are kept (counted as UTF-16); 0 keeps none. */
    maxBytes: number = PAGES_KEPT_BYTES,
  ) {
    this.pages =
      maxBytes > 0
        ? new LRUCache<string, KeptPage>({
            maxSize: maxBytes,
            sizeCalculation: (kept, key) => 2 * (key.length + (kept.page.nextCursor?.length ?? 0) + kept.page.items.reduce((sum, row) => sum + row.json.length + row.id.length + 64, 256)),
          })
        : null;
    // Rare (an erasure): every kept page goes, rather than a search for the pages that hold the subject's orders.
    keys.onErased(() => this.pages?.clear());
  }

  /** The page kept for `key`, when it was read at `reflects` and each of its keys is still servable. */
  get(key: string, reflects: Position): ViewPage<OrderJson> | undefined {
    const kept = this.pages?.get(key);
    if (kept === undefined) return undefined;
    if (kept.page.reflects !== reflects || !kept.subjects.every((subject) => this.keys.servable(subject))) {
      this.pages!.delete(key);
      return undefined;
    }
    return kept.page;
  }

  /** Keeps a page read at its `reflects`, with the subjects whose keys opened its addresses. */
  set(key: string, page: ViewPage<OrderJson>, subjects: Iterable<string>): void {
    this.pages?.set(key, { page, subjects: [...new Set(subjects)] });
  }
}
