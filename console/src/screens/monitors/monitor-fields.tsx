import { Field } from '../../components/field';
import type { Location, Tag } from '../../monitors/monitor-api';
import type { MonitorKind } from '../../monitors/monitor-bodies';
import { COMMON_FIELDS, KIND_FIELDS, type FieldSpec, type FormFieldName, type FormValues } from '../../monitors/monitor-kinds';
import './monitors.css';

type FieldError = (name: string) => string | undefined;
/** A field of any kind's form, named by its kind's bodies. */
type Name = FormFieldName<MonitorKind>;
const idOf = (name: string) => `monitor-${name.replace(/\W/g, '-')}`;

/** One setting as its control: the label, the hint and the API's message for it tied to the input. */
function SettingField(props: {
  spec: FieldSpec<Name>;
  values: FormValues<MonitorKind>;
  onChange: (name: Name, value: string | boolean) => void;
  error?: string;
}) {
  const { spec, values, onChange, error } = props;
  const id = idOf(spec.name);
  const value = values[spec.name];
  const described = [spec.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const hint = spec.hint ? (
    <p class="field-hint" id={`${id}-hint`}>
      {spec.hint}
    </p>
  ) : null;
  if (spec.type === 'checkbox')
    return (
      <div class="field check-field">
        <input
          id={id}
          type="checkbox"
          checked={value === true}
          aria-describedby={described}
          onChange={(e) => onChange(spec.name, e.currentTarget.checked)}
        />
        <label for={id}>{spec.label}</label>
        {hint}
        {error ? (
          <p class="field-error" id={`${id}-error`} role="alert">
            {error}
          </p>
        ) : null}
      </div>
    );
  const common = {
    id,
    value: typeof value === 'string' ? value : '',
    'aria-describedby': described,
    'aria-invalid': error ? ('true' as const) : undefined,
  };
  let control;
  if (spec.type === 'select')
    control = (
      <select {...common} onChange={(e) => onChange(spec.name, e.currentTarget.value)}>
        {spec.options?.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    );
  else if (spec.type === 'textarea' || spec.type === 'list')
    control = <textarea {...common} rows={spec.type === 'list' ? 3 : 8} onInput={(e) => onChange(spec.name, e.currentTarget.value)} />;
  else if (spec.type === 'password')
    control = <input {...common} type="password" autocomplete="new-password" onInput={(e) => onChange(spec.name, e.currentTarget.value)} />;
  else
    control = (
      <input
        {...common}
        type="text"
        inputMode={spec.type === 'number' ? 'numeric' : undefined}
        autocomplete="off"
        placeholder={spec.placeholder}
        onInput={(e) => onChange(spec.name, e.currentTarget.value)}
      />
    );
  return (
    <Field label={spec.label} id={id} error={error}>
      {control}
      {hint}
    </Field>
  );
}

/** The settings of one kind of monitor: the ones every kind has, then the kind's own (shown as they apply). */
export function MonitorFields(props: {
  kind: MonitorKind;
  values: FormValues<MonitorKind>;
  onChange: (name: Name, value: string | boolean) => void;
  fieldError: FieldError;
  /** A change request carries no secrets: their fields are left out. */
  withoutSecrets?: boolean;
}) {
  const { kind, values, onChange, fieldError, withoutSecrets } = props;
  const shown = (specs: readonly FieldSpec<Name>[]) =>
    specs.filter((spec) => (!spec.when || spec.when(values)) && !(withoutSecrets && spec.secret));
  const render = (spec: FieldSpec<Name>) => (
    <SettingField
      key={spec.name}
      spec={spec}
      values={values}
      onChange={onChange}
      error={fieldError(spec.name.startsWith('credentials.') ? 'credentials' : spec.name)}
    />
  );
  // The name first, then the kind's own settings, then each group under its heading.
  const all = shown([...COMMON_FIELDS, ...KIND_FIELDS[kind]]);
  const groups = [...new Set(all.map((spec) => spec.group).filter((group): group is string => group !== undefined))];
  return (
    <>
      {all.filter((spec) => !spec.group).map(render)}
      {groups.map((group) => (
        <fieldset key={group} class="settings-group">
          <legend>{group}</legend>
          {all.filter((spec) => spec.group === group).map(render)}
        </fieldset>
      ))}
    </>
  );
}

/** Where it is checked from: one box per location the organization may use. */
export function LocationPicker(props: { locations: Location[]; chosen: string[]; onChange: (codes: string[]) => void; error?: string }) {
  const { locations, chosen, onChange, error } = props;
  return (
    <fieldset class="settings-group" aria-describedby={error ? 'monitor-locations-error' : undefined}>
      <legend>Locations</legend>
      {locations.length === 0 ? <p class="field-hint">No location is available.</p> : null}
      <div class="choices">
        {locations.map((location) => (
          <label key={location.code} class="choice">
            <input
              type="checkbox"
              checked={chosen.includes(location.code)}
              onChange={(e) =>
                onChange(e.currentTarget.checked ? [...chosen, location.code] : chosen.filter((code) => code !== location.code))
              }
            />
            {location.name === location.code ? location.code : `${location.name} (${location.code})`}
            {location.status === 'live' ? '' : ' — no live check process'}
          </label>
        ))}
      </div>
      {error ? (
        <p class="field-error" id="monitor-locations-error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** Its tags (at most 5): the organization's tags and those of the monitor's customer. */
export function TagPicker(props: { tags: Tag[]; chosen: string[]; onChange: (ids: string[]) => void }) {
  const { tags, chosen, onChange } = props;
  return (
    <fieldset class="settings-group">
      <legend>Tags</legend>
      {tags.length === 0 ? <p class="field-hint">No tags yet.</p> : null}
      <div class="choices">
        {tags.map((tag) => (
          <label key={tag.publicId} class="choice">
            <input
              type="checkbox"
              checked={chosen.includes(tag.publicId)}
              onChange={(e) => onChange(e.currentTarget.checked ? [...chosen, tag.publicId] : chosen.filter((id) => id !== tag.publicId))}
            />
            {tag.name}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
