import { AppError } from '../../domain/shared/app-error';
import { CHANNEL_ID, channelRef } from '../../domain/notifications/channel-ref';
import type { NotificationChannel } from '../../domain/notifications/notification-channel';
import type { Actor } from '../shared/actor';
import type { NotificationChannelRepository } from './ports';

/** One channel the caller sees; any other, or none, is channelNotFound. */
export class GetNotificationChannel {
  constructor(private readonly channels: NotificationChannelRepository) {}

  async execute(actor: Actor, { id }: { id: unknown }): Promise<NotificationChannel> {
    const channel = await this.channels.findByRef(actor.scope, channelRef(id, CHANNEL_ID));
    if (!channel) throw new AppError('channelNotFound');
    return channel;
  }
}
