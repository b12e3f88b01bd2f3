import { useState } from 'preact/hooks';
import { api, ApiError, describe, ok, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';

type CustomerFull = Schemas['CustomerFull'];
type CustomField = Schemas['CustomField'];
type Value = string | number | boolean;

/** What a form field holds for a value: text for inputs, a boolean for a checkbox. */
const draftOf = (field: CustomField, value: Value | undefined): string | boolean =>
  field.fieldType === 'boolean' ? value === true : value === undefined ? '' : String(value);

/** The value sent for a form field: null clears it; numbers as numbers (the API says when one is not). */
function valueOf(field: CustomField, draft: string | boolean): Value | null {
  if (field.fieldType === 'boolean') return draft === true;
  const text = String(draft).trim();
  if (text === '') return null;
  if (field.fieldType === 'number' && Number.isFinite(Number(text))) return Number(text);
  return text;
}

const shown = (value: Value | undefined) =>
  value === undefined ? '—' : typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value);

function Input({
  field,
  draft,
  onDraft,
  error,
}: {
  field: CustomField;
  draft: string | boolean;
  onDraft: (v: string | boolean) => void;
  error?: string;
}) {
  const id = `custom-${field.fieldKey}`;
  const described = error ? `${id}-error` : field.helpText ? `${id}-help` : undefined;
  const common = { id, 'aria-describedby': described, 'aria-invalid': error ? true : undefined, required: field.isRequired };
  let control;
  if (field.fieldType === 'boolean') {
    control = (
      <input {...common} type="checkbox" class="checkbox" checked={draft === true} onChange={(e) => onDraft(e.currentTarget.checked)} />
    );
  } else if (field.fieldType === 'select') {
    control = (
      <select {...common} value={String(draft)} onChange={(e) => onDraft(e.currentTarget.value)}>
        <option value="">—</option>
        {field.options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  } else if (field.fieldType === 'textarea') {
    control = <textarea {...common} rows={3} value={String(draft)} onInput={(e) => onDraft(e.currentTarget.value)} />;
  } else {
    // Number fields stay text: a value the API refuses comes back in its words, not as the browser's.
    const type = (
      field.fieldType === 'date' ? 'date' : field.fieldType === 'email' ? 'email' : field.fieldType === 'url' ? 'url' : 'text'
    ) as 'text';
    control = (
      <input
        {...common}
        type={type}
        placeholder={field.placeholder ?? undefined}
        value={String(draft)}
        onInput={(e) => onDraft(e.currentTarget.value)}
      />
    );
  }
  return (
    <Field label={field.isRequired ? `${field.name} (required)` : field.name} id={id} error={error}>
      {control}
      {field.helpText ? (
        <p class="muted help" id={`${id}-help`}>
          {field.helpText}
        </p>
      ) : null}
    </Field>
  );
}

/**
 * A customer's custom field values: a form over the organization's active definitions for those who
 * may change them (PATCH /api/customers/{id} with customFields, the API's issues shown at each
 * field), the values as text for everyone else; values without an active definition are listed too.
 */
export function CustomFieldsPanel({
  customer,
  fields,
  canWrite,
  onSaved,
}: {
  customer: CustomerFull;
  fields: CustomField[] | null;
  canWrite: boolean;
  onSaved: (customer: CustomerFull) => void;
}) {
  const active = (fields ?? []).filter((f) => f.isActive).sort((a, b) => a.displayOrder - b.displayOrder);
  const values = customer.customFields;
  const [drafts, setDrafts] = useState<Record<string, string | boolean>>(() =>
    Object.fromEntries(active.map((f) => [f.fieldKey, draftOf(f, values[f.fieldKey])])),
  );
  const [failure, setFailure] = useState<ApiError | string | null>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const others = Object.keys(values).filter((key) => !active.some((f) => f.fieldKey === key));
  const nameOf = (key: string) => fields?.find((f) => f.fieldKey === key)?.name ?? key;
  const issueAt = (key: string) =>
    failure instanceof ApiError ? failure.issues.find((i) => i.path[0] === 'customFields' && i.path[1] === key)?.message : undefined;

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    setSaved(false);
    try {
      const changes = Object.fromEntries(active.map((f) => [f.fieldKey, valueOf(f, drafts[f.fieldKey] ?? '')]));
      const next = await ok(
        api.PATCH('/api/customers/{id}', { params: { path: { id: customer.publicId } }, body: { customFields: changes } }),
      );
      setSaved(true);
      onSaved(next);
    } catch (error) {
      setFailure(error instanceof ApiError ? error : describe(error));
    } finally {
      setBusy(false);
    }
  };

  const editable = canWrite && active.length > 0;
  return (
    <section class="panel wide" aria-labelledby="fields-title">
      <h2 id="fields-title">Custom fields</h2>
      {fields !== null && fields.length === 0 && others.length === 0 ? <p>The organization keeps no custom fields.</p> : null}
      {editable ? (
        <form onSubmit={(e) => void save(e)} noValidate aria-labelledby="fields-title">
          {active.map((f) => (
            <Input
              key={f.fieldKey}
              field={f}
              draft={drafts[f.fieldKey] ?? ''}
              onDraft={(v) => setDrafts({ ...drafts, [f.fieldKey]: v })}
              error={issueAt(f.fieldKey)}
            />
          ))}
          <ErrorText message={failure instanceof ApiError ? failure.message : failure} />
          {saved ? <p role="status">Saved.</p> : null}
          <button type="submit" disabled={busy}>
            Save custom fields
          </button>
        </form>
      ) : (
        <dl class="facts">
          {active.map((f) => (
            <div key={f.fieldKey}>
              <dt>{f.name}</dt>
              <dd>{shown(values[f.fieldKey])}</dd>
            </div>
          ))}
        </dl>
      )}
      {others.length > 0 ? (
        <dl class="facts">
          {others.map((key) => (
            <div key={key}>
              <dt>{nameOf(key)}</dt>
              <dd>{shown(values[key])}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </section>
  );
}
