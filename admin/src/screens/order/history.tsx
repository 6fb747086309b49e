// The order's history (audit:read): each event, when and by whom, and in a few words what it did.
import type { Schemas } from '../../api';
import { money, when } from '../../ui';
import { listed } from './quantities';

type HistoryEvent = Schemas['HistoryEvent'];

function summary(event: HistoryEvent, currency: string): string | null {
  switch (event.type) {
    case 'PaymentRecorded':
      return money(event.data.amount, currency);
    case 'ShipmentCreated':
      return `${event.data.lines ? listed(event.data.lines) : 'everything that remained'} by ${event.data.carrier}`;
    case 'OrderCancelled':
      return event.data.reason;
    case 'ReturnRequested':
      return `${listed(event.data.lines)}: ${event.data.reason}`;
    case 'ReturnReceived':
      return event.data.lines.length === 0 ? 'nothing came back' : event.data.lines.map((line) => `${line.quantity} × ${line.sku} ${line.restock ? 'back on hand' : 'damaged'}`).join(', ');
    case 'RefundRecorded':
      return `${money(event.data.amount, currency)} (${event.data.reason}${event.data.note ? `: ${event.data.note}` : ''})`;
    case 'OrderEdited':
      return `${listed(event.data.before)} → ${listed(event.data.after)}`;
    default:
      return null;
  }
}

export function History({ history, currency }: { history: readonly HistoryEvent[]; currency: string }) {
  return (
    <>
      <h2>History</h2>
      <ol class="timeline">
        {history.map((event) => {
          const what = summary(event, currency);
          return (
            <li key={event.position}>
              <strong>{event.type}</strong> <time dateTime={event.recordedAt}>{when(event.recordedAt)}</time>
              <span class="muted"> by {event.metadata.principal} · revision {event.revision}</span>
              {what ? <div>{what}</div> : null}
            </li>
          );
        })}
      </ol>
    </>
  );
}
