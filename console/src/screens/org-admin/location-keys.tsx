import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { dateTime } from '../../components/format';
import { useSubmission } from '../../components/use-submission';
import { useAction } from '../../components/use-action';
import { useLoad } from './use-load';

type Key = Schemas['ProbeKey'];
type IssuedKey = Schemas['IssuedProbeKey'];

/** The secret of a key just issued: shown this once, with a copy button and how to run a probe with it. */
function IssuedSecret({ issued, onDone }: { issued: IssuedKey; onDone: () => void }) {
  const [copied, setCopied] = useState<string | null>(null);
  const env = `PROBE_SERVER_URL=${window.location.origin} PROBE_KEY=${issued.secret} npm run probe`;
  const copy = (text: string, what: string) =>
    void navigator.clipboard.writeText(text).then(
      () => setCopied(`${what} copied.`),
      () => setCopied('The browser refused to copy: select the text and copy it yourself.'),
    );
  return (
    <div class="secret-once" role="region" aria-label={`New key ${issued.name}`}>
      <p>
        <strong>This key is shown only now and will not be shown again.</strong> Copy it and give it to the probe; if it is lost, issue a
        new one.
      </p>
      <p class="secret-line">
        <code>{issued.secret}</code>
      </p>
      <p>Run a probe with it:</p>
      <pre class="secret-line">
        <code>{env}</code>
      </pre>
      <div class="org-actions">
        <button type="button" onClick={() => copy(issued.secret, 'The key is')}>
          Copy key
        </button>
        <button type="button" class="secondary" onClick={() => copy(env, 'The command is')}>
          Copy command
        </button>
        <button type="button" class="secondary" onClick={onDone}>
          I have stored it
        </button>
      </div>
      {copied ? <p role="status">{copied}</p> : null}
    </div>
  );
}

function KeyItem({ code, item, admin, onChanged }: { code: string; item: Key; admin: boolean; onChanged: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const { busy, error, act } = useAction();
  const revoke = () =>
    act(async () => {
      await ok(api.DELETE('/api/locations/{code}/keys/{keyId}', { params: { path: { code, keyId: item.id } } }));
      setConfirming(false);
      onChanged();
    });
  return (
    <li class="key-item">
      <strong>{item.name}</strong> <span class="mono">{item.prefix}…</span>{' '}
      <span class={item.status === 'active' ? 'state-up' : 'muted'}>{item.status}</span>{' '}
      <span class="muted">
        issued {dateTime(item.createdAt)} · {item.lastUsedAt ? `last used ${dateTime(item.lastUsedAt)}` : 'never used'}
        {item.revokedAt ? ` · revoked ${dateTime(item.revokedAt)}` : ''}
      </span>
      {admin && item.status === 'active' ? (
        confirming ? (
          <span class="confirm" role="group" aria-label={`Confirm revoking ${item.name}`}>
            <span>Probes using it are refused from their next report.</span>{' '}
            <button type="button" class="org-danger" disabled={busy} onClick={revoke}>
              Revoke for good
            </button>{' '}
            <button type="button" class="secondary" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </span>
        ) : (
          <button type="button" class="secondary" onClick={() => setConfirming(true)}>
            Revoke<span class="visually-hidden"> key {item.name}</span>
          </button>
        )
      ) : null}
      <ErrorText message={error} />
    </li>
  );
}

/** A private location's probe keys: the list (prefixes only), issuing one (secret shown once), revoking. */
export function LocationKeys({ code, admin }: { code: string; admin: boolean }) {
  const { data, error, reload } = useLoad(
    () => ok(api.GET('/api/locations/{code}/keys', { params: { path: { code }, query: { perPage: 200 } } })),
    [code],
  );
  const [name, setName] = useState('');
  const [issued, setIssued] = useState<IssuedKey | null>(null);
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    setIssued(await ok(api.POST('/api/locations/{code}/keys', { params: { path: { code } }, body: { name: name.trim() || 'probe key' } })));
    setName('');
    await reload();
  });
  const id = `key-name-${code}`;
  return (
    <div>
      <h4>Probe keys</h4>
      <ErrorText message={error} />
      {data?.total === 0 ? <p class="muted">No keys yet: a probe needs one to report.</p> : null}
      <ul class="plain-list" aria-label={`Probe keys of ${code}`}>
        {data?.items.map((item) => (
          <KeyItem key={item.id} code={code} item={item} admin={admin} onChanged={() => void reload()} />
        ))}
      </ul>
      {issued ? <IssuedSecret issued={issued} onDone={() => setIssued(null)} /> : null}
      {admin ? (
        <form class="inline-form" onSubmit={submit} noValidate aria-label={`Issue a key for ${code}`}>
          <Field label="Key name (which probe or host)" id={id} error={fieldError('name')}>
            <input id={id} value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </Field>
          <ErrorText message={message} />
          <button type="submit" disabled={busy}>
            Issue key
          </button>
        </form>
      ) : null}
    </div>
  );
}
