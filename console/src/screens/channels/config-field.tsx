import type { ConfigField } from './channel-types';

/** The field's label, with how to type a list and whether it may stay empty. */
function labelOf(field: ConfigField): string {
  switch (field.input.kind) {
    case 'string':
      return field.input.nullable ? `${field.label} (optional)` : field.label;
    case 'list':
      return `${field.label} (comma separated)`;
    case 'headers':
      return `${field.label} (optional)`;
  }
}

/** The descriptor's help, and for headers how to write them. */
const hintOf = (field: ConfigField) => (field.input.kind === 'headers' ? `${field.help}. One per line, as X-Team: ops.` : field.help);

/**
 * One config field of a channel type, drawn from its catalogue entry: the label bound to the input,
 * the descriptor's help as the input's description, and the API's message for the field beside it.
 * Headers are a textarea of `Name: value` lines; any other input is one line (a list comma
 * separated). A secret (a chat service's incoming-webhook URL) is shown as the API answers it, never
 * offered to the browser's autofill.
 */
export function ConfigFieldControl({
  field,
  id,
  value,
  error,
  onInput,
}: {
  field: ConfigField;
  id: string;
  value: string;
  error: string | undefined;
  onInput: (value: string) => void;
}) {
  const common = {
    id,
    value,
    'aria-describedby': [`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' '),
    'aria-invalid': error ? ('true' as const) : undefined,
    autocomplete: field.mark === 'secret' ? 'off' : undefined,
    spellcheck: false,
  };
  const required = field.input.kind === 'list' || (field.input.kind === 'string' && !field.input.nullable);
  return (
    <div class="field">
      <label for={id}>{labelOf(field)}</label>
      {field.input.kind === 'headers' ? (
        <textarea {...common} rows={3} onInput={(e) => onInput(e.currentTarget.value)} />
      ) : (
        <input
          {...common}
          type={(field.name === 'url' ? 'url' : 'text') as 'text'}
          required={required}
          onInput={(e) => onInput(e.currentTarget.value)}
        />
      )}
      <p class="field-hint" id={`${id}-hint`}>
        {hintOf(field)}
      </p>
      {error ? (
        <p class="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
