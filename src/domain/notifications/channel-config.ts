import type { AddressAllowance } from './channel-url';
import { fieldsOf, notifierOf, type ChannelType } from './notifiers';
import { invalid } from './notifiers/config-rules';
import type { ChannelConfig } from './notifiers/notifier';

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

/**
 * Who a channel of `type` reaches, comparable across channels of that type: the values of the fields
 * its descriptor marks `recipient` (URLs, lowercased addresses, numbers, topics). Its own type's
 * only: a field another type reaches by (a chat service's URL) may be shared by every channel of this
 * one (an ntfy server's URL).
 */
export function recipientsOf(type: ChannelType, config: ChannelConfig): string[] {
  return notifierOf(type)
    .fields.filter((f) => f.recipient)
    .flatMap(({ name }) => {
      const value = config[name];
      if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
      return typeof value === 'string' && value !== '' ? [value] : [];
    });
}
