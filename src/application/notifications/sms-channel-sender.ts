import { smsContent, type NotificationMessage } from '../../domain/notifications/notification-message';
import { fitSms } from '../../domain/notifications/sms-text';
import type { NotificationChannel } from '../../domain/notifications/notification-channel';
import { smsMonthOf } from '../../domain/tenancy/sms-month';
import type { Clock } from '../shared/clock';
import type { ClaimedDirectDelivery, DirectSender, NotificationSender, SendOutcome, SmsProvider, SmsQuota, SmsSendOutcome } from './ports';

const EXCERPT_CHARS = 512;

/**
 * SMS deliveries: one message per phone number of the channel, through the SMS provider. A customer's
 * channel first reserves one message per number against the customer's monthly allowance (all or
 * none: `smsAllowanceExhausted`, a final failure, nothing sent); numbers the provider did not take
 * are given back, so the month's count is the messages sent. An organization's own channel (no
 * customer) is not limited: the allowance is the customer's package's.
 *
 * Retries resend to every number of the channel (at least once, as webhooks), each resend counted.
 */
export class SmsChannelSender implements NotificationSender, DirectSender {
  constructor(
    private readonly provider: SmsProvider,
    private readonly quota: SmsQuota,
    private readonly clock: Clock,
  ) {}

  async send(channel: NotificationChannel, message: NotificationMessage): Promise<SendOutcome> {
    const numbers = [...(channel.config.phoneNumbers ?? [])];
    if (numbers.length === 0) return refused('The channel has no phone numbers');
    const customerId = channel.customerId;
    const month = smsMonthOf(this.clock.now());
    if (customerId !== null) {
      const reservation = await this.quota.reserve(channel.organizationId, customerId, month, numbers.length);
      if (!reservation.granted) {
        return refused(
          `smsAllowanceExhausted: ${reservation.used} of ${reservation.allowance} SMS this month used, ${numbers.length} needed`,
        );
      }
    }
    return this.sendCounted(channel.organizationId, customerId, month, numbers, smsContent(message));
  }

  /** A direct text (a person paged), counted against its customer's allowance as a channel's would be. */
  async sendDirect(delivery: ClaimedDirectDelivery): Promise<SendOutcome> {
    if (delivery.recipient.type !== 'sms') return refused('Not an SMS recipient');
    const month = smsMonthOf(this.clock.now());
    const numbers = [delivery.recipient.phone];
    if (delivery.customerId !== null) {
      const reservation = await this.quota.reserve(delivery.organizationId, delivery.customerId, month, 1);
      if (!reservation.granted)
        return refused(`smsAllowanceExhausted: ${reservation.used} of ${reservation.allowance} SMS this month used`);
    }
    return this.sendCounted(delivery.organizationId, delivery.customerId, month, numbers, fitSms(delivery.content.text));
  }

  private async sendCounted(
    organizationId: number,
    customerId: number | null,
    month: string,
    numbers: readonly string[],
    text: string,
  ): Promise<SendOutcome> {
    const outcomes: SmsSendOutcome[] = [];
    for (const to of numbers) outcomes.push(await this.provider.send(to, text));
    const unsent = outcomes.filter((o) => o.verdict !== 'delivered').length;
    if (customerId !== null && unsent > 0) await this.quota.release(organizationId, customerId, month, unsent);
    return combined(numbers, outcomes);
  }
}

function refused(error: string): SmsSendOutcome {
  return { verdict: 'rejected', statusCode: null, responseExcerpt: null, retryAfterMs: null, error, latencyMs: 0, messageId: null };
}

/**
 * The channel's outcome from its numbers': delivered when every number was; else worth another try
 * when any was (the longest Retry-After), else refused. The excerpt lists each number's outcome.
 */
function combined(numbers: readonly string[], outcomes: readonly SmsSendOutcome[]): SendOutcome {
  const failures = outcomes.filter((o) => o.verdict !== 'delivered');
  const retry = failures.filter((o) => o.verdict === 'retry');
  const first = retry[0] ?? failures[0];
  const excerpt = outcomes
    .map((o, i) => `${numbers[i]}: ${o.messageId ?? o.error ?? o.statusCode ?? 'failed'}`)
    .join('\n')
    .slice(0, EXCERPT_CHARS);
  const latencyMs = outcomes.reduce((sum, o) => sum + o.latencyMs, 0);
  if (!first)
    return {
      verdict: 'delivered',
      statusCode: outcomes[0]!.statusCode,
      responseExcerpt: excerpt,
      retryAfterMs: null,
      error: null,
      latencyMs,
    };
  const waits = retry.map((o) => o.retryAfterMs).filter((ms): ms is number => ms !== null);
  return {
    verdict: retry.length > 0 ? 'retry' : 'rejected',
    statusCode: first.statusCode,
    responseExcerpt: excerpt,
    retryAfterMs: waits.length > 0 ? Math.max(...waits) : null,
    error: `${failures.length} of ${numbers.length} SMS not sent: ${first.error ?? `answered ${first.statusCode}`}`,
    latencyMs,
  };
}
