import { expect } from 'chai';
import { AddCustomDomain, type AddCustomDomainInput } from '../../../../src/application/custom-domains/add-custom-domain';
import { VerifyCustomDomain } from '../../../../src/application/custom-domains/verify-custom-domain';
import { ActivateCustomDomain } from '../../../../src/application/custom-domains/activate-custom-domain';
import { RemoveCustomDomain } from '../../../../src/application/custom-domains/remove-custom-domain';
import { GetCustomDomain } from '../../../../src/application/custom-domains/get-custom-domain';
import { ListCustomDomains } from '../../../../src/application/custom-domains/list-custom-domains';
import { ActiveHosts, ACTIVE_HOST_TTL_MS } from '../../../../src/application/custom-domains/active-hosts';
import { DomainOwnership } from '../../../../src/application/custom-domains/domain-ownership';
import { PurgeExpiredCustomDomains } from '../../../../src/application/custom-domains/purge-expired-custom-domains';
import { PENDING_LIFETIME_MS } from '../../../../src/domain/custom-domains/custom-domain';
import type { Actor } from '../../../../src/application/shared/actor';
import { anActor } from '../../../support/builders';
import { ManualClock } from '../../../support/manual-clock';
import { codeOf, expectAppErrorAsync } from '../../../support/expect-app-error';
import { immediateTransactions, sequentialIds } from '../../../support/fakes/shared-fakes';
import { FakeCustomDomains, FakeStatusPages, FakeTxtRecords } from '../../../support/fakes/custom-domains-fakes';

const PLATFORM_HOST = 'monitor.example.org';

function setup() {
  const clock = new ManualClock();
  const domains = new FakeCustomDomains();
  const txt = new FakeTxtRecords();
  const pages = new FakeStatusPages();
  const hosts = new ActiveHosts(domains, clock);
  const ownership = new DomainOwnership(domains, txt);
  const add = new AddCustomDomain(domains, pages, sequentialIds(), clock, PLATFORM_HOST, immediateTransactions);
  return {
    clock,
    domains,
    txt,
    pages,
    hosts,
    add: (actor: Actor, input: AddCustomDomainInput) => add.execute(actor, input),
    verify: (actor: Actor, id: string) =>
      new VerifyCustomDomain(domains, ownership, hosts, clock, immediateTransactions).execute(actor, { id }),
    activate: (actor: Actor, id: string) =>
      new ActivateCustomDomain(domains, ownership, hosts, clock, immediateTransactions).execute(actor, { id }),
    remove: (actor: Actor, id: string) => new RemoveCustomDomain(domains, hosts, clock, immediateTransactions).execute(actor, { id }),
    get: (actor: Actor, id: string) => new GetCustomDomain(domains, clock).execute(actor, { id }),
    list: (actor: Actor) => new ListCustomDomains(domains, clock).execute(actor),
  };
}

const admin = (organizationId = 1) => anActor().inOrganization(organizationId).build();
const whiteLabel = (hostname: string): AddCustomDomainInput => ({ hostname, kind: 'whiteLabel' });

