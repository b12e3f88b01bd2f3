import type { CheckRequest } from '../../domain/checks/check-request';
import type { CheckResult } from '../../domain/checks/check-result';
import { applyDomainExpiryResult } from '../../domain/checks/domain-expiry';
import { applyDnsblResult } from '../../domain/checks/dnsbl';
import type { Clock } from '../shared/clock';
import type { WatchResultStore } from '../tenancy/ports';
import type { WatchTargets } from './ports';

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
 */
export class RunWatches {
  constructor(
    private readonly targets: WatchTargets,
    private readonly store: WatchResultStore,
    private readonly run: (request: CheckRequest) => Promise<CheckResult>,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<{ domains: number; ips: number }> {
    const now = this.clock.now();
    let domains = 0;
    let ips = 0;
    for (let batch = await this.targets.dueDomains(new Date(now.getTime() - DOMAIN_RECHECK_MS), BATCH); batch.length > 0;
      batch = batch.length < BATCH ? [] : await this.targets.dueDomains(new Date(now.getTime() - DOMAIN_RECHECK_MS), BATCH)) {
      await inParallel(batch, async (d) => {
        const result = await this.run({
          kind: 'domainExpiry', domain: d.domainName, warningDays: d.warningDays, errorDays: d.errorDays, timeoutSeconds: TIMEOUT_SECONDS,
        });
        await this.store.recordDomainExpiry(d.scope, d.domainId, applyDomainExpiryResult(d.previous, result, this.clock.now()));
      });
      domains += batch.length;
    }
    for (let batch = await this.targets.dueIps(new Date(now.getTime() - IP_RECHECK_MS), BATCH); batch.length > 0;
      batch = batch.length < BATCH ? [] : await this.targets.dueIps(new Date(now.getTime() - IP_RECHECK_MS), BATCH)) {
      await inParallel(batch, async (ip) => {
        const result = await this.run({ kind: 'dnsbl', ip: ip.ipAddress, timeoutSeconds: TIMEOUT_SECONDS });
        await this.store.recordIpDnsbl(ip.scope, ip.ipId, applyDnsblResult(ip.previous, result, this.clock.now()));
      });
      ips += batch.length;
    }
    return { domains, ips };
  }
}

async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, lane));
}
