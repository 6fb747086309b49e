import { useState } from 'preact/hooks';
import { api, consistency, describe, type Schemas } from '../api';
import { Confirm, Empty, Field, Notice, Pager, Refusal, Scroll, Title, money, toMajor, toMinor, useCursors, usePage, when } from '../ui';

type Product = Schemas['Product'];
type Status = Product['status'];

interface Editing {
  readonly product: Product | null;
  prices: Array<{ currency: string; amount: string }>;
}

export function Catalogue({ can }: { can: (scope: string) => boolean }) {
  const writer = can('catalogue:write');
  const [status, setStatus] = useState<Status | ''>('');
  const cursors = useCursors();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [retiring, setRetiring] = useState<Product | null>(null);
  const [reloads, setReloads] = useState(0);
  const { page, loading } = usePage(() => api.GET('/products', { params: { query: { limit: 20, ...(status ? { status } : {}), ...(cursors.cursor ? { cursor: cursors.cursor } : {}) }, header: consistency() } }), [status, cursors.cursor, reloads], setRefusal);

  const edit = (product: Product | null) => {
    setRefusal(null);
    setEditing({ product, prices: product ? Object.entries(product.prices).map(([currency, minor]) => ({ currency, amount: toMajor(minor, currency) })) : [{ currency: 'EUR', amount: '' }] });
  };

  async function save(event: Event) {
    event.preventDefault();
    if (!editing) return;
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const sku = editing.product?.sku ?? String(data.get('sku')).trim();
    const prices = Object.fromEntries(editing.prices.filter((p) => p.currency && p.amount).map((p) => [p.currency.toUpperCase(), toMinor(p.amount, p.currency.toUpperCase())]));
    // A PUT is the whole product: the threshold this screen does not edit is sent as it is, or it would be removed.
    const body = { name: String(data.get('name')).trim(), description: String(data.get('description')).trim() || null, prices, status: String(data.get('status')) as Status, lowStockThreshold: editing.product?.lowStockThreshold ?? 0 };
    const precondition = editing.product ? { 'If-Match': `"${editing.product.revision}"` } : { 'If-None-Match': '*' as const };
    const { error, response } = await api.PUT('/products/{sku}', { params: { path: { sku }, header: precondition }, body });
    if (!response.ok) return setRefusal(describe(error, response));
    setNotice(editing.product ? `${sku} was saved.` : `${sku} was created.`);
    setEditing(null);
    setReloads(reloads + 1);
  }

  async function retire(product: Product) {
    setRetiring(null);
    const { error, response } = await api.DELETE('/products/{sku}', { params: { path: { sku: product.sku } } });
    if (!response.ok) return setRefusal(describe(error, response));
    setNotice(`${product.sku} was retired.`);
    setReloads(reloads + 1);
  }

  const setPrice = (index: number, change: Partial<{ currency: string; amount: string }>) =>
    editing && setEditing({ ...editing, prices: editing.prices.map((p, i) => (i === index ? { ...p, ...change } : p)) });

  return (
    <>
      <Title>Catalogue</Title>
      <div class="filters">
        <Field label="Status">
          <select value={status} onChange={(e) => (setStatus((e.currentTarget as HTMLSelectElement).value as Status | ''), cursors.reset())}>
            <option value="">any</option>
            <option value="active">active</option>
            <option value="draft">draft</option>
          </select>
        </Field>
        {writer ? (
          <button type="button" onClick={() => edit(null)}>
            New product
          </button>
        ) : null}
      </div>
      <Notice message={notice} />
      <Refusal message={refusal} />
      {editing ? (
        <form class="panel" onSubmit={save} aria-label={editing.product ? `Edit ${editing.product.sku}` : 'New product'}>
          <h2>{editing.product ? `Edit ${editing.product.sku}` : 'New product'}</h2>
          {editing.product ? null : (
            <Field label="SKU">
              <input name="sku" required pattern="[A-Za-z0-9_.:\-]{1,64}" />
            </Field>
          )}
          <Field label="Name">
            <input name="name" required defaultValue={editing.product?.name ?? ''} />
          </Field>
          <Field label="Description">
            <input name="description" defaultValue={editing.product?.description ?? ''} />
          </Field>
          <Field label="Status">
            {/* Preact sets no defaultValue on a <select>: the option is marked selected instead. */}
            <select name="status">
              <option value="draft">draft</option>
              <option value="active" selected={editing.product?.status === 'active'}>
                active
              </option>
            </select>
          </Field>
          <fieldset>
            <legend>Prices</legend>
            {editing.prices.map((price, index) => (
              <div class="row" key={index}>
                <Field label="Currency">
                  <input value={price.currency} maxLength={3} size={4} onInput={(e) => setPrice(index, { currency: (e.currentTarget as HTMLInputElement).value.toUpperCase() })} />
                </Field>
                <Field label={`Price${price.currency ? ` in ${price.currency}` : ''}`}>
                  <input value={price.amount} inputMode="decimal" onInput={(e) => setPrice(index, { amount: (e.currentTarget as HTMLInputElement).value })} />
                </Field>
                <button type="button" class="secondary" onClick={() => setEditing({ ...editing, prices: editing.prices.filter((_, i) => i !== index) })}>
                  Remove {price.currency || 'this price'}
                </button>
              </div>
            ))}
            <button type="button" class="secondary" onClick={() => setEditing({ ...editing, prices: [...editing.prices, { currency: '', amount: '' }] })}>
              Add a price
            </button>
          </fieldset>
          <div class="actions">
            <button type="submit">Save</button>
            <button type="button" class="secondary" onClick={() => setEditing(null)}>
              Close
            </button>
          </div>
        </form>
      ) : null}
      {retiring ? <Confirm question={`Retire ${retiring.sku} (${retiring.name})? It can no longer be ordered.`} confirm={`Retire ${retiring.sku}`} onConfirm={() => void retire(retiring)} onCancel={() => setRetiring(null)} /> : null}
      {page && page.items.length === 0 && cursors.page === 1 ? (
        <Empty>
          <p>{status ? `No product is ${status}.` : 'No product yet.'}</p>
          <p>{writer ? 'New product defines one: its SKU, name and a price per currency. Orders take their prices from here.' : 'Products appear here once an account that may edit the catalogue defines them.'}</p>
        </Empty>
      ) : page ? (
        <>
          <Scroll label="Products">
            <table>
              <thead>
                <tr>
                  <th scope="col">SKU</th>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                  <th scope="col">Prices</th>
                  <th scope="col">Updated</th>
                  {writer ? <th scope="col">Actions</th> : null}
                </tr>
              </thead>
              <tbody>
                {page.items.map((product) => (
                  <tr key={product.sku}>
                    <td>{product.sku}</td>
                    <td>{product.name}</td>
                    <td>{product.status}</td>
                    <td>{Object.entries(product.prices).map(([currency, minor]) => money(minor, currency)).join(', ')}</td>
                    <td>{when(product.updatedAt)}</td>
                    {writer ? (
                      <td class="actions">
                        <button type="button" onClick={() => edit(product)} aria-label={`Edit ${product.sku}`}>
                          Edit
                        </button>
                        <button type="button" class="danger" onClick={() => setRetiring(product)} aria-label={`Retire ${product.sku}`}>
                          Retire
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
