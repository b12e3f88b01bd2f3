import { expect } from 'chai';
import { RunWatches } from '../../../../src/application/watches/run-watches';
import type { DueDomain, DueIp } from '../../../../src/application/watches/ports';
import type { CheckRequest } from '../../../../src/domain/checks/check-request';
import { checkResult, NO_TIMINGS, type CheckResult } from '../../../../src/domain/checks/check-result';
import { NO_DOMAIN_NOTICE, NO_IP_NOTICE } from '../../../../src/domain/tenancy/watch-events';
import { UNCHECKED_DNSBL, UNCHECKED_EXPIRY } from '../../../../src/domain/tenancy/watch-results';
import { ManualClock } from '../../../support/manual-clock';
import { FakeDirectDeliveries } from '../../../support/fakes/notifications-fakes';
import { immediateTransactions } from '../../../support/fakes/shared-fakes';
import { FakeWatchResults } from '../../../support/fakes/tenancy-fakes';
import { FakeWatchMaintenance, FakeWatchTargets } from '../../../support/fakes/watches-fakes';

const DAY = 86_400_000;
const ORG = 3;

describe('RunWatches: the sweep announces what changed, with the result', () => {
  let clock: ManualClock;
  let results: FakeWatchResults;
  let targets: FakeWatchTargets;
  let maintenance: FakeWatchMaintenance;
  let directs: FakeDirectDeliveries;
  /** What the registry and the blocklists answer now. */
  let registry: { expiresAt: Date | null };
  let listedOn: string[];

  const lookup = async (request: CheckRequest): Promise<CheckResult> => {
    const checkedAt = clock.now();
    if (request.kind === 'domainExpiry') {
      return checkResult({
        kind: 'domainExpiry',
        findings: registry.expiresAt ? [] : [{ status: 'down', code: 'domainLookupFailed', message: 'registry down' }],
        timings: NO_TIMINGS(1),
        checkedAt,
        evidence: registry.expiresAt
          ? {
              domain: {
                domain: request.domain,
                expiresAt: registry.expiresAt.toISOString(),
                registrar: 'R',
                daysRemaining: 0,
                source: 'rdap',
              },
            }
          : {},
      });
    }
    const listings = listedOn.map((zone) => ({
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
  const sweep = () =>
    new RunWatches(targets, results, lookup, clock, { maintenance, directs, transactions: immediateTransactions }).execute();

  const aDomain = (overrides: Partial<DueDomain> = {}): DueDomain => ({
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
    recipients: { email: null, phone: null },
    ...overrides,
  });
  const anIp = (overrides: Partial<DueIp> = {}): DueIp => ({
    scope: { organizationId: ORG, customerId: 7 },
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

  beforeEach(() => {
    clock = new ManualClock('2026-12-01T00:00:00Z');
    results = new FakeWatchResults().own('domain:1', ORG).own('ip:2', ORG);
    targets = new FakeWatchTargets(results);
    maintenance = new FakeWatchMaintenance();
    directs = new FakeDirectDeliveries();
    registry = { expiresAt: null };
    listedOn = [];
  });

  it('queues one domain.expiring with the result when the domain enters its warning band, and nothing on the next day', async () => {
    targets.domains.push(aDomain());
    registry.expiresAt = new Date(clock.now().getTime() + 20 * DAY);
    expect(await sweep()).to.deep.equal({ domains: 1, ips: 0 });
    expect(results.outbox.map((o) => [o.record, o.event.kind, o.event.mark, o.customerId])).to.deep.equal([
      ['domain:1', 'domain.expiring', 'warning', 7],
    ]);
    expect(results.domains.get(1)!.notice).to.deep.equal({ band: 'warning', at: clock.now() });
    expect(results.domains.get(1)!.expiry.domainExpiresAt).to.deep.equal(registry.expiresAt);

    clock.advance(DAY + 1);
    await sweep();
    expect(results.outbox).to.have.length(1);
  });

  it('queues nothing while the registry cannot be reached, and announces once it answers', async () => {
    targets.domains.push(aDomain());
    await sweep();
    expect(results.outbox).to.deep.equal([]);
    expect(results.domains.get(1)!.expiry.lastError).to.equal('registry down');
    clock.advance(DAY + 1);
    registry.expiresAt = new Date(clock.now().getTime() - 1);
    await sweep();
    expect(results.outbox.map((o) => o.event.kind)).to.deep.equal(['domain.expired']);
  });

  it("mails and texts the domain's own addresses, with dedup keys naming the record and mark", async () => {
    targets.domains.push(aDomain({ recipients: { email: 'owner@shop.example', phone: '+15005550006' } }));
    registry.expiresAt = new Date(clock.now().getTime() + 3 * DAY);
    await sweep();
    const at = clock.now().getTime();
    expect(directs.rows.map((r) => [r.message.recipient, r.message.dedupKey, r.message.event, r.message.subject])).to.deep.equal([
      [
        { type: 'email', address: 'owner@shop.example' },
        `watch:domain:1:error:${at}:email`,
        'domain.expiring',
        'shop.example expires in 3 days',
      ],
      [{ type: 'sms', phone: '+15005550006' }, `watch:domain:1:error:${at}:sms`, 'domain.expiring', 'shop.example expires in 3 days'],
    ]);
    expect(directs.rows[0]!.message).to.include({ organizationId: ORG, customerId: 7 });
  });

  it('sends nothing when another sweep recorded the domain first (the stored lastCheckedAt moved)', async () => {
    targets.domains.push(aDomain({ recipients: { email: 'owner@shop.example', phone: null } }));
    await results.recordDomainExpiry({ organizationId: ORG, customerId: null }, 1, {
      ...UNCHECKED_EXPIRY,
      lastCheckedAt: new Date(clock.now().getTime() - 2 * DAY),
    });
    // The target was read before that write: its previous lastCheckedAt is still null.
    targets.dueDomains = async () => [aDomain({ recipients: { email: 'owner@shop.example', phone: null } })];
    registry.expiresAt = new Date(clock.now().getTime() + 3 * DAY);
    await sweep();
    expect(results.outbox).to.deep.equal([]);
    expect(directs.rows).to.deep.equal([]);
  });

  it('holds announcements back while a maintenance window covers the record, and makes them when it ends', async () => {
    targets.domains.push(aDomain({ recipients: { email: 'owner@shop.example', phone: null } }));
    targets.ips.push(anIp());
    maintenance.silenced.add('customerDomain:1').add('customerIp:2');
    registry.expiresAt = new Date(clock.now().getTime() + 20 * DAY);
    listedOn = ['bl.test'];
    await sweep();
    expect(results.outbox).to.deep.equal([]);
    expect(directs.rows).to.deep.equal([]);
    expect(results.domains.get(1)!.notice).to.deep.equal(NO_DOMAIN_NOTICE);

    maintenance.silenced.clear();
    clock.advance(DAY + 1);
    await sweep();
    expect(results.outbox.map((o) => o.event.kind)).to.deep.equal(['domain.expiring', 'ip.listed']);
    expect(directs.rows).to.have.length(1);
  });

  it("announces ip.listed, reminds per the customer's dnsblReminderInterval, then ip.clean", async () => {
    targets.ips.push(anIp({ reminderDays: 1 }));
    listedOn = ['bl.test'];
    await sweep();
    clock.advance(7 * 3_600_000);
    await sweep();
    clock.advance(DAY);
    await sweep();
    listedOn = [];
    clock.advance(7 * 3_600_000);
    await sweep();
    expect(results.outbox.map((o) => [o.event.kind, o.event.data.reminder ?? null])).to.deep.equal([
      ['ip.listed', false],
      ['ip.listed', true],
      ['ip.clean', null],
    ]);
  });
});
