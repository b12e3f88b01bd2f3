import { expect } from 'chai';
import { SsoConnection, type SsoConnectionProps } from '../../../../src/domain/identity/sso';
import { codeOf } from '../../../support/expect-app-error';

const props = (change: Partial<SsoConnectionProps> = {}): SsoConnectionProps => ({
  organizationId: 7,
  issuer: 'https://login.acme.example',
  clientId: 'wsm',
  clientSecretSealed: 'v1.sealed',
  allowedDomains: ['acme.example'],
  defaultRole: 'readonly',
  groupClaim: null,
  groupRoles: {},
  ssoOnly: false,
  breakGlassUserId: null,
  updatedAt: new Date('2026-01-01T00:00:00Z'),
  ...change,
});
const connection = (change: Partial<SsoConnectionProps> = {}) => new SsoConnection(props(change));

describe('SsoConnection rules', () => {
  it('keeps an https issuer without its trailing slash', () => {
    expect(connection({ issuer: 'https://login.acme.example/tenant/' }).issuer).to.equal('https://login.acme.example/tenant');
  });

  it('accepts http only on a loopback host', () => {
    expect(connection({ issuer: 'http://127.0.0.1:4000' }).issuer).to.equal('http://127.0.0.1:4000');
    expect(codeOf(() => connection({ issuer: 'http://login.acme.example' }))).to.equal('ssoIssuerInvalid');
  });

  it('refuses an issuer that is not a URL, or carries credentials, a query or a fragment', () => {
    for (const issuer of [
      'login.acme.example',
      'https://u:p@login.acme.example',
      'https://login.acme.example?x=1',
      'https://a.example#f',
    ]) {
      expect(
        codeOf(() => connection({ issuer })),
        issuer,
      ).to.equal('ssoIssuerInvalid');
    }
  });

  it('normalizes allowed domains (case, a leading @, duplicates) and refuses a malformed or empty list', () => {
    expect(connection({ allowedDomains: ['@Acme.Example', 'acme.example', 'b.example'] }).allowedDomains).to.deep.equal([
      'acme.example',
      'b.example',
    ]);
    expect(codeOf(() => connection({ allowedDomains: ['not a domain'] }))).to.equal('ssoDomainInvalid');
    expect(codeOf(() => connection({ allowedDomains: [] }))).to.equal('ssoDomainInvalid');
  });

  it('admits verified addresses of the allowed domains only', () => {
    const c = connection();
    expect(() => c.assertEmailAllowed('Grace@ACME.example', true)).not.to.throw();
    expect(codeOf(() => c.assertEmailAllowed('grace@evil.example', true))).to.equal('ssoEmailDomainNotAllowed');
    expect(codeOf(() => c.assertEmailAllowed('grace@sub.acme.example', true))).to.equal('ssoEmailDomainNotAllowed');
    expect(codeOf(() => c.assertEmailAllowed('grace@acme.example', false))).to.equal('ssoEmailNotVerified');
  });

  it('maps groups to the strongest mapped role, else the default role', () => {
    const c = connection({ groupClaim: 'groups', groupRoles: { ops: 'responder', devs: 'editor', leads: 'admin' } });
    expect(c.roleForGroups(['ops', 'devs'])).to.equal('editor');
    expect(c.roleForGroups(['leads', 'ops'])).to.equal('admin');
    expect(c.roleForGroups(['marketing'])).to.equal('readonly');
  });

  it('leaves roles alone when groups are not mapped', () => {
    expect(connection().roleForGroups(['devs'])).to.equal(null);
    expect(connection({ groupClaim: 'groups' }).roleForGroups(['devs'])).to.equal(null);
  });

  it('refuses a group mapped to a role that does not exist', () => {
    expect(codeOf(() => connection({ groupClaim: 'groups', groupRoles: { x: 'owner' as never } }))).to.equal('ssoGroupRoleInvalid');
  });

  it('SSO only needs a break-glass admin, and refuses passwords to everyone else', () => {
    expect(codeOf(() => connection({ ssoOnly: true }))).to.equal('ssoBreakGlassRequired');
    const c = connection({ ssoOnly: true, breakGlassUserId: 'admin-1' });
    expect(c.allowsPasswordSignIn('admin-1')).to.equal(true);
    expect(c.allowsPasswordSignIn('user-2')).to.equal(false);
    expect(connection().allowsPasswordSignIn('user-2')).to.equal(true);
  });
});
