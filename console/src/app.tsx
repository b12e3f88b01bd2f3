import { useEffect } from 'preact/hooks';
import { Layout } from './components/layout';
import { ErrorText } from './components/field';
import { navigate, useRoute } from './router';
import { closedPlace, findScreen } from './screens';
import { SignIn } from './screens/auth/sign-in';
import { SignUp } from './screens/auth/sign-up';
import { useSession, type User } from './session';

const SIGN_IN_PATHS = ['/sign-in', '/sign-up'];

function NotFound() {
  return (
    <section>
      <h1>Not found</h1>
      <p>This page does not exist.</p>
    </section>
  );
}

/** A place the user's role does not reach: said in a sentence, nothing asked of the API. */
function NotForYou({ label }: { label: string }) {
  return (
    <section>
      <h1>{label}</h1>
      <p>Your role does not give access to this page.</p>
    </section>
  );
}

function Screen({ path, user }: { path: string; user: User }) {
  const found = findScreen(path);
  const closed = closedPlace(path, user);
  if (closed) return <NotForYou label={closed.label} />;
  return found ? found.route.render(found.params, user) : <NotFound />;
}

/** The console: sign-in, sign-up and public screens for visitors, every screen for a signed-in user. */
export function App() {
  const { session, refresh } = useSession();
  const { path } = useRoute();
  const found = findScreen(path);
  const publicScreen = found?.route.public === true ? found : null;
  const signedIn = async () => {
    await refresh();
    navigate('/', true);
  };
  useEffect(() => {
    if (session.kind === 'signedOut' && !SIGN_IN_PATHS.includes(path) && publicScreen === null) navigate('/sign-in', true);
    if (session.kind === 'signedIn' && SIGN_IN_PATHS.includes(path)) navigate('/', true);
  }, [session.kind, path, publicScreen === null]);
  useEffect(() => {
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [path]);

  if (session.kind === 'loading') return <p role="status">Loading…</p>;
  if (session.kind === 'failed') return <ErrorText message={`The service does not answer: ${session.message}`} />;
  if (session.kind === 'signedOut') {
    if (publicScreen?.route.public) {
      return (
        <main id="main" tabIndex={-1}>
          {publicScreen.route.render(publicScreen.params, null)}
        </main>
      );
    }
    return path === '/sign-up' ? <SignUp onSignedIn={signedIn} /> : <SignIn onSignedIn={signedIn} />;
  }
  return (
    <Layout user={session.user} onSignedOut={() => void refresh()}>
      <Screen path={path} user={session.user} />
    </Layout>
  );
}
