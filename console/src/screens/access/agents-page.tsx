import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, describe, ok, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { ago, dateTime } from '../../components/format';
import { useSubmission } from '../../components/use-submission';
import { navigate } from '../../router';
import './access.css';

type Connection = Schemas['OauthConnection'];

async function loadConnections(): Promise<Connection[]> {
  const all: Connection[] = [];
  for (let page = 1; ; page++) {
    const answer = await ok(api.GET('/api/oauth/connections', { params: { query: { page, perPage: 200 } } }));
    all.push(...answer.items);
    if (all.length >= answer.total || answer.items.length === 0) return all;
  }
}

/**
 * Connected agents and OAuth apps (GET /api/oauth/connections): what each may do, since when, when it
 * last got a token; disconnecting one (DELETE /api/oauth/connections/{clientId}) revokes its tokens.
 * A code an agent shows leads to its claim (`/agent/claim?user_code=…`).
 */
export function AgentsPage() {
  const [connections, setConnections] = useState<Connection[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setConnections(await loadConnections());
    } catch (failure) {
      setError(describe(failure));
    }
  }, []);
  useEffect(() => void load(), [load]);
  return (
    <section aria-labelledby="agents-title">
      <h1 id="agents-title">Connected agents</h1>
      <p class="muted">Agents and apps approved in your organization. Administrators see all of them; others see those they approved.</p>
      <ErrorText message={error} />
      {connections === null && !error ? <p role="status">Loading connections…</p> : null}
      {connections?.length === 0 ? <p>No agent is connected.</p> : null}
      <ul class="access-list" aria-label="Connected agents">
        {connections?.map((connection) => (
          <ConnectionLine key={connection.clientId} connection={connection} onRevoked={load} />
        ))}
      </ul>
      <ApproveByCode />
    </section>
  );
}

function ConnectionLine({ connection, onRevoked }: { connection: Connection; onRevoked: () => Promise<void> }) {
  const [confirming, setConfirming] = useState(false);
  const revoke = useSubmission(async () => {
    await ok(api.DELETE('/api/oauth/connections/{clientId}', { params: { path: { clientId: connection.clientId } } }));
    await onRevoked();
  });
  const kind = connection.issuer
    ? `app vouched for by ${connection.issuer}`
    : connection.type === 'service_auth'
      ? 'agent'
      : 'anonymous agent';
  return (
    <li class="access-line">
      <div class="access-main">
        <strong>{connection.clientId}</strong> <span class="muted">{kind}</span>
        <div class="muted">
          May: {connection.scopes.join(', ')} · connected {dateTime(connection.connectedAt)} · last token{' '}
          {ago(connection.lastTokenIssuedAt)}
          {connection.customerId !== null ? ` · customer ${connection.customerId} only` : ''}
        </div>
      </div>
      {confirming ? (
        <form class="inline-form" onSubmit={revoke.submit}>
          <button type="submit" class="remove" disabled={revoke.busy}>
            Disconnect {connection.clientId} now
          </button>
          <button type="button" class="secondary" onClick={() => setConfirming(false)}>
            Keep
          </button>
        </form>
      ) : (
        <button type="button" class="secondary" onClick={() => setConfirming(true)} aria-label={`Disconnect ${connection.clientId}`}>
          Disconnect
        </button>
      )}
      <ErrorText message={revoke.message} />
    </li>
  );
}

/** The code an agent shows, typed in: opens its claim. */
function ApproveByCode() {
  const [code, setCode] = useState('');
  const { submit } = useSubmission(async () => {
    if (code.trim()) navigate(`/agent/claim?user_code=${encodeURIComponent(code.trim())}`);
  });
  return (
    <form class="panel" onSubmit={submit} noValidate aria-labelledby="approve-title">
      <h2 id="approve-title">Approve an agent</h2>
      <p>An agent asking for access shows a link and a code. Open the link, or type the code here.</p>
      <Field label="The code the agent shows" id="agent-code">
        <input id="agent-code" autocomplete="off" required value={code} onInput={(e) => setCode(e.currentTarget.value)} />
      </Field>
      <button type="submit">Continue</button>
    </form>
  );
}
