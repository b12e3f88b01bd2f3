import { AppError } from '../../domain/shared/app-error';
import { CHANNEL_ID, channelRef } from '../../domain/notifications/channel-ref';
import { type ChannelChange, assertRecipientsFree } from '../../domain/notifications/notification-channel';
import { isSigned } from '../../domain/notifications/notifiers';
import { type Actor, requireAction } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import type { TargetPolicy } from '../shared/target-policy';
import type { ChannelWithSecret } from './create-notification-channel';
import type { ChannelOwners, NotificationChannelRepository } from './ports';
import type { WebhookSecrets } from './webhook-secrets';
import { releaseDefault } from './default-channel';
import { assertPeopleSeeChannel } from './channel-people';

/**
 * Changes a channel's name, type and config, events, enabled flag, or whether it is the
 * organization's default (the previous default stops being it). A type change needs a config
 * (configRequiredForTypeChange); a channel that becomes a signed type (a webhook) gets a new secret, answered once.
 * Scope (organization, customer, monitor) is fixed at create. A new config's people (a web-push
 * channel's userIds) must see the channel's scope (assertPeopleSeeChannel); a change that leaves the
 * config alone does not judge them again.
 */
export class UpdateNotificationChannel {
  constructor(
    private readonly channels: NotificationChannelRepository,
    private readonly owners: Pick<ChannelOwners, 'usersSeeing'>,
    private readonly secrets: WebhookSecrets,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
    private readonly targets?: Pick<TargetPolicy, 'isAllowedAddress'>,
  ) {}

  async execute(actor: Actor, { id, change }: { id: unknown; change: ChannelChange }): Promise<ChannelWithSecret> {
    const ref = channelRef(id, CHANNEL_ID);
    requireAction(actor, 'channel.update');
    return this.tx.run(async (tx) => {
      const reads = this.channels.readsIn(tx);
      const channel = await reads.findByRef(actor.scope, ref);
      if (!channel) throw new AppError('channelNotFound');
      const wasSigned = isSigned(channel.type);
      if (change.isDefault === true) await releaseDefault(this.channels, channel.organizationId, channel.publicId, tx);
      // Read before the change: a query after it would flush the changed channel on its own, outside
      // the save that turns a concurrent edit into `conflict`.
      const siblings = await reads.sameScope(channel.organizationId, channel.customerId, channel.monitorId);
      channel.update(change, this.clock.now(), this.targets && ((address) => this.targets!.isAllowedAddress(address)));
      if (change.config !== undefined) await assertPeopleSeeChannel(this.owners, channel, change.config, tx);
      assertRecipientsFree(channel, siblings);
      const secret = isSigned(channel.type) && !wasSigned ? this.secrets.issue(channel) : null;
      await this.channels.save(channel, tx);
      return { channel, secret };
    });
  }
}
