import { expect } from 'chai';
import { api, expectError, rawAt } from '../../../support/http-client';
import { ensureConsoleBuilt } from '../../../support/console-build';
import { anOrganization } from '../../../support/builders';
import { anActiveDomain } from '../../../support/custom-domain-fixtures';
import { testServer } from '../../../support/test-server';

/** The page's theme colour, as its `<meta name="theme-color">` says. */
const themeColorOf = (page: string) => /<meta name="theme-color" content="([^"]*)"/.exec(page)?.[1];

describe('http: the console at /app', function () {
  this.timeout(120_000);
  before(() => ensureConsoleBuilt());

  it('serves its page at /app and every path under it, with a Content-Security-Policy without unsafe-inline or unsafe-eval', async () => {
    for (const path of ['/app', '/app/', '/app/monitors/website/0b6b3c1e-7f43-4b53-9a53-4d9f7a3c2b11', '/app/incidents']) {
      const page = await api('GET', path);
      expect(page.status, path).to.equal(200);
      expect(page.headers.get('content-type')).to.match(/^text\/html/);
      expect(page.text).to.include('<div id="app"></div>');
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).to.include("script-src 'self'").and.include("default-src 'none'").and.include("frame-ancestors 'none'");
      expect(csp).not.to.match(/unsafe-inline|unsafe-eval|https?:/);
      expect(page.text, 'no inline script').not.to.match(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(page.text, 'no inline style').not.to.match(/<style|style="/);
    }
  });

  it('serves its assets from this host only, and a missing asset is the envelope 404', async () => {
    const page = await api('GET', '/app');
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).to.be.at.least(2);
    for (const asset of assets) {
      // The console's own files, and the manifest (served by the host with the brand's name and colours).
      expect(asset, 'same origin').to.match(/^\/(app\/(assets|icons)\/|api\/branding\/manifest\.webmanifest$)/);
      const answer = await api('GET', asset);
      expect(answer.status, asset).to.equal(200);
      // XML namespaces and the example address of a placeholder are the only absolute URLs it may name.
      expect(answer.text, `${asset} loads nothing from elsewhere`).not.to.match(/https?:\/\/(?!www\.w3\.org\/|example\.com\/)[a-z]/i);
    }
    expectError(await api('GET', '/app/assets/missing.js'), 404);
  });

  it("wears a white-label domain's accent as its theme colour, as the manifest there does; the platform's elsewhere", async () => {
    const org = await anOrganization('console-theme');
    expect((await api('PATCH', '/api/organization', { token: org.token, body: { accentColor: '#0A7D5A' } })).status).to.equal(200);
    const hostname = await anActiveDomain(org.token, 'whiteLabel');
    const { url } = await testServer();
    const platform = themeColorOf((await api('GET', '/app/')).text);
    expect(platform).to.equal('#1f2937');
    for (const path of ['/app', '/app/', '/app/incidents/0b6b3c1e-7f43-4b53-9a53-4d9f7a3c2b11']) {
      const page = await rawAt(url, 'GET', path, { host: hostname });
      expect(page.status, path).to.equal(200);
      expect(page.headers['content-type']).to.match(/^text\/html/);
      expect(themeColorOf(page.text), path).to.equal('#0a7d5a');
      expect(page.headers['cache-control']).to.equal('no-cache');
      // The same page otherwise, under the same strict policy.
      expect(page.text.replace('#0a7d5a', platform!)).to.equal((await api('GET', path)).text);
      expect(page.headers['content-security-policy'])
        .to.include("script-src 'self'")
        .and.not.match(/unsafe-inline|unsafe-eval/);
    }
    const manifest = await rawAt(url, 'GET', '/api/branding/manifest.webmanifest', { host: hostname });
    expect(manifest.body.theme_color).to.equal('#0a7d5a');
    // The platform's host and a host nobody holds: the platform's colour.
    expect((await api('GET', '/api/branding/manifest.webmanifest')).body.theme_color).to.equal(platform);
    expect(themeColorOf((await rawAt(url, 'GET', '/app/', { host: 'nobody-holds-this.brand-test.com' })).text)).to.equal(platform);

    // An organization without an accent: its domain's page wears the platform's colour.
    const plain = await anOrganization('console-theme-plain');
    const plainHost = await anActiveDomain(plain.token, 'whiteLabel');
    expect(themeColorOf((await rawAt(url, 'GET', '/app/', { host: plainHost })).text)).to.equal(platform);
    // The accent changed: the next page load wears the new one.
    await api('PATCH', '/api/organization', { token: org.token, body: { accentColor: '#112233' } });
    expect(themeColorOf((await rawAt(url, 'GET', '/app/', { host: hostname })).text)).to.equal('#112233');
  });

  it('sends a browser at / to the console; /docs stays reachable', async () => {
    const root = await api('GET', '/', { headers: { accept: 'text/html' } });
    expect(root.status).to.equal(302);
    expect(root.headers.get('location')).to.equal('/app');
    expect((await api('GET', '/docs')).status).to.equal(200);
    expect((await api('GET', '/', { headers: { accept: 'application/json' } })).body).to.include({ console: '/app', docs: '/docs' });
  });
});
