// The read-model store port: what projections write and queries read. Two adapters implement
// it (adapters/sqlite-read-store.ts, adapters/mongo-read-store.ts) and both pass
// tests/read-side/read-store.contract.ts. The port knows projections by name only: what each
// stores (its fields and indexes) the composition root hands the adapters (ReadStorage), from
// the projections' own declarations.
import type { Position } from '../write-side/kernel/event-store.js';

/** A projection's name, as the registry (projections/registry.ts) gives it. */
export type ProjectionName = string;

/** The version of a projection's storage (StorageDeclaration.version). */
export function storageVersion(declared: { readonly version?: number }): number {
  return declared.version ?? 1;
}

export interface Change {
  readonly position: Position;
}
/** A recorded change and the key of the view it belongs to. */
export interface KeyedChange<C> {
  readonly key: string;
  readonly change: C;
}

/** Every view carries the stream revision it includes; a view is never deleted, only changed. */
export interface Keyed<V> {
  readonly key: string;
  readonly view: V & { readonly revision: number };
  /**
   * The view as this generation holds it before the commit, as load() gave it, when the caller
   * knows it (absent: unknown, or none loaded). A store may then write only what changed: the
   * embedded store leaves alone the indexes whose fields kept their values.
   */
  readonly was?: V & { readonly revision: number };
}

export type FieldValue = string | number | null;
/** What a store keeps of a field beside a view: a value, or the values of a multi-valued field (distinct, sorted). */
export type StoredFieldValue = FieldValue | readonly string[];

/** A value a projection keeps beside each view's document, for conditions, orders and indexes. */
export interface FieldDeclaration<V> {
  /** What conditions and orders call it: the view's member it mirrors (`createdAt`). */
  readonly name: string;
  readonly type: 'text' | 'integer';
  readonly nullable?: boolean;
  /** How its value is read from the view. */
  readonly value: (view: V) => FieldValue;
  /**
   * For a field the view does not hold as a member (a flag computed from it): it is 1 exactly
   * when the view's members `equals` hold those values and its members `present` are not null.
   * A store that queries the documents themselves matches that instead, and indexes the `equals` members.
   */
  readonly derived?: { readonly equals: Readonly<Record<string, string | number>>; readonly present: readonly string[] };
  /**
   * For a value the view does not hold as a member and no equality of its members can stand for
   * (the order's status as older API versions read it): a store that queries the documents
   * themselves keeps it in the document beside the view's members, and leaves it out of the view it reads back.
   */
  readonly computed?: true;
}

/**
 * A field of several values per view (the SKUs of an order's lines), which a condition matches
 * by equality when any of them is equal. A store that queries the documents themselves keeps the
 * values in the document beside the view's members, under the field's name, and indexes them as
 * one key per value (MongoDB's multikey indexes); the embedded store keeps a row per value in a
 * table of its own beside the views' table, with copies of the fields its indexes name after it.
 * An index names at most one such field, and a query conditions on at most one, with '='.
 */
export interface MultiValuedFieldDeclaration<V> {
  readonly name: string;
  readonly type: 'text';
  /** Its values in the view (a value named twice counts once). */
  readonly values: (view: V) => readonly string[];
}

