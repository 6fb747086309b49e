import { useState } from 'preact/hooks';
import { api, consistency, describe, newKey, type Schemas } from '../api';
import { Field, Notice, Pager, Refusal, Scroll, Title, formValue, useCursors, usePage, when } from '../ui';

type Reason = Schemas['NewStockAdjustment']['reason'];
const REASONS: readonly Reason[] = ['received', 'count', 'damaged', 'returned', 'other'];

export function Stock({ can }: { can: (scope: string) => boolean }) {
  const [below, setBelow] = useState('');
  const cursors = useCursors();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [adjusting, setAdjusting] = useState<{ sku: string; key: string } | null>(null);
  const [reloads, setReloads] = useState(0);
  const page = usePage(() => api.GET('/stock', { params: { query: { limit: 20, ...(below ? { below: Number(below) } : {}), ...(cursors.cursor ? { cursor: cursors.cursor } : {}) }, header: consistency() } }), [below, cursors.cursor, reloads], setRefusal);

  async function adjust(event: Event) {
    event.preventDefault();
    if (!adjusting) return;
    const note = formValue(event, 'note');
    const body = { delta: Number(formValue(event, 'delta')), reason: formValue(event, 'reason') as Reason, ...(note ? { note } : {}) };
    const { error, response } = await api.POST('/stock/{sku}/adjustments', { params: { path: { sku: adjusting.sku }, header: { 'Idempotency-Key': adjusting.key } }, body });
    if (!response.ok) return setRefusal(describe(error, response));
    setNotice(`${adjusting.sku}: ${body.delta > 0 ? '+' : ''}${body.delta} (${body.reason}).`);
    setRefusal(null);
    setAdjusting(null);
    setReloads(reloads + 1);
  }

  return (
    <>
      <Title>Stock</Title>
      <form
        class="filters"
        aria-label="Filter stock"
        onSubmit={(event) => {
          event.preventDefault();
          setBelow(formValue(event, 'below'));
          cursors.reset();
        }}
      >
        <Field label="Available below">
          <input name="below" type="number" min={0} inputMode="numeric" />
        </Field>
        <button type="submit">Apply</button>
      </form>
      <Notice message={notice} />
      <Refusal message={refusal} />
      {adjusting ? (
        <form class="panel" onSubmit={adjust} aria-label={`Adjust ${adjusting.sku}`}>
          <h2>Adjust {adjusting.sku}</h2>
          <Field label="Change (+ received, − removed)">
            <input name="delta" type="number" required step={1} />
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
          <div class="actions">
            <button type="submit">Record the adjustment</button>
            <button type="button" class="secondary" onClick={() => setAdjusting(null)}>
              Close
            </button>
          </div>
        </form>
      ) : null}
      {page ? (
        <>
          <Scroll label="Stock levels">
            <table>
              <thead>
                <tr>
                  <th scope="col">SKU</th>
                  <th scope="col" class="num">
                    On hand
                  </th>
                  <th scope="col" class="num">
                    Reserved
                  </th>
                  <th scope="col" class="num">
                    Available
                  </th>
                  <th scope="col">Updated</th>
                  {can('stock:write') ? <th scope="col">Action</th> : null}
                </tr>
              </thead>
              <tbody>
                {page.items.map((level) => (
                  <tr key={level.sku}>
                    <td>{level.sku}</td>
                    <td class="num">{level.onHand}</td>
                    <td class="num">{level.reserved}</td>
                    <td class="num">{level.available}</td>
                    <td>{when(level.updatedAt)}</td>
                    {can('stock:write') ? (
                      <td>
                        <button type="button" onClick={() => setAdjusting({ sku: level.sku, key: newKey() })} aria-label={`Adjust ${level.sku}`}>
                          Adjust…
                        </button>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
          <Pager cursors={cursors} nextCursor={page.nextCursor} />
        </>
      ) : null}
    </>
  );
}
