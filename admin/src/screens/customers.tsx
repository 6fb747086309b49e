import { useState } from 'preact/hooks';
import { api, consistency, describe, newKey, type Schemas } from '../api';
import { Confirm, Empty, Field, Notice, Pager, Refusal, Scroll, Title, formValue, useCursors, usePage, when } from '../ui';

type Customer = Schemas['Customer'];

export function Customers({ can }: { can: (scope: string) => boolean }) {
  const [email, setEmail] = useState('');
  const cursors = useCursors();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // null: no form; 'new': a new customer; else the customer edited.
  const [editing, setEditing] = useState<Customer | 'new' | null>(null);
  const [key, setKey] = useState(newKey);
  const [erasing, setErasing] = useState<Customer | null>(null);
  const [reloads, setReloads] = useState(0);
  const { page, loading } = usePage(() => api.GET('/customers', { params: { query: { limit: 20, ...(email ? { email } : {}), ...(cursors.cursor ? { cursor: cursors.cursor } : {}) }, header: consistency() } }), [email, cursors.cursor, reloads], setRefusal);

  async function save(event: Event) {
    event.preventDefault();
    const phone = formValue(event, 'phone');
    const fields = { email: formValue(event, 'email'), name: formValue(event, 'name'), phone: phone || null };
    const { data, error, response } =
      editing === 'new'
        ? await api.POST('/customers', { params: { header: { 'Idempotency-Key': key } }, body: phone ? fields : { email: fields.email, name: fields.name } })
        : await api.PATCH('/customers/{id}', { params: { path: { id: (editing as Customer).id } }, body: fields, headers: { 'Content-Type': 'application/merge-patch+json' } });
    if (!data) return setRefusal(describe(error, response));
    setNotice(editing === 'new' ? `${data.name} was created (${data.id}).` : `${data.name} was saved.`);
    setRefusal(null);
    setEditing(null);
    setReloads(reloads + 1);
  }

  async function erase(customer: Customer) {
    setErasing(null);
    const { error, response } = await api.DELETE('/customers/{id}', { params: { path: { id: customer.id } } });
    if (!response.ok) return setRefusal(describe(error, response));
    setNotice(`${customer.name}'s personal data was erased.`);
    setReloads(reloads + 1);
  }

  const current = editing !== 'new' ? editing : null;
  return (
    <>
      <Title>Customers</Title>
      <form
        class="filters"
        aria-label="Find a customer"
        onSubmit={(event) => {
          event.preventDefault();
          setEmail(formValue(event, 'email'));
          cursors.reset();
        }}
      >
        <Field label="Email (exact)">
          <input name="email" type="email" />
        </Field>
        <button type="submit">Find</button>
        {can('customers:write') ? (
          <button
            type="button"
            onClick={() => {
              setKey(newKey());
              setEditing('new');
            }}
          >
            New customer
          </button>
        ) : null}
      </form>
      <Notice message={notice} />
      <Refusal message={refusal} />
      {editing ? (
        <form class="panel" onSubmit={save} aria-label={current ? `Edit ${current.name}` : 'New customer'} key={current?.id ?? 'new'}>
          <h2>{current ? `Edit ${current.name}` : 'New customer'}</h2>
          <Field label="Name">
            <input name="name" required defaultValue={current?.name ?? ''} />
          </Field>
          <Field label="Email">
            <input name="email" type="email" required defaultValue={current?.email ?? ''} />
          </Field>
          <Field label="Phone (optional)">
            <input name="phone" type="tel" defaultValue={current?.phone ?? ''} />
          </Field>
          <div class="actions">
            <button type="submit">Save</button>
            <button type="button" class="secondary" onClick={() => setEditing(null)}>
              Close
            </button>
          </div>
        </form>
      ) : null}
      {erasing ? (
        <Confirm
          question={`Erase ${erasing.name} (${erasing.email})? Their name, email, phone and addresses are removed from every order and export, for good.`}
          confirm={`Erase ${erasing.name}`}
          onConfirm={() => void erase(erasing)}
          onCancel={() => setErasing(null)}
        />
      ) : null}
      {page && page.items.length === 0 && cursors.page === 1 ? (
        <Empty>
          <p>{email ? `No customer has the email ${email}.` : 'No customer yet.'}</p>
          <p>{can('customers:write') ? 'New customer adds one; customers signed up through the API appear here too.' : 'Customers signed up through the API appear here.'}</p>
        </Empty>
      ) : page ? (
        <>
          <Scroll label="Customers">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Id</th>
                  <th scope="col">Status</th>
                  <th scope="col">Since</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((customer) => (
                  <tr key={customer.id}>
                    <td>{customer.name ?? '—'}</td>
                    <td>{customer.email ?? '—'}</td>
                    <td class="mono">{customer.id}</td>
                    <td>{customer.status}</td>
                    <td>{when(customer.createdAt)}</td>
                    <td class="actions">
                      {customer.status === 'active' && can('customers:write') ? (
                        <button type="button" onClick={() => setEditing(customer)} aria-label={`Edit ${customer.name}`}>
                          Edit
                        </button>
                      ) : null}
                      {customer.status === 'active' && can('customers:erase') ? (
                        <button type="button" class="danger" onClick={() => setErasing(customer)} aria-label={`Erase ${customer.name}`}>
                          Erase…
                        </button>
                      ) : null}
                    </td>
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
