import { organizationScope } from '../../domain/shared/tenant-scope';
import { TEST_EVENT } from '../../domain/notifications/channel-events';
import type { NotificationChannel } from '../../domain/notifications/notification-channel';
import { retryDelayMs, type RetryPolicy } from '../../domain/notifications/delivery-schedule';
import { fallsBack } from '../../domain/notifications/channel-health';
import { transportOf } from '../../domain/notifications/notifiers';
import type { Clock } from '../shared/clock';
import type { DeliveryMetrics } from '../observability/ports';
import type {
  ClaimedDelivery,
  DeliveryAttempt,
  DeliveryLedger,
  DeliveryNext,
  NotificationChannelRepository,
  NotificationSenders,
  SendOutcome,
  Settlement,
} from './ports';
import { SettleBatches } from './settle-batches';
import { SendingNow } from './sending-now';
import type { WebhookSecrets } from './webhook-secrets';

export interface DeliverySettings extends RetryPolicy {
  /** How long a claim holds a delivery: longer than one send may take, so a live worker never loses it mid-send. */
  readonly leaseMs: number;
  /** Deliveries claimed per round. */
  readonly batch: number;
  /** Failed attempts in a row that make a channel failing (NOTIFY_CHANNEL_FAILING_AFTER); absent: 3. */
  readonly failingAfter?: number;
}

/** One delivery a round handled; `settled` false when its lease had lapsed and another worker took it. */
export interface SettledDelivery {
  readonly id: string;
  readonly channelId: string;
  readonly attempt: number;
  readonly next: DeliveryNext;
  readonly settled: boolean;
}

/** An outcome, and whether the service gave up by itself (channel disabled or deleted, no sender): then it is not the channel's failure. */
type Sent = SendOutcome;
const failedSend = (error: string): Sent => ({
  verdict: 'rejected',
  statusCode: null,
  responseExcerpt: null,
  retryAfterMs: null,
  error,
  latencyMs: 0,
  local: true,
});

/**
 * One round of the deliverer: claims the due deliveries under a lease (one statement), sends each to
 * its channel as configured now, all at once, and records the attempts in batches as they finish
 * (one statement per batch, SettleBatches), each with its outcome: delivered; retried later (exponential
 * back-off with jitter, Retry-After honoured) after a 5xx, 408, 429 or no answer; failed after
 * `maxAttempts` tries or at once when the receiver refused (another 4xx) or the channel is gone.
 * Every attempt moves the channel's health at once: a failure of the channel's own (a retry included)
 * lengthens its streak (degraded), a delivery ends it (healthy). A message whose channel is failing
 * (the streak reached `failingAfter`), or that failed for good, is marked for the fallback channel.
 * Answers what it settled: each delivery with its outcome (for the worker's log).
 */
export class DeliverDueNotifications {
  constructor(
    private readonly ledger: DeliveryLedger,
    private readonly channels: NotificationChannelRepository,
    private readonly senders: NotificationSenders,
    private readonly secrets: WebhookSecrets,
    private readonly settings: DeliverySettings,
    private readonly clock: Clock,
    private readonly metrics: DeliveryMetrics,
    private readonly random: () => number = Math.random,
    /** What this process sends now, shared with its other deliverers (one of its own by default). */
    private readonly sending: SendingNow = new SendingNow(),
  ) {}

  /**
   * How long until the soonest pending delivery may be claimed (0: due now; channel deliveries and
   * direct messages alike), or null when none is pending: a waiting worker sleeps that long.
   */
  async msUntilDue(): Promise<number | null> {
    const due = await this.ledger.nextDueAt(this.sending.lapsed(this.clock.now()));
    return due === null ? null : Math.max(0, due.getTime() - this.clock.now().getTime());
  }

  async execute(owner: string): Promise<SettledDelivery[]> {
    const { leaseMs, batch } = this.settings;
    const now = this.clock.now();
    const claimed = await this.sending.claim(now, leaseMs, (sendingHere) => this.ledger.claimDue(owner, now, leaseMs, batch, sendingHere));
    // A round's channels are read in one question per organization, each channel once.
    const channels = new Map<string, Promise<NotificationChannel | null>>();
    for (const [organizationId, publicIds] of groupBy(
      claimed,
      (d) => d.organizationId,
      (d) => d.channelPublicId,
    )) {
      const found = this.channels
        .findByPublicIds(organizationScope(organizationId), [...publicIds])
        .then((list) => new Map(list.map((channel) => [channel.publicId, channel])));
      for (const publicId of publicIds)
        channels.set(
          `${organizationId}:${publicId}`,
          found.then((byId) => byId.get(publicId) ?? null),
        );
    }
    const channelOf = (delivery: ClaimedDelivery) => channels.get(`${delivery.organizationId}:${delivery.channelPublicId}`)!;
    // Sent at once, each receiver at its own pace (the senders bound how many at once per receiver);
    // recorded in batches as they finish, so a slow receiver holds up none of the others' records.
    const batches = new SettleBatches(this.ledger, owner, claimed.length);
    return Promise.all(
      claimed.map((delivery) => this.sending.around(delivery.id, () => this.deliver(delivery, channelOf(delivery), batches))),
    );
  }

