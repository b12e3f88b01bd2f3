import type { ChannelConfig, NotifierDescriptor, NotifierField } from './notifier';

/**
 * How the data export writes a config field: as it is; a URL cut to its scheme and host; headers
 * with their names and every value replaced; or the value replaced whole.
 */
export type FieldRedaction = 'kept' | 'hostOnly' | 'headerValues' | 'redacted';

/**
 * The one rule, from what a descriptor says of a field: header values may be credentials
 * (Authorization) whatever the mark; a URL keeps its host (a secret URL is a credential, a target's
 * path or query may carry a token); any other `secret` is replaced whole; `target` and `plain` stay.
 */
export function redactionOf(field: NotifierField): FieldRedaction {
  if (field.input.kind === 'headers') return 'headerValues';
  if (field.url) return 'hostOnly';
  return field.mark === 'secret' ? 'redacted' : 'kept';
}

/** Two types treating a field of one name differently: the stricter; two different partial redactions, the whole value. */
function stricter(a: FieldRedaction, b: FieldRedaction): FieldRedaction {
  if (a === b || b === 'kept') return a;
  if (a === 'kept') return b;
  return 'redacted';
}

/**
 * The config fields the export redacts, over every descriptor, in order of first appearance, each
 * treated as the strictest type taking it says (a row's fields are its type's, so this is exact for
 * every row, and covers a row of a type no longer listed for the fields still known).
 */
export function configRedactions(
  notifiers: readonly NotifierDescriptor[],
): { readonly name: keyof ChannelConfig; readonly redaction: Exclude<FieldRedaction, 'kept'> }[] {
  const byName = new Map<keyof ChannelConfig, FieldRedaction>();
  for (const n of notifiers)
    for (const field of n.fields) byName.set(field.name, stricter(byName.get(field.name) ?? 'kept', redactionOf(field)));
  return [...byName]
    .filter((entry): entry is [keyof ChannelConfig, Exclude<FieldRedaction, 'kept'>] => entry[1] !== 'kept')
    .map(([name, redaction]) => ({ name, redaction }));
}
