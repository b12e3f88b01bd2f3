import { channelTypes, type CatalogueEntry, type CatalogueField } from '../../api/catalogue';
import type { Schemas } from '../../api/client';

export type ChannelType = Schemas['NotificationChannel']['type'];
type ConfigInput = Schemas['NotificationChannelConfigInput'];
type ConfigName = keyof ConfigInput & string;
export type ConfigField = CatalogueField<ConfigName>;
export type ChannelTypeEntry = CatalogueEntry<ChannelType, ConfigName>;

/**
 * The channel types the form offers, in the API's order, each with its label and config fields: the
 * catalogue generated from the notifier descriptors (scripts/console-catalogue.ts). A type or field
 * the API does not know fails the typecheck here.
 */
export const CHANNEL_TYPES: readonly ChannelTypeEntry[] = channelTypes;

/** A type's entry; a type this build of the console does not know yet is shown by its name, without fields. */
export const entryOf = (type: ChannelType): ChannelTypeEntry =>
  CHANNEL_TYPES.find((t) => t.type === type) ?? { type, label: type, fields: [] };

/** A type's label ("Microsoft Teams"). */
export const typeLabel = (type: ChannelType): string => entryOf(type).label;

/** What the form holds for each config field, as typed: keyed by field name, so a URL survives a change of type. */
export type FieldTexts = Partial<Record<string, string>>;

const list = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** Headers as `Name: value` lines; a line without a colon is a name with an empty value (the API judges it). */
function headersOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (!line) continue;
    const colon = line.indexOf(':');
    if (colon < 0) out[line] = '';
    else out[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return out;
}

/** A field's value as the form shows it: a string as is, a list joined by commas, headers one per line. */
function textOf(field: ConfigField, value: unknown): string {
  if (value === undefined || value === null) return '';
  switch (field.input.kind) {
    case 'string':
      return String(value);
    case 'list':
      return (value as string[]).join(', ');
    case 'headers':
      return Object.entries(value as Record<string, string>)
        .map(([name, v]) => `${name}: ${v}`)
        .join('\n');
  }
}

/** The texts of a channel's config, by its type's fields. */
export function textsOf(type: ChannelType, config: Schemas['NotificationChannel']['config']): FieldTexts {
  const values = config as Record<string, unknown>;
  return Object.fromEntries(entryOf(type).fields.map((f) => [f.name, textOf(f, values[f.name])]));
}

/** A field's value for the API, or undefined to leave it out (empty headers: none; empty optional text: null). */
function valueOf(field: ConfigField, text: string): unknown {
  switch (field.input.kind) {
    case 'string':
      return field.input.nullable ? text.trim() || null : text.trim();
    case 'list':
      return list(text);
    case 'headers': {
      const headers = headersOf(text);
      return Object.keys(headers).length > 0 ? headers : undefined;
    }
  }
}

/** The config the API takes for a type: exactly its fields, from the texts. */
export function configOf(type: ChannelType, texts: FieldTexts): ConfigInput {
  const config: Record<string, unknown> = {};
  for (const field of entryOf(type).fields) {
    const value = valueOf(field, texts[field.name] ?? '');
    if (value !== undefined) config[field.name] = value;
  }
  return config as ConfigInput;
}
