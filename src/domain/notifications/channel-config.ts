import type { AddressAllowance } from './channel-url';
import { fieldsOf, NOTIFIERS, notifierOf, type ChannelType } from './notifiers';
import { invalid } from './notifiers/config-rules';
import type { ChannelConfig, NotifierDescriptor } from './notifiers/notifier';

export { CHANNEL_TYPES, CHAT_TYPES, isChatType, type ChannelType, type ChatType } from './notifiers';
export type { ChannelConfig } from './notifiers/notifier';

/**
 * The config as stored, for a channel of `type`: fields of another type refused, URLs judged by
 * the channel URL rule, headers without Host, addresses and numbers well formed and de-duplicated:
 * each type's own rule is its descriptor's `normalize` (src/domain/notifications/notifiers/).
 */
export function normalizeChannelConfig(type: ChannelType, config: ChannelConfig, allowsPrivate?: AddressAllowance): ChannelConfig {
  const allowed = fieldsOf(type);
  for (const key of Object.keys(config) as (keyof ChannelConfig)[]) {
    if (config[key] !== undefined && !allowed.includes(key)) throw invalid(`config.${key}`, `notAllowedFor:${type}`);
  }
  return notifierOf(type).normalize(config, allowsPrivate);
}

/** The config fields the descriptors say tell who a channel reaches (`recipient`), each once. */
const RECIPIENT_FIELDS: readonly (keyof ChannelConfig)[] = [
  ...new Set((NOTIFIERS as readonly NotifierDescriptor[]).flatMap((n) => n.fields.filter((f) => f.recipient).map((f) => f.name))),
];

/**
 * Who a channel reaches, comparable across channels of one type: the values of its recipient fields
 * (URLs, lowercased addresses, numbers; a config holds its own type's fields only).
 */
export function recipientsOf(config: ChannelConfig): string[] {
  return RECIPIENT_FIELDS.flatMap((name) => {
    const value = config[name];
    if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
    return typeof value === 'string' && value !== '' ? [value] : [];
  });
}
