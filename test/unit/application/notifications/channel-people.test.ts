import { expect } from 'chai';
import { expectAppErrorAsync } from '../../../support/expect-app-error';
import { anActor } from '../../../support/builders';
import { harness } from './harness';

const admin = () => anActor().build();
const ORG_WIDE = '0b6f3c1e-2d4a-4f5b-9c8d-7e6f5a4b3c2d';
const OF_CUSTOMER_10 = '1b6f3c1e-2d4a-4f5b-9c8d-7e6f5a4b3c2d';
const OF_CUSTOMER_11 = '2b6f3c1e-2d4a-4f5b-9c8d-7e6f5a4b3c2d';
const OF_ORGANIZATION_2 = '3b6f3c1e-2d4a-4f5b-9c8d-7e6f5a4b3c2d';
const NO_ONE = '4b6f3c1e-2d4a-4f5b-9c8d-7e6f5a4b3c2d';
const push = (...userIds: string[]) => ({ name: 'phones', type: 'web-push' as const, config: { userIds } });

/** The harness's organizations and customers, with one user of each scope. */
function withPeople() {
  const h = harness();
  h.owners.users.push(
    { id: ORG_WIDE, organizationId: 1, customerId: null },
    { id: OF_CUSTOMER_10, organizationId: 1, customerId: 10 },
    { id: OF_CUSTOMER_11, organizationId: 1, customerId: 11 },
    { id: OF_ORGANIZATION_2, organizationId: 2, customerId: null },
  );
  return h;
}

const notOfScope = (index: number) => ({ field: `config.userIds.${index}`, reason: 'notAUserOfScope' });

describe('the people a web-push channel names', () => {
  it("an organization channel names organization-wide users of the caller's organization only", async () => {
    const h = withPeople();
    const { channel } = await h.create.execute(admin(), push(ORG_WIDE));
    expect(channel.config.userIds).to.deep.equal([ORG_WIDE]);
    for (const stranger of [OF_ORGANIZATION_2, NO_ONE, OF_CUSTOMER_10]) {
      await expectAppErrorAsync(() => h.create.execute(admin(), push(ORG_WIDE, stranger)), 'invalidRequestBody', notOfScope(1));
    }
    expect(h.channels.rows.size).to.equal(1);
  });

  it("another organization's user is refused exactly as an id no one has", async () => {
    const h = withPeople();
    const foreign = await expectAppErrorAsync(() => h.create.execute(admin(), push(OF_ORGANIZATION_2)), 'invalidRequestBody');
    const unknown = await expectAppErrorAsync(() => h.create.execute(admin(), push(NO_ONE)), 'invalidRequestBody');
    expect(foreign.details).to.deep.equal(unknown.details);
    expect(foreign.message).to.equal(unknown.message);
  });

  it("a customer's channel names organization-wide users and that customer's, not another customer's", async () => {
    const h = withPeople();
    const { channel } = await h.create.execute(admin(), { ...push(ORG_WIDE, OF_CUSTOMER_10), customerId: 10 });
    expect(channel.config.userIds).to.deep.equal([ORG_WIDE, OF_CUSTOMER_10]);
    await expectAppErrorAsync(
      () => h.create.execute(anActor().forCustomer(10).build(), { ...push(OF_CUSTOMER_10, OF_CUSTOMER_11), name: 'p2' }),
      'invalidRequestBody',
      notOfScope(1),
    );
  });

  it("a monitor's override judges its people by the monitor's customer", async () => {
    const h = withPeople();
    const source = (await h.create.execute(admin(), push(ORG_WIDE))).channel;
    await h.create.execute(admin(), { name: 'o', websiteId: 100, sourceChannelId: source.id, config: { userIds: [OF_CUSTOMER_10] } });
    await expectAppErrorAsync(
      () => h.create.execute(admin(), { name: 'o', websiteId: 200, sourceChannelId: source.id, config: { userIds: [OF_CUSTOMER_10] } }),
      'invalidRequestBody',
      notOfScope(0),
    );
  });

  it("names the item as the caller sent it (duplicates and capitals count), and takes an id's capitals", async () => {
    const h = withPeople();
    await expectAppErrorAsync(
      () => h.create.execute(admin(), push(ORG_WIDE, ORG_WIDE.toUpperCase(), NO_ONE)),
      'invalidRequestBody',
      notOfScope(2),
    );
    const { channel } = await h.create.execute(admin(), push(ORG_WIDE.toUpperCase()));
    expect(channel.config.userIds).to.deep.equal([ORG_WIDE]);
  });

  it('a new config is judged at update; a change that leaves the config alone is not', async () => {
    const h = withPeople();
    const { channel } = await h.create.execute(admin(), { ...push(OF_CUSTOMER_10), customerId: 10 });
    const id = channel.publicId;
    await expectAppErrorAsync(
      () => h.update.execute(admin(), { id, change: { config: { userIds: [OF_CUSTOMER_10, OF_ORGANIZATION_2] } } }),
      'invalidRequestBody',
      notOfScope(1),
    );
    expect(h.channels.rows.get(channel.id)!.config.userIds).to.deep.equal([OF_CUSTOMER_10]);
    // The user moved to another customer since: the channel can still be renamed, not given a config naming them.
    h.owners.users[1] = { id: OF_CUSTOMER_10, organizationId: 1, customerId: 11 };
    await h.update.execute(admin(), { id, change: { name: 'renamed' } });
    expect(h.channels.rows.get(channel.id)!.name).to.equal('renamed');
    await expectAppErrorAsync(
      () => h.update.execute(admin(), { id, change: { config: { userIds: [OF_CUSTOMER_10] } } }),
      'invalidRequestBody',
      notOfScope(0),
    );
    await h.update.execute(admin(), { id, change: { config: { userIds: [ORG_WIDE] } } });
    expect(h.channels.rows.get(channel.id)!.config.userIds).to.deep.equal([ORG_WIDE]);
  });

  it('a type change to web-push is judged as well', async () => {
    const h = withPeople();
    const { channel } = await h.create.execute(admin(), { name: 'mail', type: 'email', config: { recipients: ['ops@example.com'] } });
    await expectAppErrorAsync(
      () => h.update.execute(admin(), { id: channel.publicId, change: { type: 'web-push', config: { userIds: [NO_ONE] } } }),
      'invalidRequestBody',
      notOfScope(0),
    );
    expect(h.channels.rows.get(channel.id)!.type).to.equal('email');
  });
});
