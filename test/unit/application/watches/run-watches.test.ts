import { expect } from 'chai';
import { NO_DOMAIN_NOTICE } from '../../../../src/domain/tenancy/watch-events';
import { UNCHECKED_EXPIRY } from '../../../../src/domain/tenancy/watch-results';
import type { ManualClock } from '../../../support/manual-clock';
import type { FakeDirectDeliveries } from '../../../support/fakes/notifications-fakes';
import type { FakeWatchResults } from '../../../support/fakes/tenancy-fakes';
import type { FakeWatchMaintenance, FakeWatchTargets } from '../../../support/fakes/watches-fakes';
import { aWatchedDomain, aWatchedIp, aWatchesWorld, type WatchesWorld } from '../../../support/builders/watches';

const DAY = 86_400_000;
const ORG = 3;

describe('RunWatches: the sweep announces what changed, with the result', () => {
  let clock: ManualClock;
  let results: FakeWatchResults;
  let targets: FakeWatchTargets;
  let maintenance: FakeWatchMaintenance;
  let directs: FakeDirectDeliveries;
  /** What the registry and the blocklists answer now. */
  let registry: WatchesWorld['answers'];
  let sweep: WatchesWorld['sweep'];
  const aDomain = aWatchedDomain;
  const anIp = aWatchedIp;

  beforeEach(() => {
    ({ clock, results, targets, maintenance, directs, answers: registry, sweep } = aWatchesWorld());
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
    registry.listedOn = ['bl.test'];
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
    registry.listedOn = ['bl.test'];
    await sweep();
    clock.advance(7 * 3_600_000);
    await sweep();
    clock.advance(DAY);
    await sweep();
    registry.listedOn = [];
    clock.advance(7 * 3_600_000);
    await sweep();
    expect(results.outbox.map((o) => [o.event.kind, o.event.data.reminder ?? null])).to.deep.equal([
      ['ip.listed', false],
      ['ip.listed', true],
      ['ip.clean', null],
    ]);
  });
});
