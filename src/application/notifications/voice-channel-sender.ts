import { voiceContent, voiceTwiml, type NotificationMessage } from '../../domain/notifications/notification-message';
import type { NotificationChannel } from '../../domain/notifications/notification-channel';
import type { NotificationSender, SendOutcome, SmsSendOutcome, VoiceProvider } from './ports';

const EXCERPT_CHARS = 512;

/**
 * Voice deliveries: one call per phone number of the channel, through the provider (the deployment's
 * Twilio account), each saying the message's short text (voiceContent). Delivered when the provider
 * took every call (queued: whether someone answers is the phone's affair); worth another try when it
 * asked for one for any number (the longest Retry-After), else refused. A retry calls every number
 * again, as an SMS retry texts them again. Calls are not counted against a customer's SMS allowance.
 */
export class VoiceChannelSender implements NotificationSender {
  constructor(private readonly provider: VoiceProvider) {}

  async send(channel: NotificationChannel, message: NotificationMessage): Promise<SendOutcome> {
    const numbers = [...(channel.config.phoneNumbers ?? [])];
    if (numbers.length === 0)
      return {
        verdict: 'rejected',
        statusCode: null,
        responseExcerpt: null,
        retryAfterMs: null,
        error: 'The channel has no phone numbers',
        latencyMs: 0,
      };
    const twiml = voiceTwiml(voiceContent(message));
    const outcomes: SmsSendOutcome[] = [];
    for (const to of numbers) outcomes.push(await this.provider.call(to, twiml));
    const failures = outcomes.filter((o) => o.verdict !== 'delivered');
    const retry = failures.filter((o) => o.verdict === 'retry');
    const first = retry[0] ?? failures[0];
    const responseExcerpt = outcomes
      .map((o, i) => `${numbers[i]}: ${o.messageId ?? o.error ?? o.statusCode ?? 'failed'}`)
      .join('\n')
      .slice(0, EXCERPT_CHARS);
    const latencyMs = outcomes.reduce((sum, o) => sum + o.latencyMs, 0);
    if (!first)
      return { verdict: 'delivered', statusCode: outcomes[0]!.statusCode, responseExcerpt, retryAfterMs: null, error: null, latencyMs };
    const waits = retry.map((o) => o.retryAfterMs).filter((ms): ms is number => ms !== null);
    return {
      verdict: retry.length > 0 ? 'retry' : 'rejected',
      statusCode: first.statusCode,
      responseExcerpt,
      retryAfterMs: waits.length > 0 ? Math.max(...waits) : null,
      error: `${failures.length} of ${numbers.length} calls not placed: ${first.error ?? `answered ${first.statusCode}`}`,
      latencyMs,
    };
  }
}
