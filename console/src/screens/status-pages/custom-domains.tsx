import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, describe, ok, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { dateTime } from '../../components/format';
import { useSubmission } from '../../components/use-submission';
import type { User } from '../../session';
import { may } from '../../permissions';
import { CopyButton } from './copy-button';
import type { StatusPage } from './draft';
import './status-pages.css';

type CustomDomain = Schemas['CustomDomain'];

const STATUS_WORDS: Record<CustomDomain['status'], string> = {
  pending: 'Waiting for its DNS record',
  verified: 'Verified: ready to activate',
  active: 'Active: requests for it are served',
};

const REASONS: Record<string, string> = {
  recordMissing: 'no TXT record is published there yet (DNS changes can take a few minutes to be seen)',
  tokenMismatch: 'a TXT record is there, but it does not hold the expected value',
};

interface Envelope {
  message?: string;
  data?: { code?: string; recordName?: string; expectedValue?: string; reason?: string };
}

/** What a verify or activate call ended in, in words: the entry as it is now, or why the service refused. */
async function prove(domain: CustomDomain, step: 'verify' | 'activate'): Promise<{ domain?: CustomDomain; said: string; failed: boolean }> {
  const call =
    step === 'verify'
      ? api.POST('/api/custom-domains/{id}/verify', { params: { path: { id: domain.id } } })
      : api.POST('/api/custom-domains/{id}/activate', { params: { path: { id: domain.id } } });
  const { data, error, response } = await call;
  if (response.ok && data) {
    const said =
      data.status === 'active'
        ? `Active: requests for ${data.hostname} are now served${data.kind === 'whiteLabel' ? ' as your organization' : ' with the status page'}.`
        : `Verified: the record was found and ${data.hostname} is held by your organization. Point it at the service, then activate it.`;
    return { domain: data, said, failed: false };
  }
  const envelope = (error ?? {}) as Envelope;
  if (envelope.data?.code === 'customDomainVerificationFailed') {
    const why = REASONS[envelope.data.reason ?? ''] ?? `the lookup failed (${envelope.data.reason ?? 'no answer'})`;
    return {
      said: `Not verified: ${why}. Publish a TXT record named ${envelope.data.recordName ?? ''} with the value ${envelope.data.expectedValue ?? ''}, then verify again.`,
      failed: true,
    };
  }
  return { said: `Refused: ${envelope.message ?? response.statusText}`, failed: true };
}

function DomainItem({ domain, writer, onChange }: { domain: CustomDomain; writer: boolean; onChange: () => Promise<void> }) {
  const [outcome, setOutcome] = useState<{ said: string; failed: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const step = async (which: 'verify' | 'activate') => {
    setBusy(true);
    try {
      const answer = await prove(domain, which);
      setOutcome(answer);
      if (answer.domain) await onChange();
    } catch (failure) {
      setOutcome({ said: describe(failure), failed: true });
    } finally {
      setBusy(false);
    }
  };
  const remove = useSubmission(async () => {
    await ok(api.DELETE('/api/custom-domains/{id}', { params: { path: { id: domain.id } } }));
    await onChange();
  });
  const record = domain.verification;
  return (
    <li>
      <h3>{domain.hostname}</h3>
      <p>
        {domain.kind === 'whiteLabel' ? 'White-label console and API' : 'Status page'} · <strong>{STATUS_WORDS[domain.status]}</strong>
        {domain.status === 'pending' ? <span class="muted"> · dropped {dateTime(domain.expiresAt)} unless verified</span> : null}
      </p>
      {domain.status === 'pending' ? (
        <p>Publish this DNS record at your DNS provider to prove the name is yours:</p>
      ) : (
        <p class="muted">Its proof:</p>
      )}
      <dl class="sp-record" aria-label={`DNS record for ${domain.hostname}`}>
        {(
          [
            ['Name', record.recordName],
            ['Type', record.recordType],
            ['Value', record.recordValue],
          ] as const
        ).map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>
              <span class="sp-value">{value}</span>
              <CopyButton value={value} label={`Copy the record ${term.toLowerCase()} for ${domain.hostname}`} />
            </dd>
          </div>
        ))}
      </dl>
      {outcome ? (
        <p class={outcome.failed ? 'error' : undefined} role={outcome.failed ? 'alert' : 'status'}>
          {outcome.said}
        </p>
      ) : null}
      {writer ? (
        <div class="actions">
          {domain.status === 'pending' ? (
            <button type="button" disabled={busy} onClick={() => void step('verify')}>
              Verify {domain.hostname}
            </button>
          ) : null}
          {domain.status !== 'active' ? (
            <button
              type="button"
              class={domain.status === 'pending' ? 'secondary' : undefined}
              disabled={busy}
              onClick={() => void step('activate')}
            >
              Activate {domain.hostname}
            </button>
          ) : null}
          <button type="button" class="secondary" disabled={remove.busy} onClick={remove.submit}>
            Remove {domain.hostname}
          </button>
        </div>
      ) : null}
      <ErrorText message={remove.message} />
    </li>
  );
}

