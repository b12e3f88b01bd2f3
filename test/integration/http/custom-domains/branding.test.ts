import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { api, expectError, rawAt } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMember } from '../../../support/identity-fixtures';
import { testServer } from '../../../support/test-server';
import { anActiveDomain } from '../../../support/custom-domain-fixtures';

const LOGO = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>').toString('base64')}`;
const PLATFORM = { whiteLabel: false, name: null, accentColor: null, logo: null };

const brandingBy = async (host: string) => rawAt((await testServer()).url, 'GET', '/api/branding', { host });

describe('organization branding and GET /api/branding (white-label)', () => {
  it('an admin sets the accent colour and logo; the organization answers them, the colour in lower case', async () => {
    const org = await anOrganization('brand');
    const before = await api('GET', '/api/organization', { token: org.token });
    expect(before.body).to.include({ accentColor: null, logo: null });
    const changed = await api('PATCH', '/api/organization', { token: org.token, body: { accentColor: '#0A7D5A', logo: LOGO } });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(changed.body).to.include({ accentColor: '#0a7d5a', logo: LOGO });
    expect((await api('GET', '/api/organization', { token: org.token })).body).to.include({ accentColor: '#0a7d5a', logo: LOGO });
    const cleared = await api('PATCH', '/api/organization', { token: org.token, body: { logo: null } });
    expect(cleared.body).to.include({ accentColor: '#0a7d5a', logo: null });
  });

  it('refuses a colour that is not #rrggbb and a logo that is not an image data URL, at the field (400 validationFailed)', async () => {
    const org = await anOrganization('brand');
    for (const body of [
      { accentColor: 'teal' },
      { accentColor: '#abc' },
      { logo: 'https://cdn.example.com/logo.png' },
      { logo: 'data:text/html;base64,PGI+' },
    ]) {
      const response = await api('PATCH', '/api/organization', { token: org.token, body });
      expectError(response, 400, 'validationFailed');
      expect(response.body.data.issues[0].path).to.deep.equal(Object.keys(body));
    }
    expect((await api('GET', '/api/organization', { token: org.token })).body).to.include({ accentColor: null, logo: null });
  });

  it('only admins change the look (roleForbidden)', async () => {
    const org = await anOrganization('brand');
    const editor = await aMember(org, 'editor');
    expectError(await api('PATCH', '/api/organization', { token: editor.token, body: { accentColor: '#112233' } }), 403, 'roleForbidden');
  });

  it("answers the organization's name, colour and logo on its active white-label host, and the platform's look elsewhere", async () => {
    const org = await anOrganization('brand');
    await api('PATCH', '/api/organization', { token: org.token, body: { name: 'Harbour Ops', accentColor: '#0a7d5a', logo: LOGO } });
    const hostname = await anActiveDomain(org.token, 'whiteLabel');
    const branded = await brandingBy(hostname);
    expect(branded.status).to.equal(200);
    expect(branded.body).to.deep.equal({ whiteLabel: true, name: 'Harbour Ops', accentColor: '#0a7d5a', logo: LOGO });
    expect((await brandingBy(`${hostname.toUpperCase()}:443`)).body).to.deep.equal(branded.body);
    // The platform's host, a host nobody holds: the platform's own look, and nothing of any organization.
    expect((await api('GET', '/api/branding')).body).to.deep.equal(PLATFORM);
    expect((await brandingBy('unknown-host.brand-test.com')).body).to.deep.equal(PLATFORM);
    // It takes no parameter (a host is never named in the query: the look follows the host the request came by).
    expectError(await api('GET', '/api/branding', { query: { host: hostname } }), 400, 'validationFailed');
  });

  it('a pending white-label entry brands nothing yet', async () => {
    const org = await anOrganization('brand');
    await api('PATCH', '/api/organization', { token: org.token, body: { accentColor: '#0a7d5a' } });
    const hostname = `pending-${randomBytes(4).toString('hex')}.brand-test.com`;
    expect((await api('POST', '/api/custom-domains', { token: org.token, body: { hostname, kind: 'whiteLabel' } })).status).to.equal(201);
    expect((await brandingBy(hostname)).body).to.deep.equal(PLATFORM);
  });
});
