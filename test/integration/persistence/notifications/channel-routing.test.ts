import { expect } from 'chai';
import { api } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMonitoredCustomer, aWebsite } from '../../../support/monitoring-fixtures';
import { inJobContext } from '../../../support/tenancy-server';
import { RouteChannelEvent } from '../../../../src/application/notifications/route-channel-event';
import type { ChannelEventOccurrence } from '../../../../src/domain/notifications/channel-routing';
import { NotificationChannel } from '../../../../src/domain/notifications/notification-channel';
import { organizationScope, type TenantScope } from '../../../../src/domain/shared/tenant-scope';
import { NOTIFICATION_CHANNEL_REPOSITORY, type NotificationChannelRepository } from '../../../../src/application/notifications/ports';

async function aChannel(token: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const response = await api('POST', '/api/notification-channels', { token, body: { name: 'c', ...body } });
  if (response.status !== 201) throw new Error(`channel create failed: ${JSON.stringify(response.body)}`);
  return response.body;
}

const route = (event: ChannelEventOccurrence) =>
  inJobContext(async (get) => (await get<RouteChannelEvent>(RouteChannelEvent as never).execute(event)).map((c) => c.id));

/** The deliverer's question against the real tables: which channels does this event go to? */
describe('routing an event through the stored channels (RouteChannelEvent on PostgreSQL)', () => {
  it("answers the organization's and the customer's channels, the monitor's override in its source's place", async () => {
    const org = await anOrganization('routing');
    const customer = await aMonitoredCustomer(org.token);
    const neighbour = await aMonitoredCustomer(org.token);
    const website = await aWebsite().forCustomer(customer.id).create(org.token);
    const other = await aWebsite().forCustomer(customer.id).create(org.token);
    const orgHook = await aChannel(org.token, { type: 'webhook', config: { url: 'https://hooks.routing-fixture.com/a' } });
    const orgMail = await aChannel(org.token, {
      type: 'email',
      config: { recipients: ['ops@example.com'] },
      events: ['incident.resolved'],
    });
    const customerSms = await aChannel(org.token, { type: 'sms', customerId: customer.id, config: { phoneNumbers: ['+4930123456'] } });
    await aChannel(org.token, { type: 'sms', customerId: neighbour.id, config: { phoneNumbers: ['+4930654321'] } });
    const override = await aChannel(org.token, {
      websiteId: website.id,
      sourceChannelId: orgHook.id,
      config: { url: 'https://hooks.routing-fixture.com/b' },
    });
    await aChannel(org.token, { websiteId: website.id, sourceChannelId: customerSms.id, enabled: false });
    const organizationId = org.user.organizationId;

    expect(await route({ kind: 'incident.opened', organizationId, customerId: customer.id, monitorId: website.id })).to.deep.equal([
      override.id,
    ]);
    expect(await route({ kind: 'incident.opened', organizationId, customerId: customer.id, monitorId: other.id })).to.deep.equal([
      orgHook.id,
      customerSms.id,
    ]);
    expect(await route({ kind: 'incident.resolved', organizationId, customerId: customer.id, monitorId: other.id })).to.deep.equal([
      orgHook.id,
      orgMail.id,
      customerSms.id,
    ]);
    expect(await route({ kind: 'domain.expiring', organizationId, customerId: customer.id, monitorId: null })).to.deep.equal([
      orgHook.id,
      customerSms.id,
    ]);
  });
});

/** The delivery round's read of its channels, straight from the rows: in scope only, whole. */
describe('a delivery round reading its channels (findByPublicIds on PostgreSQL)', () => {
  it("answers the channels in scope among the ids, with their config, events and health, and none of another tenant's", async () => {
    const org = await anOrganization('round-read');
    const stranger = await anOrganization('round-read-other');
    const customer = await aMonitoredCustomer(org.token);
    const hook = await aChannel(org.token, {
      type: 'webhook',
      config: { url: 'https://hooks.routing-fixture.com/r', headers: { 'X-Team': 'ops' } },
      events: ['incident.opened'],
    });
    const sms = await aChannel(org.token, { type: 'sms', customerId: customer.id, config: { phoneNumbers: ['+4930123456'] } });
    const theirs = await aChannel(stranger.token, { type: 'webhook', config: { url: 'https://hooks.routing-fixture.com/s' } });
    const read = (scope: TenantScope, ids: string[]) =>
      inJobContext((get) => get<NotificationChannelRepository>(NOTIFICATION_CHANNEL_REPOSITORY).findByPublicIds(scope, ids));
    const ids = [hook.publicId, sms.publicId, theirs.publicId, 'not-a-uuid'];

    const found = await read(organizationScope(org.user.organizationId), ids);
    expect(found.map((c) => c.publicId).sort()).to.deep.equal([hook.publicId, sms.publicId].sort());
    const readHook = found.find((c) => c.publicId === hook.publicId)!;
    expect(readHook).to.be.instanceOf(NotificationChannel);
    expect(readHook).to.deep.include({
      id: hook.id,
      organizationId: org.user.organizationId,
      customerId: null,
      monitorId: null,
      type: 'webhook',
      enabled: true,
      events: ['incident.opened'],
      consecutiveFailures: 0,
      failingSince: null,
    });
    expect(readHook.config).to.deep.include({ url: 'https://hooks.routing-fixture.com/r', headers: { 'X-Team': 'ops' } });
    expect(readHook.secretCiphertext, 'the sealed secret, for signing').to.be.a('string');
    const customerOnly = await read({ organizationId: org.user.organizationId, customerId: customer.id }, ids);
    expect(
      customerOnly.map((c) => c.publicId),
      'a customer scope reaches its own channels only',
    ).to.deep.equal([sms.publicId]);
    expect(await read(organizationScope(org.user.organizationId), [])).to.deep.equal([]);
  });
});
