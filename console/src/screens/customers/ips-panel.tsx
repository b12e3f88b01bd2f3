import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, describe, ok, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { dateTime } from '../../components/format';
import { useSubmission } from '../../components/use-submission';
import { RemoveButton } from './remove-button';

type Ip = Schemas['CustomerIpWithDnsbl'];
type Listing = Ip['dnsbl']['listings'][number];

/** A delist address is followed only when it is an http(s) URL; anything else is shown as text. */
export function webAddress(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

function ListingLine({ listing }: { listing: Listing }) {
  const href = webAddress(listing.delistUrl);
  return (
    <li>
      <strong>{listing.name}</strong>{' '}
      <span class="muted">
        ({listing.listKey}, {listing.resultCode})
      </span>
      {listing.reason ? <span> — {listing.reason}</span> : null}{' '}
      {href ? (
        <a href={href} rel="noopener noreferrer" target="_blank">
          Delist at {listing.name}
        </a>
      ) : listing.delistUrl ? (
        <span class="muted">Delist: {listing.delistUrl}</span>
      ) : null}
    </li>
  );
}

function Blocklists({ ip }: { ip: Ip }) {
  const { dnsbl } = ip;
  if (!dnsbl.lastCheckedAt) return <span class="tone tone-none">Not checked yet</span>;
  return (
    <>
      <span class={`tone ${dnsbl.isListed ? 'tone-bad' : 'tone-ok'}`}>
        {dnsbl.isListed ? `Listed on ${dnsbl.listedCount} blocklist${dnsbl.listedCount === 1 ? '' : 's'}` : 'On no blocklist'}
      </span>
      <span class="muted">checked {dateTime(dnsbl.lastCheckedAt)}</span>
      {dnsbl.lastError ? <span class="error-text">Last check: {dnsbl.lastError}</span> : null}
      {dnsbl.listings.length > 0 ? (
        <ul class="listings" aria-label={`Blocklists listing ${ip.ipAddress}`}>
          {dnsbl.listings.map((l) => (
            <ListingLine key={l.listKey} listing={l} />
          ))}
        </ul>
      ) : null}
    </>
  );
}

async function loadIps(customerId: string): Promise<Ip[]> {
  const page = await ok(api.GET('/api/customer-ips', { params: { query: { customerId, perPage: 200 } } }));
  // The list has no blocklist results: each address's own record carries what its last check found.
  return Promise.all(page.items.map((ip) => ok(api.GET('/api/customer-ips/{id}', { params: { path: { id: ip.publicId } } }))));
}

/** The customer's watched IP addresses with their blocklist results and delist links; writers add and remove them. */
export function IpsPanel({ customerId, canWrite }: { customerId: string; canWrite: boolean }) {
  const [ips, setIps] = useState<Ip[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [form, setForm] = useState({ ipAddress: '', label: '' });
  const reload = useCallback(async () => {
    try {
      setIps(await loadIps(customerId));
    } catch (failure) {
      setError(describe(failure));
    }
  }, [customerId]);
  useEffect(() => void reload(), [reload]);
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    const body = { ipAddress: form.ipAddress, ...(form.label.trim() ? { label: form.label } : {}) };
    await ok(api.POST('/api/customers/{id}/ips', { params: { path: { id: customerId } }, body }));
    setForm({ ipAddress: '', label: '' });
    await reload();
  });
  return (
    <section class="panel wide" aria-labelledby="ips-title">
      <h2 id="ips-title">IP addresses</h2>
      <ErrorText message={error} />
      {ips === null && !error ? <p role="status">Loading IP addresses…</p> : null}
      {ips?.length === 0 ? <p>No IP addresses watched.</p> : null}
      <ul class="plain-list" aria-label="IP addresses">
        {ips?.map((ip) => (
          <li key={ip.publicId} class="watch">
            <span class="watch-name">
              <strong>{ip.ipAddress}</strong>
              {ip.label !== ip.ipAddress ? <span class="muted"> {ip.label}</span> : null}
              {ip.status === 'paused' ? <span class="muted"> (paused)</span> : null}
            </span>
            <Blocklists ip={ip} />
            {canWrite ? (
              <RemoveButton
                what={ip.ipAddress}
                remove={() => ok(api.DELETE('/api/customer-ips/{id}', { params: { path: { id: ip.publicId } } }))}
                onRemoved={() => void reload()}
              />
            ) : null}
          </li>
        ))}
      </ul>
      {canWrite ? (
        <form class="inline-form" onSubmit={submit} noValidate aria-labelledby="add-ip-title">
          <h3 id="add-ip-title">Watch an IP address</h3>
          <Field label="IP address" id="ip-address" error={fieldError('ipAddress')}>
            <input
              id="ip-address"
              required
              value={form.ipAddress}
              onInput={(e) => setForm({ ...form, ipAddress: e.currentTarget.value })}
            />
          </Field>
          <Field label="Label (optional)" id="ip-label" error={fieldError('label')}>
            <input id="ip-label" value={form.label} onInput={(e) => setForm({ ...form, label: e.currentTarget.value })} />
          </Field>
          <ErrorText message={message} />
          <button type="submit" disabled={busy}>
            Add IP address
          </button>
        </form>
      ) : null}
    </section>
  );
}
