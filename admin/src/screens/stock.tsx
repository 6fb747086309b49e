// Stock levels (GET /stock), a page at a time, filtered by available units below a number or by
// below their product's low-stock threshold (#/stock?belowThreshold=true, the list behind that
// figure of the home screen); an adjustment with a reason.
import { useState } from 'preact/hooks';
import { api, consistency, describe, newKey, type Schemas } from '../api';
import { href, keepQuery } from '../router';
import { Empty, Field, Notice, Pager, Refusal, Scroll, Title, formValue, useCursors, usePage, when } from '../ui';

type Reason = Schemas['NewStockAdjustment']['reason'];
const REASONS: readonly Reason[] = ['received', 'count', 'damaged', 'returned', 'other'];

interface Filter {
  readonly below: string;
  readonly belowThreshold: boolean;
}

export function Stock({ can, query }: { can: (scope: string) => boolean; query: URLSearchParams }) {
  const [filter, setFilter] = useState<Filter>({ below: query.get('below') ?? '', belowThreshold: query.get('belowThreshold') === 'true' });
  // The form's own state: "below a number" and "below the threshold" exclude each other (the API takes one).
  const [draft, setDraft] = useState(filter);
  const cursors = useCursors();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [adjusting, setAdjusting] = useState<{ sku: string; key: string } | null>(null);
  const [reloads, setReloads] = useState(0);
  const page = usePage(
    () =>
      api.GET('/stock', {
        params: {
          query: { limit: 20, ...(filter.belowThreshold ? { belowThreshold: true } : filter.below ? { below: Number(filter.below) } : {}), ...(cursors.cursor ? { cursor: cursors.cursor } : {}) },
          header: consistency(),
        },
      }),
    [filter, cursors.cursor, reloads],
    setRefusal,
  );
  const filtered = filter.belowThreshold || filter.below !== '';

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
          const next = { below: draft.belowThreshold ? '' : draft.below.trim(), belowThreshold: draft.belowThreshold };
          setFilter(next);
          keepQuery({ below: next.below || undefined, belowThreshold: next.belowThreshold ? 'true' : undefined });
          cursors.reset();
        }}
      >
        <Field label="Available below">
          <input name="below" type="number" min={0} inputMode="numeric" value={draft.below} disabled={draft.belowThreshold} onInput={(e) => setDraft({ ...draft, below: (e.currentTarget as HTMLInputElement).value })} />
        </Field>
        <label class="check">
          <input type="checkbox" name="belowThreshold" checked={draft.belowThreshold} onChange={(e) => setDraft({ ...draft, belowThreshold: (e.currentTarget as HTMLInputElement).checked })} />
          Only those below their low-stock threshold
        </label>
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
      {page && page.items.length === 0 && cursors.page === 1 ? (
        <Empty>
          {filter.belowThreshold ? (
            <p>No product is below its low-stock threshold. A product’s threshold is set in the catalogue (lowStockThreshold); it shows here once its available units fall below it.</p>
          ) : filtered ? (
            <p>No SKU has fewer than {filter.below} units available.</p>
          ) : (
            <p>No stock is recorded yet. A SKU is listed here once units are received for it (<code>{'POST /stock/{sku}/adjustments'}</code>) or once its product has a low-stock threshold.</p>
          )}
          <p>
            <a href={href('catalogue')}>See the catalogue</a>
          </p>
        </Empty>
      ) : page ? (
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
