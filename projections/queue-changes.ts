// The fulfilment queue's changes, as a feed: an order enters the queue when it is paid and
// leaves it when it ships or is cancelled. Each change carries the log position of the event
// that made it, so a consumer resumes exactly after the last change it handled.
import type { EventStore, Position, RecordedEvent } from '../write-side/event-store.js';
import { ORDER_STREAM_PREFIX } from '../write-side/orders/codec.js';

export interface QueueChange {
  readonly position: Position;
  readonly orderId: string;
  readonly change: 'entered' | 'left';
  readonly reason: 'paid' | 'shipped' | 'cancelled';
  /** When the event was recorded. */
  readonly at: string;
}

export class QueueChanges {
  constructor(private readonly events: EventStore) {}

  /** Up to `max` changes after `after`, and the position to ask from next (past events that changed nothing). */
  async read(after: Position | null, max: number): Promise<{ changes: QueueChange[]; next: Position | null }> {
    const changes: QueueChange[] = [];
    let next = after;
    while (changes.length < max) {
      const batch = await this.events.readAll({ after: next, maxCount: 500, streamPrefixes: [ORDER_STREAM_PREFIX] });
      if (batch.length === 0) break;
      for (const recorded of batch) {
        const change = await this.changeOf(recorded);
        next = recorded.position;
        if (change) changes.push(change);
        if (changes.length === max) break;
      }
    }
    return { changes, next };
  }

  /** Every change after `after`, then live ones as they happen, until the iteration is ended. */
  async *follow(after: Position | null, signal?: AbortSignal): AsyncGenerator<QueueChange> {
    const subscription = this.events.subscribeToAll({ after, streamPrefixes: [ORDER_STREAM_PREFIX] });
    const stop = () => void subscription.close();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      for await (const recorded of subscription) {
        const change = await this.changeOf(recorded);
        if (change) yield change;
      }
    } finally {
      signal?.removeEventListener('abort', stop);
      await subscription.close();
    }
  }

  private async changeOf(recorded: RecordedEvent): Promise<QueueChange | null> {
    const orderId = recorded.streamName.slice(ORDER_STREAM_PREFIX.length);
    const base = { position: recorded.position, orderId, at: recorded.recordedAt.toISOString() };
    switch (recorded.type) {
      case 'PaymentRecorded':
        return { ...base, change: 'entered', reason: 'paid' };
      case 'ShipmentCreated':
        return { ...base, change: 'left', reason: 'shipped' };
      case 'OrderCancelled': {
        // Only a paid order was in the queue; a pending one leaves nothing.
        const before = await this.events.readStream(recorded.streamName, { toRevision: recorded.revision - 1 });
        return before.some((e) => e.type === 'PaymentRecorded') ? { ...base, change: 'left', reason: 'cancelled' } : null;
      }
      default:
        return null;
    }
  }
}
