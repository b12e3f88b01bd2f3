import { useState } from 'preact/hooks';
import { api, ApiError, describe, ok } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { Link } from '../../components/link';

/** Create an organization and its first administrator (POST /api/auth/sign-up/email signs in too). */
export function SignUp({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  const [form, setForm] = useState({ name: '', email: '', password: '', organizationName: '' });
  const [error, setError] = useState<ApiError | string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof form) => (event: { currentTarget: HTMLInputElement }) =>
    setForm({ ...form, [key]: event.currentTarget.value });
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await ok(api.POST('/api/auth/sign-up/email', { body: form }));
      await onSignedIn();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure : describe(failure));
    } finally {
      setBusy(false);
    }
  };
  const fieldError = (name: string) => (error instanceof ApiError ? error.forField(name) : undefined);
  return (
    <main class="auth" id="main">
      <h1>Sign up</h1>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label="Your name" id="name" error={fieldError('name')}>
          <input id="name" autocomplete="name" required value={form.name} onInput={set('name')} />
        </Field>
        <Field label="Email" id="email" error={fieldError('email')}>
          <input id="email" type="email" autocomplete="username" required value={form.email} onInput={set('email')} />
        </Field>
        <Field label="Password" id="password" error={fieldError('password')}>
          <input id="password" type="password" autocomplete="new-password" required value={form.password} onInput={set('password')} />
        </Field>
        <Field label="Organization" id="organizationName" error={fieldError('organizationName')}>
          <input
            id="organizationName"
            autocomplete="organization"
            required
            value={form.organizationName}
            onInput={set('organizationName')}
          />
        </Field>
        <ErrorText message={error instanceof ApiError ? error.message : error} />
        <button type="submit" disabled={busy}>
          Create account
        </button>
      </form>
      <p>
        Already have an account? <Link to="/sign-in">Sign in</Link>
      </p>
    </main>
  );
}
