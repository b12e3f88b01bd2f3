import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerToken } from '../../../support/identity-fixtures';
import { aMonitoredCustomer, aWebsite } from '../../../support/monitoring-fixtures';
import { CHANNEL_EVENTS } from '../../../../src/domain/notifications/channel-events';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const HOOK = 'https://hooks.receiver-fixture.com/alerts';

async function aChannel(token: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const response = await api('POST', '/api/notification-channels', { token, body: { name: 'On call', ...body } });
  if (response.status !== 201) throw new Error(`channel create failed: ${JSON.stringify(response.body)}`);
  return response.body;
}

/** An organization with a customer that has one website, and a customer-scoped token for that customer. */
async function aMonitoredOrganization(label: string) {
  const org = await anOrganization(label);
  const customer = await aMonitoredCustomer(org.token);
  const website = await aWebsite().forCustomer(customer.id).create(org.token);
  return { org, token: org.token, customer, website };
}

describe('notification channels', () => {
  it('creates a webhook channel: the signing secret is answered once, never again, and the record reads back', async () => {
    const org = await anOrganization('channels');
    const created = await api('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'Ops webhook', type: 'webhook', config: { url: HOOK, headers: { Authorization: 'Bearer abc' } } },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const channel = created.body;
    expect(channel).to.deep.equal({
      id: channel.id,
      publicId: channel.publicId,
      organizationId: org.user.organizationId,
      customerId: null,
      websiteId: null,
      sourceChannelId: null,
      key: null,
      scope: 'organization',
      name: 'Ops webhook',
      type: 'webhook',
      config: { url: HOOK, headers: { Authorization: 'Bearer abc' } },
      events: [...CHANNEL_EVENTS],
      enabled: true,
      isDefault: false,
      health: {
        status: 'healthy',
        consecutiveFailures: 0,
        failingSince: null,
        lastFailureAt: null,
        lastFailureReason: null,
        lastSuccessAt: null,
      },
      problems: [],
      createdAt: channel.createdAt,
      updatedAt: channel.createdAt,
      signingSecret: channel.signingSecret,
    });
    expect(channel.publicId).to.match(UUID);
    expect(channel.createdAt).to.match(ISO);
    expect(channel.signingSecret).to.match(/^whsec_.{20,}$/);

    const { signingSecret, ...stored } = channel;
    const read = await api('GET', `/api/notification-channels/${channel.publicId}`, { token: org.token });
    expect(read.body).to.deep.equal(stored);
    expect(JSON.stringify(read.body)).not.to.include(signingSecret);
    const listed = await api('GET', '/api/notification-channels', { token: org.token });
    expect(listed.body.items).to.deep.equal([stored]);
    const patched = await api('PATCH', `/api/notification-channels/${channel.id}`, { token: org.token, body: { name: 'Renamed' } });
    expect(patched.status).to.equal(200);
    expect(patched.body).not.to.have.property('signingSecret');
  });

  it('stores email, sms and chat channels with their own config, de-duplicating addresses', async () => {
    const org = await anOrganization('channel-kinds');
    const email = await aChannel(org.token, {
      type: 'email',
      config: { recipients: ['Ops@Example.com', 'ops@example.com', 'cto@example.com'] },
      events: ['incident.opened', 'incident.resolved'],
    });
    expect(email).to.include({ type: 'email' });
    expect(email.config).to.deep.equal({ recipients: ['ops@example.com', 'cto@example.com'] });
    expect(email.events).to.deep.equal(['incident.opened', 'incident.resolved']);
    expect(email).not.to.have.property('signingSecret');
    const sms = await aChannel(org.token, { type: 'sms', config: { phoneNumbers: ['+4930123456'] } });
    expect(sms.config).to.deep.equal({ phoneNumbers: ['+4930123456'] });
    for (const type of ['slack', 'teams', 'discord']) {
      // messagePrefix is message content: a URL in it, even a loopback one, is not judged
      const chat = await aChannel(org.token, {
        type,
        config: { url: `https://${type}.chat-fixture.com/hook/1`, messagePrefix: 'see http://localhost/runbook' },
      });
      expect(chat.config).to.deep.equal({ url: `https://${type}.chat-fixture.com/hook/1`, messagePrefix: 'see http://localhost/runbook' });
    }
    const all = await api('GET', '/api/notification-channels', { token: org.token });
    expect(all.body.items.map((c: any) => c.type)).to.deep.equal(['email', 'sms', 'slack', 'teams', 'discord']);
  });

  it('stores an ntfy channel (server URL, topic, optional token), refuses a bad topic naming it, and compares ntfy channels by topic', async () => {
    const org = await anOrganization('channel-ntfy');
    const ntfy = await aChannel(org.token, {
      type: 'ntfy',
      config: { url: 'https://ntfy.sh', topic: 'ops-alerts', token: 'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2' },
    });
    expect(ntfy).to.include({ type: 'ntfy' });
    expect(ntfy).not.to.have.property('signingSecret');
    const config = { url: 'https://ntfy.sh/', topic: 'ops-alerts', token: 'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2', messagePrefix: null };
    expect(ntfy.config).to.deep.equal(config);
    expect((await api('GET', `/api/notification-channels/${ntfy.id}`, { token: org.token })).body.config).to.deep.equal(config);

    for (const [topic, reason] of [
      ['ops alerts', 'notATopic'],
      ['ops/alerts', 'notATopic'],
      [undefined, 'required'],
    ] as const) {
      const refused = await api('POST', '/api/notification-channels', {
        token: org.token,
        body: { name: 'x', type: 'ntfy', config: { url: 'https://ntfy.sh', topic } },
      });
      expectError(refused, 400, 'invalidRequestBody');
      expect(refused.body.data, String(topic)).to.deep.include({ code: 'invalidRequestBody', field: '/config/topic', reason });
    }
    // Longer than ntfy's 64 characters: the edge's shape check, as a URL past 2048 characters.
    const long = await api('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'x', type: 'ntfy', config: { url: 'https://ntfy.sh', topic: 'x'.repeat(65) } },
    });
    expectError(long, 400, 'validationFailed');
    expect(long.body.data.issues.map((i: { path: unknown }) => i.path)).to.deep.equal([['config', 'topic']]);
    const badToken = await api('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'x', type: 'ntfy', config: { url: 'https://ntfy.sh', topic: 'other', token: 'tk bad' } },
    });
    expectError(badToken, 400, 'invalidRequestBody');
    expect(badToken.body.data).to.deep.include({ field: '/config/token', reason: 'badToken' });
    const loopback = await api('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'x', type: 'ntfy', config: { url: 'http://127.0.0.1/', topic: 'other' } },
    });
    expect(loopback.body.data).to.deep.include({ code: 'invalidRequestBody', field: '/config/url', reason: 'nonPublicAddress' });

    // Every topic of a server shares its URL: another topic is another recipient, the same topic a clash.
    await aChannel(org.token, { type: 'ntfy', config: { url: 'https://ntfy.sh', topic: 'billing' } });
    const clash = await api('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'again', type: 'ntfy', config: { url: 'https://ntfy.sh', topic: 'ops-alerts' } },
    });
    expectError(clash, 409, 'notificationChannelRecipientExists');
    expect(clash.body.data.channelId).to.equal(ntfy.id);
    const all = await api('GET', '/api/notification-channels', { token: org.token });
    expect(all.body.items.map((c: any) => c.config.topic)).to.deep.equal(['ops-alerts', 'billing']);
  });

  it('answers 400 invalidRequestBody for every kind of URL the rule refuses, storing nothing', async () => {
    const org = await anOrganization('channel-urls');
    const refused: Array<[string, string]> = [
      ['not a url', 'malformed'],
      ['ftp://hooks.example.com/x', 'malformed'],
      ['https://user:pw@hooks.example.com/', 'malformed'],
      ['http://10.1.2.3/hook', 'nonPublicAddress'],
      ['http://127.0.0.1:8080/hook', 'nonPublicAddress'],
      ['http://[::1]/hook', 'nonPublicAddress'],
      ['http://169.254.169.254/latest', 'nonPublicAddress'],
      ['http://0x7f.1/hook', 'nonPublicAddress'],
      ['http://localhost/hook', 'reservedName'],
      ['http://printer.local/hook', 'reservedName'],
      ['http://hooks.internal/x', 'reservedName'],
      ['http://nas.home.arpa/x', 'reservedName'],
      ['http://intranet/x', 'reservedName'],
    ];
    for (const [url, reason] of refused) {
      for (const type of ['webhook', 'slack']) {
        const response = await api('POST', '/api/notification-channels', { token: org.token, body: { name: 'x', type, config: { url } } });
        expectError(response, 400, 'invalidRequestBody');
        expect(response.body.data, url).to.deep.include({ code: 'invalidRequestBody', field: '/config/url', reason });
      }
    }
    expect((await api('GET', '/api/notification-channels', { token: org.token })).body.items).to.deep.equal([]);
  });

  it('refuses a Host header on webhooks (webhookHostHeaderForbidden), on create and on update', async () => {
    const org = await anOrganization('channel-host');
    const create = await api('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'x', type: 'webhook', config: { url: HOOK, headers: { host: 'evil.example.com' } } },
    });
    expectError(create, 400, 'webhookHostHeaderForbidden');
    const channel = await aChannel(org.token, { type: 'webhook', config: { url: HOOK } });
    const update = await api('PATCH', `/api/notification-channels/${channel.id}`, {
      token: org.token,
      body: { config: { url: HOOK, headers: { HOST: 'evil.example.com' } } },
    });
    expectError(update, 400, 'webhookHostHeaderForbidden');
    expect((await api('GET', `/api/notification-channels/${channel.id}`, { token: org.token })).body.config).to.deep.equal({
      url: HOOK,
      headers: {},
    });
  });

  it('answers 409 notificationChannelRecipientExists with data.channelId for an active channel of the same type and scope', async () => {
    const org = await anOrganization('channel-recipients');
    const customer = await aMonitoredCustomer(org.token);
    const first = await aChannel(org.token, { type: 'email', config: { recipients: ['ops@example.com'] } });
    const clash = await api('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'again', type: 'email', config: { recipients: ['cto@example.com', 'OPS@example.com'] } },
    });
    expectError(clash, 409, 'notificationChannelRecipientExists');
    expect(clash.body.data).to.deep.equal({ code: 'notificationChannelRecipientExists', channelId: first.id });
    // another scope, or another type, or a disabled channel: no clash
    await aChannel(org.token, { type: 'email', customerId: customer.id, config: { recipients: ['ops@example.com'] } });
    const disabled = await aChannel(org.token, { type: 'email', enabled: false, config: { recipients: ['ops@example.com'] } });
    // enabling it makes it clash
    const enable = await api('PATCH', `/api/notification-channels/${disabled.id}`, { token: org.token, body: { enabled: true } });
    expectError(enable, 409, 'notificationChannelRecipientExists');
    expect(enable.body.data.channelId).to.equal(first.id);
    expect((await api('GET', `/api/notification-channels/${disabled.id}`, { token: org.token })).body.enabled).to.equal(false);
  });

  it('needs a config to change type (configRequiredForTypeChange); a channel becoming a webhook gets its secret once', async () => {
    const org = await anOrganization('channel-type');
    const channel = await aChannel(org.token, { type: 'email', config: { recipients: ['ops@example.com'] } });
    const bare = await api('PATCH', `/api/notification-channels/${channel.id}`, { token: org.token, body: { type: 'webhook' } });
    expectError(bare, 400, 'configRequiredForTypeChange');
    expect((await api('GET', `/api/notification-channels/${channel.id}`, { token: org.token })).body.type).to.equal('email');
    const changed = await api('PATCH', `/api/notification-channels/${channel.id}`, {
      token: org.token,
      body: { type: 'webhook', config: { url: HOOK } },
    });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(changed.body).to.include({ type: 'webhook' });
    expect(changed.body.signingSecret).to.match(/^whsec_/);
    expect((await api('GET', `/api/notification-channels/${channel.id}`, { token: org.token })).body)
      .to.include({ type: 'webhook' })
      .and.not.to.have.property('signingSecret');
  });

  it('answers channelIdRequired, invalidChannelId and channelNotFound for update, delete and get', async () => {
    const org = await anOrganization('channel-ids');
    const other = await anOrganization('channel-ids-other');
    const foreign = await aChannel(other.token, { type: 'sms', config: { phoneNumbers: ['+4930123456'] } });
    for (const method of ['PATCH', 'DELETE', 'GET']) {
      const body = method === 'PATCH' ? { name: 'x' } : undefined;
      expectError(await api(method, '/api/notification-channels/%20', { token: org.token, body }), 400, 'channelIdRequired');
      expectError(await api(method, '/api/notification-channels/abc', { token: org.token, body }), 400, 'invalidChannelId');
      expectError(await api(method, '/api/notification-channels/0', { token: org.token, body }), 400, 'invalidChannelId');
      expectError(await api(method, '/api/notification-channels/999999', { token: org.token, body }), 404, 'channelNotFound');
      expectError(await api(method, `/api/notification-channels/${foreign.publicId}`, { token: org.token, body }), 404, 'channelNotFound');
    }
    expect((await api('GET', `/api/notification-channels/${foreign.id}`, { token: other.token })).status).to.equal(200);
  });

  it('deletes a channel with its monitor overrides', async () => {
    const { token, website } = await aMonitoredOrganization('channel-delete');
    const source = await aChannel(token, { type: 'webhook', config: { url: HOOK } });
    const override = await aChannel(token, { websiteId: website.id, sourceChannelId: source.id, enabled: false });
    const deleted = await api('DELETE', `/api/notification-channels/${source.publicId}`, { token });
    expect(deleted.body).to.deep.equal({ success: true, id: source.id, publicId: source.publicId, deletedOverrides: 1 });
    expectError(await api('GET', `/api/notification-channels/${source.id}`, { token }), 404, 'channelNotFound');
    expectError(await api('GET', `/api/notification-channels/${override.id}`, { token }), 404, 'channelNotFound');
  });

  describe('monitor overrides', () => {
    it("creates an override taking its source's type, config and events; lists it by websiteId", async () => {
      const { token, customer, website } = await aMonitoredOrganization('overrides');
      const source = await aChannel(token, { type: 'email', config: { recipients: ['ops@example.com'] }, events: ['incident.opened'] });
      const override = await aChannel(token, {
        name: 'Quiet for this one',
        websiteId: website.publicId,
        sourceChannelId: String(source.id),
      });
      expect(override).to.include({
        scope: 'website',
        websiteId: website.id,
        customerId: customer.id,
        sourceChannelId: source.id,
        type: 'email',
      });
      expect(override.config).to.deep.equal({ recipients: ['ops@example.com'] });
      expect(override.events).to.deep.equal(['incident.opened']);
      const byWebsite = await api('GET', '/api/notification-channels', { token, query: { websiteId: String(website.id) } });
      expect(byWebsite.body.items.map((c: any) => c.id)).to.deep.equal([override.id]);
      const byCustomer = await api('GET', '/api/notification-channels', { token, query: { customerId: customer.publicId } });
      expect(byCustomer.body.items.map((c: any) => c.id)).to.deep.equal([override.id]);
    });

    it('answers sourceChannelIdRequired, invalidSourceChannelId, sourceChannelNotFound and websiteChannelOverrideExists', async () => {
      const { token, website } = await aMonitoredOrganization('override-codes');
      const other = await anOrganization('override-codes-other');
      const foreign = await aChannel(other.token, { type: 'webhook', config: { url: HOOK } });
      const source = await aChannel(token, { type: 'webhook', config: { url: HOOK } });
      const post = (body: Record<string, unknown>) =>
        api('POST', '/api/notification-channels', { token, body: { name: 'o', websiteId: website.id, ...body } });
      expectError(await post({}), 400, 'sourceChannelIdRequired');
      expectError(await post({ sourceChannelId: null }), 400, 'sourceChannelIdRequired');
      expectError(await post({ sourceChannelId: '' }), 400, 'sourceChannelIdRequired');
      expectError(await post({ sourceChannelId: 'first' }), 400, 'invalidSourceChannelId');
      expectError(await post({ sourceChannelId: -3 }), 400, 'invalidSourceChannelId');
      expectError(await post({ sourceChannelId: 1.5 }), 400, 'invalidSourceChannelId');
      expectError(await post({ sourceChannelId: 999_999 }), 404, 'sourceChannelNotFound');
      expectError(await post({ sourceChannelId: foreign.id }), 404, 'sourceChannelNotFound');
      const first = await post({ sourceChannelId: source.id });
      expect(first.status).to.equal(201);
      const again = await post({ sourceChannelId: source.publicId });
      expectError(again, 409, 'websiteChannelOverrideExists');
      expect(again.body.data.channelId).to.equal(first.body.id);
      // an override is never a source
      expectError(await post({ sourceChannelId: first.body.id }), 400, 'invalidSourceChannelId');
      const listed = await api('GET', '/api/notification-channels', { token });
      expect(listed.body.items.map((c: any) => c.id)).to.deep.equal([source.id, first.body.id]);
    });

    it('answers monitorNotFound for a monitor of another organization', async () => {
      const { token } = await aMonitoredOrganization('override-monitor');
      const stranger = await aMonitoredOrganization('override-monitor-other');
      const source = await aChannel(token, { type: 'webhook', config: { url: HOOK } });
      const response = await api('POST', '/api/notification-channels', {
        token,
        body: { name: 'o', websiteId: stranger.website.id, sourceChannelId: source.id },
      });
      expectError(response, 404, 'monitorNotFound');
    });
  });

  describe('customer scope', () => {
    it("confines a customer-scoped caller to its customer's channels: others answer 404, creates land on its customer", async () => {
      const { token, customer } = await aMonitoredOrganization('channel-scope');
      const otherCustomer = await aMonitoredCustomer(token);
      const customerToken = await aCustomerToken(token, customer.id);
      const orgChannel = await aChannel(token, { type: 'webhook', config: { url: HOOK } });
      const neighbour = await aChannel(token, { type: 'sms', customerId: otherCustomer.id, config: { phoneNumbers: ['+4930123456'] } });
      const own = await aChannel(customerToken, { type: 'email', config: { recipients: ['me@example.com'] } });
      expect(own).to.include({ customerId: customer.id, scope: 'customer' });

      for (const hidden of [orgChannel, neighbour]) {
        expectError(await api('GET', `/api/notification-channels/${hidden.id}`, { token: customerToken }), 404, 'channelNotFound');
        expectError(
          await api('PATCH', `/api/notification-channels/${hidden.id}`, { token: customerToken, body: { enabled: false } }),
          404,
          'channelNotFound',
        );
        expectError(await api('DELETE', `/api/notification-channels/${hidden.id}`, { token: customerToken }), 404, 'channelNotFound');
      }
      expectError(
        await api('POST', '/api/notification-channels', {
          token: customerToken,
          body: { name: 'x', type: 'sms', customerId: otherCustomer.id, config: { phoneNumbers: ['+4930999999'] } },
        }),
        404,
        'customerNotFound',
      );
      expectError(
        await api('GET', '/api/notification-channels', { token: customerToken, query: { customerId: String(otherCustomer.id) } }),
        404,
        'customerNotFound',
      );
      const listed = await api('GET', '/api/notification-channels', { token: customerToken });
      expect(listed.body.items.map((c: any) => c.id)).to.deep.equal([own.id]);
      // the organization's channels are unchanged
      expect((await api('GET', `/api/notification-channels/${neighbour.id}`, { token })).body.enabled).to.equal(true);
    });
  });
});
