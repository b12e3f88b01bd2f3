import { useState } from 'preact/hooks';
import { api, describe, ok, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { useSubmission } from '../../components/use-submission';
import { CopyField } from './copy-field';
import { useLoaded } from './use-loaded';

type Source = Schemas['AlertSource'];
const KINDS = [
  { value: 'alertmanager', label: 'Prometheus Alertmanager (webhook v4)' },
  { value: 'grafana', label: 'Grafana alerting webhook' },
  { value: 'generic', label: 'Generic JSON' },
] as const;

const ingestUrl = (token: string) => `${window.location.origin}/api/im/ingest/${token}`;

/**
 * Alert sources (/api/im/sources): the tools that post alerts into incident management. A source's
 * ingest URL carries its token, which the API answers once, at creation: it is shown then with a copy
 * button; afterwards only its last characters are known.
 */
export function AlertSources() {
  const { data, error, reload } = useLoaded(() => ok(api.GET('/api/im/sources', { params: { query: { perPage: 200 } } })));
  const [created, setCreated] = useState<{ name: string; url: string } | null>(null);
  const [form, setForm] = useState({ name: '', kind: 'alertmanager' as (typeof KINDS)[number]['value'] });
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    const source = await ok(api.POST('/api/im/sources', { body: { name: form.name, kind: form.kind } }));
    setCreated({ name: source.name, url: ingestUrl(source.token) });
    setForm({ ...form, name: '' });
    await reload();
  });
  return (
    <>
      <ErrorText message={error} />
      {created ? (
        <div class="panel" role="region" aria-label="New alert source">
          <p>
            <strong>{created.name}</strong>: its ingest URL is shown this once. Copy it into the tool that sends alerts; the service keeps
            only a digest of it.
          </p>
          <CopyField id="new-ingest-url" label="Ingest URL" value={created.url} />
        </div>
      ) : null}
      {data === null && !error ? <p role="status">Loading alert sources…</p> : null}
      {data?.items.length === 0 ? <p>No alert sources yet.</p> : null}
      <ul class="cards" aria-label="Alert sources">
        {data?.items.map((s) => (
          <SourceLine key={s.id} source={s} />
        ))}
      </ul>
      <form class="panel" onSubmit={submit} noValidate aria-labelledby="source-form-title">
        <h3 id="source-form-title">Add an alert source</h3>
        <Field label="Source name" id="source-name" error={fieldError('name')}>
          <input id="source-name" value={form.name} onInput={(e) => setForm({ ...form, name: e.currentTarget.value })} />
        </Field>
        <Field label="What sends to it" id="source-kind" error={fieldError('kind')}>
          <select
            id="source-kind"
            value={form.kind}
            onChange={(e) => setForm({ ...form, kind: e.currentTarget.value as typeof form.kind })}
          >
            {KINDS.map((k) => (
              <option key={k.value} value={k.value}>
                {k.label}
              </option>
            ))}
          </select>
        </Field>
        {form.kind === 'generic' ? <p class="muted">A generic source reads its fields through a mapping you set through the API.</p> : null}
        <ErrorText message={fieldError('name') ? null : message} />
        <button type="submit" disabled={busy}>
          Add alert source
        </button>
      </form>
    </>
  );
}

/** One source: its kind, its URL as far as it is known, and the test button with what came of it. */
function SourceLine({ source }: { source: Source }) {
  const [outcome, setOutcome] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const test = async () => {
    setBusy(true);
    setOutcome(null);
    setFailure(null);
    try {
      const { processed } = await ok(api.POST('/api/im/sources/{id}/test-alert', { params: { path: { id: source.id } } }));
      setOutcome(
        processed.length === 0
          ? 'The test alert was accepted but produced no alert.'
          : processed.map((p) => `Test alert ${p.outcome}${p.incidentId ? ` (incident ${p.incidentId.slice(0, 8)})` : ''}.`).join(' '),
      );
    } catch (error) {
      setFailure(describe(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <li class="panel source">
      <strong>{source.name}</strong> <span class="muted">{KINDS.find((k) => k.value === source.kind)?.label ?? source.kind}</span>
      <p class="source-url">
        Ingest URL: <code>{`${window.location.origin}/api/im/ingest/…${source.tokenHint}`}</code>
        <span class="muted"> (shown in full once, when the source was added)</span>
      </p>
      <button type="button" disabled={busy} onClick={() => void test()} aria-label={`Send a test alert through ${source.name}`}>
        Send a test alert
      </button>
      {outcome ? (
        <p role="status" class="note">
          {outcome}
        </p>
      ) : null}
      <ErrorText message={failure} />
    </li>
  );
}
