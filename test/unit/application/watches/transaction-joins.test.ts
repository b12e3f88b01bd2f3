import { expect } from 'chai';
import { RunWatches } from '../../../../src/application/watches/run-watches';
import type { CheckRequest } from '../../../../src/domain/checks/check-request';
import { checkResult, NO_TIMINGS, type CheckResult } from '../../../../src/domain/checks/check-result';
import { NO_DOMAIN_NOTICE, NO_IP_NOTICE } from '../../../../src/domain/tenancy/watch-events';
import { UNCHECKED_DNSBL, UNCHECKED_EXPIRY } from '../../../../src/domain/tenancy/watch-results';
import { ManualClock } from '../../../support/manual-clock';
import { FakeDirectDeliveries } from '../../../support/fakes/notifications-fakes';
import { recordedTransactions } from '../../../support/fakes/shared-fakes';
import { FakeWatchResults } from '../../../support/fakes/tenancy-fakes';
import { FakeWatchMaintenance, FakeWatchTargets } from '../../../support/fakes/watches-fakes';

const DAY = 86_400_000;
const ORG = 3;
const recipients = { email: 'owner@shop.example', phone: null };

/** A sweep that has messages to send records its result in the transaction that enqueues them (docs/architecture.md). */
describe('watch sweeps: the result joins the transaction of its messages', () => {
  it('records a domain and an IP with news in the transaction the runner handed', async () => {
    const clock = new ManualClock('2026-12-01T00:00:00Z');
    const results = new FakeWatchResults().own('domain:1', ORG).own('ip:2', ORG);
    const targets = new FakeWatchTargets(results);
    const lookup = async (request: CheckRequest): Promise<CheckResult> =>
      request.kind === 'domainExpiry'
        ? checkResult({
            kind: 'domainExpiry',
            findings: [],
            timings: NO_TIMINGS(1),
            checkedAt: clock.now(),
            evidence: {
              domain: {
                domain: request.domain,
                expiresAt: new Date(clock.now().getTime() + 3 * DAY).toISOString(),
                registrar: 'R',
                daysRemaining: 3,
                source: 'rdap',
              },
            },
          })
        : checkResult({
            kind: 'dnsbl',
            findings: [{ status: 'down', code: 'dnsblListed', message: 'listed' }],
            timings: NO_TIMINGS(1),
            checkedAt: clock.now(),
            evidence: {
              dnsbl: {
                ip: '192.0.2.10',
                listings: [{ name: 'zen', reason: 'spam', listKey: 'zen', delistUrl: 'https://zen/delist', resultCode: '127.0.0.2' }],
                checkedZones: 2,
                failedZones: [],
              },
            },
          });
    targets.domains.push({
      scope: { organizationId: ORG, customerId: 7 },
      domainId: 1,
      publicId: 'dom-1',
      customerId: 7,
      label: 'Shop',
      domainName: 'shop.example',
      warningDays: 30,
      errorDays: 7,
      previous: UNCHECKED_EXPIRY,
      notice: NO_DOMAIN_NOTICE,
      recipients,
    });
    targets.ips.push({
      scope: { organizationId: ORG, customerId: 7 },
      ipId: 2,
      publicId: 'ip-2',
      customerId: 7,
      label: 'Mail',
      ipAddress: '192.0.2.10',
      reminderDays: null,
      previous: UNCHECKED_DNSBL,
      notice: NO_IP_NOTICE,
      recipients,
    });
    const tx = recordedTransactions();
    const directs = new FakeDirectDeliveries();
    await new RunWatches(targets, results, lookup, clock, { maintenance: new FakeWatchMaintenance(), directs, transactions: tx }).execute();
    expect(directs.rows).to.have.length(2);
    expect(tx.handed).to.have.length(2);
    expect(results.joined).to.have.deep.members([
      ['recordDomainExpiry', tx.handed[0]],
      ['recordIpDnsbl', tx.handed[1]],
    ]);
    // Each sweep's notice is enqueued in the transaction that recorded its result.
    expect(directs.enqueuedIn).to.have.deep.members([tx.handed[0], tx.handed[1]]);
  });
});