/** Custom domains (GET/POST/DELETE /api/custom-domains, verify, activate): the DNS record to publish, its proof, activation. */
export function CustomDomains({ user }: { user: User }) {
  const [domains, setDomains] = useState<CustomDomain[] | null>(null);
  const [pages, setPages] = useState<StatusPage[]>([]);
  const [error, setError] = useState<string | null>(null);
  const whiteLabel = may(user, 'whiteLabel.manage');
  const [form, setForm] = useState({ hostname: '', kind: whiteLabel ? 'whiteLabel' : 'statusPage', statusPageId: '' });
  const load = useCallback(async () => {
    try {
      setDomains((await ok(api.GET('/api/custom-domains', { params: { query: { perPage: 100 } } }))).items);
    } catch (failure) {
      setError(describe(failure));
    }
  }, []);
  useEffect(() => {
    void load();
    ok(api.GET('/api/status-pages', { params: { query: { perPage: 100 } } })).then(
      (p) => setPages(p.items),
      () => setPages([]),
    );
  }, [load]);
  const add = useSubmission(async () => {
    const kind = form.kind as 'whiteLabel' | 'statusPage';
    await ok(
      api.POST('/api/custom-domains', {
        body: { hostname: form.hostname, kind, statusPageId: kind === 'statusPage' ? form.statusPageId || null : null },
      }),
    );
    setForm({ ...form, hostname: '' });
    await load();
  });
  return (
    <section aria-labelledby="domains-title">
      <h1 id="domains-title">Custom domains</h1>
      <p class="muted">
        A status page under your own name, or the whole console and API under it (white-label). Each name is proved by a DNS TXT record,
        then activated.
      </p>
      <ErrorText message={error} />
      {domains === null && !error ? <p role="status">Loading custom domains…</p> : null}
      {domains?.length === 0 ? <p>No custom domains yet.</p> : null}
      <ul class="plain-list" aria-label="Custom domains">
        {domains?.map((d) => (
          <DomainItem key={d.id} domain={d} writer={may(user, 'customDomain.manage')} onChange={load} />
        ))}
      </ul>
      {may(user, 'customDomain.manage') ? (
        <form class="panel" onSubmit={add.submit} noValidate aria-labelledby="add-domain-title">
          <h2 id="add-domain-title">Add a domain</h2>
          <Field label="Hostname" id="domain-hostname" error={add.fieldError('hostname')}>
            <input
              id="domain-hostname"
              placeholder="status.example.com"
              value={form.hostname}
              onInput={(e) => setForm({ ...form, hostname: e.currentTarget.value })}
            />
          </Field>
          <Field label="Serves" id="domain-kind" error={add.fieldError('kind')}>
            <select id="domain-kind" value={form.kind} onChange={(e) => setForm({ ...form, kind: e.currentTarget.value })}>
              {whiteLabel ? <option value="whiteLabel">The console and API, white-label</option> : null}
              <option value="statusPage">One status page</option>
            </select>
          </Field>
          {form.kind === 'statusPage' ? (
            <Field label="Status page" id="domain-page" error={add.fieldError('statusPageId')}>
              <select
                id="domain-page"
                value={form.statusPageId}
                onChange={(e) => setForm({ ...form, statusPageId: e.currentTarget.value })}
              >
                <option value="">Choose a page…</option>
                {pages.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.title}
                  </option>
                ))}
              </select>
            </Field>
          ) : null}
          <ErrorText message={add.message} />
          <button type="submit" disabled={add.busy}>
            Add domain
          </button>
        </form>
      ) : null}
    </section>
  );
}
