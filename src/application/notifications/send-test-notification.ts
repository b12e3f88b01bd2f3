import { AppError } from '../../domain/shared/app-error';
import { TEST_EVENT } from '../../domain/notifications/channel-events';
import { CHANNEL_ID, channelRef } from '../../domain/notifications/channel-ref';
import { testMessage } from '../../domain/notifications/manual-notifications';
import type { NotificationChannel } from '../../domain/notifications/notification-channel';
import { type Actor, requireAction } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { RateLimitRule, RateLimiter } from '../shared/rate-limiter';
import type { DeliveryAttempt, DeliveryLedger, NotificationChannelRepository } from './ports';
import type { DeliverDueNotifications } from './deliver-due-notifications';

/** Enough to try a channel out and fix it, too few to turn the button into a way of flooding a receiver. */
export const CHANNEL_TEST_LIMIT: RateLimitRule = { name: 'channel-test', limit: 10, windowSeconds: 60 };

/**
 * The test button: a sample message to one channel through the real path, an outbox event and its
 * one delivery in the ledger, so the worker sends, signs, retries and records it like any alert.
 * Scoped and role-gated like the channel's other writes; at most CHANNEL_TEST_LIMIT per channel.
 */
export class SendTestNotification {
  constructor(
    private readonly ledger: DeliveryLedger,
    private readonly channels: NotificationChannelRepository,
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
    private readonly deliverer?: Pick<DeliverDueNotifications, 'deliverNow'>,
  ) {}

  /**
   * The test's first attempt, made at once through the deliverer (the real sender, signature and
   * ledger; later retries are the worker's): what the receiver answered, or why it failed. Null
   * when the delivery could not be tried here (a worker already holds it).
   */
  async firstAttempt(deliveryId: string): Promise<DeliveryAttempt | null> {
    const done = await this.deliverer?.deliverNow(`test-button:${deliveryId}`, deliveryId);
    return done?.attemptRecord ?? null;
  }

  async execute(actor: Actor, { id }: { id: unknown }): Promise<{ deliveryId: string; channel: NotificationChannel }> {
    const ref = channelRef(id, CHANNEL_ID);
    requireAction(actor, 'channel.test');
    const channel = await this.channels.findByRef(actor.scope, ref);
    if (!channel) throw new AppError('channelNotFound');
    const decision = await this.limiter.hit(CHANNEL_TEST_LIMIT, channel.publicId);
    if (!decision.allowed) throw new AppError('rateLimited', { retryAfter: decision.retryAfterSeconds });
    const now = this.clock.now();
    const [deliveryId] = await this.ledger.dispatch(
      { organizationId: channel.organizationId, kind: TEST_EVENT, requestedBy: actor.userId },
      [channel],
      testMessage(channel, now),
      now,
    );
    return { deliveryId: deliveryId!, channel };
  }
}
