// Editing an order's lines before it ships: the complete new set of lines, previewed with a dry
// run (the new lines, what the stock reserves or releases, the new balance), then confirmed with
// If-Match set to the previewed revision, so the edit applies exactly what was shown or is 412.
import { useState } from 'preact/hooks';
import { api, newKey } from '../../api';
import { Scroll, money } from '../../ui';
import type { Done, Order } from './action';
import { Balance, Lines, due } from './lines';
import { stockEffect, type SkuQuantity } from './quantities';

interface Row {
  readonly sku: string;
  readonly quantity: string;
  /** A line the editor added: its SKU is typed in. */
  readonly added: boolean;
}

interface Preview {
  readonly order: Order;
  readonly lines: SkuQuantity[];
  /** The ETag of the revision the preview was worked out on. */
  readonly etag: string;
  /** One per preview: a retry of its confirmation is the same request, a new preview a new one. */
  readonly key: string;
}

export function EditForm({ order, done, refuse }: { order: Order; done: Done; refuse: (message: string | null) => void }) {
  const [rows, setRows] = useState<Row[]>(() => order.lines.map((line) => ({ sku: line.sku, quantity: String(line.quantity - line.cancelled), added: false })));
  const [preview, setPreview] = useState<Preview | null>(null);
  const added = (index: number) => rows.slice(0, index + 1).filter((row) => row.added).length;

  const change = (next: Row[]) => {
    setRows(next);
    setPreview(null);
  };
  const set = (index: number, patch: Partial<Row>) => change(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));

  async function ask(event: Event) {
    event.preventDefault();
    const lines = rows.map((row) => ({ sku: row.sku.trim(), quantity: Number(row.quantity) })).filter((line) => line.sku && line.quantity > 0);
    // Every request of the operation needs a key; a dry run never takes it, so the confirmation reuses it.
    const key = newKey();
    const { data, error, response } = await api.POST('/orders/{id}/edits', { params: { path: { id: order.id }, header: { 'Idempotency-Key': key } }, body: { lines, dryRun: true } });
    // Refused (the order shipped meanwhile, a SKU cannot be ordered): said as the page says any refusal.
    if (!response.ok || !data) return void (await done({ error, response }, ''));
    refuse(null);
    // The cast: openapi-fetch 0.17's Readable<> drops members typed null (ErasedAddress's), which the body has.
    setPreview({ order: data as Order, lines, etag: response.headers.get('ETag') ?? `"${order.revision}"`, key });
  }

  async function confirm() {
    if (!preview) return;
    const result = await api.POST('/orders/{id}/edits', {
      params: { path: { id: order.id }, header: { 'Idempotency-Key': preview.key, 'If-Match': preview.etag } },
      body: { lines: preview.lines, dryRun: false },
    });
    const changed = result.response.status === 201;
    // Refused (short of stock, the order moved on): the preview no longer says what would happen.
    if (!(await done(result, changed ? "The order's lines were changed." : 'The order has these lines already; nothing changed.'))) setPreview(null);
  }

  const effect = preview ? stockEffect(order.lines, preview.order.lines) : [];
  return (
    <form class="panel" onSubmit={ask} aria-label="Edit the lines">
      <p class="muted">The order's complete new set of lines: change a quantity, remove a line or add a SKU, then preview the change.</p>
      <Scroll label="New lines">
        <table>
          <thead>
            <tr>
              <th scope="col">SKU</th>
              <th scope="col">Quantity</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => {
              const name = row.added ? `added line ${added(index)}` : row.sku;
              return (
                <tr key={index}>
                  <td>{row.added ? <input value={row.sku} required aria-label={`SKU of ${name}`} onInput={(e) => set(index, { sku: (e.currentTarget as HTMLInputElement).value })} /> : row.sku}</td>
                  <td>
                    <input type="number" min={1} step={1} required value={row.quantity} size={5} inputMode="numeric" aria-label={`Quantity of ${name}`} onInput={(e) => set(index, { quantity: (e.currentTarget as HTMLInputElement).value })} />
                  </td>
                  <td>
                    <button type="button" class="secondary" onClick={() => change(rows.filter((_, i) => i !== index))}>
                      Remove {name}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </Scroll>
      <div class="actions">
        <button type="button" class="secondary" onClick={() => change([...rows, { sku: '', quantity: '1', added: true }])}>
          Add a line
        </button>
        <button type="submit">Preview</button>
      </div>
      {preview ? (
        <section aria-labelledby="edit-preview">
          <h2 id="edit-preview">Preview of the edit</h2>
          <Lines order={preview.order} label="Lines after the edit" />
          <h3>Stock</h3>
          {effect.length === 0 ? (
            <p>No stock is reserved or released.</p>
          ) : (
            <Scroll label="Stock effect of the edit">
              <table>
                <thead>
                  <tr>
                    <th scope="col">SKU</th>
                    <th scope="col" class="num">
                      Reserved now
                    </th>
                    <th scope="col" class="num">
                      After
                    </th>
                    <th scope="col">Change</th>
                  </tr>
                </thead>
                <tbody>
                  {effect.map((row) => (
                    <tr key={row.sku}>
                      <td>{row.sku}</td>
                      <td class="num">{row.now}</td>
                      <td class="num">{row.after}</td>
                      <td>{row.change > 0 ? `+${row.change} reserved` : `−${-row.change} released`}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
          )}
          <h3>Balance</h3>
          <p>
            Due after the edit: <strong data-preview="due">{due(preview.order.balance.due, order.currency)}</strong> (now {due(order.balance.due, order.currency)}); total {money(preview.order.total, order.currency)}.
          </p>
          <Balance order={preview.order} />
          <div class="actions">
            <button type="button" onClick={() => void confirm()}>
              Confirm the edit
            </button>
          </div>
        </section>
      ) : null}
    </form>
  );
}
