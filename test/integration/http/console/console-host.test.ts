import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { ensureConsoleBuilt } from '../../../support/console-build';

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

  it('sends a browser at / to the console; /docs stays reachable', async () => {
    const root = await api('GET', '/', { headers: { accept: 'text/html' } });
    expect(root.status).to.equal(302);
    expect(root.headers.get('location')).to.equal('/app');
    expect((await api('GET', '/docs')).status).to.equal(200);
    expect((await api('GET', '/', { headers: { accept: 'application/json' } })).body).to.include({ console: '/app', docs: '/docs' });
  });
});
