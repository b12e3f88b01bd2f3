import { expect } from 'chai';
import { api, expectError, type ApiResponse } from '../../../support/http-client';
import { aCallerSet, type CallerSet } from '../../../support/callers';
import { aMonitor, aMonitorPackage, aMonitoredCustomer, aWebsite } from '../../../support/monitoring-fixtures';

/** dependsOn through the API: create, update, read, the scoping and loop rules, audit and deletion. */
describe('monitor dependencies over HTTP', () => {
  let callers: CallerSet;
  before(async () => {
    callers = await aCallerSet();
  });
  const site = (body: Record<string, unknown> = {}, token = callers.admin) => aWebsite(token, { customerId: callers.customer.id, ...body });

  it('creates, reads and replaces the monitors a website or a monitor depends on, by id or publicId', async () => {
    const server = await aMonitor(callers.admin, 'dns', { customerId: callers.customer.id, hostname: 'www.monitor-fixture.com' });
    const dns = await aMonitor(callers.admin, 'dns', { customerId: callers.customer.id, hostname: 'monitor-fixture.com' });
    const shop = await site({ dependsOn: [server.publicId, dns.id] });
    expect(shop.dependsOn).to.deep.equal([server.publicId, dns.publicId]);
    const read = await api('GET', `/api/websites/${shop.publicId}`, { token: callers.admin });
    expect(read.body.dependsOn).to.deep.equal([server.publicId, dns.publicId]);
    const listed = await api('GET', '/api/websites', { token: callers.admin, query: { customerId: String(callers.customer.id) } });
    expect(listed.body.items.find((w: { publicId: string }) => w.publicId === shop.publicId).dependsOn).to.have.length(2);

    const patched = await api('PATCH', `/api/websites/${shop.publicId}`, { token: callers.admin, body: { dependsOn: [dns.publicId] } });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    expect(patched.body.dependsOn).to.deep.equal([dns.publicId]);
    const untouched = await api('PATCH', `/api/websites/${shop.publicId}`, { token: callers.admin, body: { name: 'Shop' } });
    expect(untouched.body.dependsOn, 'a patch without dependsOn keeps them').to.deep.equal([dns.publicId]);

    const onDns = await api('PATCH', `/api/monitors/dns/${server.publicId}`, { token: callers.admin, body: { dependsOn: [dns.publicId] } });
    expect(onDns.status, JSON.stringify(onDns.body)).to.equal(200);
    expect(onDns.body.dependsOn).to.deep.equal([dns.publicId]);

    const audit = await api('GET', '/api/audit-log', { token: callers.admin, query: { resourceId: shop.publicId } });
    const changed = audit.body.items.filter((e: { changes: Record<string, unknown> }) => e.changes?.dependsOn !== undefined);
    expect(changed.length, 'each change of dependsOn is in the audit log').to.be.at.least(2);

    // Deleting a dependency takes it out of every list.
    expect((await api('DELETE', `/api/monitors/dns/${dns.publicId}`, { token: callers.admin })).status).to.equal(200);
    expect((await api('GET', `/api/websites/${shop.publicId}`, { token: callers.admin })).body.dependsOn).to.deep.equal([]);
    expect((await api('GET', `/api/monitors/dns/${server.publicId}`, { token: callers.admin })).body.dependsOn).to.deep.equal([]);
  });

  it('refuses a loop with 400 dependencyCycle naming its monitors in order, and changes nothing', async () => {
    const a = await site();
    const b = await site({ dependsOn: [a.publicId] });
    const c = await site({ dependsOn: [b.publicId] });
    const loop = await api('PATCH', `/api/websites/${a.publicId}`, { token: callers.admin, body: { dependsOn: [c.publicId] } });
    expectError(loop, 400, 'dependencyCycle');
    expect(loop.body.data.cycle).to.deep.equal([a.publicId, c.publicId, b.publicId, a.publicId]);
    expectError(
      await api('PATCH', `/api/websites/${a.publicId}`, { token: callers.admin, body: { dependsOn: [a.publicId] } }),
      400,
      'dependencyCycle',
    );
    expect((await api('GET', `/api/websites/${a.publicId}`, { token: callers.admin })).body.dependsOn).to.deep.equal([]);
  });

  it("keeps customers apart: a customer's token never names another customer's monitor; the organization links its managed ones", async () => {
    const shared = await aWebsite(callers.admin, { customerId: callers.otherCustomer.id, name: 'Shared DNS' });
    const ownBody = { dependsOn: [shared.publicId] };
    const mine = await site();
    const own = await site();
    expect(
      (await api('PATCH', `/api/customers/${callers.customer.id}`, { token: callers.admin, body: { canEditManaged: true } })).status,
    ).to.equal(200);
    // The customer-bound caller cannot see it: not found, as any monitor it cannot see; its own customer's are fine.
    const byCustomer = await api('PATCH', `/api/websites/${mine.publicId}`, { token: callers.customerToken, body: ownBody });
    expectError(byCustomer, 404, 'dependencyNotFound');
    const ownLink = await api('PATCH', `/api/websites/${mine.publicId}`, {
      token: callers.customerToken,
      body: { dependsOn: [own.publicId] },
    });
    expect(ownLink.status, JSON.stringify(ownLink.body)).to.equal(200);
    // The organization links its managed monitor of another customer.
    const linked = await api('PATCH', `/api/websites/${mine.publicId}`, { token: callers.admin, body: ownBody });
    expect(linked.status, JSON.stringify(linked.body)).to.equal(200);
    expect(linked.body.dependsOn).to.deep.equal([shared.publicId]);
    // Never another customer's self-service monitor.
    const selfService = await aWebsite(callers.admin, { customerId: callers.otherCustomer.id, managementType: 'self_service' });
    expectError(
      await api('PATCH', `/api/websites/${mine.publicId}`, { token: callers.admin, body: { dependsOn: [selfService.publicId] } }),
      400,
      'dependencyNotShared',
    );
    // Another organization's monitor does not exist for this one.
    const foreign = await aWebsite(callers.stranger, { customerId: (await aMonitoredCustomer(callers.stranger)).id });
    expectError(
      await api('PATCH', `/api/websites/${mine.publicId}`, { token: callers.admin, body: { dependsOn: [foreign.publicId] } }),
      404,
      'dependencyNotFound',
    );
    expectError(
      await api('PATCH', `/api/websites/${mine.publicId}`, { token: callers.admin, body: { dependsOn: ['not-a-monitor'] } }),
      404,
      'dependencyNotFound',
    );
  });

  it('refuses more than 20 with 400 tooManyDependencies (data.max 20) on create and update of websites and monitors, and changes nothing', async () => {
    // Room for the 21 dependencies and the monitors under test (the default package stops at 50).
    const roomy = await aMonitorPackage(callers.admin, { quotaTiers: [{ monitorLimit: 1000, priceMonthly: 0 }] });
    const moved = await api('PATCH', `/api/customers/${callers.customer.publicId}`, {
      token: callers.admin,
      body: { packageId: roomy.id },
    });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    const targets: string[] = [];
    for (let i = 0; i < 21; i++) targets.push((await site({ name: `Dependency ${i}` })).publicId as string);
    const tooMany = (response: ApiResponse) => {
      expectError(response, 400, 'tooManyDependencies');
      expect(response.body.data).to.deep.equal({ code: 'tooManyDependencies', field: '/dependsOn', max: 20 });
    };
    const dnsBody = { customerId: callers.customer.id, hostname: 'monitor-fixture.com' };

    tooMany(
      await api('POST', '/api/websites', {
        token: callers.admin,
        body: { customerId: callers.customer.id, url: 'https://www.monitor-fixture.com/', dependsOn: targets },
      }),
    );
    tooMany(await api('POST', '/api/monitors/dns', { token: callers.admin, body: { ...dnsBody, dependsOn: targets } }));

    const website = await site({ dependsOn: targets.slice(0, 20) });
    expect(website.dependsOn, 'twenty is the limit, not past it').to.deep.equal(targets.slice(0, 20));
    tooMany(await api('PATCH', `/api/websites/${website.publicId}`, { token: callers.admin, body: { dependsOn: targets } }));
    tooMany(await api('PATCH', `/api/websites/${website.publicId}`, { token: callers.customerToken, body: { dependsOn: targets } }));
    expect((await api('GET', `/api/websites/${website.publicId}`, { token: callers.admin })).body.dependsOn).to.deep.equal(
      targets.slice(0, 20),
    );

    const dns = await aMonitor(callers.admin, 'dns', dnsBody);
    tooMany(await api('PATCH', `/api/monitors/dns/${dns.publicId}`, { token: callers.admin, body: { dependsOn: targets } }));
    expect((await api('GET', `/api/monitors/dns/${dns.publicId}`, { token: callers.admin })).body.dependsOn).to.deep.equal([]);

    // The same monitor named twice counts once: 21 references naming 20 monitors are 20 dependencies.
    const twice = await api('PATCH', `/api/monitors/dns/${dns.publicId}`, {
      token: callers.admin,
      body: { dependsOn: [...targets.slice(0, 20), targets[0]] },
    });
    expect(twice.status, JSON.stringify(twice.body)).to.equal(200);
    expect(twice.body.dependsOn).to.deep.equal(targets.slice(0, 20));
  });

  it('refuses a malformed list, and a list past the hard cap of 1000 references, as bad input (validationFailed)', async () => {
    const mine = await site();
    expectError(
      await api('PATCH', `/api/websites/${mine.publicId}`, { token: callers.admin, body: { dependsOn: 'x' } }),
      400,
      'validationFailed',
    );
    const huge = Array.from({ length: 1001 }, (_, i) => String(i + 1));
    expectError(
      await api('PATCH', `/api/websites/${mine.publicId}`, { token: callers.admin, body: { dependsOn: huge } }),
      400,
      'validationFailed',
    );
  });
});
