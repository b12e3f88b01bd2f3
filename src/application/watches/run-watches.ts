import type { CheckRequest } from '../../domain/checks/check-request';
import type { CheckResult } from '../../domain/checks/check-result';
import { applyDomainExpiryResult } from '../../domain/checks/domain-expiry';
import { applyDnsblResult } from '../../domain/checks/dnsbl';
import type { Clock } from '../shared/clock';
import type { WatchResultStore } from '../tenancy/ports';
import { decideDomainEvents, decideIpEvents } from '../../domain/tenancy/watch-events';
import type { DueDomain, DueIp, WatchMaintenance, WatchTargets } from './ports';

/** Registration data changes slowly and registries rate-limit: a domain is looked up once a day. */
export const DOMAIN_RECHECK_MS = 24 * 60 * 60_000;
/** Blocklistings matter within hours: an IP is looked up every 6 hours. */
export const IP_RECHECK_MS = 6 * 60 * 60_000;
const BATCH = 100;
const CONCURRENCY = 10;
const TIMEOUT_SECONDS = 20;

/**
 * The watch sweep: looks up customer domains (RDAP, WHOIS fallback) and customer IPs (DNSBL zones)
 * that are due, through the same adapters as monitors and tools, and folds each result into the
 * stored expiry / dnsbl object (a failed lookup keeps the last known facts and records lastError).
 * What changed is announced (domain.expiring, domain.expired, ip.listed, ip.clean) in the same
 * statement that records the result, unless a maintenance window covers the record.
 */
export class RunWatches {
  constructor(
    private readonly targets: WatchTargets,
    private readonly store: WatchResultStore,
    private readonly run: (request: CheckRequest) => Promise<CheckResult>,
    private readonly clock: Clock,
    private readonly maintenance: WatchMaintenance,
  ) {}

  async execute(): Promise<{ domains: number; ips: number }> {
    const now = this.clock.now();
    let domains = 0;
    let ips = 0;
    for (let batch = await this.targets.dueDomains(new Date(now.getTime() - DOMAIN_RECHECK_MS), BATCH); batch.length > 0;
      batch = batch.length < BATCH ? [] : await this.targets.dueDomains(new Date(now.getTime() - DOMAIN_RECHECK_MS), BATCH)) {
      await inParallel(batch, (d) => this.sweepDomain(d));
      domains += batch.length;
    }
    for (let batch = await this.targets.dueIps(new Date(now.getTime() - IP_RECHECK_MS), BATCH); batch.length > 0;
      batch = batch.length < BATCH ? [] : await this.targets.dueIps(new Date(now.getTime() - IP_RECHECK_MS), BATCH)) {
      await inParallel(batch, (ip) => this.sweepIp(ip));
      ips += batch.length;
    }
    return { domains, ips };
  }

  private async sweepDomain(d: DueDomain): Promise<void> {
    const result = await this.run({
      kind: 'domainExpiry', domain: d.domainName, warningDays: d.warningDays, errorDays: d.errorDays, timeoutSeconds: TIMEOUT_SECONDS,
    });
    const now = this.clock.now();
    const expiry = applyDomainExpiryResult(d.previous, result, now);
    const suppressed = await this.maintenance.isSuppressed({ type: 'customerDomain', id: d.domainId }, now);
    const { notice, events } = decideDomainEvents(d, d.notice, expiry, { now, answered: expiry.lastError === null, suppressed });
    await this.store.recordDomainExpiry(d.scope, d.domainId, expiry, { customerId: d.customerId, checkedAt: d.previous.lastCheckedAt, notice, events });
  }

  private async sweepIp(ip: DueIp): Promise<void> {
    const result = await this.run({ kind: 'dnsbl', ip: ip.ipAddress, timeoutSeconds: TIMEOUT_SECONDS });
    const now = this.clock.now();
    const dnsbl = applyDnsblResult(ip.previous, result, now);
    const suppressed = await this.maintenance.isSuppressed({ type: 'customerIp', id: ip.ipId }, now);
    const { notice, events } = decideIpEvents(ip, ip.notice, dnsbl, { now, suppressed });
    await this.store.recordIpDnsbl(ip.scope, ip.ipId, dnsbl, { customerId: ip.customerId, checkedAt: ip.previous.lastCheckedAt, notice, events });
  }
}

async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, lane));
}
