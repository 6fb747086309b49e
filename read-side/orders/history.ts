// An order's history for auditors (GET /orders/{id}/history): its events in order, as recorded,
// upcast to the current schema, paged by a cursor bound to the order. Read from the event log,
// confined like the order: another customer's order is not found, exactly like an unknown one.
// The erasure of the order's customer is shown among them at its place in the log, though it is
// recorded on the customer's stream: it is what made the order's personal data read as null.
import { sees, type Viewer } from '../../write-side/kernel/access.js';
import { OrderNotFound } from '../../write-side/kernel/errors.js';
import type { EventStore, Position, RecordedEvent } from '../../write-side/kernel/event-store.js';
import { customerStream, decodeCustomerEvent } from '../../write-side/customers/codec.js';
import { decodeOrderEvent, orderStream } from '../../write-side/orders/codec.js';
import type { CursorCodec } from '../kernel/cursor.js';
import { InvalidCursor } from '../kernel/cursor.js';
import type { Page } from '../kernel/page.js';

export interface HistoryItem {
  readonly type: string;
  readonly schemaVersion: number;
  readonly recordedSchemaVersion: number;
  /** Its revision in the order's stream; a CustomerErased, in the customer's. */
  readonly revision: number;
  readonly position: Position;
  readonly recordedAt: string;
  readonly data: unknown;
  readonly metadata: { readonly principal: string; readonly correlationId: string; readonly causationId: string | null };
}

export class OrderHistory {
  /**
   * `events` reads the order's events with their personal data opened (or erased); `log` reads
   * the customer's stream as stored, since only its CustomerErased is shown, which holds none.
   */
  constructor(
    private readonly events: Pick<EventStore, 'readStream'>,
    private readonly cursors: CursorCodec,
    private readonly log: Pick<EventStore, 'readStream'>,
  ) {}

  async page(viewer: Viewer, orderId: string, request: { limit: number; cursor?: string }): Promise<Page<HistoryItem>> {
    const { limit } = request;
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
    const scope = { collection: 'history', orderId };
    let from = 0;
    let erasureShown = false;
    if (request.cursor !== undefined) {
      const key = this.cursors.decode(request.cursor, scope);
      if (typeof key.next !== 'string' || !/^\d{1,15}$/.test(key.next)) throw new InvalidCursor('undecodable');
      from = Number(key.next);
      erasureShown = key.erasure === 'shown';
    }
    const stream = orderStream(orderId);
    const events = await this.events.readStream(stream, { fromRevision: from, toRevision: from + limit });
    // Who may see it is settled by the first event alone: the history is not folded for it.
    const [placed] = from === 0 ? events : await this.events.readStream(stream, { toRevision: 0 });
    const first = placed ? decodeOrderEvent(placed) : null;
    if (first?.type !== 'OrderPlaced' || !sees(viewer, first.data.customerId)) throw new OrderNotFound(orderId);
    const erasure = erasureShown ? undefined : await this.erasureOf(first.data.customerId);
    // The order's events, and the erasure before the first of them recorded after it (or last,
    // once the order's stream ends on this page). One item more than the page tells whether one follows.
    const merged: HistoryItem[] = [];
    for (const recorded of events) {
      if (erasure && !merged.includes(erasure) && recorded.position > erasure.position) merged.push(erasure);
      merged.push(orderItem(recorded));
    }
    if (erasure && !merged.includes(erasure) && events.length <= limit) merged.push(erasure);
    const items = merged.slice(0, limit);
    const erasureHere = erasure !== undefined && items.includes(erasure);
    const next = { next: String(from + items.length - (erasureHere ? 1 : 0)), ...(erasureShown || erasureHere ? { erasure: 'shown' } : {}) };
    const nextCursor = merged.length > limit ? this.cursors.encode(scope, next) : null;
    return { items, nextCursor };
  }

  /** The erasure of the customer, as its history item; undefined while the customer was not erased. */
  private async erasureOf(customerId: string): Promise<HistoryItem | undefined> {
    const recorded = (await this.log.readStream(customerStream(customerId))).find((e) => e.type === 'CustomerErased');
    const event = recorded && decodeCustomerEvent(recorded);
    if (event?.type !== 'CustomerErased') return undefined;
    // Its members named one by one: nothing else the record may hold is shown.
    const { customerId: erased, erasedAt } = event.data;
    return { ...itemOf(recorded!, event.schemaVersion), data: { customerId: erased, erasedAt } };
  }
}

function orderItem(recorded: RecordedEvent): HistoryItem {
  const { schemaVersion, data } = decodeOrderEvent(recorded);
  return { ...itemOf(recorded, schemaVersion), data };
}

function itemOf(recorded: RecordedEvent, schemaVersion: number): Omit<HistoryItem, 'data'> {
  const { principal, correlationId, causationId } = recorded.metadata;
  return {
    type: recorded.type, schemaVersion, recordedSchemaVersion: recorded.metadata.schemaVersion, revision: recorded.revision,
    position: recorded.position, recordedAt: recorded.recordedAt.toISOString(), metadata: { principal, correlationId, causationId },
  };
}
