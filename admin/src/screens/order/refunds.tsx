// Refunds: recording one, and the refunds the order's history holds (there is no list of refunds
// of their own; the balance's refunded is their sum).
import { api, type Schemas } from '../../api';
import { Field, Scroll, formValue, money, toMinor, when } from '../../ui';
import type { FormProps } from './action';

type Reason = Schemas['NewRefund']['reason'];
const REASONS: readonly Reason[] = ['return', 'cancellation', 'goodwill', 'other'];
type Recorded = Extract<Schemas['HistoryEvent'], { type: 'RefundRecorded' }>;

export function RefundForm({ order, idempotencyKey, done }: FormProps) {
  const refundable = order.balance.paid - order.balance.refunded;

  async function refund(event: Event) {
    event.preventDefault();
    const amount = toMinor(formValue(event, 'amount'), order.currency);
    const note = formValue(event, 'note');
    const result = await api.POST('/orders/{id}/refunds', {
      params: { path: { id: order.id }, header: { 'Idempotency-Key': idempotencyKey } },
      body: { amount, reason: formValue(event, 'reason') as Reason, ...(note ? { note } : {}) },
    });
    await done(result, `A refund of ${money(amount, order.currency)} was recorded.`);
  }

  return (
    <form class="panel" onSubmit={refund} aria-label="Record a refund">
      <Field label={`Amount in ${order.currency}`} hint={`At most ${money(refundable, order.currency)}: paid and not yet refunded.`}>
        <input name="amount" required inputMode="decimal" pattern="[0-9]+([.][0-9]+)?" />
      </Field>
      <Field label="Reason">
        <select name="reason">
          {REASONS.map((reason) => (
            <option key={reason} value={reason}>
              {reason}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Note (optional)">
        <input name="note" />
      </Field>
      <button type="submit">Record the refund</button>
    </form>
  );
}

/** The refunds recorded on the order, from its history (shown to accounts that may read it). */
export function Refunds({ history, currency }: { history: readonly Schemas['HistoryEvent'][]; currency: string }) {
  const refunds = history.filter((event): event is Recorded => event.type === 'RefundRecorded');
  if (refunds.length === 0) return null;
  return (
    <>
      <h2>Refunds</h2>
      <Scroll label="Refunds">
        <table>
          <thead>
            <tr>
              <th scope="col">Recorded</th>
              <th scope="col" class="num">
                Amount
              </th>
              <th scope="col">Reason</th>
              <th scope="col">Note</th>
              <th scope="col">By</th>
            </tr>
          </thead>
          <tbody>
            {refunds.map((event) => (
              <tr key={event.position}>
                <td>{when(event.data.recordedAt)}</td>
                <td class="num">{money(event.data.amount, currency)}</td>
                <td>{event.data.reason}</td>
                <td>{event.data.note ?? '—'}</td>
                <td>{event.metadata.principal}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Scroll>
    </>
  );
}
