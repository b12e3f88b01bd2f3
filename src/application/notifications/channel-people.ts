import type { ChannelConfig } from '../../domain/notifications/channel-config';
import type { NotificationChannel } from '../../domain/notifications/notification-channel';
import { peopleNamedBy } from '../../domain/notifications/notifiers';
import { invalid } from '../../domain/notifications/notifiers/config-rules';
import type { Transaction } from '../shared/transaction';
import type { ChannelOwners } from './ports';

/**
 * The people a channel names (a web-push channel's userIds) must be users of its organization who
 * see its scope (ChannelOwners.usersSeeing): else 400 invalidRequestBody naming the first item that
 * is not (`config.userIds.2`, reason notAUserOfScope). A user of another organization, one who
 * cannot see the channel's customer and an id no one has are refused alike, so the answer tells
 * nothing of who exists elsewhere. `requested` is the config as the caller sent it (its item indexes
 * are the ones named); the channel holds it normalized.
 */
export async function assertPeopleSeeChannel(
  owners: Pick<ChannelOwners, 'usersSeeing'>,
  channel: NotificationChannel,
  requested: ChannelConfig,
  tx: Transaction,
): Promise<void> {
  for (const { field, userIds } of peopleNamedBy(channel.type, requested)) {
    if (userIds.length === 0) continue;
    const lower = userIds.map((id) => id.toLowerCase());
    const seeing = await owners.usersSeeing(channel.organizationId, channel.customerId, [...new Set(lower)], tx);
    const first = lower.findIndex((id) => !seeing.has(id));
    if (first >= 0) throw invalid(`${field}.${first}`, 'notAUserOfScope');
  }
}