/** A multi-valued field's values as stores keep and verify compares them: each once, sorted. */
export function distinctValues(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

/**
 * An index: declared fields, then the view's key. `embeddedOnly` is for an index a SQL plan
 * needs and a document store does not (it merges an IN's ranges in order, SQL reads one index in order).
 */
export type IndexDeclaration = readonly string[] | { readonly fields: readonly string[]; readonly embeddedOnly: true };

/** What a projection stores beside its views' documents. */
export interface StorageDeclaration<V> {
  /**
   * Raised whenever what is stored changes shape (the view's members, a field, an index); 1 when
   * absent. A store whose active generation was filled under an older version starts a fresh one
   * when it is opened, which the projector fills from the start of the log (as a rebuild does):
   * no view keeps the old shape, and no field is left unfilled.
   */
  readonly version?: number;
  readonly fields: readonly FieldDeclaration<V>[];
  /** Its fields of several values per view (MultiValuedFieldDeclaration); none when absent. */
  readonly multiValued?: readonly MultiValuedFieldDeclaration<V>[];
  readonly indexes: readonly IndexDeclaration[];
  /** It records its changes (ViewStore.commit's `changes`), each under its position, beside its views. */
  readonly changes?: boolean;
  /**
   * Its views hold no personal data in clear (an address is kept sealed, as the events hold it, or
   * there is none): an embedded store drops a generation it no longer needs without overwriting
   * its pages with zeros first, which at a million orders is most of a rebuild's switch. Absent:
   * they are zeroed, as is every row the store changes or deletes (docs/personal-data.md).
   */
  readonly noClearPersonalData?: boolean;
}

/** Every projection's storage, by name: what an adapter derives its tables, collections and indexes from. */
export type ReadStorage = ReadonlyArray<StorageDeclaration<never> & { readonly name: ProjectionName }>;

/** The collection (or table) name a projection's views are stored under, before the generation. */
export function storageName(name: ProjectionName): string {
  return name.replaceAll('-', '_');
}

/**
 * One generation of one projection's views and its checkpoint. A rebuild fills a new
 * generation while queries keep reading the active one, then activates it.
 *
 * What a projection records beside its views (`changes`): a log of its changes, keyed by the log
 * position of the event that made each one, in the same generation as the views and by the same
 * commit(). That is one transaction on the embedded store, but three writes on MongoDB (views,
 * changes, then the checkpoint): a commit cut short there leaves some of its views and changes
 * written under the old checkpoint, and the batch applied again writes each of them once.
 */
export interface ViewStore<V, C = never> {
  readonly name: ProjectionName;
  readonly generation: number;
  checkpoint(): Promise<Position | null>;
  load(keys: readonly string[]): Promise<Map<string, V & { readonly revision: number }>>;
  /**
   * Writes the views and moves the checkpoint. A view is written only if its revision is
   * newer than the stored one, so applying a batch twice changes nothing; the checkpoint
   * only moves forward. Changes are recorded once each, by position, however often a batch is applied.
   */
  commit(views: readonly Keyed<V>[], checkpoint: Position, changes?: readonly KeyedChange<C>[]): Promise<void>;
  /**
   * The declared fields' values as stored beside the views of these keys, by field name (a
   * multi-valued field's as its distinct values, sorted); a key without a view is left out (for
   * verify: a store that keeps them apart from the document may hold values its view does not say).
   */
  fields(keys: readonly string[]): Promise<Map<string, Record<string, StoredFieldValue>>>;
  /** Every view of this generation in key order, in pages (for verify). */
  scan(afterKey: string | null, limit: number): Promise<Keyed<V>[]>;
  /** The recorded changes strictly after `after`, in position order, at most `limit` (for verify and the feed). */
  changes(after: Position | null, limit: number): Promise<KeyedChange<C>[]>;
  /** The recorded changes of these keys, in position order (for verify). */
  changesOf(keys: readonly string[]): Promise<KeyedChange<C>[]>;
}

export type SortDirection = 'asc' | 'desc';

/** A condition on a declared field: a comparison with a value, or one of several values. */
export type Condition =
  | { readonly field: string; readonly op: '=' | '<' | '<=' | '>' | '>='; readonly value: string | number }
  | { readonly field: string; readonly op: 'in'; readonly values: readonly (string | number)[] };

/**
 * One keyset page of a projection's active views: those meeting every condition, in the order
 * of the declared fields `by` and then the key, all in one direction, strictly after `after`
 * (the sort values of the previous page's last view, and its key), at most `limit`. An index
 * serves it when one leads with the equality conditions' fields, then the order's.
 */
export interface PageQuery {
  readonly where?: readonly Condition[];
  readonly order?: { readonly by: readonly string[]; readonly direction: SortDirection };
  readonly after?: { readonly values: readonly FieldValue[]; readonly key: string } | null;
  readonly limit: number;
}

/** An order view as stored JSON text, with its sort keys: pages can be written out without re-encoding. */
export interface OrderJson {
  readonly id: string;
  readonly createdAt: string;
  /** The order's total (minor units of its currency): the key of the pages sorted by total. */
  readonly total: number;
  readonly json: string;
}

export interface ReadModelStore {
  views<V, C = never>(name: ProjectionName, generation: number): ViewStore<V, C>;
  activeGeneration(name: ProjectionName): Promise<number>;
  /** A new, empty generation, not yet active. */
  createGeneration(name: ProjectionName): Promise<number>;
  /** Makes the generation the one queries read, and drops the older ones. */
  activateGeneration(name: ProjectionName, generation: number): Promise<void>;

  /** The active views of these keys; a key without a view is left out. */
  find<V>(name: ProjectionName, keys: readonly string[]): Promise<Map<string, V>>;
  /** A keyset page of the active views (PageQuery). */
  page<V>(name: ProjectionName, query: PageQuery): Promise<V[]>;
  /** How many active views meet every condition. */
  count(name: ProjectionName, where: readonly Condition[]): Promise<number>;
  /**
   * The projection's recorded changes strictly after `after` in position order, at most `limit`,
   * with the checkpoint of the generation they were read from, taken before them: every change
   * up to that checkpoint is in the answer unless `limit` cut it short.
   */
  changesAfter<C>(name: ProjectionName, after: Position | null, limit: number): Promise<{ changes: C[]; checkpoint: Position | null }>;
  /**
   * The order-views' page (as `page`), each view as the JSON text it is stored as, with its id,
   * createdAt and total for the next cursor. Its own method, not `page`: the orders' collection and exports
   * write that text out without parsing and encoding it again, which bench:page measured as the
   * largest share of a page's cost on the embedded store.
   */
  listOrderJson(query: PageQuery): Promise<OrderJson[]>;

  /** A background process's own position in the log (the stock reconciler's); null before it saved one. */
  processCheckpoint(name: string): Promise<Position | null>;
  /** Saves it; a position not beyond the saved one changes nothing. */
  saveProcessCheckpoint(name: string, position: Position): Promise<void>;

  /**
   * Takes the named lease for `holder`, or renews it, until `ttlMs` from now; true when
   * `holder` holds it now. A lease another holder has renewed within its time is not taken.
   * (The projector role: one process projects, a standby waits for the lease to lapse.)
   */
  acquireLease(name: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up if `holder` holds it, so that a standby takes it over at once. */
  releaseLease(name: string, holder: string): Promise<void>;

  close(): Promise<void>;
}
