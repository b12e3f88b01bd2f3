import { verdictOf } from '../../domain/notifications/delivery-schedule';
import { emailContent, type NotificationMessage } from '../../domain/notifications/notification-message';
import type { NotificationChannel } from '../../domain/notifications/notification-channel';
import { ACK_GRANT_TTL_MS, incidentPaths, pushPayload, type AckGrantKind, type PushSubscription } from '../../domain/on-call/web-push';
import type { ClaimedDirectDelivery, DirectSender, NotificationSender, SendOutcome } from '../notifications/ports';
import type { SecretTokens } from '../identity/ports';
import type { Clock } from '../shared/clock';
import type { AckGrantStore, GrantRequest, PushSubscriptionStore, PushTransport } from './push-ports';

const EXCERPT_CHARS = 512;
/** How long a push service keeps a message for a device that is offline: a page older than this is no longer news. */
const TTL_SECONDS = 3600;
/** The events whose notification can acknowledge: the incident is open. */
const ACKNOWLEDGEABLE = new Set(['incident.opened', 'incident.reminder']);

const refused = (error: string): SendOutcome => ({
  verdict: 'rejected',
  statusCode: null,
  responseExcerpt: null,
  retryAfterMs: null,
  error,
  latencyMs: 0,
});

interface Push {
  readonly subscription: PushSubscription;
  readonly title: string;
  readonly body: string;
  readonly incident: { kind: AckGrantKind; ref: string } | null;
  readonly canAcknowledge: boolean;
  readonly tag: string;
}

/**
 * Web Push deliveries, of a `web-push` channel (every device its users subscribed) and of a page
 * through a person's `web-push` contact method (that one device). Each device gets the message
 * encrypted to its keys; an open incident's notification carries a grant of its own (single use,
 * ACK_GRANT_TTL_MS, bound to the incident, its organization and the device's user) that its action
 * button acknowledges with, never a session. A subscription the push service answers 404 or 410 is
 * dropped. Delivered when every device took it or is gone (at least one took it), worth another try
 * when the push service asked for one for any device, else refused.
 */
export class PushSender implements NotificationSender, DirectSender {
  constructor(
    private readonly subscriptions: PushSubscriptionStore,
    private readonly grants: AckGrantStore,
    private readonly transport: PushTransport,
    private readonly tokens: SecretTokens,
    private readonly clock: Clock,
  ) {}

  async send(channel: NotificationChannel, message: NotificationMessage): Promise<SendOutcome> {
    const userIds = [...(channel.config.userIds ?? [])];
    const devices = await this.subscriptions.ofUsersSeeing(channel.organizationId, channel.customerId, userIds);
    if (devices.length === 0) return refused('No device of the channel’s people is subscribed to push');
    const { subject } = emailContent(message);
    const incident = message.incidentId ? { kind: 'incident' as const, ref: message.incidentId } : null;
    return this.pushAll(
      devices.map((subscription) => ({
        subscription,
        title: subject,
        body: message.summary,
        incident,
        canAcknowledge: incident !== null && ACKNOWLEDGEABLE.has(message.event),
        tag: message.incidentId ?? message.id,
      })),
    );
  }

  async sendDirect(delivery: ClaimedDirectDelivery): Promise<SendOutcome> {
    const { recipient, content } = delivery;
    if (recipient.type !== 'web-push') return refused('Not a push recipient');
    const subscription = await this.subscriptions.find(delivery.organizationId, recipient.subscriptionId);
    if (!subscription) return refused('The device’s push subscription is gone');
    const incidentId = typeof content.data?.incidentId === 'string' ? content.data.incidentId : null;
    const incident = incidentId ? { kind: 'im' as const, ref: incidentId } : null;
    return this.pushAll([
      {
        subscription,
        title: content.subject,
        body: content.text,
        incident,
        canAcknowledge: incident !== null,
        tag: incidentId ?? delivery.id,
      },
    ]);
  }

  private async pushAll(pushes: readonly Push[]): Promise<SendOutcome> {
    const results = [];
    for (const push of pushes) results.push({ push, delivery: await this.pushOne(push) });
    const lines = results.map(({ push, delivery }) => `${push.subscription.id}: ${delivery.statusCode ?? delivery.error ?? 'no answer'}`);
    const responseExcerpt = lines.join('\n').slice(0, EXCERPT_CHARS);
    const latencyMs = results.reduce((sum, r) => sum + r.delivery.latencyMs, 0);
    const gone = results.filter((r) => r.delivery.statusCode === 404 || r.delivery.statusCode === 410);
    for (const { push } of gone) await this.subscriptions.drop(push.subscription.organizationId, push.subscription.id);
    const verdicts = results.filter((r) => !gone.includes(r)).map((r) => ({ ...r, verdict: verdictOf(r.delivery.statusCode) }));
    const retry = verdicts.filter((v) => v.verdict === 'retry');
    const refusedOnes = verdicts.filter((v) => v.verdict === 'rejected');
    const delivered = verdicts.filter((v) => v.verdict === 'delivered');
    const first = retry[0] ?? refusedOnes[0];
    if (!first && delivered.length > 0)
      return {
        verdict: 'delivered',
        statusCode: delivered[0]!.delivery.statusCode,
        responseExcerpt,
        retryAfterMs: null,
        error: null,
        latencyMs,
      };
    if (!first)
      return {
        verdict: 'rejected',
        statusCode: gone[0]?.delivery.statusCode ?? null,
        responseExcerpt,
        retryAfterMs: null,
        error: 'Every subscription is gone (the push service answered 404 or 410): dropped',
        latencyMs,
      };
    const waits = retry.map((v) => v.delivery.retryAfterMs).filter((ms): ms is number => ms !== null);
    return {
      verdict: retry.length > 0 ? 'retry' : 'rejected',
      statusCode: first.delivery.statusCode,
      responseExcerpt,
      retryAfterMs: waits.length > 0 ? Math.max(...waits) : null,
      error: `${retry.length + refusedOnes.length} of ${results.length} pushes not taken: ${first.delivery.error ?? `answered ${first.delivery.statusCode}`}`,
      latencyMs,
    };
  }

  private async pushOne(push: Push) {
    const { subscription, incident } = push;
    const now = this.clock.now();
    const paths = incident ? incidentPaths(incident.kind, incident.ref) : null;
    const ack =
      paths && incident && push.canAcknowledge
        ? {
            url: paths.ack,
            grant: await this.grant(
              { organizationId: subscription.organizationId, userId: subscription.userId, kind: incident.kind, incidentRef: incident.ref },
              now,
            ),
          }
        : null;
    const payload = pushPayload({ title: push.title, body: push.body, url: paths?.page ?? '/app/', tag: push.tag, ack, sentAt: now });
    return this.transport.push(subscription, JSON.stringify(payload), { ttlSeconds: TTL_SECONDS, urgency: 'high' });
  }

  /** A new grant's token (`wpg_`...), kept only as its hash. */
  private async grant(request: GrantRequest, now: Date): Promise<string> {
    const token = this.tokens.generate('wpg_');
    await this.grants.issue(this.tokens.hash(token), { ...request, expiresAt: new Date(now.getTime() + ACK_GRANT_TTL_MS) }, now);
    return token;
  }
}
