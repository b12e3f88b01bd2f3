import { useEffect, useState } from 'preact/hooks';
import { api, describe, ok, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { dateTime } from '../../components/format';
import { useSubmission } from '../../components/use-submission';
import { BASE } from '../../router';
import { ROLE_LABELS } from './user-line';
import './access.css';

type Preview = Schemas['InvitationPreview'];

/**
 * The page of an invitation link (public): GET /api/invitations/accept/{token} shows the
 * organization and e-mail; POST with a name and password creates the user and signs them in (the
 * session cookie), then the console opens on the overview.
 */
export function InvitationPage({ token }: { token: string }) {
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [form, setForm] = useState({ name: '', password: '' });
  useEffect(() => {
    ok(api.GET('/api/invitations/accept/{token}', { params: { path: { token } } }))
      .then(setPreview)
      .catch((failure: unknown) => setError(describe(failure)));
  }, [token]);
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    await ok(api.POST('/api/invitations/accept/{token}', { params: { path: { token } }, body: form }));
    window.location.assign(`${BASE}/`);
  });
  return (
    <main class="invitation-page">
      <section class="panel" aria-labelledby="invitation-title">
        <h1 id="invitation-title">Join {preview?.organizationName ?? 'an organization'}</h1>
        <ErrorText message={error} />
        {preview === null && !error ? <p role="status">Loading the invitation…</p> : null}
        {preview ? (
          <form onSubmit={submit} noValidate>
            <p>
              You are invited as <strong>{preview.email}</strong> ({ROLE_LABELS[preview.role]}). The link works until{' '}
              {dateTime(preview.expiresAt)}.
            </p>
            <Field label="Your name" id="invitation-name" error={fieldError('name')}>
              <input
                id="invitation-name"
                required
                autocomplete="name"
                value={form.name}
                onInput={(e) => setForm({ ...form, name: e.currentTarget.value })}
              />
            </Field>
            <Field label="Choose a password (8 characters or more)" id="invitation-password" error={fieldError('password')}>
              <input
                id="invitation-password"
                type="password"
                required
                autocomplete="new-password"
                value={form.password}
                onInput={(e) => setForm({ ...form, password: e.currentTarget.value })}
              />
            </Field>
            <ErrorText message={message} />
            <button type="submit" disabled={busy}>
              Join and sign in
            </button>
          </form>
        ) : null}
      </section>
    </main>
  );
}
