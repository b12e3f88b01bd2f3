import { useState } from 'preact/hooks';
import { api, ApiError, ok, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { useSubmission } from '../../components/use-submission';
import { loadCustomers } from '../../monitors/monitor-rows';
import { useLoad } from './use-load';

type Report = Schemas['Report'];
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

interface Draft {
  name: string;
  frequency: 'weekly' | 'monthly';
  weekday: string;
  dayOfMonth: string;
  timeOfDay: string;
  timezone: string;
  recipients: string;
  mode: 'always' | 'threshold';
  threshold: string;
  slaTarget: string;
  enabled: boolean;
  customers: string[];
}

const draftOf = (report: Report | null): Draft => ({
  name: report?.name ?? '',
  frequency: report?.frequency ?? 'weekly',
  weekday: String(report?.weekday ?? 1),
  dayOfMonth: String(report?.dayOfMonth ?? 1),
  timeOfDay: report?.timeOfDay ?? '08:00',
  timezone: report?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
  recipients: report?.recipients.join(', ') ?? '',
  mode: report?.mode ?? 'always',
  threshold: report?.threshold === null || report?.threshold === undefined ? '' : String(report.threshold),
  slaTarget: String(report?.slaTarget ?? 99.9),
  enabled: report?.enabled ?? true,
  customers: report?.scope.customers ?? [],
});

/** Which customers a report covers: checkboxes of the caller's customers (none ticked: every monitor). */
function ScopeCustomers(props: { prefix: string; chosen: string[]; error?: string; onChange: (customers: string[]) => void }) {
  const { prefix, chosen, error, onChange } = props;
  const customers = useLoad(loadCustomers);
  return (
    <fieldset class="field scope-customers" aria-describedby={error ? `${prefix}-scope-error` : undefined}>
      <legend>Customers covered (none ticked: every monitor of the organization)</legend>
      <ErrorText message={customers.error} />
      {customers.data?.map((customer) => (
        <div class="checkbox-field" key={customer.publicId}>
          <input
            id={`${prefix}-customer-${customer.publicId}`}
            type="checkbox"
            checked={chosen.includes(customer.publicId)}
            onChange={(e) =>
              onChange(e.currentTarget.checked ? [...chosen, customer.publicId] : chosen.filter((id) => id !== customer.publicId))
            }
          />
          <label for={`${prefix}-customer-${customer.publicId}`}>{customer.name}</label>
        </div>
      ))}
      {error ? (
        <p class="field-error" id={`${prefix}-scope-error`} role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** A number field's value: a number when it reads as one, else the text (the API names the field). */
const numberOf = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text));

/**
 * Creates a report definition, or changes one (`report`), with the API's refusals at their fields.
 * Of its scope, the customers are chosen here; monitors and tags set through the API are kept.
 */
export function ReportForm({ report, onSaved, onCancel }: { report: Report | null; onSaved: () => void; onCancel?: () => void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(report));
  const set = <K extends keyof Draft>(name: K, value: Draft[K]) => setDraft({ ...draft, [name]: value });
  const weekly = draft.frequency === 'weekly';
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    const recipients = draft.recipients
      .split(/[\s,;]+/)
      .map((r) => r.trim())
      .filter(Boolean);
    const body = {
      name: draft.name,
      frequency: draft.frequency,
      weekday: weekly ? numberOf(draft.weekday) : null,
      dayOfMonth: weekly ? null : numberOf(draft.dayOfMonth),
      timeOfDay: draft.timeOfDay,
      timezone: draft.timezone,
      recipients,
      mode: draft.mode,
      threshold: draft.mode === 'threshold' ? numberOf(draft.threshold) : null,
      slaTarget: numberOf(draft.slaTarget),
      enabled: draft.enabled,
      // Only the customers are chosen here: the monitors and tags of the scope stay as they are.
      scope: { customers: draft.customers },
    };
    try {
      if (report) await ok(api.PATCH('/api/organization/reports/{id}', { params: { path: { id: report.id } }, body }));
      else await ok(api.POST('/api/organization/reports', { body }));
    } catch (failure) {
      // A schedule refused as a whole is told at the day field of the frequency chosen.
      if (failure instanceof ApiError && failure.code === 'invalidReportSchedule' && failure.issues.length === 0) {
        throw new ApiError(failure.status, failure.code, failure.message, [
          { path: [weekly ? 'weekday' : 'dayOfMonth'], message: failure.message },
        ]);
      }
      throw failure;
    }
    if (!report) setDraft(draftOf(null));
    onSaved();
  });
  const prefix = report ? `report-${report.id}` : 'report-new';
  const title = report ? `Edit “${report.name}”` : 'Add a report';
  return (
    <form class="panel report-form" onSubmit={submit} noValidate aria-label={title}>
      <h2>{title}</h2>
      <Field label="Report name" id={`${prefix}-name`} error={fieldError('name')}>
        <input id={`${prefix}-name`} value={draft.name} onInput={(e) => set('name', e.currentTarget.value)} />
      </Field>
      <Field label="Frequency" id={`${prefix}-frequency`} error={fieldError('frequency')}>
        <select
          id={`${prefix}-frequency`}
          value={draft.frequency}
          onChange={(e) => set('frequency', e.currentTarget.value as Draft['frequency'])}
        >
          <option value="weekly">Weekly (the seven days before)</option>
          <option value="monthly">Monthly (the calendar month before)</option>
        </select>
      </Field>
      {weekly ? (
        <Field label="Weekday" id={`${prefix}-weekday`} error={fieldError('weekday')}>
          <select id={`${prefix}-weekday`} value={draft.weekday} onChange={(e) => set('weekday', e.currentTarget.value)}>
            {WEEKDAYS.map((day, i) => (
              <option key={day} value={String(i + 1)}>
                {day}
              </option>
            ))}
          </select>
        </Field>
      ) : (
        <Field label="Day of the month (1–28)" id={`${prefix}-day`} error={fieldError('dayOfMonth')}>
          <input
            id={`${prefix}-day`}
            inputMode="numeric"
            value={draft.dayOfMonth}
            onInput={(e) => set('dayOfMonth', e.currentTarget.value)}
          />
        </Field>
      )}
      <Field label="Time of day (HH:MM)" id={`${prefix}-time`} error={fieldError('timeOfDay')}>
        <input id={`${prefix}-time`} value={draft.timeOfDay} onInput={(e) => set('timeOfDay', e.currentTarget.value)} />
      </Field>
      <Field label="Time zone" id={`${prefix}-zone`} error={fieldError('timezone')}>
        <input id={`${prefix}-zone`} value={draft.timezone} onInput={(e) => set('timezone', e.currentTarget.value)} />
      </Field>
      <Field label="Recipients (e-mail addresses, comma-separated)" id={`${prefix}-recipients`} error={fieldError('recipients')}>
        <input id={`${prefix}-recipients`} value={draft.recipients} onInput={(e) => set('recipients', e.currentTarget.value)} />
      </Field>
      <Field label="Send" id={`${prefix}-mode`} error={fieldError('mode')}>
        <select id={`${prefix}-mode`} value={draft.mode} onChange={(e) => set('mode', e.currentTarget.value as Draft['mode'])}>
          <option value="always">Every run</option>
          <option value="threshold">Only when a monitor's uptime fell below a threshold</option>
        </select>
      </Field>
      {draft.mode === 'threshold' ? (
        <Field label="Threshold (uptime %)" id={`${prefix}-threshold`} error={fieldError('threshold')}>
          <input
            id={`${prefix}-threshold`}
            inputMode="decimal"
            value={draft.threshold}
            onInput={(e) => set('threshold', e.currentTarget.value)}
          />
        </Field>
      ) : null}
      <Field label="SLA target (uptime %)" id={`${prefix}-sla`} error={fieldError('slaTarget')}>
        <input id={`${prefix}-sla`} inputMode="decimal" value={draft.slaTarget} onInput={(e) => set('slaTarget', e.currentTarget.value)} />
      </Field>
      <ScopeCustomers
        prefix={prefix}
        chosen={draft.customers}
        error={fieldError('scope')}
        onChange={(customers) => set('customers', customers)}
      />
      <div class="field checkbox-field">
        <input id={`${prefix}-enabled`} type="checkbox" checked={draft.enabled} onChange={(e) => set('enabled', e.currentTarget.checked)} />
        <label for={`${prefix}-enabled`}>Runs on its schedule</label>
      </div>
      <ErrorText message={message} />
      <div class="org-actions">
        <button type="submit" disabled={busy}>
          {report ? 'Save report' : 'Add report'}
        </button>
        {onCancel ? (
          <button type="button" class="secondary" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
