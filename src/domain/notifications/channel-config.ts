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

/** Who a channel reaches, comparable across channels of one type: URLs, lowercased addresses, numbers. */
export function recipientsOf(config: ChannelConfig): string[] {
  if (config.recipients) return [...config.recipients];
  if (config.phoneNumbers) return [...config.phoneNumbers];
  return config.url ? [config.url] : [];
}
