// returns: one document per return, from its order's stream (an order's stream holds all of its
// returns: each event is folded into the view of the return it names), folded by the order
// domain's own evolveReturn. GET /returns lists them; the home summary counts those requested,
// the returns waiting to be received.
import { ORDER_STREAM_PREFIX } from '../../write-side/orders/codec.js';
import { decodeStoredOrderEvent, type StoredOrderEvent } from '../../write-side/orders/personal-data.js';
import { evolveReturn } from '../../write-side/orders/rules.js';
import type { ReturnCancelled, ReturnReceived, ReturnRequested } from '../../write-side/orders/types.js';
import type { ReturnView } from '../../read-side/orders/returns.js';
import type { EventContext, Projection } from '../projection.js';

type ReturnEvent = ReturnRequested | ReturnReceived | ReturnCancelled;

export const returnsView: Projection<'returns', ReturnView, ReturnEvent> = {
  name: 'returns',
  storage: {
    fields: [
      { name: 'status', type: 'text', value: (v) => v.status },
      { name: 'createdAt', type: 'text', value: (v) => v.createdAt },
    ],
    // Oldest request first, of one status (those requested: waiting to be received) or of all.
    indexes: [['status', 'createdAt'], ['createdAt']],
  },
  streamPrefix: ORDER_STREAM_PREFIX,
  // Only the return events are decoded (handles), and none of them holds personal data.
  decode: (recorded) => decodeStoredOrderEvent(recorded) as Extract<StoredOrderEvent, ReturnEvent>,
  handles: new Set(['ReturnRequested', 'ReturnReceived', 'ReturnCancelled']),
  // A view per return, not per stream.
  parts: (event) => [event],
  keyOf: (event) => event.data.returnId,
  evolve(view: ReturnView | null, event: ReturnEvent, { revision }: EventContext): ReturnView {
    return { ...evolveReturn(view, event), orderId: event.data.orderId, revision };
  },
};
