import { useState } from 'preact/hooks';
import { api, ok } from '../../api/client';
import { useSubmission } from '../../components/use-submission';
import { ErrorText, Field } from '../../components/field';
import { Link } from '../../components/link';

/** Create an organization and its first administrator (POST /api/auth/sign-up/email signs in too). */
export function SignUp({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  const [form, setForm] = useState({ name: '', email: '', password: '', organizationName: '' });
  const set = (key: keyof typeof form) => (event: { currentTarget: HTMLInputElement }) =>
    setForm({ ...form, [key]: event.currentTarget.value });
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    await ok(api.POST('/api/auth/sign-up/email', { body: form }));
    await onSignedIn();
  });
  return (
    <main class="auth" id="main">
      <h1>Sign up</h1>
      <form onSubmit={submit} noValidate>
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
        <ErrorText message={message} />
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
