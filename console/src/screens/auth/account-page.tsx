import { useEffect, useState } from 'preact/hooks';
import { api, ok } from '../../api/client';
import { CurrentPasswordField, ErrorText, Field } from '../../components/field';
import { useSubmission } from '../../components/use-submission';
import type { User } from '../../session';
import { QrCode } from '../access/qr-code';
import { SecretOnce } from '../access/secret-once';
import '../access/access.css';
import { PushDevices } from './push-devices';

type Enrolment = { totpURI: string; backupCodes: string[] };

/**
 * The signed-in user's account: two-step verification and the devices that ring (push-devices.tsx). Enrolment is POST /api/auth/two-factor/enable
 * (password) → the authenticator's QR code and secret → a first code confirmed with
 * POST /api/auth/two-factor/verify-totp, which turns it on → the recovery codes, shown once.
 * POST /api/auth/two-factor/disable (password) turns it off.
 */
export function AccountPage({ user }: { user: User }) {
  const [enabled, setEnabled] = useState(user.twoFactorEnabled);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  useEffect(() => {
    // The session the app read may be older than a change made here: read it again.
    api.GET('/api/auth/get-session').then(
      ({ data }) => data && setEnabled(data.user.twoFactorEnabled),
      () => undefined,
    );
  }, []);
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">Your account</h1>
      <p>
        {user.name} <span class="muted">{user.email}</span>
      </p>
      <h2>Two-step verification</h2>
      {recoveryCodes ? (
        <>
          <p role="status">Two-step verification is on.</p>
          <SecretOnce label="Recovery codes" secret={recoveryCodes.join('\n')} onDone={() => setRecoveryCodes(null)} />
          <p class="muted">Each recovery code signs you in once when your authenticator is not at hand.</p>
        </>
      ) : enabled ? (
        <Disable onDisabled={() => setEnabled(false)} />
      ) : enrolment ? (
        <Confirm
          enrolment={enrolment}
          onConfirmed={() => {
            setEnabled(true);
            setRecoveryCodes(enrolment.backupCodes);
            setEnrolment(null);
          }}
          onCancel={() => setEnrolment(null)}
        />
      ) : (
        <Enable onStarted={setEnrolment} />
      )}
      <PushDevices />
    </section>
  );
}

function Enable({ onStarted }: { onStarted: (enrolment: Enrolment) => void }) {
  const [password, setPassword] = useState('');
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    onStarted(await ok(api.POST('/api/auth/two-factor/enable', { body: { password } })));
  });
  return (
    <form class="panel" onSubmit={submit} noValidate aria-labelledby="enable-title">
      <h3 id="enable-title">Turn on two-step verification</h3>
      <p>Signing in will also ask for a code from an authenticator app on your phone.</p>
      <CurrentPasswordField
        label="Your password"
        id="enable-password"
        error={fieldError('password')}
        value={password}
        onInput={setPassword}
      />
      <ErrorText message={message} />
      <button type="submit" disabled={busy}>
        Start
      </button>
    </form>
  );
}

function Confirm({ enrolment, onConfirmed, onCancel }: { enrolment: Enrolment; onConfirmed: () => void; onCancel: () => void }) {
  const [code, setCode] = useState('');
  const secret = new URL(enrolment.totpURI).searchParams.get('secret') ?? '';
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    await ok(api.POST('/api/auth/two-factor/verify-totp', { body: { code } }));
    onConfirmed();
  });
  return (
    <form class="panel enrol" onSubmit={submit} noValidate aria-labelledby="confirm-title">
      <h3 id="confirm-title">Scan the code with your authenticator app</h3>
      <QrCode text={enrolment.totpURI} label="QR code of your two-step verification secret" />
      <p>
        Or type this secret into the app: <code class="totp-secret">{secret}</code>
      </p>
      <Field label="The six-digit code the app shows" id="confirm-code" error={fieldError('code')}>
        <input
          id="confirm-code"
          autocomplete="one-time-code"
          inputMode="numeric"
          required
          value={code}
          onInput={(e) => setCode(e.currentTarget.value)}
        />
      </Field>
      <ErrorText message={message} />
      <button type="submit" disabled={busy}>
        Turn on
      </button>{' '}
      <button type="button" class="secondary" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}

function Disable({ onDisabled }: { onDisabled: () => void }) {
  const [password, setPassword] = useState('');
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    await ok(api.POST('/api/auth/two-factor/disable', { body: { password } }));
    onDisabled();
  });
  return (
    <form class="panel" onSubmit={submit} noValidate aria-labelledby="disable-title">
      <p role="status">Two-step verification is on.</p>
      <h3 id="disable-title">Turn off two-step verification</h3>
      <CurrentPasswordField
        label="Your password"
        id="disable-password"
        error={fieldError('password')}
        value={password}
        onInput={setPassword}
      />
      <ErrorText message={message} />
      <button type="submit" disabled={busy} class="remove">
        Turn off
      </button>
    </form>
  );
}
