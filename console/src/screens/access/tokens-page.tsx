import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, describe, ok, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { ago, dateTime } from '../../components/format';
import { useSubmission } from '../../components/use-submission';
import type { User } from '../../session';
import { SecretOnce } from './secret-once';
import { useStepUp } from './step-up';
import './access.css';

type Token = Schemas['ApiToken'];
type Scope = 'organization' | 'customer';
const PATH = { organization: '/api/organization/tokens', customer: '/api/customer/tokens' } as const;

async function loadTokens(scope: Scope): Promise<Token[]> {
  const tokens: Token[] = [];
  for (let page = 1; ; page++) {
    const answer = await ok(api.GET(PATH[scope], { params: { query: { page, perPage: 200 } } }));
    tokens.push(...answer.items);
    if (tokens.length >= answer.total || answer.items.length === 0) return tokens;
  }
}

/**
 * API tokens: organization-wide ones (GET/POST/DELETE /api/organization/tokens) for users of the
 * whole organization, customer tokens (/api/customer/tokens) for a user tied to a customer. A new
 * token's secret is shown once. With two-step verification on, minting and revoking ask for a code.
 */
export function TokensPage({ user }: { user: User }) {
  const scope: Scope = user.customerId === null ? 'organization' : 'customer';
  const [tokens, setTokens] = useState<Token[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [minted, setMinted] = useState<{ name: string; token: string } | null>(null);
  const stepUp = useStepUp();
  const load = useCallback(async () => {
    try {
      setTokens(await loadTokens(scope));
    } catch (failure) {
      setError(describe(failure));
    }
  }, [scope]);
  useEffect(() => void load(), [load]);
  return (
    <section aria-labelledby="tokens-title">
      <h1 id="tokens-title">API tokens</h1>
      <p class="muted">
        {scope === 'organization'
          ? 'An organization token acts with the role of the person who made it. Administrators see every token; others see their own.'
          : 'A customer token reaches only your customer.'}
      </p>
      <ErrorText message={error} />
      {minted ? <SecretOnce label={`The token “${minted.name}”`} secret={minted.token} onDone={() => setMinted(null)} /> : null}
      {stepUp.prompt}
      {tokens === null && !error ? <p role="status">Loading tokens…</p> : null}
      {tokens?.length === 0 ? <p>No tokens yet.</p> : null}
      <ul class="access-list" aria-label="Tokens">
        {tokens?.map((token) => (
          <TokenLine key={token.id} token={token} scope={scope} guard={stepUp.guard} onRevoked={load} />
        ))}
      </ul>
      <NewToken
        scope={scope}
        guard={stepUp.guard}
        onMinted={async (name, token) => {
          setMinted({ name, token });
          await load();
        }}
      />
    </section>
  );
}

type Guard = ReturnType<typeof useStepUp>['guard'];

function TokenLine({ token, scope, guard, onRevoked }: { token: Token; scope: Scope; guard: Guard; onRevoked: () => Promise<void> }) {
  const [confirming, setConfirming] = useState(false);
  const revoke = useSubmission(() =>
    guard(async () => {
      await ok(api.DELETE(`${PATH[scope]}/{id}`, { params: { path: { id: token.id } } }));
      await onRevoked();
    }),
  );
  return (
    <li class="access-line">
      <div class="access-main">
        <strong>{token.name}</strong> <code class="totp-secret">{token.tokenPrefix}…</code>
        <div class="muted">
          Made {dateTime(token.createdAt)} · {token.lastUsedAt ? `last used ${ago(token.lastUsedAt)}` : 'never used'} ·{' '}
          {token.expiresAt ? `expires ${dateTime(token.expiresAt)}` : 'never expires'}
        </div>
      </div>
      {confirming ? (
        <form class="inline-form" onSubmit={revoke.submit}>
          <button type="submit" class="remove" disabled={revoke.busy}>
            Revoke {token.name} now
          </button>
          <button type="button" class="secondary" onClick={() => setConfirming(false)}>
            Keep
          </button>
        </form>
      ) : (
        <button type="button" class="secondary" onClick={() => setConfirming(true)} aria-label={`Revoke ${token.name}`}>
          Revoke
        </button>
      )}
      <ErrorText message={revoke.message} />
    </li>
  );
}

function NewToken({ scope, guard, onMinted }: { scope: Scope; guard: Guard; onMinted: (name: string, token: string) => Promise<void> }) {
  const [name, setName] = useState('');
  const [days, setDays] = useState(scope === 'customer' ? '90' : '');
  const { busy, submit, fieldError, message } = useSubmission(() =>
    guard(async () => {
      const expiresInDays = days.trim() === '' ? null : Number(days);
      const made =
        scope === 'organization'
          ? await ok(api.POST('/api/organization/tokens', { body: { name, expiresInDays } }))
          : await ok(api.POST('/api/customer/tokens', { body: { name, expiresInDays: Number(days) } }));
      setName('');
      await onMinted(made.name, made.token);
    }),
  );
  return (
    <form class="panel" onSubmit={submit} noValidate aria-labelledby="new-token-title">
      <h2 id="new-token-title">New token</h2>
      <Field label="Token name" id="token-name" error={fieldError('name')}>
        <input id="token-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </Field>
      <Field
        label={scope === 'organization' ? 'Expires after (days, empty: never)' : 'Expires after (days)'}
        id="token-days"
        error={fieldError('expiresInDays')}
      >
        <input id="token-days" type="number" inputMode="numeric" min={1} value={days} onInput={(e) => setDays(e.currentTarget.value)} />
      </Field>
      <ErrorText message={message} />
      <button type="submit" disabled={busy}>
        Make token
      </button>
    </form>
  );
}
