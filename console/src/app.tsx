import { useEffect } from 'preact/hooks';
import { Layout } from './components/layout';
import { ErrorText } from './components/field';
import type { MonitorKind } from './monitors/monitor-rows';
import { match, navigate, useRoute } from './router';
import { SignIn } from './screens/auth/sign-in';
import { SignUp } from './screens/auth/sign-up';
import { Customers } from './screens/customers/customers';
import { Incidents } from './screens/incidents/incidents';
import { IncidentPage } from './screens/incidents/incident-page';
import { MonitorPage } from './screens/monitors/monitor-page';
import { NewMonitor } from './screens/monitors/new-monitor';
import { Overview } from './screens/monitors/overview';
import { useSession, type User } from './session';

const PUBLIC_PATHS = ['/sign-in', '/sign-up'];

function Screen({ path, user }: { path: string; user: User }) {
  if (path === '/') return <Overview />;
  if (path === '/incidents') return <Incidents user={user} />;
  if (path === '/customers') return <Customers user={user} />;
  if (path === '/monitors/new') return <NewMonitor />;
  const incident = match('/incidents/:id', path);
  if (incident) return <IncidentPage key={incident.id} id={incident.id!} user={user} />;
  const monitor = match('/monitors/:kind/:id', path);
  if (monitor) return <MonitorPage key={monitor.id} kind={monitor.kind as MonitorKind} id={monitor.id!} user={user} />;
  return (
    <section>
      <h1>Not found</h1>
      <p>This page does not exist.</p>
    </section>
  );
}

/** The console: sign-in and sign-up for visitors, the screens for a signed-in user. */
export function App() {
  const { session, refresh } = useSession();
  const { path } = useRoute();
  const signedIn = async () => {
    await refresh();
    navigate('/', true);
  };
  useEffect(() => {
    if (session.kind === 'signedOut' && !PUBLIC_PATHS.includes(path)) navigate('/sign-in', true);
    if (session.kind === 'signedIn' && PUBLIC_PATHS.includes(path)) navigate('/', true);
  }, [session.kind, path]);
  useEffect(() => {
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [path]);

  if (session.kind === 'loading') return <p role="status">Loading…</p>;
  if (session.kind === 'failed') return <ErrorText message={`The service does not answer: ${session.message}`} />;
  if (session.kind === 'signedOut') return path === '/sign-up' ? <SignUp onSignedIn={signedIn} /> : <SignIn onSignedIn={signedIn} />;
  return (
    <Layout user={session.user} onSignedOut={() => void refresh()}>
      <Screen path={path} user={session.user} />
    </Layout>
  );
}
