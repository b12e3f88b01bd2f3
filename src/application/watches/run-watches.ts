import type { CheckRequest } from '../../domain/checks/check-request';
import type { CheckResult } from '../../domain/checks/check-result';
import { decideDomainEvents, decideIpEvents, type WatchEvent } from '../../domain/tenancy/watch-events';
import { applyDnsblResult, applyDomainExpiryResult } from '../../domain/tenancy/watch-results';
import type { Clock } from '../shared/clock';
import type { Transaction, TransactionRunner } from '../shared/transaction';
import type { DirectDeliveries, DirectMessage } from '../notifications/ports';
import type { WatchResultStore } from '../tenancy/ports';
import type { DueDomain, DueIp, WatchMaintenance, WatchRecipients, WatchTargets } from './ports';

/** Registration data changes slowly and registries rate-limit: a domain is looked up once a day. */
export const DOMAIN_RECHECK_MS = 24 * 60 * 60_000;
/** Blocklistings matter within hours: an IP is looked up every 6 hours. */
export const IP_RECHECK_MS = 6 * 60 * 60_000;
const BATCH = 100;
const CONCURRENCY = 10;
const TIMEOUT_SECONDS = 20;

/** What the sweep needs to announce changes: maintenance windows, direct messages and a transaction to tie them to the result. */
export interface WatchNotifications {
  readonly maintenance: WatchMaintenance;
  readonly directs: DirectDeliveries;
  readonly transactions: TransactionRunner;
}

/**
 * The watch sweep: looks up customer domains (RDAP, WHOIS fallback) and customer IPs (DNSBL zones)
 * that are due, through the same adapters as monitors and tools, and folds each result into the
 * stored expiry / dnsbl object (a failed lookup keeps the last known facts and records lastError).
 * What changed is announced (domain.expiring, domain.expired, ip.listed, ip.clean) with the
 * result: to the channels through the outbox, in the statement that records it, and directly to
 * the record's own notificationEmail / notificationPhoneNumber, in the same transaction. A
 * maintenance window covering the record (or its customer) holds announcements back.
 */
export class RunWatches {
  constructor(
    private readonly targets: WatchTargets,
    private readonly store: WatchResultStore,
    private readonly run: (request: CheckRequest) => Promise<CheckResult>,
    private readonly clock: Clock,
    private readonly notify: WatchNotifications,
  ) {}

  async execute(): Promise<{ domains: number; ips: number }> {
    const now = this.clock.now();
    let domains = 0;
    let ips = 0;
    for (
      let batch = await this.targets.dueDomains(new Date(now.getTime() - DOMAIN_RECHECK_MS), BATCH);
      batch.length > 0;
      batch = batch.length < BATCH ? [] : await this.targets.dueDomains(new Date(now.getTime() - DOMAIN_RECHECK_MS), BATCH)
    ) {
      await inParallel(batch, (d) => this.sweepDomain(d));
      domains += batch.length;
    }
    for (
      let batch = await this.targets.dueIps(new Date(now.getTime() - IP_RECHECK_MS), BATCH);
      batch.length > 0;
      batch = batch.length < BATCH ? [] : await this.targets.dueIps(new Date(now.getTime() - IP_RECHECK_MS), BATCH)
    ) {
      await inParallel(batch, (ip) => this.sweepIp(ip));
      ips += batch.length;
    }
    return { domains, ips };
  }

  private async sweepDomain(d: DueDomain): Promise<void> {
    const result = await this.run({
      kind: 'domainExpiry',
      domain: d.domainName,
      warningDays: d.warningDays,
      errorDays: d.errorDays,
      timeoutSeconds: TIMEOUT_SECONDS,
    });
    const now = this.clock.now();
    const expiry = applyDomainExpiryResult(d.previous, result, now);
    const suppressed = await this.notify.maintenance.isSuppressed({ type: 'customerDomain', id: d.domainId }, now);
    const { notice, events } = decideDomainEvents(d, d.notice, expiry, { now, answered: expiry.lastError === null, suppressed });
    const announcement = { customerId: d.customerId, checkedAt: d.previous.lastCheckedAt, notice, events };
    await this.recordAndTell(d.scope.organizationId, d.customerId, `domain:${d.domainId}`, d.recipients, events, (tx) =>
      this.store.recordDomainExpiry(d.scope, d.domainId, expiry, announcement, tx),
    );
  }

  private async sweepIp(ip: DueIp): Promise<void> {
    const result = await this.run({ kind: 'dnsbl', ip: ip.ipAddress, timeoutSeconds: TIMEOUT_SECONDS });
    const now = this.clock.now();
    const dnsbl = applyDnsblResult(ip.previous, result, now);
    const suppressed = await this.notify.maintenance.isSuppressed({ type: 'customerIp', id: ip.ipId }, now);
    const { notice, events } = decideIpEvents(ip, ip.notice, dnsbl, { now, suppressed });
    const announcement = { customerId: ip.customerId, checkedAt: ip.previous.lastCheckedAt, notice, events };
    await this.recordAndTell(ip.scope.organizationId, ip.customerId, `ip:${ip.ipId}`, ip.recipients, events, (tx) =>
      this.store.recordIpDnsbl(ip.scope, ip.ipId, dnsbl, announcement, tx),
    );
  }

  /** Records the result; its direct messages, if any, are enqueued in the same transaction, only if it was recorded. */
  private async recordAndTell(
    organizationId: number,
    customerId: number,
    record: string,
    recipients: WatchRecipients,
    events: readonly WatchEvent[],
    recordResult: (tx: Transaction) => Promise<boolean>,
  ): Promise<void> {
    const messages = directMessages(organizationId, customerId, record, recipients, events);
    if (messages.length === 0) {
      await this.notify.transactions.run(recordResult);
      return;
    }
    await this.notify.transactions.run(async (tx) => {
      if (await recordResult(tx)) await this.notify.directs.enqueue(messages, this.clock.now(), tx);
    });
  }
}

/**
 * One message per event and recipient. The dedup key names the record, the lastNotified* mark and
 * the event's instant: the ledger reads it back to set the timestamp once the message is delivered.
 */
export function directMessages(
  organizationId: number,
  customerId: number,
  record: string,
  recipients: WatchRecipients,
  events: readonly WatchEvent[],
): DirectMessage[] {
  const to = [
    ...(recipients.email ? [{ type: 'email' as const, address: recipients.email }] : []),
    ...(recipients.phone ? [{ type: 'sms' as const, phone: recipients.phone }] : []),
  ];
  return events.flatMap((event) =>
    to.map((recipient): DirectMessage => ({
      organizationId,
      customerId,
      recipient,
      event: event.kind,
      subject: event.summary,
      text: event.summary,
      data: event.data,
      dedupKey: `watch:${record}:${event.mark}:${event.occurredAt.getTime()}:${recipient.type}`,
    })),
  );
}

async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, lane));
}
