import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { startApplication, type RunningApplication } from '../../../../src/main/application';
import { apiAt, expectError, rawAt as raw } from '../../../support/http-client';
import { anOrganization, type SignedUp } from '../../../support/builders';
import { aCustomerRow, aCustomerToken } from '../../../support/identity-fixtures';
import { aMonitorRow } from '../../../support/results-fixtures';
import { testConfig, testDatabase, testDnsServer } from '../../../support/test-server';

const CANONICAL = 'api.test.example';

const aHostname = () => `status-${randomBytes(4).toString('hex')}.customer-brand.com`;

describe('custom domains: routing by Host', () => {
  let app: RunningApplication;

  before(async () => {
    const { url } = await testDatabase();
    const dns = await testDnsServer();
    // Proxies on loopback are trusted here (TRUST_PROXY), as behind a local Caddy.
    app = await startApplication(
      { ...testConfig({ DNS_SERVERS: dns.server, TRUST_PROXY: '127.0.0.1/32' }), databaseUrl: url },
      { jobs: false, logger: pino({ level: 'silent' }) },
    );
  });
  after(() => app?.stop());

  /** A status page of the organization (or of `customerId`) showing one monitor. */
  async function aStatusPage(org: SignedUp, options: { customerId?: number; password?: string; title?: string } = {}) {
    const customerId = options.customerId ?? (await aCustomerRow(org.user.organizationId));
    const monitor = await aMonitorRow(org.user.organizationId, customerId, { name: 'Shop website', locations: ['eu-west'] });
    const slug = `brand-${randomBytes(4).toString('hex')}`;
    const body = {
      title: options.title ?? `Brand status ${slug}`,
      slug,
      groups: [{ name: 'Web', components: [{ type: 'monitor', id: monitor.publicId, name: 'Shop' }] }],
      ...(options.password ? { password: options.password } : {}),
      ...(options.customerId ? { customerId: String(options.customerId) } : {}),
    };
    const created = await apiAt(app.url, 'POST', '/api/status-pages', { token: org.token, body });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return created.body as { id: string; slug: string; title: string };
  }

  /** Adds, proves and activates a status page domain for `pageId`. */
  async function activate(token: string, pageId: string, hostname = aHostname()) {
    const created = await apiAt(app.url, 'POST', '/api/custom-domains', {
      token,
      body: { hostname, kind: 'statusPage', statusPageId: pageId },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    (await testDnsServer()).set(created.body.verification.recordName, { TXT: [created.body.verification.recordValue] });
    const activated = await apiAt(app.url, 'POST', `/api/custom-domains/${created.body.id}/activate`, { token });
    expect(activated.status, JSON.stringify(activated.body)).to.equal(200);
    return { hostname, id: created.body.id as string };
  }

  it('serves the status page at / on its verified domain, with its JSON, feed and badge beside it', async () => {
    const org = await anOrganization();
    const page = await aStatusPage(org);
    const { hostname } = await activate(org.token, page.id);
    const html = await raw(app.url, 'GET', '/', { host: hostname });
    expect(html.status).to.equal(200);
    expect(html.headers['content-type']).to.match(/^text\/html/);
    expect(html.text).to.include(page.title).and.include('Shop').and.include('href="/feed.atom"');
    const json = await raw(app.url, 'GET', '/index.json', { host: `${hostname.toUpperCase()}:443` });
    expect(json.status).to.equal(200);
    expect(json.body.page).to.include({ id: page.id, slug: page.slug });
    expect((await raw(app.url, 'GET', '/feed.atom', { host: hostname })).headers['content-type']).to.match(/^application\/atom\+xml/);
    expect((await raw(app.url, 'GET', '/badge.svg', { host: hostname })).headers['content-type']).to.match(/^image\/svg\+xml/);
    expectError(await raw(app.url, 'GET', '/api/organization', { host: hostname, authorization: `Bearer ${org.token}` }), 404);
  });

  it('answers 404 without a code for agent and discovery endpoints there', async () => {
    const org = await anOrganization();
    const { hostname } = await activate(org.token, (await aStatusPage(org)).id);
    for (const [method, path] of [
      ['GET', '/.well-known/oauth-authorization-server'],
      ['GET', '/.well-known/oauth-protected-resource'],
      ['GET', '/auth.md'],
      ['POST', '/agent/identity'],
      ['POST', '/oauth2/token'],
    ] as const) {
      expectError(await raw(app.url, method, path, { host: hostname }), 404);
    }
    expect((await raw(app.url, 'GET', '/.well-known/oauth-authorization-server', { host: CANONICAL })).status).to.equal(200);
  });

  it('a private page asks for its password on its domain, and the form posted to /login lets the visitor in', async () => {
    const org = await anOrganization();
    const page = await aStatusPage(org, { password: 'brand-secret-42' });
    const { hostname } = await activate(org.token, page.id);
    const form = await raw(app.url, 'GET', '/', { host: hostname });
    expect(form.status).to.equal(401);
    expect(form.text).to.include('action="/login"');
    const form_body = 'password=brand-secret-42';
    const login = await raw(
      app.url,
      'POST',
      '/login',
      {
        host: hostname,
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': String(form_body.length),
      },
      form_body,
    );
    expect(login.status).to.equal(303);
    expect(login.headers.location).to.equal('/');
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    expect(String(login.headers['set-cookie'])).to.include('Path=/;');
    const inside = await raw(app.url, 'GET', '/', { host: hostname, cookie });
    expect(inside.status).to.equal(200);
    expect(inside.text).to.include(page.title);
  });

  it('believes X-Forwarded-Host from a proxy named in TRUST_PROXY (the value that proxy added last)', async () => {
    const org = await anOrganization();
    const page = await aStatusPage(org);
    const { hostname } = await activate(org.token, page.id);
    const proxied = await raw(app.url, 'GET', '/', { host: CANONICAL, 'x-forwarded-host': `evil.example.org, ${hostname}` });
    expect(proxied.status).to.equal(200);
    expect(proxied.text).to.include(page.title);
  });

  it('the canonical host and unknown hosts serve the API: their root points to the reference, not to a page', async () => {
    const org = await anOrganization();
    const page = await aStatusPage(org);
    await activate(org.token, page.id);
    for (const host of [CANONICAL, 'unknown-host.example.org']) {
      const root = await raw(app.url, 'GET', '/', { host, accept: 'application/json' });
      expect(root.status, host).to.equal(200);
      expect(JSON.parse(root.text)).to.include({ docs: '/docs' });
      expect(root.text).not.to.include(page.title);
    }
    expect((await raw(app.url, 'GET', `/status/${page.slug}`, { host: CANONICAL })).status).to.equal(200);
    expect((await raw(app.url, 'GET', '/livez', { host: 'unknown-host.example.org' })).status).to.equal(200);
  });

  it('answers page views before the body parsers, keeping request ids and the error envelope', async () => {
    const org = await anOrganization();
    const page = await aStatusPage(org);
    const { hostname } = await activate(org.token, page.id);
    // A malformed JSON body on a view is never parsed (the parsers would answer 400 invalidRequestBody).
    const malformed = { 'content-type': 'application/json', 'content-length': '9', 'x-request-id': 'view-1' };
    for (const [host, path] of [
      [CANONICAL, `/status/${page.slug}`],
      [CANONICAL, `/status/${page.slug}/index.json`],
      [hostname, '/'],
    ]) {
      const view = await raw(app.url, 'GET', path!, { host: host!, ...malformed }, '{not json');
      expect(view.status, `${host}${path} ${view.text.slice(0, 200)}`).to.equal(200);
      expect(view.headers['x-request-id']).to.equal('view-1');
    }
    const missing = await raw(app.url, 'GET', '/status/no-such-page-here/index.json', { host: CANONICAL, 'x-request-id': 'view-2' });
    expectError(missing, 404, 'statusPageNotFound');
    expect(missing.headers['x-request-id']).to.equal('view-2');
    // Posts still take the usual way (their bodies are parsed).
    const post = await raw(
      app.url,
      'POST',
      `/status/${page.slug}/subscribe`,
      { host: CANONICAL, 'content-type': 'application/json', 'content-length': '9' },
      '{not json',
    );
    expectError(post, 400, 'invalidRequestBody');
  });

  it('stops serving the page at once when the domain is removed, and the domain goes with its page', async () => {
    const org = await anOrganization();
    const served = await aStatusPage(org);
    const { hostname, id } = await activate(org.token, served.id);
    const before = await raw(app.url, 'GET', '/', { host: hostname, accept: 'application/json' });
    expect(before.status).to.equal(200);
    expect(before.text).to.include(served.title);
    expect((await apiAt(app.url, 'DELETE', `/api/custom-domains/${id}`, { token: org.token })).status).to.equal(200);
    // The host is unknown again: its root is the API's pointer, no page.
    const after = await raw(app.url, 'GET', '/', { host: hostname, accept: 'application/json' });
    expect(JSON.parse(after.text)).to.include({ docs: '/docs' });
    expect(after.text).not.to.include(served.title);

    const page = await aStatusPage(org);
    const second = await activate(org.token, page.id);
    expect((await apiAt(app.url, 'DELETE', `/api/status-pages/${page.id}`, { token: org.token })).status).to.equal(200);
    expectError(await apiAt(app.url, 'GET', `/api/custom-domains/${second.id}`, { token: org.token }), 404, 'customDomainNotFound');
  });

  it('a statusPageId in the body that names no page of the caller is one 400 statusPageNotFound: malformed, missing or foreign alike', async () => {
    const org = await anOrganization();
    const other = await anOrganization('other');
    const foreign = await aStatusPage(other);
    const add = (statusPageId: string) =>
      apiAt(app.url, 'POST', '/api/custom-domains', {
        token: org.token,
        body: { hostname: 'same.example.net', kind: 'statusPage', statusPageId },
      });
    const answers = [await add('not-a-page-id'), await add(foreign.id), await add('9b2f4c7e-0000-4000-8000-000000000000')];
    for (const answer of answers) {
      expectError(answer, 400, 'statusPageNotFound');
      expect(answer.body).to.deep.equal(answers[1]!.body);
    }
  });

  it("a customer-scoped caller manages the domain of its own customer's page, and sees only that", async () => {
    const org = await anOrganization();
    const customerId = await aCustomerRow(org.user.organizationId);
    const token = await aCustomerToken(org.token, customerId);
    const own = await aStatusPage(org, { customerId });
    const orgPage = await aStatusPage(org);
    const hostname = aHostname();
    const created = await apiAt(app.url, 'POST', '/api/custom-domains', {
      token,
      body: { hostname, kind: 'statusPage', statusPageId: own.id },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.include({ customerId, statusPageId: own.id, kind: 'statusPage' });
    expectError(
      await apiAt(app.url, 'POST', '/api/custom-domains', {
        token,
        body: { hostname: `x.${hostname}`, kind: 'statusPage', statusPageId: orgPage.id },
      }),
      400,
      'statusPageNotFound',
    );
    await activate(org.token, orgPage.id);
    expect(
      (await apiAt(app.url, 'GET', '/api/custom-domains', { token })).body.items.map((d: { hostname: string }) => d.hostname),
    ).to.deep.equal([hostname]);
    expect((await apiAt(app.url, 'GET', '/api/custom-domains', { token: org.token })).body.items).to.have.length(2);
  });
});
