import { useEffect, useState } from 'preact/hooks';
import { ApiError, describe, type Customer } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { Link } from '../../components/link';
import { useSubmission } from '../../components/use-submission';
import { createMonitor, loadLocations, loadTags, setTags, type Location, type Tag } from '../../monitors/monitor-api';
import {
  baselineOf,
  changesOf,
  COMMON_FIELDS,
  defaultsOf,
  KIND_FIELDS,
  KIND_HINTS,
  KIND_LABELS,
  type FormValues,
} from '../../monitors/monitor-kinds';
import type { CreateBody } from '../../monitors/monitor-bodies';
import { loadCustomers, PER_KIND_TYPES, type MonitorKind } from '../../monitors/monitor-rows';
import { navigate, useRoute } from '../../router';
import type { User } from '../../session';
import { LocationPicker, MonitorFields, TagPicker } from './monitor-fields';
import { cycleOf, DependsOnPicker, useMonitorRows } from './dependencies';

const KINDS: readonly MonitorKind[] = ['website', ...PER_KIND_TYPES];

/** "Add a DNS monitor", "Add an SMTP monitor", "Add a ping (ICMP) monitor": from the kind's label. */
function headingOf(kind: MonitorKind): string {
  const label = KIND_LABELS[kind];
  const first = label.split(/\s/)[0] ?? '';
  const acronym = first.length > 1 && first === first.toUpperCase();
  // An acronym is spoken letter by letter: "an SMTP", "a TCP"; a word by its first letter.
  const vowel = acronym ? /^[AEFHILMNORSX]/.test(first) : /^[aeiou]/i.test(first);
  return `Add ${vowel ? 'an' : 'a'} ${acronym ? label : label.charAt(0).toLowerCase() + label.slice(1)} monitor`;
}

/** The kind of monitor to add, a radio per kind with what it watches. */
function KindPicker({ kind, onPick }: { kind: MonitorKind; onPick: (kind: MonitorKind) => void }) {
  return (
    <fieldset class="kind-picker">
      <legend>Kind</legend>
      {KINDS.map((each) => (
        <label key={each} class={each === kind ? 'kind chosen' : 'kind'}>
          <input type="radio" name="monitor-kind" value={each} checked={each === kind} onChange={() => onPick(each)} />
          <span class="kind-name">{KIND_LABELS[each]}</span>
          <span class="kind-hint">{KIND_HINTS[each]}</span>
        </label>
      ))}
    </fieldset>
  );
}

/**
 * Add a monitor of any kind (POST /api/websites or /api/monitors/{kind}): pick the kind, fill its
 * form; only what differs from the API's defaults is sent, and the API's messages show at their field.
 */
export function NewMonitor({ user }: { user: User }) {
  const { query } = useRoute();
  const asked = KINDS.find((each) => each === query.get('kind'));
  const [kind, setKind] = useState<MonitorKind>(asked ?? 'website');
  const [values, setValues] = useState<FormValues<MonitorKind>>(() => defaultsOf(kind));
  const [customers, setCustomers] = useState<Customer[] | null>(null);
  const [customerId, setCustomerId] = useState('');
  const [locations, setLocations] = useState<Location[]>([]);
  const [chosenLocations, setChosenLocations] = useState<string[] | null>(null);
  const [tags, setTagList] = useState<Tag[]>([]);
  const [chosenTags, setChosenTags] = useState<string[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [dependsOn, setDependsOn] = useState<string[]>([]);
  const [cycle, setCycle] = useState<string | null>(null);
  const monitorRows = useMonitorRows();
  useEffect(() => {
    Promise.all([loadCustomers(), loadLocations(), loadTags()]).then(
      ([found, places, labels]) => {
        setCustomers(found);
        if (found[0]) setCustomerId((current) => current || String(found[0]!.id));
        setLocations(places);
        setTagList(labels);
      },
      (failure: unknown) => setLoadError(describe(failure)),
    );
  }, []);
  const pick = (next: MonitorKind) => {
    setKind(next);
    setValues(defaultsOf(next));
  };
  // The API's default locations: the configured ones a check process serves.
  const defaultLocations = locations.filter((l) => l.configured && l.status === 'live').map((l) => l.code);
  const shownLocations = chosenLocations ?? defaultLocations;
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    // A website is an http check unless the form says otherwise.
    const body = {
      ...(kind === 'website' ? { monitoringType: 'http' as const } : {}),
      ...changesOf<CreateBody<MonitorKind>>([...KIND_FIELDS[kind], ...COMMON_FIELDS], baselineOf(kind), values),
      ...(user.customerId === null ? { customerId: Number(customerId) } : {}),
      ...(chosenLocations ? { locations: chosenLocations } : {}),
      ...(dependsOn.length > 0 ? { dependsOn } : {}),
    };
    setCycle(null);
    const created = await createMonitor(kind, body).catch((failure: unknown) => {
      if (failure instanceof ApiError) setCycle(cycleOf(failure, monitorRows.rows));
      throw failure;
    });
    await setTags(kind, created.publicId, [], chosenTags);
    navigate(`/monitors/${kind}/${created.publicId}`);
  });
  if (customers?.length === 0)
    return (
      <section>
        <h1>Add a monitor</h1>
        <p>
          A monitor belongs to a customer: <Link to="/customers">add a customer</Link> first.
        </p>
      </section>
    );
  const customerTags = tags.filter((tag) => tag.customerId === null || String(tag.customerId) === customerId);
  return (
    <section aria-labelledby="new-monitor-title">
      <h1 id="new-monitor-title">{headingOf(kind)}</h1>
      <form class="panel monitor-form" onSubmit={submit} noValidate>
        <KindPicker kind={kind} onPick={pick} />
        {user.customerId === null ? (
          <Field label="Customer" id="monitor-customer" error={fieldError('customerId')}>
            <select id="monitor-customer" value={customerId} onChange={(e) => setCustomerId(e.currentTarget.value)}>
              {customers?.map((c) => (
                <option key={c.id} value={String(c.id)}>
                  {c.name}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        <MonitorFields
          kind={kind}
          values={values}
          onChange={(name, value) => setValues({ ...values, [name]: value })}
          fieldError={fieldError}
        />
        <LocationPicker locations={locations} chosen={shownLocations} onChange={setChosenLocations} error={fieldError('locations')} />
        <TagPicker tags={customerTags} chosen={chosenTags} onChange={setChosenTags} />
        <DependsOnPicker
          rows={monitorRows.rows}
          customerId={user.customerId ?? Number(customerId)}
          chosen={dependsOn}
          onChange={setDependsOn}
          error={fieldError('dependsOn')}
          cycle={cycle}
        />
        <ErrorText message={message ?? loadError} />
        <button type="submit" disabled={busy || !customers}>
          Add monitor
        </button>
      </form>
    </section>
  );
}
