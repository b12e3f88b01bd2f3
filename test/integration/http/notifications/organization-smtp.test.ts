import { expect } from 'chai';
import pino from 'pino';
import { api, apiAt, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerToken } from '../../../support/identity-fixtures';
import { aMonitoredCustomer } from '../../../support/monitoring-fixtures';
import { testConfig, testDatabase, testDnsServer } from '../../../support/test-server';
import { testClock } from '../../../support/test-clock';
import { testCertificates } from '../../../support/peers/certificates';
import { SmtpPeer } from '../../../support/peers/smtp-peer';
import { startApplication, type RunningApplication } from '../../../../src/main/application';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const MAIL_HOST = 'mail.smtp-fixture.com';

describe('organization SMTP (PATCH /api/organization/smtp)', () => {
  it('refuses a non-public host with 400 smtpHostNotPublic and stores nothing', async () => {
    const org = await anOrganization('smtp-private');
    for (const [host, reason] of [
      ['127.0.0.1', 'nonPublicAddress'],
      ['10.0.0.25', 'nonPublicAddress'],
      ['localhost', 'reservedName'],
      ['mail.corp.internal', 'reservedName'],
    ]) {
      const response = await api('PATCH', '/api/organization/smtp', {
        token: org.token,
        body: { host, fromAddress: 'alerts@example.com' },
      });
      expectError(response, 400, 'smtpHostNotPublic');
      expect(response.body.data, host).to.deep.equal({ code: 'smtpHostNotPublic', reason });
    }
    expectError(await api('GET', '/api/organization/smtp', { token: org.token }), 404, 'smtpNotConfigured');
  });

  it('is for organization administrators: customer-scoped callers answer 403 customerScopedTokenForbidden', async () => {
    const org = await anOrganization('smtp-scope');
    const customer = await aMonitoredCustomer(org.token);
    const token = await aCustomerToken(org.token, customer.id);
    const body = { host: 'smtp.example.com', fromAddress: 'alerts@example.com' };
    expectError(await api('PATCH', '/api/organization/smtp', { token, body }), 403, 'customerScopedTokenForbidden');
    expectError(await api('GET', '/api/organization/smtp', { token }), 403, 'customerScopedTokenForbidden');
  });

  /**
   * The service as an operator runs it to reach a mail server on a private network:
   * CHECK_PRIVATE_ALLOWLIST admits loopback, the real target policy vets the name (resolved by the
   * test DNS to 127.0.0.1) and nodemailer verifies against a real smtp-server on loopback.
   */
  describe('verified against a loopback smtp-server', () => {
    const certs = testCertificates();
    const plain = new SmtpPeer(certs.selfSigned, { starttls: false });
    const tls = new SmtpPeer(certs.selfSigned);
    let app: RunningApplication;
    const call = (method: string, token: string, body?: unknown) => apiAt(app.url, method, '/api/organization/smtp', { token, body });

    before(async () => {
      await Promise.all([plain.start(), tls.start()]);
      const dns = await testDnsServer();
      dns.set(MAIL_HOST, { A: ['127.0.0.1'] });
      const config = testConfig({ DNS_SERVERS: dns.server, CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8' });
      app = await startApplication(
        { ...config, databaseUrl: (await testDatabase()).url },
        {
          clock: testClock,
          jobs: false,
          checkWorker: false,
          logger: pino({ level: 'silent' }),
        },
      );
    });
    after(async () => {
      await app?.stop();
      await Promise.all([plain.stop(), tls.stop()]);
    });

    it('stores the settings after logging in, the password encrypted and never answered', async () => {
      const org = await anOrganization('smtp-ok');
      const response = await call('PATCH', org.token, {
        host: MAIL_HOST,
        port: plain.port,
        security: 'none',
        username: 'user',
        password: 'secret',
        fromAddress: 'alerts@example.com',
      });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body).to.deep.equal({
        host: MAIL_HOST,
        port: plain.port,
        security: 'none',
        username: 'user',
        passwordSet: true,
        fromAddress: 'alerts@example.com',
        verifiedAt: response.body.verifiedAt,
        updatedAt: response.body.updatedAt,
      });
      expect(response.text).not.to.include('secret');
      expect((await call('GET', org.token)).body).to.deep.equal(response.body);
      const [row] = await app.database.sql.query<{ password_ciphertext: string }>(
        sql`SELECT password_ciphertext FROM organization_smtp WHERE organization_id = ${org.user.organizationId}`,
      );
      expect(row!.password_ciphertext).to.match(/^v1\./).and.not.include('secret');

      // a change of the sender alone verifies again with the stored (sealed) password
      const sender = await call('PATCH', org.token, { fromAddress: 'noc@example.com' });
      expect(sender.status, JSON.stringify(sender.body)).to.equal(200);
      expect(sender.body).to.include({ fromAddress: 'noc@example.com', username: 'user', passwordSet: true, port: plain.port });
    });

    it('answers 422 smtpVerificationFailed when the server refuses the login, keeping the stored settings', async () => {
      const org = await anOrganization('smtp-auth');
      const good = await call('PATCH', org.token, {
        host: MAIL_HOST,
        port: plain.port,
        security: 'none',
        username: 'user',
        password: 'secret',
        fromAddress: 'alerts@example.com',
      });
      expect(good.status).to.equal(200);
      const bad = await call('PATCH', org.token, { password: 'wrong' });
      expectError(bad, 422, 'smtpVerificationFailed');
      expect(bad.body.data).to.deep.equal({ code: 'smtpVerificationFailed', reason: 'authenticationFailed' });
      expect((await call('GET', org.token)).body).to.deep.equal(good.body);
    });

    it('checks the certificate on STARTTLS: a self-signed server answers smtpVerificationFailed (tlsFailed)', async () => {
      const org = await anOrganization('smtp-tls');
      const response = await call('PATCH', org.token, {
        host: MAIL_HOST,
        port: tls.port,
        security: 'starttls',
        fromAddress: 'alerts@example.com',
      });
      expectError(response, 422, 'smtpVerificationFailed');
      expect(response.body.data).to.deep.equal({ code: 'smtpVerificationFailed', reason: 'tlsFailed' });
      expectError(await call('GET', org.token), 404, 'smtpNotConfigured');
    });

    it('answers connectionFailed when nothing listens, and DELETE forgets the settings', async () => {
      const org = await anOrganization('smtp-closed');
      const closed = await call('PATCH', org.token, { host: MAIL_HOST, port: 1, security: 'none', fromAddress: 'alerts@example.com' });
      expectError(closed, 422, 'smtpVerificationFailed');
      expect(closed.body.data.reason).to.equal('connectionFailed');
      expect(
        (await call('PATCH', org.token, { host: MAIL_HOST, port: plain.port, security: 'none', fromAddress: 'a@example.com' })).status,
      ).to.equal(200);
      expect((await call('DELETE', org.token)).status).to.equal(204);
      expectError(await call('GET', org.token), 404, 'smtpNotConfigured');
      expectError(await call('DELETE', org.token), 404, 'smtpNotConfigured');
    });
  });
});
