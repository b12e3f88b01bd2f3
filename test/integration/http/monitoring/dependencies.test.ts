import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { aCallerSet, type CallerSet } from '../../../support/callers';
import { aMonitor, aMonitoredCustomer, aWebsite } from '../../../support/monitoring-fixtures';

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

  it('refuses more than 20 and a malformed list as bad input', async () => {
    const mine = await site();
    const many = Array.from({ length: 21 }, (_, i) => String(i + 1));
    expect((await api('PATCH', `/api/websites/${mine.publicId}`, { token: callers.admin, body: { dependsOn: many } })).status).to.equal(
      400,
    );
    expect((await api('PATCH', `/api/websites/${mine.publicId}`, { token: callers.admin, body: { dependsOn: 'x' } })).status).to.equal(400);
  });
});
