import type { Clock } from '../shared/clock';
import type { DeliveryMetrics } from '../observability/ports';
import { attemptRecord, nextAfter, type DeliverySettings, type SettledDelivery } from './deliver-due-notifications';
import type { ClaimedDirectDelivery, DeliveryLedger, DirectDeliveryQueue, DirectSenders, SendOutcome } from './ports';
import { SettleBatches } from './settle-batches';
import { SendingNow } from './sending-now';

/**
 * One round of the direct deliverer: claims the due messages to subscribers, readers and people
 * paged under a lease, sends each by its recipient's kind, and records the attempts in batches as
 * they finish, exactly as channel deliveries are (same back-off, same attempts table, same lease rule).
 */
export class DeliverDueDirectMessages {
  constructor(
    private readonly queue: DirectDeliveryQueue,
    private readonly ledger: Pick<DeliveryLedger, 'settleMany'>,
    private readonly senders: DirectSenders,
    private readonly settings: DeliverySettings,
    private readonly clock: Clock,
    private readonly metrics: DeliveryMetrics,
    private readonly random: () => number = Math.random,
    /** What this process sends now, shared with its other deliverers (one of its own by default). */
    private readonly sending: SendingNow = new SendingNow(),
  ) {}

  async execute(owner: string): Promise<SettledDelivery[]> {
    const { leaseMs, batch } = this.settings;
    const now = this.clock.now();
    const claimed = await this.sending.claim(now, leaseMs, (sendingHere) => this.queue.claimDue(owner, now, leaseMs, batch, sendingHere));
    const batches = new SettleBatches(this.ledger, owner, claimed.length);
    return Promise.all(claimed.map((delivery) => this.sending.around(delivery.id, () => this.deliver(delivery, batches))));
  }

  private async deliver(delivery: ClaimedDirectDelivery, batches: SettleBatches): Promise<SettledDelivery> {
    const at = this.clock.now();
    const attempt = delivery.attempts + 1;
    let outcome: SendOutcome;
    try {
      outcome = await this.send(delivery);
    } catch (error) {
      batches.skip();
      throw error;
    }
    const next = nextAfter(attempt, outcome, this.settings, this.clock.now(), this.random);
    const settled = await batches.settle({ deliveryId: delivery.id, attempt: attemptRecord(attempt, at, outcome, next), next });
    if (settled && next.status !== 'pending') this.metrics.notificationDelivery(next.status);
    return { id: delivery.id, channelId: `${delivery.recipient.type}:direct`, attempt, next, settled };
  }

  private send(delivery: ClaimedDirectDelivery): Promise<SendOutcome> {
    return this.senders[delivery.recipient.type].sendDirect(delivery);
  }
}
