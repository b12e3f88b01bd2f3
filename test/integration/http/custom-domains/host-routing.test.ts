import { expect } from 'chai';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import type { Request, Response } from 'express';
import { startApplication, type RunningApplication } from '../../../../src/main/application';
import { STATUS_PAGE_DIRECTORY } from '../../../../src/application/custom-domains/ports';
import type { ActiveHost } from '../../../../src/application/custom-domains/ports';
import { STATUS_PAGE_HOST, type StatusPageHost } from '../../../../src/interfaces/http/custom-domains/host-routing';
import { apiAt, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomer } from '../../../support/callers';
import { aCustomerToken } from '../../../support/identity-fixtures';
import { testConfig, testDatabase, testDnsServer } from '../../../support/test-server';
import { FakeStatusPages } from '../../../support/fakes/custom-domains-fakes';

const CANONICAL = 'api.test.example';

/** A request with any Host and headers (fetch cannot set Host). */
function raw(url: string, method: string, path: string, headers: Record<string, string>) {
  const target = new URL(url);
  return new Promise<{ status: number; text: string; body: any }>((resolve, reject) => {
    const request = http.request({ host: target.hostname, port: target.port, method, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try { body = JSON.parse(text); } catch { /* not JSON */ }
        resolve({ status: response.statusCode!, text, body });
      });
    });
    request.on('error', reject);
    request.end();
  });
}

/** Stands in for the status pages context: answers which page it would render, and the path it was asked for. */
const pageHost: StatusPageHost = {
  serve(host: ActiveHost, req: Request, res: Response) {
    res.type('html').send(`<h1>status page ${host.statusPageId} of organization ${host.organizationId}</h1><p>${req.path}</p>`);
  },
};

