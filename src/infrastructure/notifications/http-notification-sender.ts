import { performance } from 'node:perf_hooks';
import type { NotificationChannel } from '../../domain/notifications/notification-channel';
import type { NotificationMessage } from '../../domain/notifications/notification-message';
import { isSigned, postRequestOf } from '../../domain/notifications/notifiers';
import { parseRetryAfter, verdictOf } from '../../domain/notifications/delivery-schedule';
import type {
  ClaimedDirectDelivery,
  DirectSender,
  NotificationSender,
  SendOutcome,
  WebhookSigner,
} from '../../application/notifications/ports';
import { CheckDeadline } from '../../application/checks/check-deadline';
import type { PinnedHttpPool } from '../protocols/http/pinned-http-pool';
import { TurnNotFree } from '../protocols/shared/slots';
import { ProbeError } from '../protocols/shared/probe-error';

const EXCERPT_BYTES = 512;

/** A delivery refused before any connection, for good. */
const refused = (error: string): SendOutcome => ({
  verdict: 'rejected',
  statusCode: null,
  responseExcerpt: null,
  retryAfterMs: null,
  error,
  latencyMs: 0,
});

/**
 * Deliveries of every `post` type (webhook, chat services): one POST (or the type's PUT) of JSON (a
 * form when the type's request says so) on a kept-alive connection of the receiver's pool, pinned to
 * the addresses the target policy vetted (so DNS cannot rebind a receiver to a private address), at
 * most a few at once per receiver. What is posted, where
 * and with which headers of its own is the type's descriptor's (postRequestOf); every post carries
 * X-Webhook-Id, the delivery's id, or, for a signed type (the webhook) with its channel's secret,
 * the signature headers (X-Webhook-Signature) over the body.
 */
export class HttpNotificationSender implements NotificationSender, DirectSender {
  constructor(
    private readonly pool: PinnedHttpPool,
    private readonly signer: WebhookSigner,
    private readonly userAgent: string,
    /** How long the receiver has to answer, from when the post has a connection (its turn). */
    private readonly timeoutMs: number,
    private readonly now: () => Date,
    /**
     * How long a post may wait for its turn (a connection of the receiver's, behind the others of its
     * round: a round sends all it claimed at once): past it, it is retried later, not the receiver's failure.
     */
    private readonly turnMs: number = timeoutMs,
  ) {}

  async send(channel: NotificationChannel, message: NotificationMessage, secret: string | null): Promise<SendOutcome> {
    const request = postRequestOf(channel.type, message, channel.config);
    if (!request?.url) return refused(request ? 'The channel has no URL' : `Channel type ${channel.type} is not posted`);
    const body = request.form ? new URLSearchParams(request.body as Record<string, string>).toString() : JSON.stringify(request.body);
    const headers: Record<string, string> = {
      ...request.headers,
      'content-type': request.form ? 'application/x-www-form-urlencoded' : 'application/json',
      ...(isSigned(channel.type) && secret !== null
        ? this.signer.sign(secret, body, this.now(), message.id)
        : { 'X-Webhook-Id': message.id }),
    };
    return this.post(request.url, headers, body, request.method);
  }

  /**
   * A direct message to a webhook (a status page's webhook subscriber, a page to an on-call
   * integration): `{id, event, occurredAt, subject, text, data}`, signed when the recipient has a secret.
   */
  async sendDirect(delivery: ClaimedDirectDelivery): Promise<SendOutcome> {
    const { recipient, content } = delivery;
    if (recipient.type !== 'webhook') return refused('Not a webhook recipient');
    const body = JSON.stringify({
      id: delivery.id,
      event: content.event,
      occurredAt: content.occurredAt,
      subject: content.subject,
      text: content.text,
      data: content.data ?? {},
    });
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      ...(recipient.secret !== null ? this.signer.sign(recipient.secret, body, this.now(), delivery.id) : { 'X-Webhook-Id': delivery.id }),
    };
    return this.post(recipient.url, headers, body);
  }

  private async post(url: string, headers: Record<string, string>, body: string, method: 'POST' | 'PUT' = 'POST'): Promise<SendOutcome> {
    const { deadline, clear } = CheckDeadline.within(this.turnMs);
    // The receiver's latency: from the post's turn at its receiver, not from the queue before it.
    let started = performance.now();
    try {
      const response = await this.pool.request({
        url: new URL(url),
        method,
        headers,
        body,
        userAgent: this.userAgent,
        keepBodyBytes: EXCERPT_BYTES,
        countLimit: 64 * 1024,
        deadline,
        exchangeMs: this.timeoutMs,
        onTurn: () => {
          started = performance.now();
        },
      });
      const retryAfter = response.headers['retry-after'];
      return {
        verdict: verdictOf(response.status),
        statusCode: response.status,
        responseExcerpt: response.body ? response.body.subarray(0, EXCERPT_BYTES).toString('utf8') : null,
        retryAfterMs: parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, this.now()),
        error: null,
        latencyMs: performance.now() - started,
      };
    } catch (error) {
      const refused = error instanceof ProbeError && error.code === 'targetRejected';
      return {
        verdict: refused ? 'rejected' : 'retry',
        statusCode: null,
        responseExcerpt: null,
        retryAfterMs: null,
        error: (error as Error).message,
        // Never sent: no latency of the receiver's, and the wait was this service's queue, not a failure of the receiver's.
        ...(error instanceof TurnNotFree ? { latencyMs: 0, local: true } : { latencyMs: performance.now() - started }),
      };
    } finally {
      clear();
    }
  }
}
