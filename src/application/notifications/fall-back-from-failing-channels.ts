import { channelFailingMessage, fallbackTarget, type ChannelHealthPolicy } from '../../domain/notifications/channel-health';
import type { NotificationChannel } from '../../domain/notifications/notification-channel';
import type { Clock } from '../shared/clock';
import { defaultChannelOf } from './default-channel';
import type { ChannelHealthLedger, NotificationChannelRepository } from './ports';

/**
 * The fallback channel: each delivery that failed for good because of its channel is sent again
 * to the organization's default channel (same event, so a default that already had it gets no
 * copy), and a channel whose streak of failures reached `failingAfter` is marked failing and
 * announced there once (channel.failing), whatever the default lists. Without a default channel,
 * or when the failing channel is the default, nothing is sent: the channel still shows failing in
 * the API. Works from what the ledger recorded, so a crash between the failure and this step
 * loses nothing. Answers how many fallbacks and announcements it wrote.
 */
export class FallBackFromFailingChannels {
  constructor(
    private readonly ledger: ChannelHealthLedger,
    private readonly channels: NotificationChannelRepository,
    private readonly policy: ChannelHealthPolicy,
    private readonly clock: Clock,
  ) {}

  async execute(limit = 100): Promise<number> {
    const defaults = new Map<number, NotificationChannel | null>();
    const defaultOf = async (organizationId: number) => {
      if (!defaults.has(organizationId)) defaults.set(organizationId, await defaultChannelOf(this.channels, organizationId));
      return defaults.get(organizationId)!;
    };
    let written = 0;
    for (const channel of await this.ledger.failingUnannounced(this.policy.failingAfter, limit)) {
      const target = fallbackTarget(channel.id, await defaultOf(channel.organizationId));
      const now = this.clock.now();
      if (await this.ledger.announceFailing(channel, this.policy.failingAfter, target, channelFailingMessage(channel, channel, now), now))
        written += 1;
    }
    for (const delivery of await this.ledger.fallbacksDue(limit)) {
      const target = fallbackTarget(delivery.channelId, await defaultOf(delivery.organizationId));
      if (await this.ledger.fallBack(delivery, target, this.clock.now())) written += 1;
    }
    return written;
  }
}
