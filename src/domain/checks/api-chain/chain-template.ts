/**
 * `{{name}}` placeholders: a variable an earlier step extracted, or `{{secrets.NAME}}`, a secret
 * stored encrypted with the monitor. Substitution happens at check time; redaction replaces every
 * secret value (as sent, JSON-escaped and URL-encoded) before anything is kept or shown.
 */
const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.]+)\s*\}\}/g;
const SECRET_PREFIX = 'secrets.';
export const REDACTED = '[redacted]';

export interface Placeholder {
  readonly kind: 'variable' | 'secret';
  readonly name: string;
}

/** The placeholders `text` names, in order (`{{secrets.x}}` is a secret, anything else a variable). */
export function placeholdersIn(text: string): Placeholder[] {
  return [...text.matchAll(PLACEHOLDER)].map(([, ref]) =>
    ref!.startsWith(SECRET_PREFIX) ? { kind: 'secret', name: ref!.slice(SECRET_PREFIX.length) } : { kind: 'variable', name: ref! },
  );
}

export interface TemplateValues {
  readonly variables: ReadonlyMap<string, string>;
  readonly secrets: Readonly<Record<string, string>>;
}

/** `text` with each placeholder replaced; `encode` applies to every inserted value (URL encoding in URLs). */
export function substitute(text: string, values: TemplateValues, encode: (value: string) => string = (v) => v): string {
  return text.replace(PLACEHOLDER, (whole, ref: string) => {
    const value = ref.startsWith(SECRET_PREFIX)
      ? Object.hasOwn(values.secrets, ref.slice(SECRET_PREFIX.length))
        ? values.secrets[ref.slice(SECRET_PREFIX.length)]
        : undefined
      : values.variables.get(ref);
    return value === undefined ? whole : encode(value);
  });
}

/** Every form a secret could take in what a check sees or keeps, longest first (so a longer form is cut whole). */
function secretForms(secrets: Readonly<Record<string, string>>): string[] {
  const forms = new Set<string>();
  for (const value of Object.values(secrets)) {
    if (!value) continue;
    forms.add(value);
    forms.add(JSON.stringify(value).slice(1, -1));
    forms.add(encodeURIComponent(value));
  }
  return [...forms].filter((f) => f.length > 0).sort((a, b) => b.length - a.length);
}

/** A redactor for one chain's secrets: what it returns never contains a secret's value. */
export function redactorFor(secrets: Readonly<Record<string, string>>): (text: string) => string {
  const forms = secretForms(secrets);
  if (forms.length === 0) return (text) => text;
  return (text) => forms.reduce((out, form) => out.split(form).join(REDACTED), text);
}