  /**
   * One delivery's next attempt now, by its id (the test button: the receiver's answer is shown to
   * whoever pressed it); null when it is not pending, another worker holds it, or a round here is
   * still sending it.
   */
  async deliverNow(owner: string, deliveryId: string): Promise<(SettledDelivery & { attemptRecord: DeliveryAttempt }) | null> {
    // Not claimed while a round sends it: leased to the button, the round's send could not record it.
    if (this.sending.has(deliveryId)) return null;
    const { leaseMs } = this.settings;
    const now = this.clock.now();
    const [delivery] = await this.sending.claim(now, leaseMs, async () => {
      const claimed = await this.ledger.claimOne(owner, deliveryId, now, leaseMs);
      return claimed ? [claimed] : [];
    });
    if (!delivery) return null;
    const single = { settle: (s: Settlement) => this.ledger.settle(owner, s.deliveryId, s.attempt, s.next), skip: () => undefined };
    return this.sending.around(delivery.id, () =>
      this.deliver(delivery, this.channels.findByRef(organizationScope(delivery.organizationId), delivery.channelPublicId), single),
    );
  }

  private async deliver(
    delivery: ClaimedDelivery,
    channel: Promise<NotificationChannel | null>,
    ledger: Pick<SettleBatches, 'settle' | 'skip'>,
  ): Promise<SettledDelivery & { attemptRecord: DeliveryAttempt }> {
    let next: DeliveryNext;
    let record: DeliveryAttempt;
    try {
      const at = this.clock.now();
      const outcome = await this.send(delivery, await channel);
      next = this.nextOf(delivery.attempts + 1, outcome, delivery, await channel);
      record = attemptRecord(delivery.attempts + 1, at, outcome, next);
    } catch (error) {
      ledger.skip();
      throw error;
    }
    const settled = await ledger.settle({ deliveryId: delivery.id, attempt: record, next });
    if (settled && next.status !== 'pending') this.metrics.notificationDelivery(next.status);
    return { id: delivery.id, channelId: delivery.channelPublicId, attempt: record.attempt, next, settled, attemptRecord: record };
  }

  private async send(delivery: ClaimedDelivery, channel: NotificationChannel | null): Promise<Sent> {
    if (!channel) return failedSend('The channel was deleted');
    // A test may try a channel before it is switched on; everything else respects the switch.
    if (!channel.enabled && delivery.message.event !== TEST_EVENT) return failedSend('The channel is disabled');
    return this.senders[transportOf(channel.type)].send(channel, delivery.message, this.secrets.open(channel));
  }

  private nextOf(attempt: number, outcome: Sent, delivery: ClaimedDelivery, channel: NotificationChannel | null): DeliveryNext {
    const next = nextAfter(attempt, outcome, this.settings, this.clock.now(), this.random);
    if (next.status === 'delivered') return next;
    // A failure of the channel's own counts in its health at once, retries included; the message goes
    // to the default channel when it failed for good, or as soon as its channel is failing.
    const channelFault = outcome.local !== true;
    const eligible = channelFault && fallsBack(delivery.message.event, (delivery.fallbackOf ?? null) !== null);
    const streak = (channel?.consecutiveFailures ?? 0) + 1;
    const channelFailing = channel?.failingSince != null || streak >= (this.settings.failingAfter ?? 3);
    return { ...next, channelFault, fallBack: eligible && (next.status === 'failed' || channelFailing) };
  }
}

/**
 * Where a delivery goes after its `attempt`-th try: delivered; failed at once when refused, or after
 * `maxAttempts` tries; else pending until the back-off (with jitter, Retry-After honoured) has passed.
 */
export function nextAfter(attempt: number, outcome: SendOutcome, policy: RetryPolicy, now: Date, random: () => number): DeliveryNext {
  if (outcome.verdict === 'delivered') return { status: 'delivered' };
  const reason = outcome.error ?? (outcome.statusCode === null ? 'No answer' : `Answered ${outcome.statusCode}`);
  if (outcome.verdict === 'rejected') return { status: 'failed', reason };
  if (attempt >= policy.maxAttempts) return { status: 'failed', reason: `${reason} (after ${attempt} attempts)` };
  const delay = retryDelayMs(attempt, policy, random(), outcome.retryAfterMs);
  return { status: 'pending', nextAttemptAt: new Date(now.getTime() + delay) };
}

/** One attempt as the ledger keeps it. */
export function attemptRecord(attempt: number, at: Date, outcome: SendOutcome, next: DeliveryNext): DeliveryAttempt {
  return {
    attempt,
    at,
    statusCode: outcome.statusCode,
    responseExcerpt: outcome.responseExcerpt,
    latencyMs: outcome.latencyMs,
    error: outcome.error,
    outcome: next.status === 'pending' ? 'retry' : next.status,
  };
}

/** The distinct `value`s of `items` per `key`. */
function groupBy<T, K, V>(items: readonly T[], key: (item: T) => K, value: (item: T) => V): Map<K, Set<V>> {
  const groups = new Map<K, Set<V>>();
  for (const item of items) {
    const group = groups.get(key(item)) ?? new Set<V>();
    group.add(value(item));
    groups.set(key(item), group);
  }
  return groups;
}