describe('custom domains (use cases)', () => {
  describe('adding', () => {
    it('adds a pending entry with the normalized hostname and a fresh token', async () => {
      const t = setup();
      const domain = await t.add(admin(), whiteLabel('Status.Acme.COM.'));
      expect(domain).to.include({
        hostname: 'status.acme.com',
        status: 'pending',
        kind: 'whiteLabel',
        organizationId: 1,
        customerId: null,
      });
      expect(domain.verificationToken).to.match(/^mv-[0-9a-f]{32}$/);
      expect((await t.list(admin())).map((d) => d.hostname)).to.deep.equal(['status.acme.com']);
    });

    it('answers invalidHostname for a name that is not a public DNS name', async () => {
      const t = setup();
      for (const hostname of ['acme.com:8443', '203.0.113.9', 'intranet', 'printer.local']) {
        expect(await codeOf(t.add(admin(), whiteLabel(hostname))), hostname).to.equal('invalidHostname');
      }
    });

    it('answers hostnameReserved for the platform host and its subdomains', async () => {
      const t = setup();
      await expectAppErrorAsync(t.add(admin(), whiteLabel(PLATFORM_HOST)), 'hostnameReserved');
      await expectAppErrorAsync(t.add(admin(), whiteLabel(`acme.${PLATFORM_HOST}`)), 'hostnameReserved');
      expect(await t.list(admin())).to.deep.equal([]);
    });

    it('answers hostnameReserved, not invalidHostname, when the platform itself runs on a private-use name', async () => {
      const t = setup();
      const onPrivateName = new AddCustomDomain(t.domains, t.pages, sequentialIds(), t.clock, 'monitor.internal', immediateTransactions);
      await expectAppErrorAsync(onPrivateName.execute(admin(), whiteLabel('acme.monitor.internal')), 'hostnameReserved');
      await expectAppErrorAsync(onPrivateName.execute(admin(), whiteLabel('other.internal')), 'invalidHostname');
    });

    it('lets another organization add a pending entry for the same hostname (pending never blocks)', async () => {
      const t = setup();
      await t.add(admin(1), whiteLabel('status.acme.com'));
      const other = await t.add(admin(2), whiteLabel('status.acme.com'));
      expect(other.status).to.equal('pending');
    });

    it('answers domainAlreadyClaimed when another organization holds the hostname', async () => {
      const t = setup();
      const held = await t.add(admin(1), whiteLabel('status.acme.com'));
      t.txt.records.set(held.verificationRecordName, [held.verificationToken]);
      await t.verify(admin(1), held.publicId);
      await expectAppErrorAsync(t.add(admin(2), whiteLabel('status.acme.com')), 'domainAlreadyClaimed');
    });

    it('answers customDomainExists for a second entry of the organization, but not once the first expired', async () => {
      const t = setup();
      await t.add(admin(), whiteLabel('status.acme.com'));
      await expectAppErrorAsync(t.add(admin(), whiteLabel('status.acme.com')), 'customDomainExists');
      t.clock.advance(PENDING_LIFETIME_MS);
      expect((await t.add(admin(), whiteLabel('status.acme.com'))).status).to.equal('pending');
    });

    it('white-label hosts are for organization admins only', async () => {
      const t = setup();
      await expectAppErrorAsync(t.add(anActor().withRole('editor').build(), whiteLabel('a.acme.com')), 'roleForbidden');
      await expectAppErrorAsync(t.add(anActor().forCustomer(10).build(), whiteLabel('a.acme.com')), 'roleForbidden');
    });

    it("a status page host names a page of the caller's scope and belongs to the page's customer", async () => {
      const t = setup();
      t.pages.pages.set('page-10', { id: 'page-10', organizationId: 1, customerId: 10 });
      t.pages.pages.set('page-11', { id: 'page-11', organizationId: 1, customerId: 11 });
      const customerEditor = anActor().forCustomer(10).withRole('editor').build();
      const domain = await t.add(customerEditor, { hostname: 'status.customer10.com', kind: 'statusPage', statusPageId: 'page-10' });
      expect(domain).to.include({ customerId: 10, statusPageId: 'page-10' });
      await expectAppErrorAsync(
        t.add(customerEditor, { hostname: 'status.customer11.com', kind: 'statusPage', statusPageId: 'page-11' }),
        'statusPageNotFound',
      );
      await expectAppErrorAsync(
        t.add(admin(), { hostname: 'status.x.com', kind: 'statusPage', statusPageId: 'missing' }),
        'statusPageNotFound',
      );
      await expectAppErrorAsync(
        t.add(anActor().forCustomer(10).withRole('readonly').build(), {
          hostname: 'b.customer10.com',
          kind: 'statusPage',
          statusPageId: 'page-10',
        }),
        'roleForbidden',
      );
    });

    it("customer-scoped callers see only their customer's entries", async () => {
      const t = setup();
      t.pages.pages.set('page-10', { id: 'page-10', organizationId: 1, customerId: 10 });
      const own = await t.add(admin(), { hostname: 'status.customer10.com', kind: 'statusPage', statusPageId: 'page-10' });
      const org = await t.add(admin(), whiteLabel('app.agency.com'));
      const customer = anActor().forCustomer(10).withRole('editor').build();
      expect((await t.list(customer)).map((d) => d.hostname)).to.deep.equal(['status.customer10.com']);
      expect((await t.get(customer, own.publicId)).hostname).to.equal('status.customer10.com');
      await expectAppErrorAsync(t.get(customer, org.publicId), 'customDomainNotFound');
    });
  });

  describe('verifying', () => {
    it('pending -> verified when the TXT record carries the token', async () => {
      const t = setup();
      const domain = await t.add(admin(), whiteLabel('status.acme.com'));
      t.txt.records.set('_monitoring-verify.status.acme.com', ['google-site-verification=x', domain.verificationToken]);
      expect((await t.verify(admin(), domain.publicId)).status).to.equal('verified');
      expect((await t.get(admin(), domain.publicId)).status).to.equal('verified');
    });

    it('answers customDomainVerificationFailed saying what to publish when the record is missing or differs', async () => {
      const t = setup();
      const domain = await t.add(admin(), whiteLabel('status.acme.com'));
      const expected = { recordName: '_monitoring-verify.status.acme.com', recordType: 'TXT', expectedValue: domain.verificationToken };
      await expectAppErrorAsync(t.verify(admin(), domain.publicId), 'customDomainVerificationFailed', {
        ...expected,
        reason: 'recordMissing',
      });
      t.txt.records.set(expected.recordName, ['mv-someone-else']);
      await expectAppErrorAsync(t.verify(admin(), domain.publicId), 'customDomainVerificationFailed', {
        ...expected,
        reason: 'tokenMismatch',
      });
      t.txt.failing.add(expected.recordName);
      await expectAppErrorAsync(t.verify(admin(), domain.publicId), 'customDomainVerificationFailed', {
        ...expected,
        reason: 'dns ESERVFAIL',
      });
      expect((await t.get(admin(), domain.publicId)).status).to.equal('pending');
    });

    it('answers domainAlreadyClaimed when another organization verified first, even with the record published', async () => {
      const t = setup();
      const first = await t.add(admin(1), whiteLabel('status.acme.com'));
      const second = await t.add(admin(2), whiteLabel('status.acme.com'));
      t.txt.records.set(first.verificationRecordName, [first.verificationToken, second.verificationToken]);
      await t.verify(admin(1), first.publicId);
      await expectAppErrorAsync(t.verify(admin(2), second.publicId), 'domainAlreadyClaimed');
      expect((await t.get(admin(2), second.publicId)).status).to.equal('pending');
    });

    it('a pending entry 7 days old is gone: customDomainNotFound, and it no longer lists', async () => {
      const t = setup();
      const domain = await t.add(admin(), whiteLabel('status.acme.com'));
      t.txt.records.set(domain.verificationRecordName, [domain.verificationToken]);
      t.clock.advance(PENDING_LIFETIME_MS);
      await expectAppErrorAsync(t.verify(admin(), domain.publicId), 'customDomainNotFound');
      expect(await t.list(admin())).to.deep.equal([]);
    });

    it('the hourly purge deletes pending entries 7 days old, never verified ones', async () => {
      const t = setup();
      const pending = await t.add(admin(), whiteLabel('old.acme.com'));
      const verified = await t.add(admin(), whiteLabel('kept.acme.com'));
      t.txt.records.set(verified.verificationRecordName, [verified.verificationToken]);
      await t.verify(admin(), verified.publicId);
      const purge = new PurgeExpiredCustomDomains(t.domains, t.clock);
      t.clock.advance(PENDING_LIFETIME_MS - 1);
      expect(await purge.execute()).to.equal(0);
      t.clock.advance(1);
      expect(await purge.execute()).to.equal(1);
      expect([...t.domains.rows.values()].map((d) => d.publicId)).to.deep.equal([verified.publicId]);
      expect(pending.status).to.equal('pending');
    });

    it('out of scope answers customDomainNotFound', async () => {
      const t = setup();
      const domain = await t.add(admin(1), whiteLabel('status.acme.com'));
      await expectAppErrorAsync(t.verify(admin(2), domain.publicId), 'customDomainNotFound');
    });
  });

  describe('activating and routing', () => {
    it('activating a pending entry verifies it on the way (verified then active) and routes the host', async () => {
      const t = setup();
      const domain = await t.add(admin(), whiteLabel('status.acme.com'));
      expect(await t.hosts.find('status.acme.com')).to.equal(null);
      await expectAppErrorAsync(t.activate(admin(), domain.publicId), 'customDomainVerificationFailed');
      t.txt.records.set(domain.verificationRecordName, [domain.verificationToken]);
      const active = await t.activate(admin(), domain.publicId);
      expect(active.status).to.equal('active');
      expect(active.verifiedAt).to.not.equal(null);
      expect(await t.hosts.find('status.acme.com')).to.deep.equal({
        hostname: 'status.acme.com',
        organizationId: 1,
        customerId: null,
        kind: 'whiteLabel',
        statusPage: null,
      });
    });

    it('a verified entry is not routed until activated', async () => {
      const t = setup();
      const domain = await t.add(admin(), whiteLabel('status.acme.com'));
      t.txt.records.set(domain.verificationRecordName, [domain.verificationToken]);
      await t.verify(admin(), domain.publicId);
      expect(await t.hosts.find('status.acme.com')).to.equal(null);
      await t.activate(admin(), domain.publicId);
      expect(await t.hosts.find('status.acme.com')).to.not.equal(null);
    });

    it('removing an active entry stops routing at once and frees the hostname for another organization', async () => {
      const t = setup();
      const domain = await t.add(admin(1), whiteLabel('status.acme.com'));
      t.txt.records.set(domain.verificationRecordName, [domain.verificationToken]);
      await t.activate(admin(1), domain.publicId);
      expect(await t.hosts.find('status.acme.com')).to.not.equal(null);
      await t.remove(admin(1), domain.publicId);
      expect(await t.hosts.find('status.acme.com')).to.equal(null);
      expect((await t.add(admin(2), whiteLabel('status.acme.com'))).organizationId).to.equal(2);
    });

    it('the host lookup keeps an answer for a few seconds (changes elsewhere show within the TTL)', async () => {
      const t = setup();
      expect(await t.hosts.find('status.acme.com')).to.equal(null);
      const domain = await t.add(admin(), whiteLabel('status.acme.com'));
      domain.verify(t.clock.now());
      domain.activate(t.clock.now());
      await t.domains.save(domain); // written by another process: this one's cache is not told
      expect(await t.hosts.find('status.acme.com')).to.equal(null);
      t.clock.advance(ACTIVE_HOST_TTL_MS);
      expect(await t.hosts.find('status.acme.com')).to.not.equal(null);
    });
  });
});
