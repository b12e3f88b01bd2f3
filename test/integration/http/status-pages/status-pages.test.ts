import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow, aCustomerToken } from '../../../support/identity-fixtures';
import { aMonitorRow, aResult, record } from '../../../support/results-fixtures';
import { testClock } from '../../../support/test-clock';
import { testServer } from '../../../support/test-server';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const PAGE_FIELDS = [
  'id',
  'publicId',
  'customerId',
  'title',
  'slug',
  'url',
  'description',
  'logo',
  'brandColor',
  'groups',
  'showResponseTimes',
  'footer',
  'ipAllowlist',
  'objectives',
  'passwordProtected',
  'isPrivate',
  'createdAt',
  'updatedAt',
];
const slug = (label: string) => `${label}-${Math.random().toString(36).slice(2, 10)}`;
/** The public page is rebuilt when the service next looks for changes (STATUS_PAGE_REFRESH_MS, 5 s by default). */
const pastRefresh = () => testClock.advance(6_000);

async function anOrgWithMonitor(label = 'pages') {
  const org = await anOrganization(label);
  const customerId = await aCustomerRow(org.user.organizationId);
  const monitor = await aMonitorRow(org.user.organizationId, customerId, { name: 'Shop website', locations: ['eu-west'] });
  return { org, customerId, monitor };
}

