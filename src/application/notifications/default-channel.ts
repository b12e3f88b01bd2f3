import { organizationScope } from '../../domain/shared/tenant-scope';
import type { NotificationChannel } from '../../domain/notifications/notification-channel';
import type { Transaction } from '../shared/transaction';
import type { ChannelReads, NotificationChannelRepository } from './ports';

/** The organization's default channel (failed deliveries fall back to it), or null. */
export async function defaultChannelOf(channels: Pick<ChannelReads, 'list'>, organizationId: number): Promise<NotificationChannel | null> {
  const candidates = await channels.list(organizationScope(organizationId), { organizationOnly: true });
  return candidates.find((c) => c.isDefault) ?? null;
}

/**
 * Before `channel` becomes the default: the previous default stops being it (saved first, so the
 * one-default-per-organization index never sees two). Making another channel the default is how
 * the default moves, as in most products' "make default".
 */
export async function releaseDefault(
  channels: NotificationChannelRepository,
  organizationId: number,
  channelPublicId: string | null,
  tx: Transaction,
): Promise<void> {
  const current = await defaultChannelOf(channels.readsIn(tx), organizationId);
  if (!current || current.publicId === channelPublicId) return;
  current.makeDefault(false);
  await channels.save(current, tx);
}
