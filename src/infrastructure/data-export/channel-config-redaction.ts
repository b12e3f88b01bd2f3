import { configRedactions, type FieldRedaction } from '../../domain/notifications/notifiers/export-redaction';
import type { NotifierDescriptor } from '../../domain/notifications/notifiers/notifier';

type Redaction = Exclude<FieldRedaction, 'kept'>;

/**
 * The SQL of each redaction over a JSON object `json` and its field `name`: an object holding the
 * field redacted when the field has a value, else an empty one, to be merged over the config.
 * (No '?' operators here: the SQL runner numbers every '?' as a placeholder.)
 */
const FRAGMENTS: Readonly<Record<Redaction, (json: string, name: string) => string>> = {
  hostOnly: (json, name) =>
    `CASE WHEN ${json}->>'${name}' IS NOT NULL THEN jsonb_build_object('${name}', split_part(${json}->>'${name}', '/', 1) || '//' || split_part(${json}->>'${name}', '/', 3) || '/[redacted]') ELSE '{}'::jsonb END`,
  headerValues: (json, name) =>
    `CASE WHEN jsonb_typeof(${json}->'${name}') = 'object' THEN jsonb_build_object('${name}', coalesce((SELECT jsonb_object_agg(k, '[redacted]') FROM jsonb_object_keys(${json}->'${name}') AS k), '{}'::jsonb)) ELSE '{}'::jsonb END`,
  redacted: (json, name) =>
    `CASE WHEN coalesce(jsonb_typeof(${json}->'${name}'), 'null') <> 'null' THEN jsonb_build_object('${name}', '[redacted]') ELSE '{}'::jsonb END`,
};

/** What the manifest says of each. */
const HOW: Readonly<Record<Redaction, (name: string) => string>> = {
  hostOnly: (name) => `${name} cut to its scheme and host`,
  headerValues: (name) => `${name === 'headers' ? 'header' : name} values replaced by [redacted]`,
  redacted: (name) => `${name} replaced by [redacted]`,
};

/**
 * The export's redaction of notification channel configs, derived from the descriptors' fields
 * (configRedactions: a URL cut to its scheme and host, header values and any other secret
 * replaced): the SQL over the config column `json`, what the manifest says of it, and the fields
 * replaced whole (credentials such as an API key).
 */
export function channelConfigRedaction(
  notifiers: readonly NotifierDescriptor[],
  json = 't.config',
): { sql: string; how: string; credentials: string[] } {
  const redactions = configRedactions(notifiers);
  for (const { name } of redactions) if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) throw new Error(`Config field ${name} is not a plain name`);
  return {
    sql: `(${[json, ...redactions.map(({ name, redaction }) => `(${FRAGMENTS[redaction](json, name)})`)].join(' || ')})`,
    how: redactions.map(({ name, redaction }) => HOW[redaction](name)).join(', '),
    credentials: redactions.filter((r) => r.redaction === 'redacted').map((r) => r.name),
  };
}