describe('Status pages API', () => {
  it('creates a page with grouped components, reads it back, lists it, changes it with PATCH and deletes it', async () => {
    const { org, monitor } = await anOrgWithMonitor();
    const body = {
      title: 'Acme status',
      slug: slug('acme'),
      brandColor: '#1f6feb',
      showResponseTimes: true,
      footer: 'Questions? support@acme.test',
      groups: [{ name: 'Web', components: [{ type: 'monitor', id: monitor.publicId, name: 'Shop' }] }],
    };
    const created = await api('POST', '/api/status-pages', { token: org.token, body });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.have.all.keys(PAGE_FIELDS);
    expect(created.body).to.deep.include({
      customerId: null,
      title: 'Acme status',
      slug: body.slug,
      url: `http://api.test.example/status/${body.slug}`,
      description: null,
      logo: null,
      brandColor: '#1f6feb',
      showResponseTimes: true,
      footer: 'Questions? support@acme.test',
      ipAllowlist: [],
      passwordProtected: false,
      isPrivate: false,
      groups: [{ name: 'Web', components: [{ type: 'monitor', id: monitor.publicId, name: 'Shop', recordName: 'Shop website' }] }],
    });
    const read = await api('GET', `/api/status-pages/${created.body.id}`, { token: org.token });
    expect(read.body).to.deep.equal(created.body);
    expect((await api('GET', '/api/status-pages', { token: org.token })).body.items.map((p: { id: string }) => p.id)).to.deep.equal([
      created.body.id,
    ]);

    const changed = await api('PATCH', `/api/status-pages/${created.body.id}`, {
      token: org.token,
      body: { title: 'Acme', password: 'letmein-please' },
    });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(changed.body).to.deep.include({ title: 'Acme', passwordProtected: true, isPrivate: true });
    expect((await api('GET', `/api/status-pages/${created.body.id}`, { token: org.token })).body.title).to.equal('Acme');

    const deleted = await api('DELETE', `/api/status-pages/${created.body.id}`, { token: org.token });
    expect(deleted.body).to.deep.equal({ success: true, id: created.body.id });
    expectError(await api('GET', `/api/status-pages/${created.body.id}`, { token: org.token }), 404, 'statusPageNotFound');
  });

  it("answers statusPageNotFound 400 for a malformed id, and for another organization's page exactly as for a missing one", async () => {
    const { org, monitor } = await anOrgWithMonitor();
    const page = await api('POST', '/api/status-pages', {
      token: org.token,
      body: { title: 'Mine', slug: slug('mine'), groups: [{ name: 'All', components: [{ type: 'monitor', id: monitor.publicId }] }] },
    });
    const other = await anOrganization('pages-other');

    const malformed = await api('GET', '/api/status-pages/not-an-id', { token: org.token });
    expectError(malformed, 400, 'statusPageNotFound');
    expect(malformed.body.data.reason).to.equal('malformedId');
    const missingId = '9b2f4c7e-0000-4000-8000-000000000000';
    // Every route with a page id: the foreign page's answer is the missing page's, body for body.
    const calls: Array<[string, string, Record<string, unknown>?]> = [
      ['GET', ''],
      ['PATCH', '', { title: 'x' }],
      ['DELETE', ''],
      ['GET', '/subscribers'],
      ['POST', '/subscribers', { channel: 'email', email: 'someone@example.com' }],
      ['GET', '/incidents'],
      ['POST', '/incidents', { title: 'x', status: 'investigating', message: 'm' }],
    ];
    for (const [method, suffix, body] of calls) {
      const foreign = await api(method, `/api/status-pages/${page.body.id}${suffix}`, { token: other.token, body });
      const missing = await api(method, `/api/status-pages/${missingId}${suffix}`, { token: other.token, body });
      expectError(foreign, 404, 'statusPageNotFound');
      expect(foreign.body.data, `${method} ${suffix}`).to.deep.equal({ code: 'statusPageNotFound' });
      expect({ ...foreign.body, url: '' }, `${method} ${suffix}`).to.deep.equal({ ...missing.body, url: '' });
    }
    // The page is untouched by the refused calls.
    expect((await api('GET', `/api/status-pages/${page.body.id}`, { token: org.token })).body.title).to.equal('Mine');
  });

  it("takes as long to refuse another organization's page as a missing one (one scoped lookup either way)", async () => {
    const { org, monitor } = await anOrgWithMonitor();
    const page = await api('POST', '/api/status-pages', {
      token: org.token,
      body: { title: 'Timed', slug: slug('timed'), groups: [{ name: 'All', components: [{ type: 'monitor', id: monitor.publicId }] }] },
    });
    const other = await anOrganization('pages-timing');
    const time = async (id: string) => {
      const started = process.hrtime.bigint();
      const answer = await api('GET', `/api/status-pages/${id}`, { token: other.token });
      expect(answer.status).to.equal(404);
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const foreign: number[] = [];
    const missing: number[] = [];
    for (let i = 0; i < 60; i++) {
      // Alternating, so load changes during the run weigh on both alike.
      foreign.push(await time(page.body.id));
      missing.push(await time(randomUUID()));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // The difference an extra query would make is a full round trip; the medians differ by far less.
    const gap = Math.abs(median(foreign) - median(missing));
    expect(gap, `medians ${median(foreign).toFixed(2)} ms vs ${median(missing).toFixed(2)} ms`).to.be.below(
      Math.max(1, 0.3 * median(missing)),
    );
  });

  it('refuses a slug in use (statusPageSlugTaken) and a component the page may not show (monitorNotFound)', async () => {
    const { org, customerId, monitor } = await anOrgWithMonitor();
    const taken = slug('taken');
    expect((await api('POST', '/api/status-pages', { token: org.token, body: { title: 'One', slug: taken } })).status).to.equal(201);
    expectError(
      await api('POST', '/api/status-pages', { token: org.token, body: { title: 'Two', slug: taken } }),
      409,
      'statusPageSlugTaken',
    );

    const otherCustomer = await aCustomerRow(org.user.organizationId, 'Other');
    const customerToken = await aCustomerToken(org.token, otherCustomer);
    const refused = await api('POST', '/api/status-pages', {
      token: customerToken,
      body: { title: 'Theirs', slug: slug('theirs'), groups: [{ name: 'x', components: [{ type: 'monitor', id: monitor.publicId }] }] },
    });
    expectError(refused, 404, 'monitorNotFound');
    // The owning customer's caller may show it, and its page is its customer's.
    const own = await api('POST', '/api/status-pages', {
      token: await aCustomerToken(org.token, customerId),
      body: { title: 'Ours', slug: slug('ours'), groups: [{ name: 'x', components: [{ type: 'monitor', id: monitor.publicId }] }] },
    });
    expect(own.status, JSON.stringify(own.body)).to.equal(201);
    expect(own.body.customerId).to.equal(customerId);
    expect((await api('GET', '/api/status-pages', { token: customerToken })).body).to.deep.include({ items: [], total: 0 });
  });

  it('rejects a logo that is not an image data URL or is too large', async () => {
    const { org } = await anOrgWithMonitor();
    const bad = await api('POST', '/api/status-pages', {
      token: org.token,
      body: { title: 'L', slug: slug('logo'), logo: 'https://cdn.example/logo.png' },
    });
    expectError(bad, 400, 'validationFailed');
    const huge = `data:image/png;base64,${Buffer.alloc(40 * 1024, 1).toString('base64')}`;
    expectError(
      await api('POST', '/api/status-pages', { token: org.token, body: { title: 'L', slug: slug('logo'), logo: huge } }),
      400,
      'validationFailed',
    );
    const small = `data:image/png;base64,${Buffer.alloc(100, 1).toString('base64')}`;
    expect(
      (await api('POST', '/api/status-pages', { token: org.token, body: { title: 'L', slug: slug('logo'), logo: small } })).status,
    ).to.equal(201);
  });
});

describe('Public status pages', () => {
  async function aPublicPage(extra: Record<string, unknown> = {}) {
    const setup = await anOrgWithMonitor('public');
    const created = await api('POST', '/api/status-pages', {
      token: setup.org.token,
      body: {
        title: 'Acme',
        slug: slug('acme'),
        groups: [{ name: 'Web', components: [{ type: 'monitor', id: setup.monitor.publicId }] }],
        ...extra,
      },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return { ...setup, page: created.body };
  }

  it('serves the page as HTML, JSON, Atom and SVG without credentials, with an ETag that answers 304', async () => {
    const { page, monitor } = await aPublicPage();
    await record(monitor, 'eu-west', aResult('up', testClock.now()));
    pastRefresh();
    const html = await api('GET', `/status/${page.slug}`);
    expect(html.status).to.equal(200);
    expect(html.headers.get('content-type')).to.match(/^text\/html/);
    expect(html.headers.get('cache-control')).to.match(/^public, max-age=5/);
    expect(html.text).to.include('<h1>Acme</h1>').and.include(`data-component="${monitor.publicId}" data-state="operational"`);
    expect(html.text).to.not.match(/<script|src="http/);
    const etag = html.headers.get('etag')!;
    // fetch() adds `Cache-Control: no-cache` to a conditional request unless told otherwise, which forbids a 304.
    const conditional = { 'if-none-match': etag, 'cache-control': 'max-age=0' };
    expect((await api('GET', `/status/${page.slug}`, { headers: conditional })).status).to.equal(304);

    const json = await api('GET', `/api/public/status-pages/${page.slug}`);
    expect(json.status).to.equal(200);
    expect(json.body.status).to.deep.equal({ state: 'operational', description: 'All systems operational' });
    expect(json.body.groups[0].components[0]).to.include({ id: monitor.publicId, name: 'Shop website', state: 'operational' });
    expect(json.body.groups[0].components[0].days).to.have.length(90);
    expect((await api('GET', `/status/${page.slug}/index.json`)).body).to.deep.equal(json.body);
    const feed = await api('GET', `/status/${page.slug}/feed.atom`);
    expect(feed.headers.get('content-type')).to.match(/^application\/atom\+xml/);
    expect(feed.text).to.include('<feed xmlns="http://www.w3.org/2005/Atom">');
    const badge = await api('GET', `/status/${page.slug}/badge.svg`);
    expect(badge.headers.get('content-type')).to.match(/^image\/svg\+xml/);
    expect(badge.text).to.include('operational');

    const missing = await api('GET', '/status/no-such-page-here');
    expect(missing.status).to.equal(404);
    expectError(await api('GET', '/api/public/status-pages/no-such-page-here'), 404, 'statusPageNotFound');
  });

  it('says since when a monitor younger than the 90 days is measured, not "over 90 days"', async () => {
    const org = await anOrganization('young-monitor');
    const customerId = await aCustomerRow(org.user.organizationId);
    const young = await aMonitorRow(org.user.organizationId, customerId, {
      name: 'New shop',
      locations: ['eu-west'],
      createdAt: new Date(testClock.now().getTime() - 7 * 60_000),
    });
    const page = (
      await api('POST', '/api/status-pages', {
        token: org.token,
        body: { title: 'Young', slug: slug('young'), groups: [{ name: 'Web', components: [{ type: 'monitor', id: young.publicId }] }] },
      })
    ).body;
    await record(young, 'eu-west', aResult('up', new Date(testClock.now().getTime() - 6 * 60_000)));
    pastRefresh();
    const json = await api('GET', `/api/public/status-pages/${page.slug}`);
    const component = json.body.groups[0].components[0];
    expect(component.uptimeSince).to.be.a('string');
    const day = component.uptimeSince.slice(0, 10);
    const html = (await api('GET', `/status/${page.slug}`)).text;
    expect(html).to.include(`uptime since ${day}`).and.not.include('over 90 days');
  });

  it('names a monitor in public text by its name on the page, never its target, and follows a rename', async () => {
    const org = await anOrganization('public-names');
    const customerId = await aCustomerRow(org.user.organizationId);
    // A monitor still called by its default name: the host it checks.
    const monitor = await aMonitorRow(org.user.organizationId, customerId, { name: '127.0.0.1:8081', locations: ['eu-west'] });
    const { database } = await testServer();
    await database.sql.query(sql`UPDATE monitors SET url = ${'http://127.0.0.1:8081/'} WHERE id = ${monitor.id}`);
    const created = await api('POST', '/api/status-pages', {
      token: org.token,
      body: { title: 'Acme', slug: slug('names'), groups: [{ name: 'Web', components: [{ type: 'monitor', id: monitor.publicId }] }] },
    });
    const page = created.body;
    await record(monitor, 'eu-west', aResult('down', testClock.now()));
    await record(monitor, 'eu-west', aResult('down', new Date(testClock.now().getTime() + 1000)));
    pastRefresh();
    const json = await api('GET', `/api/public/status-pages/${page.slug}`);
    expect(json.body.incidents.active.map((i: { title: string }) => i.title)).to.deep.equal(['Website is down']);
    const html = (await api('GET', `/status/${page.slug}`)).text;
    for (const text of [html, JSON.stringify(json.body), (await api('GET', `/status/${page.slug}/feed.atom`)).text]) {
      expect(text).not.to.include('127.0.0.1');
    }

    await database.sql.query(sql`UPDATE monitors SET name = ${'Checkout'} WHERE id = ${monitor.id}`);
    pastRefresh();
    const renamed = await api('GET', `/api/public/status-pages/${page.slug}`);
    expect(renamed.body.incidents.active.map((i: { title: string }) => i.title)).to.deep.equal(['Checkout is down']);
    expect((await api('GET', `/status/${page.slug}`)).text).to.include('Checkout is down');
  });

  it('shows a component down after a failing check and the incident with the updates posted to it', async () => {
    const { org, page, monitor } = await aPublicPage();
    await record(monitor, 'eu-west', aResult('up', testClock.now()));
    pastRefresh();
    expect((await api('GET', `/status/${page.slug}`)).text).to.include('data-state="operational"');
    await record(monitor, 'eu-west', aResult('down', testClock.now()));
    pastRefresh();
    const down = await api('GET', `/status/${page.slug}`);
    expect(down.text).to.include(`data-component="${monitor.publicId}" data-state="down"`).and.include('Major outage');

    const told = await api('POST', `/api/status-pages/${page.id}/incidents`, {
      token: org.token,
      body: { title: 'Checkout errors', message: 'We are looking into failed payments.', componentIds: [monitor.publicId] },
    });
    expect(told.status, JSON.stringify(told.body)).to.equal(201);
    expect(told.body).to.deep.include({
      title: 'Checkout errors',
      status: 'investigating',
      incidentId: null,
      componentIds: [monitor.publicId],
      resolvedAt: null,
    });
    const update = await api('POST', `/api/status-pages/${page.id}/incidents/${told.body.id}/updates`, {
      token: org.token,
      body: { status: 'identified', message: 'A certificate expired at the payment provider.' },
    });
    expect(update.status, JSON.stringify(update.body)).to.equal(201);
    expect(update.body.updates.map((u: { status: string }) => u.status)).to.deep.equal(['investigating', 'identified']);
    pastRefresh();
    const shown = await api('GET', `/status/${page.slug}`);
    expect(shown.text)
      .to.include('Active incidents')
      .and.include('Checkout errors')
      .and.include('A certificate expired at the payment provider.');

    await api('POST', `/api/status-pages/${page.id}/incidents/${told.body.id}/updates`, {
      token: org.token,
      body: { status: 'resolved', message: 'Fixed.' },
    });
    pastRefresh();
    const json = await api('GET', `/api/public/status-pages/${page.slug}`);
    expect(json.body.incidents.active).to.deep.equal([]);
    expect(json.body.incidents.past[0]).to.deep.include({ id: told.body.id, status: 'resolved', origin: 'page' });
    const listed = await api('GET', `/api/status-pages/${page.id}/incidents`, { token: org.token });
    expect(listed.body.items.map((i: { id: string }) => i.id)).to.deep.equal([told.body.id]);
    expectError(
      await api('POST', `/api/status-pages/${page.id}/incidents/9b2f4c7e-0000-4000-8000-000000000000/updates`, {
        token: org.token,
        body: { status: 'monitoring', message: 'x' },
      }),
      404,
      'pageIncidentNotFound',
    );
  });

  it("shows a monitor's new name once it is renamed (a component without a name of its own shows its record's)", async () => {
    const { page, monitor } = await aPublicPage();
    await record(monitor, 'eu-west', aResult('up', testClock.now()));
    pastRefresh();
    expect((await api('GET', `/status/${page.slug}`)).text).to.include('Shop website');
    // The fixture's monitor row has no URL for a PATCH to validate: renamed as the monitors' context stores it.
    await (await testServer()).database.sql.query(sql`UPDATE monitors SET name = ${'Online shop'} WHERE id = ${monitor.id}`);
    pastRefresh();
    const shown = (await api('GET', `/status/${page.slug}`)).text;
    expect(shown).to.include('Online shop').and.not.include('Shop website');
  });

  it('answers a JSON client in the error envelope: an unknown page 404, a private page 401; a browser still gets HTML', async () => {
    const json = { accept: 'application/json' };
    const unknown = await api('GET', `/status/${slug('nowhere')}`, { headers: json });
    expectError(unknown, 404, 'statusPageNotFound');
    const index = await api('GET', `/status/${slug('nowhere')}/index.json`);
    expectError(index, 404, 'statusPageNotFound');
    expect((await api('GET', `/status/${slug('nowhere')}`, { headers: { accept: 'text/html' } })).headers.get('content-type')).to.match(
      /^text\/html/,
    );
    const { page } = await aPublicPage({ password: 'open sesame 42' });
    const locked = await api('GET', `/status/${page.slug}`, { headers: json });
    expectError(locked, 401, 'statusPagePasswordRequired');
    expectError(await api('GET', `/api/public/status-pages/${page.slug}`), 401, 'statusPagePasswordRequired');
    expect((await api('GET', `/status/${page.slug}`)).text).to.include('<form method="post"');
  });

  it('titles a page "Acme Status", not "Acme Status status", and "Acme" as "Acme status"', async () => {
    const { page: statusTitled } = await aPublicPage({ title: 'Acme Status' });
    const { page: plain } = await aPublicPage({ title: 'Acme' });
    expect((await api('GET', `/status/${statusTitled.slug}`)).text).to.include('<title>Acme Status</title>');
    expect((await api('GET', `/status/${statusTitled.slug}/feed.atom`)).text).to.include('<title>Acme Status</title>');
    expect((await api('GET', `/status/${plain.slug}`)).text).to.include('<title>Acme status</title>');
  });

  it('locks password guessing out: 429 with Retry-After past 5 attempts a minute, longer past 20 an hour, right password included', async () => {
    const { page } = await aPublicPage({ password: 'open sesame 42' });
    // Start just after an hour's boundary, so the hour's count is not cut by a window change mid-test.
    testClock.advance(3_600_000 - (testClock.now().getTime() % 3_600_000) + 1_000);
    const attempt = (password: string) => api('POST', `/status/${page.slug}/login`, { body: { password } });
    for (let i = 0; i < 5; i++) expectError(await attempt(`guess ${i}`), 401, 'statusPagePasswordInvalid');
    const locked = await attempt('guess 5');
    expectError(locked, 429, 'rateLimited');
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).to.be.within(1, 60);
    expect(locked.body.data.retryAfter).to.equal(retryAfter);
    expectError(await attempt('open sesame 42'), 429, 'rateLimited');

    // Each minute allows five more, until the hour's twenty: then the lock lasts until the hour ends.
    let longest = retryAfter;
    for (let minute = 0; minute < 4 && longest <= 60; minute++) {
      testClock.advance(61_000);
      for (let i = 0; i < 5; i++) {
        const answer = await attempt(`guess ${minute}-${i}`);
        if (answer.status === 429) {
          longest = Math.max(longest, Number(answer.headers.get('retry-after')));
          break;
        }
        expectError(answer, 401, 'statusPagePasswordInvalid');
      }
    }
    expect(longest).to.be.greaterThan(60);
    // Another page is not locked by this one's guesses.
    const { page: other } = await aPublicPage({ password: 'other page 44' });
    expect((await api('POST', `/status/${other.slug}/login`, { body: { password: 'other page 44' } })).status).to.equal(204);
  });

  it('asks for the password of a private page, then shows it to the visitor who gave it, until the password changes', async () => {
    const { page, org } = await aPublicPage({ password: 'open sesame 42' });
    const form = await api('GET', `/status/${page.slug}`);
    expect(form.status).to.equal(401);
    expect(form.text).to.include('<form method="post"').and.not.include('data-component');
    expect(form.headers.get('cache-control')).to.equal('no-store');
    expect((await api('GET', `/api/public/status-pages/${page.slug}`)).status).to.equal(401);

    const wrong = await api('POST', `/status/${page.slug}/login`, { body: { password: 'guess' } });
    expectError(wrong, 401, 'statusPagePasswordInvalid');
    const wrongForm = await api('POST', `/status/${page.slug}/login`, {
      rawBody: 'password=guess',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(wrongForm.status).to.equal(303);
    expect(wrongForm.headers.get('location')).to.equal(`/status/${page.slug}?wrong=1`);

    const right = await api('POST', `/status/${page.slug}/login`, {
      rawBody: 'password=open+sesame+42',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(right.status).to.equal(303);
    const cookie = right.headers.get('set-cookie')!.split(';')[0]!;
    expect(right.headers.get('set-cookie')).to.include('HttpOnly').and.include(`Path=/status/${page.slug}`);
    const shown = await api('GET', `/status/${page.slug}`, { cookie });
    expect(shown.status).to.equal(200);
    expect(shown.text).to.include('data-component');
    expect(shown.headers.get('cache-control')).to.equal('private, no-cache');

    // A new password signs every visitor out.
    await api('PATCH', `/api/status-pages/${page.id}`, { token: org.token, body: { password: 'another secret 43' } });
    pastRefresh();
    expect((await api('GET', `/status/${page.slug}`, { cookie })).status).to.equal(401);
  });

  it('shows a page with an IP allowlist only to those addresses', async () => {
    const { page: closed } = await aPublicPage({ ipAllowlist: ['203.0.113.0/24'] });
    expect((await api('GET', `/status/${closed.slug}`)).status).to.equal(403);
    expectError(await api('GET', `/api/public/status-pages/${closed.slug}`), 403, 'forbidden');
    const { page: open } = await aPublicPage({ ipAllowlist: ['127.0.0.1'] });
    expect((await api('GET', `/status/${open.slug}`)).status).to.equal(200);
  });
});
