import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, describe, ok, type Customer } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { Link } from '../../components/link';
import { useSubmission } from '../../components/use-submission';
import { loadTags, type Tag } from '../../monitors/monitor-api';
import { loadCustomers } from '../../monitors/monitor-rows';
import { navigate, useRoute } from '../../router';
import type { User } from '../../session';
import { may } from '../../permissions';
import { useMonitorRows } from '../monitors/dependencies';
import { WINDOWS, type Objective, type Window } from './objectives';
import './service-levels.css';

interface Values {
  name: string;
  subjectType: 'website' | 'customer';
  websiteId: string;
  customerId: string;
  tagId: string;
  target: string;
  window: Window;
  timezone: string;
  alertsEnabled: boolean;
}

const blank = (websiteId: string | null): Values => ({
  name: '',
  subjectType: 'website',
  websiteId: websiteId ?? '',
  customerId: '',
  tagId: '',
  target: '99.9',
  window: 'rolling30d',
  timezone: 'UTC',
  alertsEnabled: true,
});

const valuesOf = (o: Objective): Values => ({
  name: o.name,
  subjectType: o.subject.type,
  websiteId: o.subject.type === 'website' ? o.subject.websiteId : '',
  customerId: String(o.subject.type === 'customer' ? o.subject.customerId : o.customerId),
  tagId: o.subject.type === 'customer' && o.subject.tagId !== null ? String(o.subject.tagId) : '',
  target: String(o.target),
  window: o.window,
  timezone: o.timezone,
  alertsEnabled: o.alertsEnabled,
});

/** A refusal inside the subject (its shape, or a subject not found: data.field `/subject/websiteId`) shows at the subject's own field. */
function atField(failure: unknown): never {
  if (failure instanceof ApiError && failure.issues.some((issue) => issue.path[0] === 'subject')) {
    const issues = failure.issues.map((issue) => (issue.path[0] === 'subject' ? { ...issue, path: issue.path.slice(1) } : issue));
    throw new ApiError(failure.status, failure.code, failure.message, issues, failure.data);
  }
  throw failure;
}

/** The time zones the browser knows, for the calendar month's zone. */
const ZONES: readonly string[] = (() => {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  const zones = intl.supportedValuesOf?.('timeZone') ?? [];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
})();

/**
 * Add or change a service level objective (POST /api/service-levels, PATCH /api/service-levels/{id}):
 * its subject (one monitor, or a customer's monitors with an optional tag), target, window, time zone
 * and alerts. The API decides; its refusals show at their field.
 */
