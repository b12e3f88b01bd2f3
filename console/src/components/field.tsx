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
