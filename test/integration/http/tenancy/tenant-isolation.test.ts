import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { aCallerSet, type CallerSet } from '../../../support/callers';
import { aDomain, anIp } from '../../../support/tenancy-fixtures';

type Class =
  'admin' | 'editor' | 'readonly' | 'responder' | 'orgToken' | 'customerToken' | 'customerUser' | 'customerReadonly' | 'stranger';
const ORG_WIDE: Class[] = ['admin', 'editor', 'readonly', 'responder', 'orgToken'];
const CUSTOMER_SCOPED: Class[] = ['customerToken', 'customerUser', 'customerReadonly'];
const ALL: Class[] = [...ORG_WIDE, ...CUSTOMER_SCOPED, 'stranger'];
const READ_ONLY: Class[] = ['readonly', 'responder', 'customerReadonly'];

describe('tenancy: tenant isolation by caller class', () => {
  let c: CallerSet;
  const ids = (items: Array<{ id: number }>) => items.map((item) => item.id).sort((a, b) => a - b);
  const owned = { domain: 0, otherDomain: 0, ip: 0, otherIp: 0 };

  before(async function () {
    this.timeout(60_000);
    c = await aCallerSet();
    owned.domain = (await aDomain(c.admin, c.customer.id)).id;
    owned.otherDomain = (await aDomain(c.admin, c.otherCustomer.id)).id;
    owned.ip = (await anIp(c.admin, c.customer.id)).id;
    owned.otherIp = (await anIp(c.admin, c.otherCustomer.id)).id;
  });

  it("lists customers: the organization's for org-wide callers, only their own for customer-scoped ones, none for strangers", async () => {
    for (const who of ALL) {
      const list = await api('GET', '/api/customers', { token: c[who] });
      expect(list.status, who).to.equal(200);
      const expected = ORG_WIDE.includes(who) ? [c.customer.id, c.otherCustomer.id] : CUSTOMER_SCOPED.includes(who) ? [c.customer.id] : [];
      expect(ids(list.body), who).to.deep.equal(expected.sort((a, b) => a - b));
    }
  });

  it('answers 404 for customers out of scope, on every method', async () => {
    for (const who of [...CUSTOMER_SCOPED, 'stranger'] as Class[]) {
      expectError(await api('GET', `/api/customers/${c.otherCustomer.publicId}`, { token: c[who] }), 404, 'customerNotFound');
      if (!READ_ONLY.includes(who)) {
        expectError(
          await api('PATCH', `/api/customers/${c.otherCustomer.id}`, { token: c[who], body: { name: 'x' } }),
          404,
          'customerNotFound',
        );
        expectError(
          await api('POST', `/api/customers/${c.otherCustomer.id}/domains`, { token: c[who], body: { domainName: 'x.com' } }),
          404,
          'customerNotFound',
        );
        expectError(
          await api('POST', `/api/customers/${c.otherCustomer.id}/ips`, { token: c[who], body: { ipAddress: '192.0.2.1' } }),
          404,
          'customerNotFound',
        );
      }
    }
    expectError(await api('DELETE', `/api/customers/${c.otherCustomer.id}`, { token: c.stranger }), 404, 'customerNotFound');
    for (const who of CUSTOMER_SCOPED) {
      expect((await api('GET', `/api/customers/${c.customer.publicId}`, { token: c[who] })).status, who).to.equal(200);
    }
  });

  it('lets only organization-wide writers create customers; customer-scoped callers get customerScopedTokenForbidden', async () => {
    const body = { name: 'New', email: 'new@x.test' };
    for (const who of ALL) {
      const response = await api('POST', '/api/customers', { token: c[who], body });
      if (CUSTOMER_SCOPED.includes(who)) expectError(response, 403, 'customerScopedTokenForbidden');
      else if (READ_ONLY.includes(who)) expectError(response, 403, 'roleForbidden');
      else expect(response.status, who).to.equal(200);
    }
  });

  it('refuses deleting customers to customer-scoped callers (even their own) and read-only roles', async () => {
    for (const who of CUSTOMER_SCOPED) {
      expectError(await api('DELETE', `/api/customers/${c.customer.publicId}`, { token: c[who] }), 403, 'customerScopedTokenForbidden');
    }
    for (const who of ['readonly', 'responder'] as Class[]) {
      expectError(await api('DELETE', `/api/customers/${c.customer.publicId}`, { token: c[who] }), 403, 'roleForbidden');
    }
  });

  it("lets customer-scoped writers change their own details but not the organization's terms", async () => {
    const renamed = await api('PATCH', `/api/customers/${c.customer.id}`, {
      token: c.customerUser,
      body: { name: 'Bound Customer', city: 'Berlin' },
    });
    expect(renamed.status).to.equal(200);
    expect(renamed.body.city).to.equal('Berlin');
    for (const body of [{ status: 'cancelled' }, { packageType: 'standard' }, { maxSelfServiceUrls: 1000 }, { customFields: {} }]) {
      const response = await api('PATCH', `/api/customers/${c.customer.id}`, { token: c.customerToken, body });
      expectError(response, 403, 'customerScopedTokenForbidden');
      expect(response.body.data.fields).to.deep.equal(Object.keys(body));
    }
    for (const who of READ_ONLY) {
      expectError(await api('PATCH', `/api/customers/${c.customer.id}`, { token: c[who], body: { city: 'x' } }), 403, 'roleForbidden');
    }
  });

  for (const kind of ['domains', 'ips'] as const) {
    const list = kind === 'domains' ? '/api/customer-domains' : '/api/customer-ips';
    const own = () => (kind === 'domains' ? owned.domain : owned.ip);
    const other = () => (kind === 'domains' ? owned.otherDomain : owned.otherIp);
    const notFound = kind === 'domains' ? 'customerDomainNotFound' : 'customerIpNotFound';

    it(`lists customer ${kind} within each caller's scope`, async () => {
      for (const who of ALL) {
        const page = await api('GET', list, { token: c[who] });
        expect(page.status, who).to.equal(200);
        const expected = ORG_WIDE.includes(who) ? [own(), other()] : CUSTOMER_SCOPED.includes(who) ? [own()] : [];
        expect(ids(page.body.items), who).to.deep.equal(expected);
        expect(page.body.total, who).to.equal(expected.length);
      }
      for (const who of CUSTOMER_SCOPED) {
        const filtered = await api('GET', list, { token: c[who], query: { customerId: c.otherCustomer.publicId } });
        expect(filtered.body.total, who).to.equal(0);
      }
    });

    it(`answers 404 for customer ${kind} out of scope, by public and legacy id, on every method`, async () => {
      const { body: record } = await api('GET', `${list}/${other()}`, { token: c.admin });
      for (const who of [...CUSTOMER_SCOPED, 'stranger'] as Class[]) {
        for (const ref of [record.publicId, String(record.id)]) {
          expectError(await api('GET', `${list}/${ref}`, { token: c[who] }), 404, notFound);
          if (!READ_ONLY.includes(who)) {
            expectError(await api('PATCH', `${list}/${ref}`, { token: c[who], body: { label: 'x' } }), 404, notFound);
            expectError(await api('DELETE', `${list}/${ref}`, { token: c[who] }), 404, notFound);
          }
        }
      }
      for (const who of CUSTOMER_SCOPED) expect((await api('GET', `${list}/${own()}`, { token: c[who] })).status, who).to.equal(200);
      expect((await api('GET', `${list}/${other()}`, { token: c.admin })).status).to.equal(200);
    });

    it(`refuses writes to customer ${kind} to read-only roles (roleForbidden)`, async () => {
      const path = `/api/customers/${c.customer.id}/${kind}`;
      const body = kind === 'domains' ? { domainName: 'readonly.example' } : { ipAddress: '192.0.2.200' };
      for (const who of READ_ONLY) {
        expectError(await api('POST', path, { token: c[who], body }), 403, 'roleForbidden');
        expectError(await api('PATCH', `${list}/${own()}`, { token: c[who], body: { label: 'x' } }), 403, 'roleForbidden');
        expectError(await api('DELETE', `${list}/${own()}`, { token: c[who] }), 403, 'roleForbidden');
      }
      const created = await api('POST', path, { token: c.customerUser, body });
      expect(created.status).to.equal(path.endsWith('/ips') ? 201 : 200); // domains: the spec's 200; ips: the one create shape
      expect(
        (await api('PATCH', `${list}/${created.body.publicId}`, { token: c.customerToken, body: { label: 'Mine' } })).body.label,
      ).to.equal('Mine');
      expect((await api('DELETE', `${list}/${created.body.id}`, { token: c.editor })).status).to.equal(200);
    });
  }
});
