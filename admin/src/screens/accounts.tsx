import { useState } from 'preact/hooks';
import { api, consistency, describe, newKey, type Schemas } from '../api';
import { Empty, Field, Notice, Pager, Refusal, Scroll, Title, formValue, useCursors, usePage, when } from '../ui';

type Account = Schemas['Account'];
type Role = Account['role'];
const ROLES: readonly Role[] = ['admin', 'staff', 'fulfilment', 'auditor', 'customer'];

export function Accounts() {
  const cursors = useCursors();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [creating, setCreating] = useState<{ key: string; role: Role } | null>(null);
  const [reloads, setReloads] = useState(0);
  const { page, loading } = usePage(() => api.GET('/accounts', { params: { query: { limit: 20, ...(cursors.cursor ? { cursor: cursors.cursor } : {}) }, header: consistency() } }), [cursors.cursor, reloads], setRefusal);

  async function create(event: Event) {
    event.preventDefault();
    if (!creating) return;
    const customerId = formValue(event, 'customerId');
    const body = { email: formValue(event, 'email'), password: ((event.currentTarget as HTMLFormElement).elements.namedItem('password') as HTMLInputElement).value, role: creating.role, ...(creating.role === 'customer' ? { customerId } : {}) };
    const { data, error, response } = await api.POST('/accounts', { params: { header: { 'Idempotency-Key': creating.key } }, body });
    if (!data) return setRefusal(describe(error, response));
    setNotice(`${data.email} can sign in now, as ${data.role}.`);
    setRefusal(null);
    setCreating(null);
    setReloads(reloads + 1);
  }

  async function change(account: Account, patch: Schemas['AccountPatch'], what: string) {
    const { error, response } = await api.PATCH('/accounts/{id}', { params: { path: { id: account.id } }, body: patch, headers: { 'Content-Type': 'application/merge-patch+json' } });
    if (!response.ok) return setRefusal(describe(error, response));
    setNotice(what);
    setRefusal(null);
    setReloads(reloads + 1);
  }

  return (
    <>
      <Title>Accounts</Title>
      <div class="filters">
        <button type="button" onClick={() => setCreating({ key: newKey(), role: 'staff' })}>
          New account
        </button>
      </div>
      <Notice message={notice} />
      <Refusal message={refusal} />
      {creating ? (
        <form class="panel" onSubmit={create} aria-label="New account">
          <h2>New account</h2>
          <Field label="Email">
            <input name="email" type="email" required autocomplete="off" />
          </Field>
          <Field label="Password" hint="12 to 256 characters">
            <input name="password" type="password" required minLength={12} maxLength={256} autocomplete="new-password" />
          </Field>
          <Field label="Role">
            <select name="role" value={creating.role} onChange={(e) => setCreating({ ...creating, role: (e.currentTarget as HTMLSelectElement).value as Role })}>
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {role}
                </option>
              ))}
            </select>
          </Field>
          {creating.role === 'customer' ? (
            <Field label="Customer id">
              <input name="customerId" required />
            </Field>
          ) : null}
          <div class="actions">
            <button type="submit">Create the account</button>
            <button type="button" class="secondary" onClick={() => setCreating(null)}>
              Close
            </button>
          </div>
        </form>
      ) : null}
      {page && page.items.length === 0 && cursors.page === 1 ? (
        <Empty>
          <p>No account yet.</p>
          <p>New account lets a member of staff sign in with an email and a role.</p>
        </Empty>
      ) : page ? (
        <>
          <Scroll label="Accounts">
            <table>
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">State</th>
                  <th scope="col">Since</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((account) => (
                  <tr key={account.id}>
                    <td>{account.email}</td>
                    <td>
                      <form
                        class="inline"
                        aria-label={`Role of ${account.email}`}
                        onSubmit={(event) => {
                          event.preventDefault();
                          const role = formValue(event, 'role') as NonNullable<Schemas['AccountPatch']['role']>;
                          void change(account, { role }, `${account.email} is ${role} now.`);
                        }}
                      >
                        {/* Preact sets no defaultValue on a <select>: the account's role is marked selected instead. */}
                        <select name="role" aria-label={`Role of ${account.email}`}>
                          {ROLES.filter((role) => role !== 'customer' || account.role === 'customer').map((role) => (
                            <option key={role} value={role} selected={role === account.role}>
                              {role}
                            </option>
                          ))}
                        </select>
                        <button type="submit" class="secondary" aria-label={`Change the role of ${account.email}`}>
                          Change
                        </button>
                      </form>
                    </td>
                    <td>{account.disabled ? 'disabled' : 'active'}</td>
                    <td>{when(account.createdAt)}</td>
                    <td>
                      <button
                        type="button"
                        class={account.disabled ? '' : 'danger'}
                        onClick={() => void change(account, { disabled: !account.disabled }, `${account.email} is ${account.disabled ? 'enabled' : 'disabled'}.`)}
                        aria-label={`${account.disabled ? 'Enable' : 'Disable'} ${account.email}`}
                      >
                        {account.disabled ? 'Enable' : 'Disable'}
                      </button>
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
