import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, describe, ok, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { dateTime } from '../../components/format';
import { Link } from '../../components/link';
import { useSubmission } from '../../components/use-submission';
import { navigate, useRoute } from '../../router';
import type { User } from '../../session';
import { SignIn } from './sign-in';
import '../access/access.css';

type ClaimContext = NonNullable<Awaited<ReturnType<typeof readContext>>>;
type Registration = Schemas['AgentRegistration'];

const readContext = async (userCode: string) => ok(api.GET('/api/agent-claim/context', { params: { query: { user_code: userCode } } }));

/**
 * An agent's request for access, at `/app/agent/claim?user_code=…` (the console's twin of the
 * claim_url the agent shows, `/agent/claim?user_code=…`). A visitor signs in here first; a signed-in
 * user sees what the agent asks for and in which tenant (GET /api/agent-claim/context) and approves
 * it (POST /api/agent-claim/confirm, or POST /api/oauth/consent for an OAuth app's request).
 */
export function AgentClaimPage({ user }: { user: User | null }) {
  const { query } = useRoute();
  const userCode = query.get('user_code')?.trim() ?? '';
  return (
    <section aria-labelledby="claim-title" class="claim">
      <h1 id="claim-title">Approve an agent</h1>
      {user === null ? (
        <>
          <p>An agent asks to read your monitoring data. Sign in with your own account to see its request.</p>
          <SignIn title="Sign in to continue" embedded onSignedIn={async () => window.location.reload()} />
        </>
      ) : userCode === '' ? (
        <AskCode />
      ) : (
        <Claim userCode={userCode} key={userCode} />
      )}
    </section>
  );
}

/** Without a code in the address: the person types the code the agent showed. */
function AskCode() {
  const [code, setCode] = useState('');
  const { submit } = useSubmission(async () => {
    if (code.trim()) navigate(`/agent/claim?user_code=${encodeURIComponent(code.trim())}`);
  });
  return (
    <form class="panel" onSubmit={submit} noValidate>
      <Field label="The code the agent shows" id="user-code">
        <input id="user-code" autocomplete="off" required value={code} onInput={(e) => setCode(e.currentTarget.value)} />
      </Field>
      <button type="submit">Continue</button>
    </form>
  );
}

function Claim({ userCode }: { userCode: string }) {
  const [context, setContext] = useState<ClaimContext | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<{ approved: boolean; registration?: Registration } | null>(null);
  const load = useCallback(async () => {
    try {
      setContext(await readContext(userCode));
    } catch (failure) {
      setError(describe(failure));
    }
  }, [userCode]);
  useEffect(() => void load(), [load]);
  const decide = async (accept: boolean) => {
    if (!context) return;
    if (context.confirm_endpoint === '/api/oauth/consent') {
      await ok(api.POST('/api/oauth/consent', { body: { consent_code: context.consent_code, accept } }));
      setDone({ approved: accept });
    } else {
      setDone({ approved: true, registration: await ok(api.POST('/api/agent-claim/confirm', { body: { user_code: userCode } })) });
    }
  };
  const approve = useSubmission(() => decide(true));
  const deny = useSubmission(() => decide(false));

  if (error) {
    return (
      <>
        <ErrorText message={error} />
        <p>
          <Link to="/agent/claim">Enter another code</Link>
        </p>
      </>
    );
  }
  if (!context) return <p role="status">Reading the request…</p>;
  if (done) {
    return (
      <div class="panel" role="status">
        <p>
          {done.approved
            ? 'Approved. The agent receives its access the next time it asks (within a few seconds).'
            : 'Refused. The agent gets no access.'}
        </p>
        <p>
          <Link to="/organization/agents">Connected agents</Link>
        </p>
      </div>
    );
  }
  const grant = context.grant;
  const isApp = context.confirm_endpoint === '/api/oauth/consent';
  return (
    <div class="panel">
      <dl class="facts">
        <dt>Code</dt>
        <dd>{userCode}</dd>
        <dt>Agent</dt>
        <dd>{context.client_id ?? context.registration_id}</dd>
        {context.issuer ? (
          <>
            <dt>Vouched for by</dt>
            <dd>{context.issuer}</dd>
          </>
        ) : null}
        <dt>Asks for</dt>
        <dd>{(context.requested_scopes.length ? context.requested_scopes : context.scopes).join(', ') || 'read access'}</dd>
        <dt>Acting as</dt>
        <dd>
          {grant.email} in {grant.organization_name}
          {grant.customer_id !== null ? ` (customer ${grant.customer_id} only)` : ''}
        </dd>
        <dt>Request expires</dt>
        <dd>{dateTime(context.claim_expires_at)}</dd>
      </dl>
      <p>Approve only an agent you started yourself. You can disconnect it later under Connected agents.</p>
      <ErrorText message={approve.message ?? deny.message} />
      <form class="actions" onSubmit={approve.submit}>
        <button type="submit" disabled={approve.busy || deny.busy}>
          Approve
        </button>
        {isApp ? (
          <button type="button" class="secondary" disabled={approve.busy || deny.busy} onClick={deny.submit}>
            Deny
          </button>
        ) : null}
      </form>
    </div>
  );
}
