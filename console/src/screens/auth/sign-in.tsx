import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api, ok } from '../../api/client';
import { useSubmission } from '../../components/use-submission';
import { CurrentPasswordField, ErrorText, Field } from '../../components/field';
import { Link } from '../../components/link';
import { BrandMark } from '../branding/brand-mark';

/**
 * Sign in with email and password (POST /api/auth/sign-in/email sets the session cookie). With
 * two-step verification on, the API answers `twoFactorRedirect` and sets a short-lived challenge
 * cookie: the screen then asks for a code (an authenticator's six digits or a recovery code) and
 * completes the sign-in with POST /api/auth/two-factor/verify-totp.
 */
export function SignIn({
  onSignedIn,
  title = 'Sign in',
  embedded = false,
}: {
  onSignedIn: () => Promise<void>;
  title?: string;
  embedded?: boolean;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [challenged, setChallenged] = useState(false);
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    const answer = await ok(api.POST('/api/auth/sign-in/email', { body: { email, password } }));
    if ('twoFactorRedirect' in answer) {
      setChallenged(true);
      return;
    }
    await onSignedIn();
  });
  if (challenged) {
    return (
      <Frame embedded={embedded}>
        <TwoFactorChallenge title={title} onSignedIn={onSignedIn} onRestart={() => setChallenged(false)} />
      </Frame>
    );
  }
  return (
    <Frame embedded={embedded}>
      <h1>{title}</h1>
      <form onSubmit={submit} noValidate>
        <Field label="Email" id="email" error={fieldError('email')}>
          <input id="email" type="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </Field>
        <CurrentPasswordField label="Password" id="password" error={fieldError('password')} value={password} onInput={setPassword} />
        <ErrorText message={message} />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <SingleSignOn />
      <p>
        No account yet? <Link to="/sign-up">Sign up</Link>
      </p>
    </Frame>
  );
}

/**
 * Sign-in through the organization's identity provider, found by the work e-mail's domain
 * (GET /api/auth/sso/start answers the provider's address; the provider sends the browser back to
 * the service, which opens the session and lands on the console).
 */
function SingleSignOn() {
  const [email, setEmail] = useState('');
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    const { url } = await ok(api.GET('/api/auth/sso/start', { params: { query: { email } } }));
    window.location.assign(url);
  });
  return (
    <form class="sso" onSubmit={submit} noValidate aria-labelledby="sso-title">
      <h2 id="sso-title">Single sign-on</h2>
      <Field label="Work e-mail" id="sso-email" error={fieldError('email')}>
        <input
          id="sso-email"
          type="email"
          autocomplete="username"
          required
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
      </Field>
      <ErrorText message={message} />
      <button type="submit" class="secondary" disabled={busy}>
        Continue with single sign-on
      </button>
    </form>
  );
}

/** The second step: a code from the authenticator app, or one of the recovery codes (each works once). */
function TwoFactorChallenge({ title, onSignedIn, onRestart }: { title: string; onSignedIn: () => Promise<void>; onRestart: () => void }) {
  const [code, setCode] = useState('');
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    await ok(api.POST('/api/auth/two-factor/verify-totp', { body: { code } }));
    await onSignedIn();
  });
  return (
    <>
      <h1>{title}</h1>
      <h2>Two-step verification</h2>
      <p>Enter the six-digit code your authenticator app shows, or one of your recovery codes.</p>
      <form onSubmit={submit} noValidate>
        <Field label="Verification code" id="two-factor-code" error={fieldError('code')}>
          <input id="two-factor-code" autocomplete="one-time-code" required value={code} onInput={(e) => setCode(e.currentTarget.value)} />
        </Field>
        <ErrorText message={message} />
        <button type="submit" disabled={busy}>
          Verify
        </button>{' '}
        <button type="button" class="secondary" onClick={onRestart}>
          Start again
        </button>
      </form>
    </>
  );
}

/** The page's main region, or a section of it when the form sits inside another screen (an agent's claim). */
function Frame({ embedded, children }: { embedded: boolean; children: ComponentChildren }) {
  return embedded ? (
    <section class="auth">{children}</section>
  ) : (
    <main class="auth" id="main">
      <p class="auth-brand">
        <BrandMark />
      </p>
      {children}
    </main>
  );
}
