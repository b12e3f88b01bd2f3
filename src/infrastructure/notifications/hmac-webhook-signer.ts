import { createHmac } from 'node:crypto';
import type { WebhookSigner } from '../../application/notifications/ports';

/**
 * HMAC-SHA256 over "<timestamp>.<body>", the scheme Stripe and Slack use: the timestamp is signed
 * with the body so a captured request cannot be replayed later with a fresh timestamp.
 */
export class HmacWebhookSigner implements WebhookSigner {
  sign(secret: string, body: string, at: Date, deliveryId: string): Record<string, string> {
    const t = String(Math.floor(at.getTime() / 1000));
    const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    return { 'X-Webhook-Id': deliveryId, 'X-Webhook-Timestamp': t, 'X-Webhook-Signature': `t=${t},v1=${v1}` };
  }
}
