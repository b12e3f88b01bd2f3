import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, describe, ok } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { Link } from '../../components/link';
import { useSubmission } from '../../components/use-submission';
import {
  getMonitor,
  loadLocations,
  loadTags,
  requestChange,
  setTags,
  updateMonitor,
  type AnyMonitor,
  type Location,
  type Tag,
} from '../../monitors/monitor-api';
import type { MonitorKind, PatchBody } from '../../monitors/monitor-bodies';
import { changesOf, COMMON_FIELDS, KIND_FIELDS, KIND_LABELS, valuesOf, type FormValues } from '../../monitors/monitor-kinds';
import { navigate } from '../../router';
import type { User } from '../../session';
import { LocationPicker, MonitorFields, TagPicker } from './monitor-fields';
import { cycleOf, DependsOnPicker, useMonitorRows } from './dependencies';

interface Loaded {
  monitor: AnyMonitor;
  values: FormValues<MonitorKind>;
  locations: Location[];
  tags: Tag[];
  /** A customer-bound user of a managed monitor their customer may not edit: changes go for approval. */
  asRequest: boolean;
}

/** Whether the customer lets its users edit the organization's (managed) monitors themselves. */
async function mayEditManaged(user: User): Promise<boolean> {
  if (user.customerId === null) return true;
  const customer = await ok(api.GET('/api/customers/{id}', { params: { path: { id: String(user.customerId) } } }));
  return (customer as { canEditManaged?: boolean }).canEditManaged === true;
}

async function load(kind: MonitorKind, id: string, user: User): Promise<Loaded> {
  const [monitor, locations, tags] = await Promise.all([getMonitor(kind, id), loadLocations(), loadTags()]);
  const asRequest = monitor.managementType === 'managed' && !(await mayEditManaged(user));
  const values = valuesOf(kind, monitor);
  return { monitor, values, locations, tags: tags.filter((t) => t.customerId === null || t.customerId === monitor.customerId), asRequest };
}

/**
 * Edit a monitor of any kind: the PATCH sends only what changed (tags through /api/monitor-tags).
 * A customer-bound user of a managed monitor whose customer needs approval sends the same changes
 * as a change request instead, with a note, and is told so.
 */
export function EditMonitor({ kind, id, user }: { kind: MonitorKind; id: string; user: User }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [values, setValues] = useState<FormValues<MonitorKind>>({});
  const [locations, setLocations] = useState<string[]>([]);
  const [tags, setTagIds] = useState<string[]>([]);
  const [note, setNote] = useState('');
  const [sent, setSent] = useState(false);
  const [dependsOn, setDependsOn] = useState<string[]>([]);
  const [cycle, setCycle] = useState<string | null>(null);
  const monitorRows = useMonitorRows();
  useEffect(() => {
    load(kind, id, user).then(
      (found) => {
        setLoaded(found);
        setValues(found.values);
        setLocations(found.monitor.locations);
        setTagIds(found.monitor.tags.map((t) => t.publicId));
        setDependsOn(found.monitor.dependsOn);
      },
      (failure: unknown) => setLoadError(describe(failure)),
    );
  }, [kind, id, user]);
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    if (!loaded) return;
    const { monitor } = loaded;
    const changes = changesOf<PatchBody<MonitorKind>>([...KIND_FIELDS[kind], ...COMMON_FIELDS], loaded.values, values, !loaded.asRequest);
    const sameLocations = [...locations].sort().join() === [...monitor.locations].sort().join();
    if (!sameLocations) changes.locations = locations;
    if (dependsOn.join() !== monitor.dependsOn.join()) changes.dependsOn = dependsOn;
    const hadTags = monitor.tags.map((t) => t.publicId);
    const tagsChanged = [...tags].sort().join() !== [...hadTags].sort().join();
    if (Object.keys(changes).length === 0 && !tagsChanged) return 'Nothing changed.';
    if (loaded.asRequest) {
      await requestChange(kind, monitor.publicId, changes, note);
      setSent(true);
      return;
    }
    setCycle(null);
    if (Object.keys(changes).length > 0)
      await updateMonitor(kind, monitor.publicId, changes).catch((failure: unknown) => {
        if (failure instanceof ApiError) setCycle(cycleOf(failure, monitorRows.rows));
        throw failure;
      });
    if (tagsChanged) await setTags(kind, monitor.publicId, hadTags, tags);
    navigate(`/monitors/${kind}/${monitor.publicId}`);
  });
  if (!loaded) return loadError ? <ErrorText message={loadError} /> : <p role="status">Loading the monitor…</p>;
  const { monitor, asRequest } = loaded;
  const back = `/monitors/${kind}/${monitor.publicId}`;
  if (sent)
    return (
      <section aria-labelledby="edit-monitor-title">
        <h1 id="edit-monitor-title">Change sent for approval</h1>
        <p role="status">
          Your change to “{monitor.name}” waits for the organization to approve it. You can follow it under{' '}
          <Link to="/change-requests">Change requests</Link>.
        </p>
        <p>
          <Link to={back}>Back to the monitor</Link>
        </p>
      </section>
    );
  return (
    <section aria-labelledby="edit-monitor-title">
      <h1 id="edit-monitor-title">
        {asRequest ? 'Propose a change to' : 'Edit'} {monitor.name}
      </h1>
      <p class="monitor-target">
        {KIND_LABELS[kind]} monitor · <Link to={back}>Back to the monitor</Link>
      </p>
      {asRequest ? (
        <p class="note">
          This monitor is managed by the organization: your changes are sent as a change request and apply once they approve it. Login
          details and tags are not part of a request.
        </p>
      ) : null}
      <form class="panel monitor-form" onSubmit={submit} noValidate>
        <MonitorFields
          kind={kind}
          values={values}
          onChange={(name, value) => setValues({ ...values, [name]: value })}
          fieldError={fieldError}
          withoutSecrets={asRequest}
        />
        {'hasCredentials' in monitor && monitor.hasCredentials && !asRequest ? (
          <p class="field-hint">Login details are stored; fill in a user to replace them.</p>
        ) : null}
        <LocationPicker locations={loaded.locations} chosen={locations} onChange={setLocations} error={fieldError('locations')} />
        {asRequest ? null : <TagPicker tags={loaded.tags} chosen={tags} onChange={setTagIds} />}
        <DependsOnPicker
          rows={monitorRows.rows}
          self={monitor.publicId}
          customerId={monitor.customerId}
          chosen={dependsOn}
          onChange={setDependsOn}
          error={fieldError('dependsOn')}
          cycle={cycle}
        />
        {asRequest ? (
          <Field label="Note for the organization" id="change-note" error={fieldError('note')}>
            <textarea id="change-note" rows={3} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
          </Field>
        ) : null}
        <ErrorText message={message} />
        <button type="submit" disabled={busy}>
          {asRequest ? 'Send for approval' : 'Save changes'}
        </button>
      </form>
    </section>
  );
}
