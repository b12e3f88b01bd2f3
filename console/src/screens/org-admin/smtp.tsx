import { useState } from 'preact/hooks';
import { api, ApiError, ok, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { dateTime } from '../../components/format';
import { useSubmission } from '../../components/use-submission';
import { useAction } from '../../components/use-action';
import { useLoad } from './use-load';
import './org-admin.css';

type Smtp = Schemas['OrganizationSmtp'];
type Security = Smtp['security'];

interface Draft {
  host: string;
  port: string;
  security: Security;
  username: string;
  password: string;
  forgetPassword: boolean;
  fromAddress: string;
}

const draftOf = (smtp: Smtp | null): Draft => ({
  host: smtp?.host ?? '',
  port: smtp ? String(smtp.port) : '',
  security: smtp?.security ?? 'starttls',
  username: smtp?.username ?? '',
  password: '',
  forgetPassword: false,
  fromAddress: smtp?.fromAddress ?? '',
});

/** The settings, or null while e-mail goes through the platform's server (404 smtpNotConfigured). */
async function readSmtp(): Promise<{ smtp: Smtp | null }> {
  try {
    return { smtp: await ok(api.GET('/api/organization/smtp')) };
  } catch (failure) {
    if (failure instanceof ApiError && failure.code === 'smtpNotConfigured') return { smtp: null };
    throw failure;
  }
}

function SmtpForm({ smtp, onSaved }: { smtp: Smtp | null; onSaved: () => void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(smtp));
  const set = <K extends keyof Draft>(name: K, value: Draft[K]) => setDraft({ ...draft, [name]: value });
  const [saved, setSaved] = useState(false);
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    setSaved(false);
    const password = draft.forgetPassword ? null : draft.password === '' ? undefined : draft.password;
    const body = {
      host: draft.host,
      ...(draft.port.trim() === '' ? {} : { port: Number(draft.port) }),
      security: draft.security,
      username: draft.username.trim() === '' ? null : draft.username,
      ...(password === undefined ? {} : { password }),
      fromAddress: draft.fromAddress,
    };
    try {
      await ok(api.PATCH('/api/organization/smtp', { body }));
    } catch (failure) {
      // A host the target policy refuses is told at the host field.
      if (failure instanceof ApiError && failure.code === 'smtpHostNotPublic') {
        throw new ApiError(failure.status, failure.code, failure.message, [{ path: ['host'], message: failure.message }]);
      }
      throw failure;
    }
    setDraft({ ...draft, password: '', forgetPassword: false });
    setSaved(true);
    onSaved();
  });
  return (
    <form class="panel" onSubmit={submit} noValidate aria-labelledby="smtp-form-title">
      <h2 id="smtp-form-title">{smtp ? 'Change the server' : 'Use your own server'}</h2>
      <p class="muted">The service connects and logs in before it keeps anything: a server it cannot use is refused here.</p>
      <Field label="Host" id="smtp-host" error={fieldError('host')}>
        <input id="smtp-host" value={draft.host} onInput={(e) => set('host', e.currentTarget.value)} />
      </Field>
      <Field label="Security" id="smtp-security" error={fieldError('security')}>
        <select id="smtp-security" value={draft.security} onChange={(e) => set('security', e.currentTarget.value as Security)}>
          <option value="starttls">STARTTLS (required upgrade)</option>
          <option value="tls">TLS from the start</option>
          <option value="none">None</option>
        </select>
      </Field>
      <Field label="Port (empty: the usual one for the security chosen)" id="smtp-port" error={fieldError('port')}>
        <input id="smtp-port" inputMode="numeric" value={draft.port} onInput={(e) => set('port', e.currentTarget.value)} />
      </Field>
      <Field label="User name" id="smtp-username" error={fieldError('username')}>
        <input id="smtp-username" autoComplete="off" value={draft.username} onInput={(e) => set('username', e.currentTarget.value)} />
      </Field>
      <Field
        label={smtp?.passwordSet ? 'New password (empty: keep the one stored)' : 'Password'}
        id="smtp-password"
        error={fieldError('password')}
      >
        <input
          id="smtp-password"
          type="password"
          autoComplete="new-password"
          value={draft.password}
          disabled={draft.forgetPassword}
          onInput={(e) => set('password', e.currentTarget.value)}
        />
      </Field>
      {smtp?.passwordSet ? (
        <div class="field checkbox-field">
          <input
            id="smtp-forget"
            type="checkbox"
            checked={draft.forgetPassword}
            onChange={(e) => set('forgetPassword', e.currentTarget.checked)}
          />
          <label for="smtp-forget">Remove the stored password</label>
        </div>
      ) : null}
      <Field label="From address" id="smtp-from" error={fieldError('fromAddress')}>
        <input id="smtp-from" type="email" value={draft.fromAddress} onInput={(e) => set('fromAddress', e.currentTarget.value)} />
      </Field>
      <ErrorText message={message} />
      {saved ? <p role="status">Saved: the server answered and accepted the login.</p> : null}
      <button type="submit" disabled={busy}>
        {busy ? 'Checking the server…' : 'Save SMTP settings'}
      </button>
    </form>
  );
}

/** The organization's own SMTP server for its e-mail channels; the password is never shown back. */
export function Smtp() {
  const { data, error, reload } = useLoad(readSmtp);
  const removal = useAction();
  const loaded = data !== null;
  const smtp = data?.smtp ?? null;
  return (
    <section aria-labelledby="smtp-title">
      <h1 id="smtp-title">SMTP</h1>
      <ErrorText message={error} />
      {!loaded && !error ? <p role="status">Loading…</p> : null}
      {loaded ? (
        <>
          {smtp ? (
            <div class="panel">
              <h2>In use</h2>
              <dl class="facts">
                <dt>Server</dt>
                <dd>
                  {smtp.host}:{smtp.port} ({smtp.security === 'none' ? 'no encryption' : smtp.security.toUpperCase()})
                </dd>
                <dt>User name</dt>
                <dd>{smtp.username ?? 'none'}</dd>
                <dt>Password</dt>
                <dd>{smtp.passwordSet ? 'Set (never shown)' : 'Not set'}</dd>
                <dt>From</dt>
                <dd>{smtp.fromAddress}</dd>
                <dt>Verified</dt>
                <dd>{dateTime(smtp.verifiedAt)}</dd>
              </dl>
              <button
                type="button"
                class="org-danger"
                disabled={removal.busy}
                onClick={() => removal.act(async () => (await ok(api.DELETE('/api/organization/smtp')), await reload()))}
              >
                Go back to the platform's server
              </button>
              <ErrorText message={removal.error} />
            </div>
          ) : (
            <p>E-mail notifications go out through the platform's own server.</p>
          )}
          <SmtpForm key={smtp?.updatedAt ?? 'none'} smtp={smtp} onSaved={() => void reload()} />
        </>
      ) : null}
    </section>
  );
}
