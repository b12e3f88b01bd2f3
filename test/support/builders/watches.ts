import type { DueDomain, DueIp } from '../../../src/application/watches/ports';
import { RunWatches } from '../../../src/application/watches/run-watches';
import type { TransactionRunner } from '../../../src/application/shared/transaction';
import type { CheckRequest } from '../../../src/domain/checks/check-request';
import { checkResult, NO_TIMINGS, type CheckResult } from '../../../src/domain/checks/check-result';
import { NO_DOMAIN_NOTICE, NO_IP_NOTICE } from '../../../src/domain/tenancy/watch-events';
import { UNCHECKED_DNSBL, UNCHECKED_EXPIRY } from '../../../src/domain/tenancy/watch-results';
import { ManualClock } from '../manual-clock';
import { FakeDirectDeliveries } from '../fakes/notifications-fakes';
import { immediateTransactions } from '../fakes/shared-fakes';
import { FakeWatchResults } from '../fakes/tenancy-fakes';
import { FakeWatchMaintenance, FakeWatchTargets } from '../fakes/watches-fakes';

/** The organization the watched domain and IP belong to. */
export const WATCH_ORGANIZATION = 3;

/** Domain 1 ("Shop", shop.example) of customer 7, warned at 30 days and in error at 7, never checked, no one to tell. */
export const aWatchedDomain = (overrides: Partial<DueDomain> = {}): DueDomain => ({
  scope: { organizationId: WATCH_ORGANIZATION, customerId: 7 },
  domainId: 1,
  publicId: 'dom-1',
  customerId: 7,
  label: 'Shop',
  domainName: 'shop.example',
  warningDays: 30,
  errorDays: 7,
  previous: UNCHECKED_EXPIRY,
  notice: NO_DOMAIN_NOTICE,
  recipients: { email: null, phone: null },
  ...overrides,
});

/** IP 2 ("Mail", 192.0.2.10) of customer 7, no reminder, never checked, no one to tell. */
export const aWatchedIp = (overrides: Partial<DueIp> = {}): DueIp => ({
  scope: { organizationId: WATCH_ORGANIZATION, customerId: 7 },
  ipId: 2,
  publicId: 'ip-2',
  customerId: 7,
  label: 'Mail',
  ipAddress: '192.0.2.10',
  reminderDays: null,
  previous: UNCHECKED_DNSBL,
  notice: NO_IP_NOTICE,
  recipients: { email: null, phone: null },
  ...overrides,
});

export interface WatchesWorldOptions {
  /** The clock's start (2026-12-01T00:00:00Z). */
  readonly now?: Date | string;
  /** The runner the sweep opens its transactions with (one that runs at once). */
  readonly tx?: TransactionRunner;
}

/**
 * The watches context on its fakes, wired as the composition root wires it: the result store (which
 * knows domain 1 and IP 2 of `WATCH_ORGANIZATION`), the due targets (none: push `aWatchedDomain()`,
 * `aWatchedIp()`), maintenance, the direct deliveries, and the sweep over a lookup that answers what
 * `answers` says: the registry's expiry (null: the registry cannot be reached) and the blocklists
 * the IP is listed on.
 */
export function aWatchesWorld(options: WatchesWorldOptions = {}) {
  const clock = new ManualClock(options.now ?? '2026-12-01T00:00:00Z');
  const tx = options.tx ?? immediateTransactions;
  const results = new FakeWatchResults().own('domain:1', WATCH_ORGANIZATION).own('ip:2', WATCH_ORGANIZATION);
  const targets = new FakeWatchTargets(results);
  const maintenance = new FakeWatchMaintenance();
  const directs = new FakeDirectDeliveries();
  const answers: { expiresAt: Date | null; listedOn: string[] } = { expiresAt: null, listedOn: [] };
  const lookup = async (request: CheckRequest): Promise<CheckResult> => {
    const checkedAt = clock.now();
    if (request.kind === 'domainExpiry') {
      return checkResult({
        kind: 'domainExpiry',
        findings: answers.expiresAt ? [] : [{ status: 'down', code: 'domainLookupFailed', message: 'registry down' }],
        timings: NO_TIMINGS(1),
        checkedAt,
        evidence: answers.expiresAt
          ? {
              domain: {
                domain: request.domain,
                expiresAt: answers.expiresAt.toISOString(),
                registrar: 'R',
                daysRemaining: 0,
                source: 'rdap',
              },
            }
          : {},
      });
    }
    const listings = answers.listedOn.map((zone) => ({
      name: zone,
      reason: 'spam',
      listKey: zone,
      delistUrl: `https://${zone}/delist`,
      resultCode: '127.0.0.2',
    }));
    return checkResult({
      kind: 'dnsbl',
      findings: listings.length ? [{ status: 'down', code: 'dnsblListed', message: 'listed' }] : [],
      timings: NO_TIMINGS(1),
      checkedAt,
      evidence: { dnsbl: { ip: '192.0.2.10', listings, checkedZones: 2, failedZones: [] } },
    });
  };
  const run = new RunWatches(targets, results, lookup, clock, { maintenance, directs, transactions: tx });
  return { clock, tx, results, targets, maintenance, directs, answers, lookup, run, sweep: () => run.execute() };
}

export type WatchesWorld = ReturnType<typeof aWatchesWorld>;
