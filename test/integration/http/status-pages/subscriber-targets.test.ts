import { expect } from 'chai';
import pino from 'pino';
import { api, apiAt, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { testConfig, testDatabase } from '../../../support/test-server';
import { startApplication, type RunningApplication } from '../../../../src/main/application';

const slug = (label: string) => `${label}-${Math.random().toString(36).slice(2, 8)}`;

const PRIVATE_TARGETS: Array<[string, string]> = [
  ['http://127.0.0.1:8080/hook', 'nonPublicAddress'],
  ['http://10.0.0.5/hook', 'nonPublicAddress'],
  ['http://192.168.1.20/hook', 'nonPublicAddress'],
  ['http://169.254.10.1/hook', 'nonPublicAddress'],
  ['http://169.254.169.254/latest/meta-data', 'nonPublicAddress'],
  ['http://[::1]/hook', 'nonPublicAddress'],
  ['http://[fe80::1]/hook', 'nonPublicAddress'],
  ['http://localhost/hook', 'reservedName'],
  ['http://intranet/hook', 'reservedName'],
];

describe("status-page webhook subscribers: the channels' target rule at creation", () => {
  it("refuses loopback, private, link-local and metadata URLs and reserved names with the channels' 400, storing nothing", async () => {
    const org = await anOrganization('subscriber-targets');
    const page = await api('POST', '/api/status-pages', { token: org.token, body: { title: 'Public', slug: slug('targets') } });
    expect(page.status).to.equal(201);
    for (const [url, reason] of PRIVATE_TARGETS) {
      const subscriber = await api('POST', `/api/status-pages/${page.body.id}/subscribers`, {
        token: org.token,
        body: { channel: 'webhook', url },
      });
      const channel = await api('POST', '/api/notification-channels', {
        token: org.token,
        body: { name: 'hook', type: 'webhook', config: { url } },
      });
      expectError(subscriber, 400, 'invalidRequestBody');
      expectError(channel, 400, 'invalidRequestBody');
      expect(subscriber.body.data, url).to.include({ reason });
      expect(channel.body.data, url).to.include({ reason });
      expect(subscriber.body.message, url).to.include('not a public address');
      expect(subscriber.body.data.hint, url).to.match(/CHECK_PRIVATE_ALLOWLIST|IP address/);
    }
    const listed = await api('GET', `/api/status-pages/${page.body.id}/subscribers`, { token: org.token });
    expect(listed.body).to.deep.include({ items: [], total: 0 });
  });

  it('accepts a public URL', async () => {
    const org = await anOrganization('subscriber-public');
    const page = await api('POST', '/api/status-pages', { token: org.token, body: { title: 'Public', slug: slug('public') } });
    const created = await api('POST', `/api/status-pages/${page.body.id}/subscribers`, {
      token: org.token,
      body: { channel: 'webhook', url: 'https://hooks.subscriber-example.com/status' },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
  });

  describe('with CHECK_PRIVATE_ALLOWLIST=127.0.0.0/8', () => {
    let app: RunningApplication;
    before(async () => {
      app = await startApplication(
        { ...testConfig({ CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8' }), databaseUrl: (await testDatabase()).url },
        { jobs: false, checkWorker: false, logger: pino({ level: 'silent' }) },
      );
    });
    after(() => app?.stop());

    it('one setting governs every outbound connection: a loopback channel and subscriber are accepted, other private ranges still refused', async () => {
      const signUp = await apiAt(app.url, 'POST', '/api/auth/sign-up/email', {
        body: { name: 'Ada', email: `allow-${slug('a')}@test.example`, password: 'correct horse battery', organizationName: slug('allow') },
      });
      const token = signUp.body.token as string;
      const channel = await apiAt(app.url, 'POST', '/api/notification-channels', {
        token,
        body: { name: 'local', type: 'webhook', config: { url: 'http://127.0.0.1:9000/alerts' } },
      });
      expect(channel.status, JSON.stringify(channel.body)).to.equal(201);
      const page = await apiAt(app.url, 'POST', '/api/status-pages', { token, body: { title: 'Local', slug: slug('local') } });
      const subscriber = await apiAt(app.url, 'POST', `/api/status-pages/${page.body.id}/subscribers`, {
        token,
        body: { channel: 'webhook', url: 'http://127.0.0.1:9000/status' },
      });
      expect(subscriber.status, JSON.stringify(subscriber.body)).to.equal(201);
      const refused = await apiAt(app.url, 'POST', '/api/notification-channels', {
        token,
        body: { name: 'lan', type: 'webhook', config: { url: 'http://10.0.0.5/alerts' } },
      });
      expectError(refused, 400, 'invalidRequestBody');
      const reserved = await apiAt(app.url, 'POST', '/api/notification-channels', {
        token,
        body: { name: 'name', type: 'webhook', config: { url: 'http://localhost:9000/alerts' } },
      });
      expectError(reserved, 400, 'invalidRequestBody');
      expect(reserved.body.data).to.include({ reason: 'reservedName' });
    });
  });
});
