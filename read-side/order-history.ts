// An order's history for auditors (GET /orders/{id}/history): its events in order, as recorded,
// upcast to the current schema, paged by a cursor bound to the order. Read from the event log,
// confined like the order: another customer's order is not found, exactly like an unknown one.
import { sees, type Viewer } from '../write-side/access.js';
import { OrderNotFound } from '../write-side/errors.js';
import type { EventStore, Position } from '../write-side/event-store.js';
import { decodeOrderEvent, orderStream } from '../write-side/orders/codec.js';
import type { CursorCodec } from './cursor.js';
import { InvalidCursor } from './cursor.js';
import type { Page } from './order-queries.js';

export interface HistoryItem {
  readonly type: string;
  readonly schemaVersion: number;
  readonly recordedSchemaVersion: number;
  readonly revision: number;
  readonly position: Position;
  readonly recordedAt: string;
  readonly data: unknown;
  readonly metadata: { readonly principal: string; readonly correlationId: string; readonly causationId: string | null };
}

export class OrderHistory {
  constructor(
    private readonly events: Pick<EventStore, 'readStream'>,
    private readonly cursors: CursorCodec,
  ) {}

  async page(viewer: Viewer, orderId: string, request: { limit: number; cursor?: string }): Promise<Page<HistoryItem>> {
    const { limit } = request;
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
    const scope = { collection: 'history', orderId };
    let from = 0;
    if (request.cursor !== undefined) {
      const key = this.cursors.decode(request.cursor, scope);
      if (typeof key.next !== 'string' || !/^\d{1,15}$/.test(key.next)) throw new InvalidCursor('undecodable');
      from = Number(key.next);
    }
    const stream = orderStream(orderId);
    const events = await this.events.readStream(stream, { fromRevision: from, toRevision: from + limit });
    // Who may see it is settled by the first event alone: the history is not folded for it.
    const [placed] = from === 0 ? events : await this.events.readStream(stream, { toRevision: 0 });
    const first = placed ? decodeOrderEvent(placed) : null;
    if (first?.type !== 'OrderPlaced' || !sees(viewer, first.data.customerId)) throw new OrderNotFound(orderId);
    const items = events.slice(0, limit).map((recorded): HistoryItem => {
      const { schemaVersion, data } = decodeOrderEvent(recorded);
      const { principal, correlationId, causationId } = recorded.metadata;
      return {
        type: recorded.type, schemaVersion, recordedSchemaVersion: recorded.metadata.schemaVersion, revision: recorded.revision,
        position: recorded.position, recordedAt: recorded.recordedAt.toISOString(), data, metadata: { principal, correlationId, causationId },
      };
    });
    const nextCursor = events.length > limit ? this.cursors.encode(scope, { next: String(from + limit) }) : null;
    return { items, nextCursor };
  }
}
