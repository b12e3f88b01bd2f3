import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, describe, ok, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { dateTime } from '../../components/format';
import { useSubmission } from '../../components/use-submission';
import { RemoveButton } from './remove-button';

type Domain = Schemas['CustomerDomainWithExpiry'];

const DAY_MS = 86_400_000;

/** Where a domain's registration stands, in words, from what the last check found. */
function expiryWords(domain: Domain, now = Date.now()): { text: string; tone: 'ok' | 'warn' | 'bad' | 'none' } {
  const { expiry } = domain;
  if (expiry.isExpired) return { text: `Expired ${dateTime(expiry.domainExpiresAt)}`, tone: 'bad' };
  if (!expiry.domainExpiresAt) return { text: expiry.lastCheckedAt ? 'Expiry not found' : 'Not checked yet', tone: 'none' };
  const days = Math.floor((Date.parse(expiry.domainExpiresAt) - now) / DAY_MS);
  const tone = days <= domain.expiryErrorDays ? 'bad' : days <= domain.expiryWarningDays ? 'warn' : 'ok';
  return { text: `Expires ${new Date(expiry.domainExpiresAt).toLocaleDateString()} (in ${days} days)`, tone };
}

async function loadDomains(customerId: string): Promise<Domain[]> {
  const page = await ok(api.GET('/api/customer-domains', { params: { query: { customerId, perPage: 200 } } }));
  // The list has no expiry: each domain's own record carries what its last check found.
  return Promise.all(page.items.map((d) => ok(api.GET('/api/customer-domains/{id}', { params: { path: { id: d.publicId } } }))));
}

/** The customer's watched domains with their registration expiry; writers add and remove them. */
export function DomainsPanel({ customerId, canWrite }: { customerId: string; canWrite: boolean }) {
  const [domains, setDomains] = useState<Domain[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [form, setForm] = useState({ domainName: '', label: '' });
  const reload = useCallback(async () => {
    try {
      setDomains(await loadDomains(customerId));
    } catch (failure) {
      setError(describe(failure));
    }
  }, [customerId]);
  useEffect(() => void reload(), [reload]);
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    const body = { domainName: form.domainName, ...(form.label.trim() ? { label: form.label } : {}) };
    await ok(api.POST('/api/customers/{id}/domains', { params: { path: { id: customerId } }, body }));
    setForm({ domainName: '', label: '' });
    await reload();
  });
  return (
    <section class="panel wide" aria-labelledby="domains-title">
      <h2 id="domains-title">Domains</h2>
      <ErrorText message={error} />
      {domains === null && !error ? <p role="status">Loading domains…</p> : null}
      {domains?.length === 0 ? <p>No domains watched.</p> : null}
      <ul class="plain-list" aria-label="Domains">
        {domains?.map((d) => {
          const expiry = expiryWords(d);
          return (
            <li key={d.publicId} class="watch">
              <span class="watch-name">
                <strong>{d.domainName}</strong>
                {d.label !== d.domainName ? <span class="muted"> {d.label}</span> : null}
                {d.status === 'paused' ? <span class="muted"> (paused)</span> : null}
              </span>
              <span class={`tone tone-${expiry.tone}`}>{expiry.text}</span>
              <span class="muted">
                {d.expiry.domainRegistrar ? `${d.expiry.domainRegistrar} · ` : ''}
                {d.expiry.lastCheckedAt ? `checked ${dateTime(d.expiry.lastCheckedAt)}` : ''}
              </span>
              {d.expiry.lastError ? <span class="error-text">Last check: {d.expiry.lastError}</span> : null}
              {canWrite ? (
                <RemoveButton
                  what={d.domainName}
                  remove={() => ok(api.DELETE('/api/customer-domains/{id}', { params: { path: { id: d.publicId } } }))}
                  onRemoved={() => void reload()}
                />
              ) : null}
            </li>
          );
        })}
      </ul>
      {canWrite ? (
        <form class="inline-form" onSubmit={submit} noValidate aria-labelledby="add-domain-title">
          <h3 id="add-domain-title">Watch a domain</h3>
          <Field label="Domain name" id="domain-name" error={fieldError('domainName')}>
            <input
              id="domain-name"
              required
              value={form.domainName}
              onInput={(e) => setForm({ ...form, domainName: e.currentTarget.value })}
            />
          </Field>
          <Field label="Label (optional)" id="domain-label" error={fieldError('label')}>
            <input id="domain-label" value={form.label} onInput={(e) => setForm({ ...form, label: e.currentTarget.value })} />
          </Field>
          <ErrorText message={message} />
          <button type="submit" disabled={busy}>
            Add domain
          </button>
        </form>
      ) : null}
    </section>
  );
}
