import { performance } from 'node:perf_hooks';
import type { PushDelivery, PushTransport, VapidKeys } from '../../application/on-call/push-ports';
import { loadWebPush } from './sql-vapid-keys';
import type { PushSubscription } from '../../domain/on-call/web-push';
import { parseRetryAfter } from '../../domain/notifications/delivery-schedule';
import { CheckDeadline } from '../../application/checks/check-deadline';
import type { PinnedHttpPool } from '../protocols/http/pinned-http-pool';

const EXCERPT_BYTES = 512;

/**
 * Web Push through the `web-push` library: it encrypts the payload to the subscription's keys
 * (RFC 8291, aes128gcm) and signs the VAPID JWT (RFC 8292: aud the endpoint's origin, exp 12 hours
 * ahead at most, sub the deployment's contact), and this posts what it built (RFC 8030: TTL,
 * Urgency) on the notification connections' pool, so the push service's host goes through the
 * target policy and the connection is pinned to the vetted addresses as every delivery's is.
 */
export class WebPushTransport implements PushTransport {
  constructor(
    private readonly pool: PinnedHttpPool,
    private readonly vapid: VapidKeys,
    /** VAPID's `sub`: an https URL or a mailto: address to reach the deployment's operator. */
    private readonly subject: string,
    private readonly userAgent: string,
    private readonly timeoutMs: number,
    private readonly now: () => Date,
  ) {}

  async push(
    subscription: PushSubscription,
    payload: string,
    options: { ttlSeconds: number; urgency: 'high' | 'normal' },
  ): Promise<PushDelivery> {
    const { publicKey, privateKey } = await this.vapid.keys();
    const { default: webpush } = await loadWebPush();
    const details = webpush.generateRequestDetails(
      { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      payload,
      {
        vapidDetails: { subject: this.subject, publicKey, privateKey },
        TTL: options.ttlSeconds,
        urgency: options.urgency,
        contentEncoding: 'aes128gcm',
      },
    );
    const headers = Object.fromEntries(Object.entries(details.headers).map(([name, value]) => [name.toLowerCase(), String(value)]));
    const { deadline, clear } = CheckDeadline.within(this.timeoutMs);
    const started = performance.now();
    try {
      const response = await this.pool.request({
        url: new URL(details.endpoint),
        method: details.method,
        headers,
        body: details.body,
        userAgent: this.userAgent,
        keepBodyBytes: EXCERPT_BYTES,
        countLimit: 64 * 1024,
        deadline,
      });
      const retryAfter = response.headers['retry-after'];
      return {
        statusCode: response.status,
        retryAfterMs: parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, this.now()),
        error: null,
        latencyMs: performance.now() - started,
      };
    } catch (error) {
      return { statusCode: null, retryAfterMs: null, error: (error as Error).message, latencyMs: performance.now() - started };
    } finally {
      clear();
    }
  }
}

/** VAPID's `sub` for a deployment: its public address when that is https, else a mailto: at its host. */
export function vapidSubject(publicBaseUrl: string, contact: string | null): string {
  if (contact) return contact.includes(':') ? contact : `mailto:${contact}`;
  const url = new URL(publicBaseUrl);
  return url.protocol === 'https:' ? url.origin : `mailto:operator@${url.hostname}`;
}
