import type { ComponentChildren } from 'preact';

/** A labelled form field with the API's message for it, announced to screen readers. */
export function Field({ label, id, error, children }: { label: string; id: string; error?: string; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children}
      {error ? (
        <p class="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A refusal shown at the place it concerns (a form, a button). */
export function ErrorText({ message }: { message: string | null | undefined }) {
  return message ? (
    <p class="error" role="alert">
      {message}
    </p>
  ) : null;
}

/** The person's current password (sign-in, and the account changes that ask for it again). */
export function CurrentPasswordField({
  label,
  id,
  error,
  value,
  onInput,
}: {
  label: string;
  id: string;
  error?: string;
  value: string;
  onInput: (value: string) => void;
}) {
  return (
    <Field label={label} id={id} error={error}>
      <input
        id={id}
        type="password"
        autocomplete="current-password"
        required
        value={value}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
    </Field>
  );
}