export function ObjectiveForm({ user, id }: { user: User; id: string | null }) {
  const { query } = useRoute();
  const [values, setValues] = useState<Values>(() => blank(query.get('websiteId')));
  const [loaded, setLoaded] = useState<Objective | null>(null);
  const [customers, setCustomers] = useState<Customer[]>([]);
  const [tags, setTags] = useState<Tag[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const { rows } = useMonitorRows();
  useEffect(() => {
    Promise.all([
      loadCustomers(),
      loadTags().catch(() => []),
      id ? ok(api.GET('/api/service-levels/{id}', { params: { path: { id } } })) : Promise.resolve(null),
    ]).then(
      ([found, labels, objective]) => {
        setCustomers(found);
        setTags(labels);
        if (objective) {
          setLoaded(objective);
          setValues(valuesOf(objective));
        } else setValues((v) => ({ ...v, customerId: v.customerId || String(found[0]?.id ?? '') }));
      },
      (failure: unknown) => setLoadError(describe(failure)),
    );
  }, [id]);
  const set = <K extends keyof Values>(name: K, value: Values[K]) => setValues((v) => ({ ...v, [name]: value }));
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    const subject =
      values.subjectType === 'website'
        ? { type: 'website' as const, websiteId: values.websiteId }
        : { type: 'customer' as const, customerId: values.customerId, tagId: values.tagId || null };
    const target = values.target.trim() === '' ? NaN : Number(values.target);
    const body = {
      name: values.name,
      subject,
      target,
      window: values.window,
      timezone: values.timezone,
      alertsEnabled: values.alertsEnabled,
    };
    if (id) await ok(api.PATCH('/api/service-levels/{id}', { params: { path: { id } }, body })).catch(atField);
    else await ok(api.POST('/api/service-levels', { body })).catch(atField);
    navigate(values.subjectType === 'website' ? `/service-levels?websiteId=${values.websiteId}` : '/service-levels');
  });
  if (!may(user, id ? 'serviceLevel.update' : 'serviceLevel.create')) {
    return (
      <section aria-labelledby="objective-title">
        <h1 id="objective-title">{id ? 'Edit a service level objective' : 'Add a service level objective'}</h1>
        <p>Your role may read objectives but not change them.</p>
      </section>
    );
  }
  if (id && !loaded) return loadError ? <ErrorText message={loadError} /> : <p role="status">Loading the objective…</p>;
  const subjectError = fieldError('subject') ?? fieldError('type');
  // A refusal shown at its field is not said twice.
  const atAField = ['name', 'websiteId', 'customerId', 'tagId', 'target', 'window', 'timezone', 'subject', 'type'].some((f) =>
    fieldError(f),
  );
  const customerTags = tags.filter((t) => t.customerId === null || String(t.customerId) === values.customerId);
  const title = loaded ? `Edit ${loaded.name}` : 'Add a service level objective';
  return (
    <section aria-labelledby="objective-title">
      <h1 id="objective-title">{title}</h1>
      <p class="muted">
        <Link to="/service-levels">Back to service levels</Link>
      </p>
      <form class="panel slo-form" onSubmit={submit} noValidate>
        <Field label="Name" id="slo-name" error={fieldError('name')}>
          <input id="slo-name" value={values.name} maxLength={200} onInput={(e) => set('name', e.currentTarget.value)} />
        </Field>
        <fieldset class="slo-group">
          <legend>Covers</legend>
          <label class="choice">
            <input
              type="radio"
              name="slo-subject"
              checked={values.subjectType === 'website'}
              onChange={() => set('subjectType', 'website')}
            />
            One monitor
          </label>
          <label class="choice">
            <input
              type="radio"
              name="slo-subject"
              checked={values.subjectType === 'customer'}
              onChange={() => set('subjectType', 'customer')}
            />
            A customer's monitors
          </label>
          {values.subjectType === 'website' ? (
            <Field label="Monitor" id="slo-monitor" error={fieldError('websiteId') ?? subjectError}>
              <select id="slo-monitor" value={values.websiteId} onChange={(e) => set('websiteId', e.currentTarget.value)}>
                <option value="">{rows ? 'Choose a monitor' : 'Loading the monitors…'}</option>
                {(rows ?? []).map((row) => (
                  <option key={row.publicId} value={row.publicId}>
                    {row.name} ({row.customerName})
                  </option>
                ))}
              </select>
            </Field>
          ) : (
            <>
              <Field label="Customer" id="slo-customer" error={fieldError('customerId') ?? subjectError}>
                <select id="slo-customer" value={values.customerId} onChange={(e) => set('customerId', e.currentTarget.value)}>
                  {customers.map((c) => (
                    <option key={c.id} value={String(c.id)}>
                      {c.name}
                    </option>
                  ))}
                </select>
              </Field>
              <Field label="Only monitors with the tag" id="slo-tag" error={fieldError('tagId')}>
                <select id="slo-tag" value={values.tagId} onChange={(e) => set('tagId', e.currentTarget.value)}>
                  <option value="">All its monitors</option>
                  {customerTags.map((t) => (
                    <option key={t.id} value={String(t.id)}>
                      {t.name}
                    </option>
                  ))}
                </select>
              </Field>
            </>
          )}
        </fieldset>
        <Field label="Target (% of known time good)" id="slo-target" error={fieldError('target')}>
          <input id="slo-target" inputMode="decimal" value={values.target} onInput={(e) => set('target', e.currentTarget.value)} />
        </Field>
        <Field label="Window" id="slo-window" error={fieldError('window')}>
          <select id="slo-window" value={values.window} onChange={(e) => set('window', e.currentTarget.value as Window)}>
            {Object.entries(WINDOWS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Time zone of the calendar month" id="slo-timezone" error={fieldError('timezone')}>
          <select id="slo-timezone" value={values.timezone} onChange={(e) => set('timezone', e.currentTarget.value)}>
            {(ZONES.includes(values.timezone) ? ZONES : [values.timezone, ...ZONES]).map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        </Field>
        <label class="choice">
          <input type="checkbox" checked={values.alertsEnabled} onChange={(e) => set('alertsEnabled', e.currentTarget.checked)} />
          Alert the notification channels when the budget burns fast
        </label>
        <ErrorText message={atAField ? loadError : (message ?? loadError)} />
        <button type="submit" disabled={busy}>
          {loaded ? 'Save objective' : 'Add objective'}
        </button>
      </form>
    </section>
  );
}
