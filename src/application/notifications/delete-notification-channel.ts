import { AppError } from '../../domain/shared/app-error';
import { CHANNEL_ID, channelRef } from '../../domain/notifications/channel-ref';
import type { NotificationChannel } from '../../domain/notifications/notification-channel';
import { type Actor, requireAction } from '../shared/actor';
import type { TransactionRunner } from '../shared/transaction';
import type { NotificationChannelRepository } from './ports';

/** Deletes a channel and the monitor overrides made of it; answers the deleted channel and how many overrides went with it. */
export class DeleteNotificationChannel {
  constructor(
    private readonly channels: NotificationChannelRepository,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, { id }: { id: unknown }): Promise<{ channel: NotificationChannel; deletedOverrides: number }> {
    const ref = channelRef(id, CHANNEL_ID);
    requireAction(actor, 'channel.delete');
    return this.tx.run(async (tx) => {
      const reads = this.channels.readsIn(tx);
      const channel = await reads.findByRef(actor.scope, ref);
      if (!channel) throw new AppError('channelNotFound');
      const overrides = await reads.overridesOf(channel.organizationId, channel.id);
      await this.channels.remove(channel, tx);
      return { channel, deletedOverrides: overrides.length };
    });
  }
}
