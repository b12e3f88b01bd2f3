import { useState } from 'preact/hooks';
import { api, ok } from '../../api/client';
import { useSubmission } from '../../components/use-submission';
import { ErrorText, Field } from '../../components/field';
import { Link } from '../../components/link';
import { BrandMark } from '../branding/brand-mark';

/** Sign in with email and password (POST /api/auth/sign-in/email sets the session cookie). */
export function SignIn({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    const answer = await ok(api.POST('/api/auth/sign-in/email', { body: { email, password } }));
    if ('twoFactorRedirect' in answer) {
      return 'This account uses two-step verification, which the console does not offer yet: sign in through the API.';
    }
    await onSignedIn();
  });
  return (
    <main class="auth" id="main">
      <p class="auth-brand">
        <BrandMark />
      </p>
      <h1>Sign in</h1>
      <form onSubmit={submit} noValidate>
        <Field label="Email" id="email" error={fieldError('email')}>
          <input id="email" type="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </Field>
        <Field label="Password" id="password" error={fieldError('password')}>
          <input
            id="password"
            type="password"
            autocomplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </Field>
        <ErrorText message={message} />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <p>
        No account yet? <Link to="/sign-up">Sign up</Link>
      </p>
    </main>
  );
}
