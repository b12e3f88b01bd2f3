import { z } from 'zod';
import 'zod-openapi';
import type { ChannelConfig, FieldInput, NotifierDescriptor, NotifierField } from '../../../domain/notifications/notifiers/notifier';

/** A config field as the API shows it: its declaration and the types taking it, in the descriptors' order. */
interface ApiField {
  readonly field: NotifierField;
  readonly types: string[];
}

const sameDeclaration = (a: NotifierField, b: NotifierField) => a.help === b.help && JSON.stringify(a.input) === JSON.stringify(b.input);

/** Every config field of the descriptors, in order of first appearance; a field declared two ways throws. */
function apiFields(notifiers: readonly NotifierDescriptor[]): ApiField[] {
  const byName = new Map<string, ApiField>();
  for (const n of notifiers)
    for (const field of n.fields) {
      const known = byName.get(field.name);
      if (!known) byName.set(field.name, { field, types: [n.type] });
      else if (!sameDeclaration(known.field, field))
        throw new Error(`Config field ${field.name} of ${n.type} is declared unlike that of ${known.types.join(', ')}`);
      else known.types.push(n.type);
    }
  return [...byName.values()];
}

/** "webhook, slack: the URL posted to ...": the help's first word lowercased unless it is an acronym. */
const descriptionOf = ({ field, types }: ApiField) =>
  `${types.join(', ')}: ${/^[A-Z][a-z]/.test(field.help) ? field.help[0].toLowerCase() + field.help.slice(1) : field.help}`;

function inputOf(input: FieldInput): z.ZodType {
  switch (input.kind) {
    case 'string':
      return input.nullable ? z.string().max(input.max).nullable() : z.string().max(input.max);
    case 'list':
      return z.array(z.string().max(input.itemMax)).min(input.min).max(input.max);
    case 'headers':
      return z.record(z.string().min(1).max(input.nameMax), z.string().max(input.valueMax));
  }
}

function outputOf(input: FieldInput): z.ZodType {
  switch (input.kind) {
    case 'string':
      return input.nullable ? z.string().nullable() : z.string();
    case 'list':
      return z.array(z.string());
    case 'headers':
      return z.record(z.string(), z.string());
  }
}

/**
 * The config a client sends, every field of every type optional (which fields a type takes, and their
 * rules, are the domain's: normalizeChannelConfig answers 400 invalidRequestBody naming the field).
 * URLs are plain strings here on purpose: the channel URL rule answers with data.field and
 * data.reason, as the spec asks, not a shape error.
 */
export function channelConfigInput(notifiers: readonly NotifierDescriptor[]): z.ZodType<ChannelConfig> {
  const shape = Object.fromEntries(
    apiFields(notifiers).map((f) => [
      f.field.name,
      inputOf(f.field.input)
        .optional()
        .meta({ description: descriptionOf(f) }),
    ]),
  );
  return z.object(shape).strict().meta({ id: 'NotificationChannelConfigInput' }) as unknown as z.ZodType<ChannelConfig>;
}

/** A channel's config as answered: the fields of every type, each optional. */
export function channelConfigOutput(notifiers: readonly NotifierDescriptor[]): z.ZodType<ChannelConfig> {
  const shape = Object.fromEntries(apiFields(notifiers).map((f) => [f.field.name, outputOf(f.field.input).optional()]));
  return z.object(shape).meta({ id: 'NotificationChannelConfig' }) as unknown as z.ZodType<ChannelConfig>;
}
