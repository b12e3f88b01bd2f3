import { FakeTransaction } from '../../../support/fakes/shared-fakes';
import { expect } from 'chai';
import { expectAppErrorAsync } from '../../../support/expect-app-error';
import { anActor } from '../../../support/builders';
import { harness } from './harness';

const website = { url: 'https://www.example.com/', customerId: 10 };

describe('MonitorWriter.create', () => {
  it('creates a managed website for an organization caller, with the customer alert defaults', async () => {
    const h = harness();
    const monitor = await h.writer.create(anActor().build(), 'website', { ...website });
    expect(monitor).to.include({
      kind: 'website',
      managementType: 'managed',
      customerId: 10,
      url: 'https://www.example.com/',
      alertConsecutiveChecks: 3,
      alertLocationThreshold: '0.50',
    });
    expect(h.policy.vetted).to.deep.equal(['www.example.com']);
    expect(h.monitors.locks).to.deep.equal(['customer:10']);
    expect(h.monitors.rows.size).to.equal(1);
  });

  it('gives a monitor without locations those some live check process serves, the whole catalogue while none is live', async () => {
    const h = harness();
    const now = h.clock.now();
    expect((await h.writer.create(anActor().build(), 'website', { ...website })).locations).to.deep.equal([
      'eu-west',
      'us-east',
      'ap-southeast',
    ]);
    h.served.workers.push(
      { locations: ['ap-southeast', 'heartbeat'], aliveUntil: new Date(now.getTime() + 15_000) },
      { locations: ['us-east', 'heartbeat'], aliveUntil: new Date(now.getTime() - 1) },
    );
    expect((await h.writer.create(anActor().build(), 'website', { ...website })).locations).to.deep.equal(['ap-southeast']);
    expect(
      (await h.writer.create(anActor().build(), 'website', { ...website, locations: ['us-east'] })).locations,
      'sent locations stand',
    ).to.deep.equal(['us-east']);
  });

  it("takes the organization's private locations and platform locations, refuses another organization's as unknown, and never defaults to them", async () => {
    const h = harness();
    h.known.granted.push(
      { code: 'office-a', organizationId: 1 },
      { code: 'office-b', organizationId: 2 },
      { code: 'ap-north', organizationId: null },
    );
    const created = await h.writer.create(anActor().build(), 'website', { ...website, locations: ['office-a', 'ap-north'] });
    expect(created.locations).to.deep.equal(['office-a', 'ap-north']);
    const refused = await expectAppErrorAsync(
      () => h.writer.create(anActor().build(), 'website', { ...website, locations: ['office-b'] }),
      'validationFailed',
    );
    const [message] = (refused.details.issues as Array<{ message: string }>).map((issue) => issue.message);
    expect(message).to.include('Unknown location: office-b');
    expect(message!.split('known: ')[1], "the known list is the organization's").to.include('office-a').and.not.include('office-b');
    expect((await h.writer.create(anActor().build(), 'website', { ...website })).locations).to.deep.equal([
      'eu-west',
      'us-east',
      'ap-southeast',
    ]);
    const moved = await h.writer.update(anActor().build(), created, { locations: ['eu-west', 'office-a'] }, null);
    expect(moved.locations).to.deep.equal(['eu-west', 'office-a']);
    await expectAppErrorAsync(() => h.writer.update(anActor().build(), moved, { locations: ['office-b'] }, null), 'validationFailed');
  });

  it("leaves the addresses of a monitor checked only from private locations to their probes' policy, checking the spelling alone", async () => {
    const h = harness();
    h.known.granted.push({ code: 'office-a', organizationId: 1 }, { code: 'ap-north', organizationId: null });
    const intranet = { ...website, url: 'http://intranet.corp/health', locations: ['office-a'] };
    const created = await h.writer.create(anActor().build(), 'website', intranet);
    expect(created.locations).to.deep.equal(['office-a']);
    await h.writer.create(anActor().build(), 'website', { ...intranet, url: 'http://10.1.2.3/' });
    await h.writer.create(anActor().build(), 'tcp', { customerId: 10, hostname: 'db.internal', port: 5432, locations: ['office-a'] });
    // The spelling is still the service's to check.
    await expectAppErrorAsync(
      () => h.writer.create(anActor().build(), 'website', { ...intranet, url: 'http://exa mple.corp/' }),
      'invalidUrl',
    );
    expect(h.policy.vetted, "the service's policy was never asked").to.deep.equal([]);
    // Also checked from a location the service's own processes or platform probes serve: the service's policy applies.
    await expectAppErrorAsync(
      () => h.writer.create(anActor().build(), 'website', { ...intranet, locations: ['office-a', 'ap-north'] }),
      'invalidUrl',
    );
    await expectAppErrorAsync(
      () => h.writer.update(anActor().build(), created, { locations: ['office-a', 'eu-west'] }, null),
      'invalidUrl',
    );
  });

  it('answers a validation issue without a customer and invalidCustomer for one outside the organization', async () => {
    const h = harness();
    await expectAppErrorAsync(() => h.writer.create(anActor().build(), 'website', { url: website.url }), 'validationFailed');
    h.customers.set(11, { organizationId: 2 });
    await expectAppErrorAsync(() => h.writer.create(anActor().build(), 'website', { ...website, customerId: 11 }), 'invalidCustomer');
    await expectAppErrorAsync(
      () => h.writer.create(anActor().forCustomer(10).build(), 'website', { ...website, customerId: 11 }),
      'invalidCustomer',
    );
  });

  it('refuses targets the policy rejects, with the code of the field, before saving', async () => {
    const h = harness();
    await expectAppErrorAsync(
      () => h.writer.create(anActor().build(), 'website', { ...website, url: 'https://intranet.corp.acme.io/' }),
      'invalidUrl',
      { reason: 'nonPublicAddress' },
    );
    await expectAppErrorAsync(
      () => h.writer.create(anActor().build(), 'website', { ...website, connectHost: 'origin.acme.io' }),
      'connectHostNotPublic',
    );
    await expectAppErrorAsync(
      () => h.writer.create(anActor().build(), 'tcp', { customerId: 10, hostname: '10.0.0.1', port: 22 }),
      'invalidHostname',
    );
    expect(h.monitors.rows.size).to.equal(0);
  });

  it('gives customer-scoped callers self-service monitors within allowSelfService and maxSelfServiceUrls', async () => {
    const h = harness();
    h.customers.set(10, { maxSelfServiceUrls: 1 });
    const own = await h.writer.create(anActor().forCustomer(10).build(), 'website', { url: website.url });
    expect(own.managementType).to.equal('self_service');
    await expectAppErrorAsync(
      () => h.writer.create(anActor().forCustomer(10).build(), 'dns', { hostname: 'example.com' }),
      'selfServiceQuotaReached',
    );
    await h.writer.create(anActor().build(), 'dns', { customerId: 10, hostname: 'example.com' });
    h.customers.set(10, { allowSelfService: false });
    await expectAppErrorAsync(
      () => h.writer.create(anActor().forCustomer(10).build(), 'website', { url: website.url }),
      'selfServiceNotAllowed',
    );
    await expectAppErrorAsync(
      () => h.writer.create(anActor().forCustomer(10).build(), 'website', { url: website.url, managementType: 'managed' }),
      'managementTypeOrgOnly',
    );
  });

  it('enforces the quota tier: reached, automatic upgrade, top tier, and the agent opt-in', async () => {
    const h = harness();
    h.customers.set(10, {
      quotaTiers: [
        { monitorLimit: 1, priceMonthly: 0 },
        { monitorLimit: 2, priceMonthly: 9 },
      ],
    });
    await h.writer.create(anActor().build(), 'website', { ...website });
    await expectAppErrorAsync(() => h.writer.create(anActor().build(), 'website', { ...website }), 'monitorQuotaReached');
    h.customers.set(10, { autoQuotaUpgrade: true });
    await expectAppErrorAsync(
      () => h.writer.create(anActor().asAgent().build(), 'website', { ...website }),
      'paidQuotaUpgradeNotAuthorized',
    );
    await h.writer.create(anActor().asAgent().build(), 'website', { ...website, allowPaidQuotaUpgrade: true });
    expect(h.customers.upgrades).to.deep.equal([10]);
    await expectAppErrorAsync(() => h.writer.create(anActor().build(), 'website', { ...website }), 'monitorQuotaNoHigherTier');
  });

  it('refuses writes by read-only users and responders', async () => {
    const h = harness();
    await expectAppErrorAsync(() => h.writer.create(anActor().withRole('readonly').build(), 'website', { ...website }), 'roleForbidden');
    await expectAppErrorAsync(() => h.writer.create(anActor().withRole('responder').build(), 'website', { ...website }), 'roleForbidden');
  });

  it('stores credentials only encrypted, bound to the monitor, and issues heartbeat tokens', async () => {
    const h = harness();
    const smtp = await h.writer.create(anActor().build(), 'smtp', {
      customerId: 10,
      hostname: 'mail.example.com',
      credentials: { username: 'u', password: 'secret' },
    });
    expect(smtp.credentialsCiphertext).to.match(new RegExp(`^sealed\\(monitor:${smtp.publicId}\\):`));
    expect(smtp.credentialsCiphertext).not.to.include('secret');
    const heartbeat = await h.writer.create(anActor().build(), 'website', {
      customerId: 10,
      monitoringType: 'heartbeat',
      heartbeatToken: 'mine',
    });
    expect(heartbeat.heartbeatToken).to.match(/^hb_x{40}/);
    expect(heartbeat.isScheduled).to.equal(false);
  });
});

