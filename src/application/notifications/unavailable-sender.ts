import type { DirectSender, NotificationSender, SendOutcome } from './delivery-ports';

/**
 * The sender of a channel type this deployment cannot send (SMS without an SMS account): every
 * message fails at once, saying why, as the service's own failure (not counted against the
 * receiver's health).
 */
export class UnavailableSender implements NotificationSender, DirectSender {
  constructor(private readonly reason: string) {}

  send(): Promise<SendOutcome> {
    return Promise.resolve(this.refusal());
  }

  sendDirect(): Promise<SendOutcome> {
    return Promise.resolve(this.refusal());
  }

  private refusal(): SendOutcome {
    return {
      verdict: 'rejected',
      statusCode: null,
      responseExcerpt: null,
      retryAfterMs: null,
      error: this.reason,
      latencyMs: 0,
      local: true,
    };
  }
}
