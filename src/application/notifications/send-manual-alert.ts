import { AppError } from '../../domain/shared/app-error';
import { CHANNEL_ID, channelRef } from '../../domain/notifications/channel-ref';
import { channelsToNotify } from '../../domain/notifications/channel-routing';
import { type AlertSeverity, assertRecipientsFit, manualAlertMessage } from '../../domain/notifications/manual-notifications';
import type { NotificationChannel } from '../../domain/notifications/notification-channel';
import { type Actor, isCustomerBound, requireAction } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { RateLimitRule, RateLimiter } from '../shared/rate-limiter';
import type { ChannelOwners, DeliveryLedger, NotificationChannelRepository } from './ports';

/** Per organization: an alert fans out to many channels, so a runaway script must not flood them all. */
export const SEND_ALERT_LIMIT: RateLimitRule = { name: 'send-alert', limit: 30, windowSeconds: 60 };

export interface ManualAlertInput {
  title: string;
  message?: string | null;
  severity?: AlertSeverity;
  /** The customer the alert is about: routing then adds that customer's channels to the organization's. */
  customerId?: number | string;
  /** The channels to send to; omitted: the channels routing picks for an `alert.manual` event. */
  channelIds?: ReadonlyArray<number | string>;
}

/**
 * Sends an alert by hand (POST /api/notifications/send-alert) through the delivery ledger: one
 * outbox event, one delivery per channel, sent, retried and recorded like any other. Named
 * channels are taken as named (a named channel gets the alert whatever its event list says);
 * otherwise routing picks the organization's channels (and the customer's) that receive
 * `alert.manual`. Organization-wide writers only.
 */
export class SendManualAlert {
  constructor(
    private readonly ledger: DeliveryLedger,
    private readonly channels: NotificationChannelRepository,
    private readonly owners: ChannelOwners,
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: ManualAlertInput): Promise<{ deliveries: Array<{ id: string; channel: NotificationChannel }> }> {
    if (isCustomerBound(actor)) throw new AppError('customerScopedTokenForbidden');
    requireAction(actor, 'alert.send');
    const customerId = input.customerId === undefined ? null : await this.customer(actor, input.customerId);
    const targets =
      input.channelIds === undefined
        ? await this.routed(actor.scope.organizationId, customerId)
        : await this.named(actor, input.channelIds, customerId);
    const decision = await this.limiter.hit(SEND_ALERT_LIMIT, String(actor.scope.organizationId));
    if (!decision.allowed) throw new AppError('rateLimited', { retryAfter: decision.retryAfterSeconds });
    const now = this.clock.now();
    const message = manualAlertMessage(
      { title: input.title, message: input.message ?? null, severity: input.severity ?? 'warning', customerId },
      now,
    );
    const ids = await this.ledger.dispatch(
      { organizationId: actor.scope.organizationId, kind: 'alert.manual', requestedBy: actor.userId },
      targets,
      message,
      now,
    );
    return { deliveries: targets.map((channel, i) => ({ id: ids[i]!, channel })) };
  }

  private async customer(actor: Actor, ref: number | string): Promise<number> {
    const customer = await this.owners.customer(actor.scope, String(ref));
    if (!customer) throw new AppError('customerNotFound');
    return customer.id;
  }

  private async routed(organizationId: number, customerId: number | null): Promise<NotificationChannel[]> {
    const candidates = await this.channels.forEvent(organizationId, customerId, null);
    const targets = channelsToNotify({ kind: 'alert.manual', organizationId, customerId, monitorId: null }, candidates);
    if (targets.length === 0) throw new AppError('noChannelsToNotify');
    return targets;
  }

  private async named(actor: Actor, refs: ReadonlyArray<number | string>, customerId: number | null): Promise<NotificationChannel[]> {
    const chosen = new Map<number, NotificationChannel>();
    for (const raw of refs) {
      const ref = channelRef(raw, CHANNEL_ID);
      const channel = await this.channels.findByRef(actor.scope, ref);
      if (!channel) throw new AppError('channelNotFound', { channelId: ref });
      if (!chosen.has(channel.id)) chosen.set(channel.id, channel);
    }
    const targets = [...chosen.values()];
    assertRecipientsFit(customerId, targets);
    return targets;
  }
}