describe('MonitorWriter.update and remove', () => {
  it('keeps managed monitors from customer-scoped callers unless canEditManaged', async () => {
    const h = harness();
    const managed = await h.writer.create(anActor().build(), 'website', { ...website });
    await expectAppErrorAsync(
      () => h.writer.update(anActor().forCustomer(10).build(), managed, { name: 'x' }, null),
      'managed_by_organization',
    );
    await expectAppErrorAsync(
      () => h.writer.remove(anActor().forCustomer(10).build(), managed, new FakeTransaction()),
      'managed_by_organization',
    );
    h.customers.set(10, { canEditManaged: true });
    expect((await h.writer.update(anActor().forCustomer(10).build(), managed, { name: 'Shop' }, null)).name).to.equal('Shop');
  });

  it('lets only organization admins flip the class, and counts flips against maxSelfServiceUrls', async () => {
    const h = harness();
    h.customers.set(10, { maxSelfServiceUrls: 1 });
    const first = await h.writer.create(anActor().build(), 'website', { ...website });
    const second = await h.writer.create(anActor().build(), 'dns', { customerId: 10, hostname: 'example.com' });
    await expectAppErrorAsync(
      () => h.writer.update(anActor().withRole('editor').build(), first, { managementType: 'self_service' }, null),
      'managementTypeOrgOnly',
    );
    expect((await h.writer.update(anActor().build(), first, { managementType: 'self_service' }, null)).managementType).to.equal(
      'self_service',
    );
    await expectAppErrorAsync(
      () => h.writer.update(anActor().build(), second, { managementType: 'self_service' }, null),
      'selfServiceQuotaReached',
    );
    const own = (await h.monitors.findByRef({ organizationId: 1, customerId: 10 }, 'website', first.publicId))!;
    await expectAppErrorAsync(
      () => h.writer.update(anActor().forCustomer(10).build(), own, { managementType: 'managed' }, null),
      'managementTypeOrgOnly',
    );
  });

  it('answers conflict when the monitor changed since it was read', async () => {
    const h = harness();
    const monitor = await h.writer.create(anActor().build(), 'website', { ...website });
    const stale = (await h.monitors.findByRef(anActor().build().scope, 'website', monitor.publicId))!;
    await h.writer.update(anActor().build(), monitor, { name: 'first' }, null);
    await expectAppErrorAsync(() => h.writer.update(anActor().build(), stale, { name: 'second' }, null), 'conflict');
  });

  it('clears stored credentials when the check falls back to tcp', async () => {
    const h = harness();
    const ssh = await h.writer.create(anActor().build(), 'ssh', {
      customerId: 10,
      hostname: 'ssh.example.com',
      credentials: { username: 'root', privateKey: 'KEY' },
    });
    expect(ssh.credentialsCiphertext).not.to.equal(null);
    const tcp = await h.writer.update(anActor().build(), ssh, { checkMode: 'tcp' }, null);
    expect(tcp).to.include({ checkMode: 'tcp', credentialsCiphertext: null });
  });

  it('never lets read-only users delete', async () => {
    const h = harness();
    const monitor = await h.writer.create(anActor().build(), 'website', { ...website });
    await expectAppErrorAsync(
      () => h.writer.remove(anActor().withRole('readonly').build(), monitor, new FakeTransaction()),
      'readonlyMayNotDelete',
    );
    await h.writer.remove(anActor().withRole('editor').build(), monitor, new FakeTransaction());
    expect(h.monitors.rows.size).to.equal(0);
  });
});
