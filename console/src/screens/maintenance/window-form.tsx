import { useState } from 'preact/hooks';
import { api, ApiError, ok, type Customer, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { OccurrenceList, useOccurrences } from './occurrences';
import { TargetsPicker, type Target } from './targets-picker';
import { browserZone, instantOf, isZone, knownZones, localOf } from './zoned-time';

export type MaintenanceWindow = Schemas['MaintenanceWindow'];
type OverviewRow = Schemas['MonitorOverviewItem'];

const REPEATS = { once: 'Once', daily: 'Every day', weekly: 'Every week', monthly: 'Every month', custom: 'Custom rule (RRULE)' } as const;
type Repeat = keyof typeof REPEATS;
const RULES: Record<Exclude<Repeat, 'once' | 'custom'>, string> = { daily: 'FREQ=DAILY', weekly: 'FREQ=WEEKLY', monthly: 'FREQ=MONTHLY' };

/** A rule in words: a preset's name, or the rule itself. */
export const ruleWords = (rrule: string | null): string =>
  rrule === null ? 'Once' : repeatOf(rrule) === 'custom' ? `Repeats ${rrule}` : REPEATS[repeatOf(rrule)];

/** The preset a saved rule is, or custom. */
const repeatOf = (rrule: string | null): Repeat =>
  rrule === null ? 'once' : ((Object.entries(RULES).find(([, rule]) => rule === rrule)?.[0] as Repeat | undefined) ?? 'custom');

interface Draft {
  title: string;
  description: string;
  start: string;
  end: string;
  timezone: string;
  repeat: Repeat;
  rule: string;
  targets: Target[];
  suppressAlerts: boolean;
  excludeFromUptime: boolean;
}

function draftOf(window: MaintenanceWindow | null): Draft {
  if (!window) {
    return {
      title: '',
      description: '',
      start: '',
      end: '',
      timezone: browserZone(),
      repeat: 'once',
      rule: '',
      targets: [],
      suppressAlerts: true,
      excludeFromUptime: false,
    };
  }
  return {
    title: window.title,
    description: window.description ?? '',
    start: localOf(window.startTime, window.timezone),
    end: localOf(window.endTime, window.timezone),
    timezone: window.timezone,
    repeat: repeatOf(window.rrule),
    rule: window.rrule ?? '',
    targets: window.targets.map((t) => ({ type: t.type as Target['type'], id: t.id })),
    suppressAlerts: window.suppressAlerts,
    excludeFromUptime: window.excludeFromUptime,
  };
}

const ruleOf = (d: Draft): string | null => (d.repeat === 'once' ? null : d.repeat === 'custom' ? d.rule.trim() : RULES[d.repeat]);

/** The API's words about one field: an issue or data.field at it or inside it (`/targets/0/id` is the targets'). */
function refusalAt(error: ApiError | null, field: string): string | undefined {
  return error?.issues.find((i) => i.path[0] === field)?.message;
}

/**
 * Schedules a window (`window` null) or changes one: title, start and end on the wall clock of its
 * time zone, how it repeats, what it covers, and its effects; the next occurrences are previewed by
 * the API as the fields change, shown in the window's zone. Refusals are shown at their field.
 */
export function WindowForm({
  window: existing,
  customers,
  monitors,
  onSaved,
  onCancel,
}: {
  window: MaintenanceWindow | null;
  customers: Customer[];
  monitors: OverviewRow[];
  onSaved: () => void;
  onCancel?: () => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(existing));
  const [refusal, setRefusal] = useState<ApiError | string | null>(null);
  const [previewRefusal, setPreviewRefusal] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (change: Partial<Draft>) => setDraft({ ...draft, ...change });
  const prefix = existing ? `edit-${existing.id}` : 'new-window';
  // A zone the browser does not know is still sent as typed: the API says what is wrong with it.
  const clock = isZone(draft.timezone.trim()) ? draft.timezone.trim() : 'UTC';
  const startTime = instantOf(draft.start, clock);
  const endTime = instantOf(draft.end, clock);
  const rrule = ruleOf(draft);
  const recurrence =
    startTime && endTime && draft.timezone.trim() && rrule !== '' ? { startTime, endTime, timezone: draft.timezone.trim(), rrule } : null;
  const preview = useOccurrences(recurrence, 5, setPreviewRefusal);
  const apiError = refusal instanceof ApiError ? refusal : previewRefusal;
  const at = (field: string) => refusalAt(apiError, field);

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setRefusal(null);
    try {
      if (!startTime || !endTime) {
        setRefusal(
          new ApiError(400, undefined, 'Give the start and the end as a date and a time.', [
            ...(startTime ? [] : [{ path: ['startTime'], message: 'A date and a time are needed' }]),
            ...(endTime ? [] : [{ path: ['endTime'], message: 'A date and a time are needed' }]),
          ]),
        );
        return;
      }
      const body = {
        title: draft.title,
        description: draft.description.trim() || null,
        startTime,
        endTime,
        timezone: draft.timezone.trim(),
        rrule,
        targets: draft.targets,
        suppressAlerts: draft.suppressAlerts,
        excludeFromUptime: draft.excludeFromUptime,
      };
      if (existing) await ok(api.PATCH('/api/maintenance-windows/{id}', { params: { path: { id: existing.id } }, body }));
      else await ok(api.POST('/api/maintenance-windows', { body }));
      if (!existing) setDraft(draftOf(null));
      onSaved();
    } catch (failure) {
      setRefusal(failure instanceof ApiError ? failure : String(failure));
    } finally {
      setBusy(false);
    }
  };

  const zones = knownZones();
  return (
    <form class="panel window-form" onSubmit={(e) => void save(e)} noValidate aria-labelledby={`${prefix}-title`}>
      <h2 id={`${prefix}-title`}>{existing ? `Change “${existing.title}”` : 'Schedule a maintenance window'}</h2>
      <Field label="Title" id={`${prefix}-name`} error={at('title')}>
        <input id={`${prefix}-name`} required value={draft.title} onInput={(e) => set({ title: e.currentTarget.value })} />
      </Field>
      <Field label="Description (optional)" id={`${prefix}-description`} error={at('description')}>
        <textarea
          id={`${prefix}-description`}
          rows={2}
          value={draft.description}
          onInput={(e) => set({ description: e.currentTarget.value })}
        />
      </Field>
      <Field label="Time zone" id={`${prefix}-zone`} error={at('timezone')}>
        <input
          id={`${prefix}-zone`}
          list={`${prefix}-zones`}
          required
          value={draft.timezone}
          onInput={(e) => set({ timezone: e.currentTarget.value })}
        />
        <datalist id={`${prefix}-zones`}>
          {zones.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
      </Field>
      <div class="two">
        <Field label="Starts (in its time zone)" id={`${prefix}-start`} error={at('startTime')}>
          <input
            id={`${prefix}-start`}
            type="datetime-local"
            required
            value={draft.start}
            onInput={(e) => set({ start: e.currentTarget.value })}
          />
        </Field>
        <Field label="Ends (in its time zone)" id={`${prefix}-end`} error={at('endTime')}>
          <input
            id={`${prefix}-end`}
            type="datetime-local"
            required
            value={draft.end}
            onInput={(e) => set({ end: e.currentTarget.value })}
          />
        </Field>
      </div>
      <Field label="Repeats" id={`${prefix}-repeat`}>
        <select id={`${prefix}-repeat`} value={draft.repeat} onChange={(e) => set({ repeat: e.currentTarget.value as Repeat })}>
          {(Object.keys(REPEATS) as Repeat[]).map((r) => (
            <option key={r} value={r}>
              {REPEATS[r]}
            </option>
          ))}
        </select>
      </Field>
      {draft.repeat === 'custom' ? (
        <Field label="Rule (RFC 5545 RRULE, e.g. FREQ=WEEKLY;BYDAY=SA,SU)" id={`${prefix}-rule`} error={at('rrule')}>
          <input id={`${prefix}-rule`} required value={draft.rule} onInput={(e) => set({ rule: e.currentTarget.value })} />
        </Field>
      ) : draft.repeat !== 'once' ? (
        <p class="muted">
          Each occurrence starts at the same wall-clock time in {draft.timezone || 'its zone'}, across daylight-saving changes.
        </p>
      ) : null}
      <section class="preview" aria-labelledby={`${prefix}-preview-title`}>
        <h3 id={`${prefix}-preview-title`}>Next occurrences ({draft.timezone || 'its zone'})</h3>
        {!recurrence ? <p class="muted">Give the start, the end and the zone to see them.</p> : null}
        {recurrence && preview.occurrences ? (
          <OccurrenceList occurrences={preview.occurrences} zone={recurrence.timezone} label="Next occurrences" />
        ) : null}
        {recurrence && preview.error ? <p class="muted">No preview: {preview.error}</p> : null}
      </section>
      <TargetsPicker
        idPrefix={prefix}
        targets={draft.targets}
        customers={customers}
        monitors={monitors}
        onChange={(targets) => set({ targets })}
        error={at('targets')}
      />
      <label class="check">
        <input
          type="checkbox"
          class="checkbox"
          checked={draft.suppressAlerts}
          onChange={(e) => set({ suppressAlerts: e.currentTarget.checked })}
        />
        No alerts while it runs
      </label>
      <label class="check">
        <input
          type="checkbox"
          class="checkbox"
          checked={draft.excludeFromUptime}
          onChange={(e) => set({ excludeFromUptime: e.currentTarget.checked })}
        />
        Leave it out of uptime figures
      </label>
      <ErrorText message={refusal instanceof ApiError ? refusal.message : refusal} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {existing ? 'Save window' : 'Schedule window'}
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