describe('custom domains: routing by Host', () => {
  let app: RunningApplication;
  const pages = new FakeStatusPages();

  before(async () => {
    const { url } = await testDatabase();
    const dns = await testDnsServer();
    // Proxies on loopback are trusted here (TRUST_PROXY), as behind a local Caddy.
    app = await startApplication({ ...testConfig({ DNS_SERVERS: dns.server, TRUST_PROXY: '127.0.0.1/32' }), databaseUrl: url }, { jobs: false, logger: pino({ level: 'silent' }) });
    app.container.rebind(STATUS_PAGE_DIRECTORY).toConstantValue(pages);
  });
  after(() => app?.stop());

  /** An organization with an active status page domain for page `pageId`. */
  async function anActiveStatusPageDomain() {
    const org = await anOrganization();
    const pageId = `page-${randomBytes(3).toString('hex')}`;
    pages.pages.set(pageId, { id: pageId, organizationId: org.user.organizationId, customerId: null });
    const hostname = `status-${randomBytes(4).toString('hex')}.customer-brand.com`;
    const created = await apiAt(app.url, 'POST', '/api/custom-domains', { token: org.token, body: { hostname, kind: 'statusPage', statusPageId: pageId } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    (await testDnsServer()).set(created.body.verification.recordName, { TXT: [created.body.verification.recordValue] });
    const activated = await apiAt(app.url, 'POST', `/api/custom-domains/${created.body.id}/activate`, { token: org.token });
    expect(activated.status, JSON.stringify(activated.body)).to.equal(200);
    return { org, pageId, hostname, id: created.body.id as string };
  }

  it('a customer-scoped caller manages the domain of its own customer\'s page, and sees only that', async () => {
    const org = await anOrganization();
    const customer = await aCustomer(org.token);
    const token = await aCustomerToken(org.token, customer.id);
    const ownPage = `page-${randomBytes(3).toString('hex')}`;
    const orgPage = `page-${randomBytes(3).toString('hex')}`;
    pages.pages.set(ownPage, { id: ownPage, organizationId: org.user.organizationId, customerId: customer.id });
    pages.pages.set(orgPage, { id: orgPage, organizationId: org.user.organizationId, customerId: null });
    const hostname = `status-${randomBytes(4).toString('hex')}.customer-brand.com`;
    const own = await apiAt(app.url, 'POST', '/api/custom-domains', { token, body: { hostname, kind: 'statusPage', statusPageId: ownPage } });
    expect(own.status, JSON.stringify(own.body)).to.equal(201);
    expect(own.body).to.include({ customerId: customer.id, statusPageId: ownPage, kind: 'statusPage' });
    expectError(await apiAt(app.url, 'POST', '/api/custom-domains', { token, body: { hostname: `x.${hostname}`, kind: 'statusPage', statusPageId: orgPage } }), 404, 'statusPageNotFound');
    await apiAt(app.url, 'POST', '/api/custom-domains', { token: org.token, body: { hostname: `org-${hostname}`, kind: 'statusPage', statusPageId: orgPage } });
    expect((await apiAt(app.url, 'GET', '/api/custom-domains', { token })).body.map((d: { hostname: string }) => d.hostname)).to.deep.equal([hostname]);
    expect((await apiAt(app.url, 'GET', '/api/custom-domains', { token: org.token })).body).to.have.length(2);
  });

  it('without a status page host bound, a status page domain answers 404 without a code', async () => {
    const { hostname } = await anActiveStatusPageDomain();
    expect(app.container.isBound(STATUS_PAGE_HOST)).to.equal(false);
    expectError(await raw(app.url, 'GET', '/', { host: hostname }), 404);
  });

  describe('with the status pages context bound', () => {
    before(() => {
      app.container.bind(STATUS_PAGE_HOST).toConstantValue(pageHost);
    });

    it('serves the status page at / on its verified domain', async () => {
      const { org, pageId, hostname } = await anActiveStatusPageDomain();
      const page = await raw(app.url, 'GET', '/', { host: hostname });
      expect(page.status).to.equal(200);
      expect(page.text).to.equal(`<h1>status page ${pageId} of organization ${org.user.organizationId}</h1><p>/</p>`);
      const withPort = await raw(app.url, 'GET', '/', { host: `${hostname.toUpperCase()}:443` });
      expect(withPort.text).to.include(`status page ${pageId}`);
    });

    it('answers 404 without a code for agent and discovery endpoints there, before the page', async () => {
      const { hostname } = await anActiveStatusPageDomain();
      for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource', '/auth.md', '/agent/identity', '/oauth2/token']) {
        expectError(await raw(app.url, path.startsWith('/.well') || path === '/auth.md' ? 'GET' : 'POST', path, { host: hostname }), 404);
      }
      expect((await raw(app.url, 'GET', '/.well-known/oauth-authorization-server', { host: CANONICAL })).status).to.equal(200);
    });

    it('believes X-Forwarded-Host from a proxy named in TRUST_PROXY (the value that proxy added last)', async () => {
      const { pageId, hostname } = await anActiveStatusPageDomain();
      const proxied = await raw(app.url, 'GET', '/', { host: CANONICAL, 'x-forwarded-host': `evil.example.org, ${hostname}` });
      expect(proxied.text).to.include(`status page ${pageId}`);
    });

    it('the canonical host and unknown hosts behave as before', async () => {
      await anActiveStatusPageDomain();
      expectError(await raw(app.url, 'GET', '/', { host: CANONICAL }), 404);
      expectError(await raw(app.url, 'GET', '/', { host: 'unknown-host.example.org' }), 404);
      expect((await raw(app.url, 'GET', '/livez', { host: 'unknown-host.example.org' })).status).to.equal(200);
    });

    it('stops serving the page at once when the domain is removed', async () => {
      const { org, hostname, id } = await anActiveStatusPageDomain();
      expect((await raw(app.url, 'GET', '/', { host: hostname })).status).to.equal(200);
      expect((await apiAt(app.url, 'DELETE', `/api/custom-domains/${id}`, { token: org.token })).status).to.equal(200);
      expectError(await raw(app.url, 'GET', '/', { host: hostname }), 404);
    });
  });
});
