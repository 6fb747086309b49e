// Stock levels (GET /stock) with their products' names and low-stock thresholds, a page at a time:
// found by the beginning of a SKU or of a name, filtered by available units below a number or below
// the product's threshold (#/stock?belowThreshold=true, the list behind that figure of the home
// screen; #/stock?skuPrefix=MUG, a SKU of it); an adjustment with a reason.
import { useState } from 'preact/hooks';
import { api, consistency, describe, newKey, type Schemas } from '../api';
import { href, keepQuery } from '../router';
import { Empty, Field, Notice, Pager, Refusal, Scroll, Title, count, formValue, useCursors, usePage, when } from '../ui';

type Reason = Schemas['NewStockAdjustment']['reason'];
const REASONS: readonly Reason[] = ['received', 'count', 'damaged', 'returned', 'other'];

interface Filter {
  /** What the prefix is the beginning of. */
  readonly by: 'sku' | 'name';
  readonly prefix: string;
  readonly below: string;
  readonly belowThreshold: boolean;
}

const filterOf = (query: URLSearchParams): Filter => ({
  by: query.has('namePrefix') ? 'name' : 'sku',
  prefix: query.get('namePrefix') ?? query.get('skuPrefix') ?? '',
  below: query.get('below') ?? '',
  belowThreshold: query.get('belowThreshold') === 'true',
});

/** The API's query for a filter, and the route's: sent as given (a combination the API does not offer is its 400 to explain). */
const queryOf = (filter: Filter) => ({
  ...(filter.prefix ? { [filter.by === 'name' ? 'namePrefix' : 'skuPrefix']: filter.prefix } : {}),
  ...(filter.belowThreshold ? { belowThreshold: 'true' } : filter.below ? { below: filter.below } : {}),
});

export function Stock({ can, query }: { can: (scope: string) => boolean; query: URLSearchParams }) {
  const [filter, setFilter] = useState(() => filterOf(query));
  // The form's own state: "below a number" and "below the threshold" exclude each other (the API takes one).
  const [draft, setDraft] = useState(filter);
  const cursors = useCursors();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [adjusting, setAdjusting] = useState<{ sku: string; key: string } | null>(null);
  const [reloads, setReloads] = useState(0);
  const { page, loading } = usePage(
    () =>
      api.GET('/stock', {
        params: {
          query: {
            limit: 20,
            ...(filter.prefix ? (filter.by === 'name' ? { namePrefix: filter.prefix } : { skuPrefix: filter.prefix }) : {}),
            ...(filter.belowThreshold ? { belowThreshold: true } : filter.below ? { below: Number(filter.below) } : {}),
            ...(cursors.cursor ? { cursor: cursors.cursor } : {}),
          },
          header: consistency(),
        },
      }),
    [filter, cursors.cursor, reloads],
    setRefusal,
  );
  const filtered = Object.keys(queryOf(filter)).length > 0;
  const set = (change: Partial<Filter>) => setDraft({ ...draft, ...change });

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
          const next = { ...draft, prefix: draft.prefix.trim(), below: draft.belowThreshold ? '' : draft.below.trim() };
          setDraft(next);
          setFilter(next);
          setRefusal(null);
          keepQuery(queryOf(next));
          cursors.reset();
        }}
      >
        <Field label="Find by">
          <select name="by" value={draft.by} onChange={(e) => set({ by: (e.currentTarget as HTMLSelectElement).value === 'name' ? 'name' : 'sku' })}>
            <option value="sku">SKU</option>
            <option value="name">name</option>
          </select>
        </Field>
        <Field label={draft.by === 'name' ? 'Name begins with' : 'SKU begins with'}>
          <input name="prefix" value={draft.prefix} onInput={(e) => set({ prefix: (e.currentTarget as HTMLInputElement).value })} />
        </Field>
        <Field label="Available below">
          <input name="below" type="number" min={0} inputMode="numeric" value={draft.below} disabled={draft.belowThreshold} onInput={(e) => set({ below: (e.currentTarget as HTMLInputElement).value })} />
        </Field>
        <label class="check">
          <input type="checkbox" name="belowThreshold" checked={draft.belowThreshold} onChange={(e) => set({ belowThreshold: (e.currentTarget as HTMLInputElement).checked })} />
          Only those below their low-stock threshold
        </label>
        <button type="submit">Apply</button>
      </form>
      <p class="muted hint">A name is found whatever its case, and alone; a SKU exactly as written, alone or below the threshold.</p>
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
          {filter.prefix ? (
            <p>
              No {filter.by === 'name' ? 'product’s name' : 'SKU'} begins with “{filter.prefix}”{filter.belowThreshold ? ' among those below their threshold' : filter.below ? ` with fewer than ${filter.below} available` : ''}.{' '}
              {filter.by === 'name' ? 'Try its first letters, or find it by SKU.' : 'A SKU is found exactly as written, capitals included; try its first letters, or find it by name.'}
            </p>
          ) : filter.belowThreshold ? (
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
                  <th scope="col">Name</th>
                  <th scope="col" class="num">
                    On hand
                  </th>
                  <th scope="col" class="num">
                    Reserved
                  </th>
                  <th scope="col" class="num">
                    Available
                  </th>
                  <th scope="col" class="num">
                    Threshold
                  </th>
                  <th scope="col">Updated</th>
                  {can('stock:write') ? <th scope="col">Action</th> : null}
                </tr>
              </thead>
              <tbody>
                {page.items.map((level) => (
                  <tr key={level.sku} data-sku={level.sku}>
                    <td>{level.sku}</td>
                    <td>{level.name ?? <span class="muted">no product</span>}</td>
                    <td class="num">{count(level.onHand)}</td>
                    <td class="num">{count(level.reserved)}</td>
                    <td class="num">
                      {count(level.available)}
                      {level.lowStockThreshold > 0 && level.available < level.lowStockThreshold ? <span class="low"> below threshold</span> : null}
                    </td>
                    <td class="num">{level.lowStockThreshold > 0 ? count(level.lowStockThreshold) : '—'}</td>
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
          <Pager cursors={cursors} nextCursor={page.nextCursor} loading={loading} />
        </>
      ) : null}
    </>
  );
}
