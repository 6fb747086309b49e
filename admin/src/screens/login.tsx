import { useState } from 'preact/hooks';
import { api, describe } from '../api';
import { Field, Refusal, Title, formValue } from '../ui';

export function Login({ expired, onSignedIn }: { expired: boolean; onSignedIn: (token: string) => void }) {
  const [refusal, setRefusal] = useState<string | null>(expired ? 'Your session has ended; sign in again.' : null);
  const [busy, setBusy] = useState(false);
  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    const { data, error, response } = await api.POST('/auth/login', { body: { email: formValue(event, 'email'), password: formValue(event, 'password') } }).finally(() => setBusy(false));
    if (data) onSignedIn(data.access_token);
    else setRefusal(describe(error, response));
  }
  return (
    <main id="main" class="login">
      <Title>Sign in to the store's administration</Title>
      <form onSubmit={submit}>
        <Field label="Email">
          <input name="email" type="email" autocomplete="username" required />
        </Field>
        <Field label="Password">
          <input name="password" type="password" autocomplete="current-password" required />
        </Field>
        <Refusal message={refusal} />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
