import { aTenancyWorld } from '../../../support/builders/tenancy';
import { expect } from 'chai';
import { aCustomer, anActor } from '../../../support/builders';
import { codeOf } from '../../../support/expect-app-error';

const admin = () => anActor().build();

/** Customers c1 ("One", `first`) and c2 ("Two"), and the customer-IP use cases. */
async function aCustomerIpWorld() {
  const world = aTenancyWorld();
  const first = await world.customers.add(aCustomer().withPublicId('c1').named('One').build());
  await world.customers.add(aCustomer().withPublicId('c2').named('Two').build());
  return { ...world, first, add: world.addIp, list: world.listIps, update: world.updateIp };
}

describe('customer IP use cases', () => {
  it('stores the canonical address and refuses an invalid one with validationFailed on ipAddress', async () => {
    const s = await aCustomerIpWorld();
    const ip = await s.add.execute(admin(), { customerId: 'c1', ip: { ipAddress: '2001:DB8::0:1' } });
    expect(ip).to.include({ ipAddress: '2001:db8::1', ipFamily: 'v6', customerId: s.first.id, organizationId: 1 });
    const refused = await s.add.execute(admin(), { customerId: 'c1', ip: { ipAddress: '999.1.1.1' } }).catch((e) => e);
    expect(refused.code).to.equal('validationFailed');
    expect(refused.details.issues[0].path).to.deep.equal(['ipAddress']);
  });

  it('adds only under a customer in scope, and only for writers', async () => {
    const s = await aCustomerIpWorld();
    const scoped = anActor().viaApiToken().forCustomer(s.first.id).build();
    expect(await codeOf(s.add.execute(scoped, { customerId: 'c2', ip: { ipAddress: '192.0.2.1' } }))).to.equal('customerNotFound');
    expect(
      await codeOf(s.add.execute(anActor().withRole('readonly').build(), { customerId: 'c1', ip: { ipAddress: '192.0.2.1' } })),
    ).to.equal('roleForbidden');
    expect((await s.add.execute(scoped, { customerId: 'c1', ip: { ipAddress: '192.0.2.1' } })).customerId).to.equal(s.first.id);
  });

  it('answers an empty page for another organizationId without asking the repository', async () => {
    const s = await aCustomerIpWorld();
    await s.add.execute(admin(), { customerId: 'c1', ip: { ipAddress: '192.0.2.1' } });
    expect(JSON.parse(await s.list.execute(admin(), { organizationId: 2, page: 1, perPage: 50 }))).to.deep.equal({
      items: [],
      total: 0,
      page: 1,
      perPage: 50,
    });
    expect(s.ips.lastList).to.equal(null);
    expect(JSON.parse(await s.list.execute(admin(), { organizationId: 1, page: 1, perPage: 50 })).total).to.equal(1);
  });

  it('reports a changed address so earlier blocklist results are dropped', async () => {
    const s = await aCustomerIpWorld();
    const ip = await s.add.execute(admin(), { customerId: 'c1', ip: { ipAddress: '192.0.2.1' } });
    expect(ip.change({ ip: { address: '192.0.2.1', family: 'v4' } }, new Date())).to.deep.equal({ readdressed: false });
    const updated = await s.update.execute(admin(), { id: String(ip.id), change: { ipAddress: '::ffff:192.0.2.9', label: 'relay' } });
    expect(updated).to.include({ ipAddress: '192.0.2.9', ipFamily: 'v4', label: 'relay' });
  });
});
