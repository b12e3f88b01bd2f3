import { useState } from 'preact/hooks';
import { api, ApiError, ok, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { ago, dateTime } from '../../components/format';
import { useSubmission } from '../../components/use-submission';
import type { User } from '../../session';
import { may } from '../../permissions';
import { LocationKeys } from './location-keys';
import { useLoad } from './use-load';
import './org-admin.css';

type Location = Schemas['Location'];

/** Private locations are changed by the organization's admins. */
const adminOf = (user: User): boolean => may(user, 'location.manage');

function Status({ location }: { location: Location }) {
  return (
    <span class={`badge ${location.status === 'live' ? 'badge-up' : 'badge-unknown'}`}>
      {location.status === 'live' ? 'Live' : 'Unknown'}
    </span>
  );
}

function Probes({ code }: { code: string }) {
  const { data, error } = useLoad(
    () => ok(api.GET('/api/locations/{code}/probes', { params: { path: { code }, query: { perPage: 200 } } })),
    [code],
  );
  return (
    <div>
      <h4>Probes</h4>
      <ErrorText message={error} />
      {data?.total === 0 ? <p class="muted">No probe has reported yet.</p> : null}
      <ul class="plain-list" aria-label={`Probes of ${code}`}>
        {data?.items.map((probe) => (
          <li key={probe.instanceId}>
            <strong>{probe.name}</strong> <span class={probe.live ? 'state-up' : 'muted'}>{probe.live ? 'live' : 'silent'}</span>{' '}
            <span class="muted">
              version {probe.version} · last report {ago(probe.lastSeenAt)} · {probe.monitorsHeld} monitors ·{' '}
              {probe.checksPerSecond.toFixed(1)} checks/s · lag {probe.lagMs} ms · {probe.buffered} buffered · {probe.dropped} dropped
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function LocationItem({ location, admin }: { location: Location; admin: boolean }) {
  const isPrivate = location.kind === 'private';
  return (
    <li class="panel">
      <h3>
        {location.name} <span class="mono muted">{location.code}</span> <Status location={location} />
      </h3>
      <p class="muted">
        {isPrivate
          ? 'Private: only your monitors may use it'
          : location.configured
            ? 'Platform location of this service'
            : 'Platform location'}
        {' · '}
        {location.lastSeenAt ? `last probe report ${dateTime(location.lastSeenAt)}` : 'no probe report yet'} · {location.probes} probe(s)
      </p>
      {location.status === 'unknown' ? (
        <p class="muted">Unknown: no check process or probe serving it is live, so its monitors get no results from it.</p>
      ) : null}
      {isPrivate ? (
        <>
          <Probes code={location.code} />
          <LocationKeys code={location.code} admin={admin} />
        </>
      ) : null}
    </li>
  );
}

function NewLocation({ onCreated }: { onCreated: () => void }) {
  const [form, setForm] = useState({ code: '', name: '' });
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    try {
      await ok(api.POST('/api/locations', { body: form }));
    } catch (failure) {
      if (failure instanceof ApiError && failure.code === 'locationCodeTaken') {
        throw new ApiError(failure.status, failure.code, failure.message, [{ path: ['code'], message: failure.message }]);
      }
      throw failure;
    }
    setForm({ code: '', name: '' });
    onCreated();
  });
  return (
    <form class="panel" onSubmit={submit} noValidate aria-labelledby="new-location-title">
      <h2 id="new-location-title">Add a private location</h2>
      <p class="muted">A place of your own (an office, a private network) where a probe you run checks your monitors from.</p>
      <Field label="Location code (lower case letters, digits, dashes)" id="location-code" error={fieldError('code')}>
        <input id="location-code" value={form.code} onInput={(e) => setForm({ ...form, code: e.currentTarget.value })} />
      </Field>
      <Field label="Location name" id="location-name" error={fieldError('name')}>
        <input id="location-name" value={form.name} onInput={(e) => setForm({ ...form, name: e.currentTarget.value })} />
      </Field>
      <ErrorText message={message} />
      <button type="submit" disabled={busy}>
        Add location
      </button>
    </form>
  );
}

/** Where checks run from, each live or unknown; private locations with their probes and keys. */
export function Locations({ user }: { user: User }) {
  const admin = adminOf(user);
  const { data, error, reload } = useLoad(() => ok(api.GET('/api/locations', { params: { query: { perPage: 200 } } })));
  return (
    <section aria-labelledby="locations-title">
      <h1 id="locations-title">Locations and probes</h1>
      <ErrorText message={error} />
      {data === null && !error ? <p role="status">Loading locations…</p> : null}
      <ul class="plain-list" aria-label="Locations">
        {data?.items.map((location) => (
          <LocationItem key={location.code} location={location} admin={admin} />
        ))}
      </ul>
      {admin ? <NewLocation onCreated={() => void reload()} /> : null}
    </section>
  );
}
