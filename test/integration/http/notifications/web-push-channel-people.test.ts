import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow, aCustomerToken, aMember } from '../../../support/identity-fixtures';

const phones = (userIds: string[], more: Record<string, unknown> = {}) => ({
  name: 'Phones',
  type: 'web-push',
  config: { userIds },
  ...more,
});

/**
 * A web-push channel names people: users of the caller's organization who see the channel's scope.
 * Anyone else is refused with the item named (a JSON pointer), and a user of another organization
 * exactly as an id no one has.
 */
describe('web-push channel people', () => {
  it("refuses another organization's user as it refuses an id no one has, and names the item", async () => {
    const org = await anOrganization('push-people');
    const other = await anOrganization('push-people-other');
    const theirs = await api('POST', '/api/notification-channels', { token: org.token, body: phones([org.user.id, other.user.id]) });
    expectError(theirs, 400, 'invalidRequestBody');
    expect(theirs.body.data).to.deep.include({ field: '/config/userIds/1', reason: 'notAUserOfScope' });
    const nobody = await api('POST', '/api/notification-channels', { token: org.token, body: phones([org.user.id, randomUUID()]) });
    expectError(nobody, 400, 'invalidRequestBody');
    expect(theirs.body.data).to.deep.equal(nobody.body.data);
    expect(theirs.body.message).to.equal(nobody.body.message);
    expect(JSON.stringify(theirs.body)).not.to.include(other.user.id);

    const listed = await api('GET', '/api/notification-channels', { token: org.token });
    expect(listed.body.items).to.deep.equal([]);
    const mine = await api('POST', '/api/notification-channels', { token: org.token, body: phones([org.user.id]) });
    expect(mine.status, JSON.stringify(mine.body)).to.equal(201);
    expect(mine.body.config).to.deep.equal({ userIds: [org.user.id] });
  });

  it("takes only people who see the channel's customer, at create and when the config changes", async () => {
    const org = await anOrganization('push-people-scope');
    const [ours, theirs] = [await aCustomerRow(org.user.organizationId, 'Ours'), await aCustomerRow(org.user.organizationId, 'Theirs')];
    const ourEditor = await aMember(org, 'editor', ours);
    const theirEditor = await aMember(org, 'editor', theirs);

    const onOrganization = await api('POST', '/api/notification-channels', { token: org.token, body: phones([ourEditor.id]) });
    expectError(onOrganization, 400, 'invalidRequestBody');
    expect(onOrganization.body.data).to.deep.include({ field: '/config/userIds/0', reason: 'notAUserOfScope' });

    const created = await api('POST', '/api/notification-channels', {
      token: org.token,
      body: phones([org.user.id, ourEditor.id], { customerId: ours }),
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const crossed = await api('POST', '/api/notification-channels', {
      token: org.token,
      body: phones([ourEditor.id, theirEditor.id], { name: 'Crossed', customerId: ours }),
    });
    expectError(crossed, 400, 'invalidRequestBody');
    expect(crossed.body.data).to.deep.include({ field: '/config/userIds/1' });

    const customerToken = await aCustomerToken(org.token, ours);
    const byCustomer = await api('POST', '/api/notification-channels', {
      token: customerToken,
      body: phones([theirEditor.id], { name: 'By customer' }),
    });
    expectError(byCustomer, 400, 'invalidRequestBody');
    expect(byCustomer.body.data).to.deep.include({ field: '/config/userIds/0' });

    const id = created.body.publicId as string;
    const changed = await api('PATCH', `/api/notification-channels/${id}`, {
      token: org.token,
      body: { config: { userIds: [ourEditor.id, theirEditor.id] } },
    });
    expectError(changed, 400, 'invalidRequestBody');
    expect(changed.body.data).to.deep.include({ field: '/config/userIds/1', reason: 'notAUserOfScope' });
    const read = await api('GET', `/api/notification-channels/${id}`, { token: org.token });
    expect(read.body.config).to.deep.equal({ userIds: [org.user.id, ourEditor.id] });
    const renamed = await api('PATCH', `/api/notification-channels/${id}`, { token: org.token, body: { name: 'Our phones' } });
    expect(renamed.status, JSON.stringify(renamed.body)).to.equal(200);
  });
});
