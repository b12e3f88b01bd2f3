import { LIVE_EVENT_CATALOGUE, LIVE_EVENT_KINDS, type LiveEventField } from './catalogue';

const typeOf = (field: LiveEventField): string =>
  `${field.values ? field.values.map((v) => `"${v}"`).join(' | ') : field.type === 'timestamp' ? 'string (ISO time)' : field.type}${field.nullable ? ' | null' : ''}`;

/** One line per kind: its name, what it tells, its scope and its payload's fields (the stream's OpenAPI description). */
export function liveEventKindsText(): string {
  return LIVE_EVENT_KINDS.map((kind) => {
    const d = LIVE_EVENT_CATALOGUE[kind];
    const fields = Object.entries(d.fields as Record<string, LiveEventField>).map(([name, f]) => `${name} (${typeOf(f)})`);
    return `\`${kind}\`: ${d.description}; scope: ${d.scope}; data: ${fields.join(', ')}.`;
  }).join(' ');
}

/** The catalogue as the section of docs/live-events.md between its markers (a test holds the file to it). */
export function liveEventKindsMarkdown(): string {
  return LIVE_EVENT_KINDS.map((kind) => {
    const d = LIVE_EVENT_CATALOGUE[kind];
    const rows = Object.entries(d.fields as Record<string, LiveEventField>).map(
      ([name, f]) => `| \`${name}\` | ${typeOf(f).replaceAll('|', '\\|')} | ${f.description} |`,
    );
    return [
      `### \`${kind}\``,
      '',
      `${d.description}.`,
      '',
      `Scope: ${d.scope}.`,
      '',
      '| Field | Type | Meaning |',
      '| --- | --- | --- |',
      ...rows,
    ].join('\n');
  }).join('\n\n');
}
